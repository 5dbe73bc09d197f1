// Builds a session from the settings and runs it in the chosen mode: --show-repo-map, one-shot,
// interactive, or requests read line by line from a non-terminal stdin.
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { SettingKey, Settings } from '../config/schema.js';
import { loadConfig, type SettingSource } from '../config/load.js';
import { findRepoRoot, initRepo } from '../git/repo.js';
import type { EmitEvent } from '../session/events.js';
import type { ParseArgsResult } from './args.js';
import type { CliEnvironment } from './cli-environment.js';
import { approvalFile, createApprovalStore } from './command-approvals.js';
import { CliError, EXIT } from './exit-codes.js';
import { createJsonRenderer } from './render-json.js';
import { createTerminalEmit, type TerminalRenderer } from './render-terminal.js';
import { createRepositoryCompleter } from './completion.js';
import { askLine, createLineReader, type LineReader } from './line-reader.js';
import { buildSession, type BuiltSession } from './build-session.js';
import { runOneShot } from './one-shot.js';
import { runRepl } from './repl.js';
import { formatSessionList, summarizeSessions } from './commands/sessions.js';

type ParsedArgs = Extract<ParseArgsResult, { ok: true }>;

export async function startTandem(environment: CliEnvironment, parsed: ParsedArgs): Promise<number> {
  const gitEnv = { ...environment.env };
  let repoRoot = await findRepoRoot(environment.cwd, { env: gitEnv });
  const { settings, approvalsNeeded, sources } = loadSettings(environment, parsed, repoRoot);
  const json = settings.json;
  if (settings.sessions) {
    environment.stdout.write(formatSessionList(summarizeSessions(repoRoot ?? environment.cwd)));
    return EXIT.ok;
  }
  const message = readMessage(settings, environment.cwd);
  const interactive = !json && message === null && environment.stdinIsTTY;
  const lines = createLineReader(environment, interactive);
  const { emit, settle, mapProgress } = createRenderer(environment, settings);
  lines.configure({ settle });
  try {
    if (repoRoot === null) repoRoot = await offerGitInit(environment, interactive, lines, emit);
    await approveRepoCommands(environment, { repoRoot, settings, approvalsNeeded, interactive, lines, emit });
    const built = await buildSession({ environment, settings, repoRoot, files: parsed.files, emit, interactive, lines, sources, mapProgress });
    if (interactive) configurePrompt(lines, built, environment, repoRoot);
    if (settings['show-repo-map']) {
      environment.stdout.write(`${await built.showRepoMap()}\n`);
      return EXIT.ok;
    }
    if (message !== null) return await runOneShot(built, message, environment);
    return await runRepl(built, environment, lines, interactive);
  } finally {
    lines.close();
  }
}

interface LoadedSettings {
  readonly settings: Settings;
  readonly approvalsNeeded: ReadonlyArray<{ readonly key: string; readonly value: string }>;
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
    readFile: readIfExists,
  });
  for (const problem of config.problems.filter((p) => p.severity === 'warning')) {
    environment.stderr.write(`tandem: warning: ${problem.message}\n`);
  }
  const error = config.problems.find((p) => p.severity === 'error');
  if (error) throw new CliError(error.message, EXIT.usage);
  return { settings: config.settings, approvalsNeeded: config.approvalsNeeded, sources: config.sources };
}

interface ApprovalInput extends Omit<LoadedSettings, 'sources'> {
  readonly repoRoot: string | null;
  readonly interactive: boolean;
  readonly lines: LineReader;
  readonly emit: EmitEvent;
}

/**
 * Commands (and a server) from the repository's own config are used only once the user approved their
 * exact text. loadConfig lists only values still in effect, so anything the user overrode is absent.
 */
async function approveRepoCommands(environment: CliEnvironment, input: ApprovalInput): Promise<void> {
  const { settings, interactive, lines, emit } = input;
  const needed = input.approvalsNeeded;
  if (needed.length === 0 || input.repoRoot === null) return;
  const store = createApprovalStore(approvalFile(environment.homeDir));
  for (const { key, value } of needed) {
    if (await store.isApproved(value)) continue;
    const question = approvalQuestion(key, value);
    if (settings['yes-always'] || !interactive) {
      emit({ type: 'question', text: question, answer: false, answeredBy: 'nobody' });
      throw new CliError(
        `the repository's configuration sets ${key} to ${value}, which you have not approved; run tandem interactively once to approve it`,
        EXIT.approvalRequired,
      );
    }
    const answer = await askLine(lines, question);
    emit({ type: 'question', text: question, answer: answer === 'yes', answeredBy: 'user' });
    if (answer !== 'yes') throw new CliError(`not running the repository's ${key}; remove it from .tandem.conf.yml or approve it`, EXIT.approvalRequired);
    await store.approve(value);
  }
}

function approvalQuestion(key: string, value: string): string {
  const action = key === 'base-url' ? 'send your requests (and API key) there' : 'run it';
  return `The repository's configuration sets ${key} to \`${value}\`. Allow tandem to ${action}?`;
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

function createRenderer(environment: CliEnvironment, settings: Settings): TerminalRenderer {
  if (settings.json) return { emit: createJsonRenderer((text) => void environment.stdout.write(text)), settle: () => {} };
  return createTerminalEmit(environment, settings.pretty);
}

/** Persistent input history under the repository's .tandem/ and Tab completion for the prompt. */
function configurePrompt(lines: LineReader, built: BuiltSession, environment: CliEnvironment, repoRoot: string | null): void {
  lines.configure({
    historyFile: repoRoot ? join(repoRoot, '.tandem', 'input.history') : null,
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

function readIfExists(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
