// Builds a session from the settings and runs it in the chosen mode: --show-repo-map, one-shot,
// interactive, or requests read line by line from a non-terminal stdin.
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { SettingKey, Settings } from '../config/schema.js';
import { loadConfig, type ApprovalNeeded, type SettingSource } from '../config/load.js';
import { findRepoRoot, initRepo } from '../git/repo.js';
import { escapeControlChars } from '../platform/control-chars.js';
import { readConfinedText, type ReadRefusalKind } from '../platform/text-files.js';
import type { EmitEvent } from '../session/events.js';
import type { ParseArgsResult } from './args.js';
import type { CliEnvironment } from './cli-environment.js';
import { approveRepoCommands } from './repo-approvals.js';
import { CliError } from './exit-codes.js';
import { EXIT } from '../session/exit-codes.js';
import { createJsonRenderer } from './render-json.js';
import type { TerminalRenderer } from './render-terminal.js';
import { streamTerminal } from '../platform/terminal.js';
import { createRepositoryCompleter } from './completion.js';
import { askLine, createLineReader, type LineReader } from './line-reader.js';
import { buildSession, type BuiltSession } from './build-session.js';
import { runOneShot } from './one-shot.js';
import { runRepl } from './repl.js';
import { formatSessionList, summarizeSessions } from './commands/sessions.js';
import { trackedUnder } from '../git/ls-files.js';
import { createStateReader } from '../platform/state-files.js';

type ParsedArgs = Extract<ParseArgsResult, { ok: true }>;

export async function startTandem(environment: CliEnvironment, parsed: ParsedArgs): Promise<number> {
  const gitEnv = { ...environment.env };
  let repoRoot = await findRepoRoot(environment.cwd, { env: gitEnv });
  const { settings, approvalsNeeded, sources } = loadSettings(environment, parsed, repoRoot);
  const json = settings.json;
  if (settings.sessions) {
    const root = repoRoot ?? environment.cwd;
    const tracked = repoRoot ? await trackedUnder(repoRoot, '.tandem', gitEnv) : new Set<string>();
    const reader = createStateReader(root, { tracked, warn: (message) => void environment.stderr.write(`warning: ${message}\n`) });
    environment.stdout.write(formatSessionList(summarizeSessions(root, reader)));
    return EXIT.ok;
  }
  const message = readMessage(settings, environment.cwd);
  const interactive = !json && message === null && environment.stdinIsTTY;
  const lines = createLineReader(environment, interactive);
  const { emit, settle, mapProgress } = await createRenderer(environment, settings);
  lines.configure({ settle });
  let built: BuiltSession | undefined;
  try {
    if (repoRoot === null) repoRoot = await offerGitInit(environment, interactive, lines, emit);
    await approveRepoCommands(environment, { repoRoot, settings, approvalsNeeded, interactive, lines, emit });
    built = await buildSession({ environment, settings, repoRoot, files: parsed.files, emit, interactive, lines, sources, mapProgress });
    if (interactive) configurePrompt(lines, built, environment, repoRoot);
    if (settings['show-repo-map']) {
      environment.stdout.write(`${await built.showRepoMap()}\n`);
      return EXIT.ok;
    }
    if (message !== null) return await runOneShot(built, message, environment);
    return await runRepl(built, environment, lines, interactive);
  } finally {
    lines.close();
    // The process exits as soon as this returns: let the tag cache write finish first.
    await built?.close();
  }
}

interface LoadedSettings {
  readonly settings: Settings;
  readonly approvalsNeeded: readonly ApprovalNeeded[];
  readonly sources: ReadonlyMap<SettingKey, SettingSource>;
}

