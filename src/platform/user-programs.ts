// Programs the user named in their own settings that tandem starts on their behalf: the editor of
// /editor (it takes the terminal while it runs) and the notifications command (started and left).
// Both command lines are the user's (never a repository's), run by the shell so `code --wait` or
// `emacsclient -t` work; the file or summary is passed as "$1", never spliced into the command text.
import { spawn } from 'node:child_process';

export interface UserProgramOptions {
  readonly env: Record<string, string>;
  readonly cwd: string;
}

/**
 * Runs `command FILE` with the terminal (stdin too, when `terminal`) and resolves with its exit code
 * (null when a signal ended it, or it could not start).
 */
export function runEditorProgram(command: string, file: string, options: UserProgramOptions & { readonly terminal: boolean }): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', `${command} "$1"`, 'sh', file], {
      cwd: options.cwd,
      env: options.env,
      stdio: options.terminal ? 'inherit' : ['ignore', 2, 2],
    });
    child.on('error', () => resolve(null));
    child.on('close', (code) => resolve(code));
  });
}

/** Starts `command SUMMARY` in the background; its output is dropped and tandem does not wait for it. */
export function startNotifyProgram(command: string, summary: string, options: UserProgramOptions): void {
  const child = spawn('/bin/sh', ['-c', `${command} "$1"`, 'sh', summary], { cwd: options.cwd, env: options.env, stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}
