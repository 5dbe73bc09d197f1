// --lint-cmd: parse the values ("python: ruff check" for one language, a plain command for all files)
// and run the matching command on each edited file from the repository root.
import { languageForPath } from '../platform/tree-sitter.js';
import type { ProcessRunner } from '../platform/process.js';
import { findReportedLines, renderCodeContext } from './code-context.js';

export interface LintCommand {
  /** A language id as languageForPath names it ("python", "typescript"...), or null for every file. */
  readonly language: string | null;
  readonly command: string;
}

export interface CheckRunOptions {
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface LintFailure {
  /** The file as given to runLint. */
  readonly file: string;
  /** The command line that ran, file included. */
  readonly command: string;
  readonly output: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** 1-based lines of `file` that the output mentions. */
  readonly lines: number[];
}

export interface LintResult {
  readonly ok: boolean;
  readonly failures: LintFailure[];
}

const ALIASES: Readonly<Record<string, string>> = {
  py: 'python',
  js: 'javascript',
  ts: 'typescript',
  rs: 'rust',
  rb: 'ruby',
  'c#': 'csharp',
  'c++': 'cpp',
  sh: 'bash',
  shell: 'bash',
};

/** "python: ruff check" -> { language: 'python', command: 'ruff check' }; "make lint" -> language null. */
function parseLintCommand(value: string): LintCommand {
  const match = /^\s*([A-Za-z][\w+#-]*)\s*:\s+(\S.*)$/s.exec(value);
  if (!match?.[1] || !match[2]) return { language: null, command: value.trim() };
  const name = match[1].toLowerCase();
  return { language: ALIASES[name] ?? name, command: match[2].trim() };
}

export function parseLintCommands(values: readonly string[]): LintCommand[] {
  return values.map(parseLintCommand).filter((cmd) => cmd.command !== '');
}

/** The commands for `file`: those for its language if any, otherwise those for every file. */
export function lintCommandsFor(file: string, commands: readonly LintCommand[]): LintCommand[] {
  const language = languageForPath(file);
  const specific = commands.filter((cmd) => cmd.language !== null && cmd.language === language);
  return specific.length > 0 ? specific : commands.filter((cmd) => cmd.language === null);
}

/** Single-quotes `text` for sh. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A file name as a shell word that no command can read as an option: relative names get a `./`
 * prefix (a reply may create a file named `--require=evil.cjs`), then the word is quoted.
 */
export function pathArgument(file: string): string {
  return shellQuote(file.startsWith('/') || file.startsWith('./') ? file : `./${file}`);
}

/**
 * Runs the matching lint commands on each of `files` (repository-relative paths), from `root`, with
 * the file appended. A non-zero exit (or a timeout) is a failure.
 */
export async function runLint(
  runner: ProcessRunner,
  root: string,
  files: readonly string[],
  commands: readonly LintCommand[],
  options: CheckRunOptions,
): Promise<LintResult> {
  const failures: LintFailure[] = [];
  for (const file of files) {
    for (const lint of lintCommandsFor(file, commands)) {
      if (options.signal?.aborted) break;
      const command = `${lint.command} ${pathArgument(file)}`;
      const result = await runner.run(command, { cwd: root, ...options });
      if (result.exitCode === 0 && !result.timedOut) continue;
      const lines = findReportedLines(result.output, file);
      failures.push({ file, command, output: result.output, exitCode: result.exitCode, timedOut: result.timedOut, lines });
    }
  }
  return { ok: failures.length === 0, failures };
}

/** A lint failure written for the model: the command, its output, and the code around reported lines. */
export function formatLintFailure(failure: LintFailure, fileText: string | null): string {
  const status = failure.timedOut ? 'timed out' : `exited with ${failure.exitCode ?? 'a signal'}`;
  const parts = [`## Running: ${failure.command}`, `It ${status}:`, failure.output.trimEnd()];
  const context = fileText === null ? '' : renderCodeContext(fileText, failure.lines);
  if (context !== '') parts.push(`## See the reported lines below, marked with ">".`, `${failure.file}:\n${context}`);
  return parts.join('\n\n');
}
