// Builds a session from the settings and runs it in the chosen mode: --show-repo-map, one-shot,
// interactive, or requests read line by line from a non-terminal stdin.
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { SettingKey, Settings } from '../config/schema.js';
import { loadConfig, type ApprovalNeeded, type SettingSource } from '../config/load.js';
import { findRepoRoot, initRepo, type GuardState } from '../git/repo.js';
import { escapeControlChars } from '../platform/control-chars.js';
import { readConfinedText, ReadRefusedError } from '../platform/text-files.js';
import type { EmitEvent } from '../session/events.js';
import type { ParseArgsResult } from './args.js';
import type { CliEnvironment } from './cli-environment.js';
import { approveRepoCommands, trustRepoSettings } from './repo-approvals.js';
import { openAudit } from './audit.js';
import { CliError } from './cli-error.js';
import { EXIT } from '../session/exit-codes.js';
import { createJsonRenderer } from './render-json.js';
import { createTerminalEmit, drawsMarkdown, loadMarkdownRenderer, type TerminalRenderer } from './render-terminal.js';
import { streamTerminal } from '../platform/terminal.js';
import { createRepositoryCompleter } from './completion.js';
import { askLine, createLineReader, type LineReader } from './line-reader.js';
import { buildSession } from './build-session.js';
import type { BuiltSession } from './session-build.js';
import { runOneShot } from './one-shot.js';
import { replyToApply, runApply } from './apply-reply.js';
import { runRepl } from './repl.js';
import { formatSessionList, summarizeSessions } from './commands/sessions.js';
import { checkActionOf, runCheckAction } from './check-actions.js';
import { findCommand } from './commands/registry.js';
import { loadCommands } from './commands/save-load.js';
import { startTracingIfAsked } from './tracing-setup.js';
import { askServerAtStart, loadModelLayers, modelListText, NO_SERVER_ANSWER, parseAliases, type ModelSetup } from './model-setup.js';
import { createEditorTools } from './editor-tools.js';
import { createPrompts } from './prompt-loader.js';
import { runWatchHeadless } from './watch-mode.js';
import { trackedUnder } from '../git/ls-files.js';
import { createStateReader } from '../platform/state-files.js';

type ParsedArgs = Extract<ParseArgsResult, { ok: true }>;

