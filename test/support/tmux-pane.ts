// The built CLI in a tmux pane (a real pseudo-terminal) with a private HOME: send keys, read the screen,
// wait for what should appear. Waits poll the screen; a deadline is only a guard against hanging.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, CLI } from './cli.js';
import { tempDir } from './temp-repo.js';

export const TMUX = '/usr/bin/tmux';

export interface TmuxPane {
  /** Types text literally (no key names). */
  type(text: string): void;
  keys(...keys: string[]): void;
  /** The pane's text (with `colours`, its SGR escapes too) and the scrollback above it. */
  screen(colours?: boolean): string;
  /** Resolves with the screen once `test` holds; rejects with the last screen after `guardMs`. */
  waitFor(test: (screen: string) => boolean, what: string, options?: { colours?: boolean; guardMs?: number }): Promise<string>;
  close(): void;
}

let opened = 0;

export function tmuxAvailable(): boolean {
  return existsSync(TMUX);
}

export function openTmuxPane(cwd: string, args: readonly string[], env: Record<string, string> = {}): TmuxPane {
  const socket = `tandem-${process.pid}-${opened++}-${Date.now()}`;
  const home = join(tempDir('tandem-home-'), 'home');
  mkdirSync(home, { recursive: true });
  const { NO_COLOR: _colour, ...inherited } = baseEnv(home);
  const vars = { ...inherited, TERM: 'xterm-256color', LANG: 'C.UTF-8', ...env };
  const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;
  const command = ['env', '-i', ...Object.entries(vars).map(([k, v]) => `${k}=${v}`), process.execPath, CLI, ...args].map(quote).join(' ');
  const tmux = (...words: string[]): string => execFileSync(TMUX, ['-L', socket, '-f', '/dev/null', ...words], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'main', '-x', '120', '-y', '50', '-c', cwd, command);
  tmux('set-option', '-t', 'main', 'remain-on-exit', 'on');
  const screen = (colours = false): string => {
    try {
      return tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', 'main', ...(colours ? ['-e'] : []));
    } catch {
      return '(the pane is gone)';
    }
  };
  return {
    type: (text) => void tmux('send-keys', '-t', 'main', '-l', text),
    keys: (...keys) => void tmux('send-keys', '-t', 'main', ...keys),
    screen,
    async waitFor(test, what, options = {}) {
      const deadline = Date.now() + (options.guardMs ?? 20_000);
      let last = screen(options.colours);
      while (!test(last)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        last = screen(options.colours);
      }
      return last;
    },
    close: () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