function loadSettings(environment: CliEnvironment, parsed: ParsedArgs, repoRoot: string | null): LoadedSettings {
  const configFile = parsed.flags.config ? resolve(environment.cwd, parsed.flags.config) : null;
  const config = loadConfig({
    homeDir: environment.homeDir,
    repoRoot,
    env: environment.env,
    flags: parsed.flags,
    explicitConfigFile: configFile,
    readFile: configReader(repoRoot),
  });
  for (const problem of config.problems.filter((p) => p.severity === 'warning')) {
    environment.stderr.write(`tandem: warning: ${escapeControlChars(problem.message)}\n`);
  }
  const error = config.problems.find((p) => p.severity === 'error');
  if (error) throw new CliError(escapeControlChars(error.message), EXIT.usage);
  return { settings: config.settings, approvalsNeeded: config.approvalsNeeded, sources: config.sources };
}

async function offerGitInit(
  environment: CliEnvironment,
  interactive: boolean,
  lines: LineReader,
  emit: EmitEvent,
): Promise<string | null> {
  if (interactive) {
    const answer = await askLine(lines, `${environment.cwd} is not in a git repository. Create one?`);
    if (answer === 'yes') {
      await initRepo(environment.cwd, { env: { ...environment.env } });
      emit({ type: 'info', message: `Created a git repository in ${environment.cwd}.` });
      return environment.cwd;
    }
  }
  emit({ type: 'warning', message: 'Not a git repository: working without commits (and without /undo).' });
  return null;
}

function readMessage(settings: Settings, cwd: string): string | null {
  if (settings.message !== null) return settings.message;
  const file = settings['message-file'];
  if (file === null) return null;
  const full = isAbsolute(file) ? file : resolve(cwd, file);
  try {
    return readFileSync(full, 'utf8');
  } catch {
    throw new CliError(`--message-file: cannot read ${file}`, EXIT.usage);
  }
}

/** The terminal renderer (Markdown, wrapping, spinner) is loaded only by a run that draws on a terminal. */
async function createRenderer(environment: CliEnvironment, settings: Settings): Promise<TerminalRenderer> {
  if (settings.json) return { emit: createJsonRenderer((text) => void environment.stdout.write(text)), settle: () => {} };
  const { createTerminalEmit } = await import('./render-terminal.js');
  const stdout = streamTerminal(environment.stdout, { isTTY: environment.stdoutIsTTY });
  const stderr = streamTerminal(environment.stderr, { isTTY: environment.stderrIsTTY, columns: environment.columns });
  return createTerminalEmit({ stdout, stderr, env: environment.env }, settings.pretty);
}

/** Persistent input history under the repository's .tandem/ and Tab completion for the prompt. */
function configurePrompt(lines: LineReader, built: BuiltSession, environment: CliEnvironment, repoRoot: string | null): void {
  lines.configure({
    historyFile: repoRoot && built.stateDirUsable && !built.trackedState.has('.tandem/input.history') ? join(repoRoot, '.tandem', 'input.history') : null,
    completer: createRepositoryCompleter({
      root: built.root,
      cwd: environment.cwd,
      env: environment.env,
      commands: built.commandContext(() => {}).commands,
      identifiers: built.identifiers,
      chatFiles: () => [...built.session.chatFiles, ...built.session.readOnlyFiles.map((f) => f.name)],
    }),
  });
}

/** Config files are no bigger than this; a larger one (or /dev/zero) is refused before it fills memory. */
const MAX_CONFIG_BYTES = 1024 * 1024;

class ConfigReadError extends Error {
  constructor(
    readonly kind: ReadRefusalKind,
    message: string,
  ) {
    super(message);
  }
}

/** Reads a config or .env file; inside the repository it must stay inside after symlinks. */
function configReader(repoRoot: string | null): (file: string) => string | null {
  return (file) => {
    const inRepo = repoRoot !== null && !relative(repoRoot, file).startsWith('..');
    const read = readConfinedText(file, { root: inRepo ? repoRoot : null, maxBytes: MAX_CONFIG_BYTES });
    if (read.ok) return read.text;
    if (read.kind === 'missing') return null;
    throw new ConfigReadError(read.kind, read.message);
  };
}