export async function startTandem(environment: CliEnvironment, parsed: ParsedArgs): Promise<number> {
  // The Markdown renderer (marked, wrapping, highlighting) is most of what a run on a colour terminal loads:
  // it loads while git finds the repository and lists its config, not after. A pipe never loads it.
  if (!parsed.flags.json && !parsed.flags.sessions && drawsMarkdown(environment.stdoutIsTTY, environment.env, parsed.flags.pretty !== false)) {
    preloadMarkdownRenderer();
  }
  const gitEnv = { ...environment.env };
  // One listing of git's config per repository for the whole run (the session's git calls share it).
  const gitGuards = new Map<string, GuardState>();
  const rootSearch = findRepoRoot(environment.cwd, { env: gitEnv, guards: gitGuards });
  let repoRoot = await rootSearch;
  const loaded = loadSettings(environment, parsed, repoRoot);
  const { approvalsNeeded, sources } = loaded;
  let settings = loaded.settings;
  const json = settings.json;
  if (settings.sessions) {
    const root = repoRoot ?? environment.cwd;
    const tracked = repoRoot ? await trackedUnder(repoRoot, '.tandem', { env: gitEnv }) : new Set<string>();
    const reader = createStateReader(root, { tracked, warn: (message) => void environment.stderr.write(`warning: ${message}\n`) });
    environment.stdout.write(formatSessionList(summarizeSessions(root, reader)));
    return EXIT.ok;
  }
  const message = readMessage(settings, environment.cwd);
  const reply = await replyToApply(settings, environment);
  const interactive = !json && message === null && reply === null && environment.stdinIsTTY;
  const lines = createLineReader(environment, interactive);
  const renderer = await createRenderer(environment, settings);
  const { settle, mapProgress } = renderer;
  const tracing = await startTracingIfAsked(environment, settings);
  const render = tracing ? tracing.wrap(renderer.emit) : renderer.emit;
  lines.configure({ settle });
  const prompts = createPrompts(environment.packageRoot);
  const tools = await createEditorTools({
    environment, settings, repoRoot, interactive, lines, prompts, oneShot: message !== null || reply !== null || settings['show-repo-map'] || checkActionOf(settings) !== null,
    warn: (text) => render({ type: 'warning', message: text }),
  });
  const emit: EmitEvent = (event) => {
    tools.tap(event);
    render(event);
  };
  let built: BuiltSession | undefined;
  try {
    if (settings['trust-repo-settings']) {
      await trustRepoSettings(environment, { repoRoot, settings, approvalsNeeded, audit: openAudit(environment, repoRoot, emit) });
      return EXIT.ok;
    }
    if (repoRoot === null) repoRoot = await offerGitInit(environment, interactive, lines, emit);
    await approveRepoCommands(environment, { repoRoot, settings, approvalsNeeded, interactive, lines, emit, audit: openAudit(environment, repoRoot, emit) });
    const search = settings['list-models'];
    if (search !== null) {
      environment.stdout.write(await modelListText(search, settings, loaded.models.layers, environment.http));
      return EXIT.ok;
    }
    // Asked only once the server (and key) a repository named is approved.
    // Runs that talk to no model (--show-repo-map, --apply, --copy-paste, --lint, --test) ask the server nothing either.
    const action = checkActionOf(settings);
    const noModel = talksToNoModel(settings);
    const server = noModel ? NO_SERVER_ANSWER : await askServerAtStart({ settings, modelGiven: sources.get('model') !== 'default', layers: loaded.models.layers, aliases: loaded.models.aliases, http: environment.http });
    if (server.model !== null) settings = { ...settings, model: server.model };
    if (server.note !== null) emit({ type: 'info', message: server.note });
    const models: ModelSetup = { ...loaded.models, serverWindows: server.windows };
    built = await buildSession({ environment, settings, repoRoot, files: parsed.files, emit, interactive, lines, sources, mapProgress, models, chatInput: tools.chatInput, gitGuards, prompts });
    if (interactive) configurePrompt(lines, built, environment, repoRoot);
    if (settings['show-repo-map']) {
      environment.stdout.write(`${await built.showRepoMap()}\n`);
      return EXIT.ok;
    }
    if (action !== null) return await runCheckAction(built, action, environment);
    if (settings.load !== null) await loadAtStart(built, settings.load);
    if (reply !== null) return await runApply(built, reply, environment);
    if (message !== null) return await runOneShot(built, message, environment);
    if (!interactive && tools.watch && settings['watch-files']) return await runWatchHeadless(built, environment, tools.watch);
    return await runRepl(built, environment, lines, interactive, { watch: tools.watch, notifier: tools.notifier });
  } finally {
    lines.close();
    // The process exits as soon as this returns: let the tag cache write finish first, and the last spans go.
    await built?.close();
    await tracing?.close();
  }
}

/** --show-repo-map, --apply, --apply-clipboard-edits, --copy-paste, --lint, --test: runs that talk to no model (--commit's message is the weak model's). */
function talksToNoModel(values: Partial<Settings>): boolean {
  return Boolean(values['show-repo-map'] || (values.apply ?? null) !== null || values['apply-clipboard-edits'] || values['copy-paste'] || values.lint || values.test);
}

/** --load FILE: its commands run before the first request; the first that fails ends the run (exit 2). */
async function loadAtStart(built: BuiltSession, file: string): Promise<void> {
  const print = (text: string): void => built.emit({ type: 'info', message: text.trimEnd() });
  const failure = await loadCommands(file, built.commandContext(print), findCommand);
  if (failure !== null) throw new CliError(`--load: ${failure}`, EXIT.usage);
}

interface LoadedSettings {
  readonly settings: Settings;
  readonly approvalsNeeded: readonly ApprovalNeeded[];
  readonly sources: ReadonlyMap<SettingKey, SettingSource>;
  /** The model settings and metadata files, and the aliases; the server is asked later. */
  readonly models: Omit<ModelSetup, 'serverWindows'>;
}

function loadSettings(environment: CliEnvironment, parsed: ParsedArgs, repoRoot: string | null): LoadedSettings {
  const configFile = parsed.flags.config ? resolve(environment.cwd, parsed.flags.config) : null;
  const config = loadConfig({
    homeDir: environment.homeDir,
    repoRoot,
    env: environment.env,
    flags: parsed.flags,
    explicitConfigFile: configFile,
    envFile: parsed.flags['env-file'] ? resolve(environment.cwd, parsed.flags['env-file']) : null,
    readFile: configReader(repoRoot),
  });
  const modelFiles = loadModelLayers({
    homeDir: environment.homeDir,
    cwd: environment.cwd,
    repoRoot,
    settings: config.settings,
    sources: config.sources,
    readFile: configReader(repoRoot),
  });
  const problems = [...config.problems, ...modelFiles.problems];
  for (const problem of problems.filter((p) => p.severity === 'warning')) {
    environment.stderr.write(`tandem: warning: ${escapeControlChars(problem.message)}\n`);
  }
  const error = problems.find((p) => p.severity === 'error');
  if (error) throw new CliError(escapeControlChars(error.message), EXIT.usage);
  const aliases = parseAliases(config.settings.alias);
  return { settings: config.settings, approvalsNeeded: config.approvalsNeeded, sources: config.sources, models: { layers: modelFiles.layers, aliases } };
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

function preloadMarkdownRenderer(): void {
  loadMarkdownRenderer().catch(() => {
    // Not awaited when the settings turn --json or --no-pretty on after all; the renderer's own import reports a failure.
  });
}

/** JSON lines, or the terminal renderer (which loads the Markdown renderer only to draw on a colour terminal). */
async function createRenderer(environment: CliEnvironment, settings: Settings): Promise<TerminalRenderer> {
  if (settings.json) return { emit: createJsonRenderer((text) => void environment.stdout.write(text)), settle: () => {} };
  const stdout = streamTerminal(environment.stdout, { isTTY: environment.stdoutIsTTY });
  const stderr = streamTerminal(environment.stderr, { isTTY: environment.stderrIsTTY, columns: environment.columns });
  return createTerminalEmit({ stdout, stderr, env: environment.env }, settings.pretty);
}

/** Persistent input history under the repository's .tandem/ and Tab completion for the prompt. */
function configurePrompt(lines: LineReader, built: BuiltSession, environment: CliEnvironment, repoRoot: string | null): void {
  lines.configure({
    historyFile: repoRoot ? built.inputHistoryFile : null,
    completer: createRepositoryCompleter({
      root: built.root,
      cwd: environment.cwd,
      env: environment.env,
      commands: built.commandContext(() => {}).commands,
      identifiers: built.identifiers,
      // the session's file list: --subtree-only narrows it
      listFiles: () => built.commandContext(() => {}).listFiles(),
      chatFiles: () => [...built.session.chatFiles, ...built.session.readOnlyFiles.map((f) => f.name)],
    }),
  });
}

/** Config files are no bigger than this; a larger one (or /dev/zero) is refused before it fills memory. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Reads a config or .env file; inside the repository it must stay inside after symlinks. */
function configReader(repoRoot: string | null): (file: string) => string | null {
  return (file) => {
    const inRepo = repoRoot !== null && !relative(repoRoot, file).startsWith('..');
    const read = readConfinedText(file, { root: inRepo ? repoRoot : null, maxBytes: MAX_CONFIG_BYTES });
    if (read.ok) return read.text;
    if (read.kind === 'missing') return null;
    throw new ReadRefusedError(read.kind, read.message);
  };
}
