// The composition root's assembly: real model client, git, checks, repo map and asker, wired into a Session.
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { CoderFormat } from '../coders/base-coder.js';
import type { RequestPorts, ShellPort, TokenCounter } from '../coders/ports.js';
import { readPrompt } from '../coders/prompt-files.js';
import { writeCommitMessage } from '../coders/commit-message.js';
import { readFile } from 'node:fs/promises';
import type { SettingKey, Settings } from '../config/schema.js';
import type { SettingSource } from '../config/load.js';
import { renderSettingsReport } from '../config/settings-report.js';
import { withChatChanges } from './commands/settings.js';
import { ensureExcluded } from '../git/exclude.js';
import type { ModelSettings } from '../model/model-settings.js';
import { withLlmLog } from '../model/logging-client.js';
import { createProfileBuilder, type ProfileBuilder } from '../model/model-profile.js';
import { createOpenAIClient, DEFAULT_BASE_URL } from '../model/openai-client.js';
import type { ModelClient } from '../model/types.js';
import { createTokenizerPool } from '../model/tokens.js';
import { configuredHooksDir } from '../git/hooks-path.js';
import { systemClock, type Clock } from '../platform/clock.js';
import { createProcessRunner, type ProcessRunner } from '../platform/process.js';
import { scrubEnvironment } from '../platform/scrub-env.js';
import { readConfinedText } from '../platform/text-files.js';
import { createRepoLock } from '../platform/repo-lock.js';
import { createStateReader, stateTrackedWarning, type StateReader } from '../platform/state-files.js';
import { trackedUnder } from '../git/ls-files.js';
import type { EmitEvent } from '../session/events.js';
import type { SessionRecorder } from '../session/session-log.js';
import { ModelProfiles } from '../session/model-profiles.js';
import { Session, type ChatMode, type SessionOptions, type SessionTexts } from '../session/session.js';
import { createAsker } from './asker.js';
import { createChecksPort } from './checks-adapter.js';
import { createCoderLoader } from './coder-loader.js';
import { readInstructions } from './instructions.js';
import { LazySessionLog, recordingEmit, resumeSession, sessionMetaOf, type ResumedSession } from './session-files.js';
import { stateDirProblem, writesInside } from './state-dir.js';
import { pathSettingProblem, type PathSettingContext } from './path-settings.js';
import { repositoryConfigFiles } from '../git/config-files.js';
import type { CliEnvironment } from './cli-environment.js';
import { allCommands } from './commands/registry.js';
import type { CommandContext, GitCommandsPort, ShellRunOptions } from './commands/types.js';
import { addFiles } from './commands/add-files.js';
import { CliError } from './exit-codes.js';
import { EXIT } from '../session/exit-codes.js';
import { createGitCommands, createGitPort, createRepoFilesPort } from './git-adapter.js';
import type { LineReader } from './line-reader.js';
import { createProgressBar, createRepoMapPort, type RepoMapHandle } from './repo-map-adapter.js';

export interface BuildInput {
  readonly environment: CliEnvironment;
  readonly settings: Settings;
  readonly repoRoot: string | null;
  readonly files: readonly string[];
  readonly emit: EmitEvent;
  readonly interactive: boolean;
  readonly lines: LineReader;
  /** Where each setting came from, for /settings. */
  readonly sources?: ReadonlyMap<SettingKey, SettingSource>;
  /** The renderer's map progress display (it knows about its spinner); default a bar on stderr. */
  readonly mapProgress?: ((done: number, total: number) => void) | null;
}

export interface BuiltSession {
  readonly session: Session;
  readonly settings: Settings;
  readonly root: string;
  readonly emit: EmitEvent;
  readonly git: GitCommandsPort | null;
  /** false when `.tandem` is not a real folder of the repository: nothing may be written there. */
  readonly stateDirUsable: boolean;
  /** Files in `.tandem/` that git tracks: they came with the repository and are never read. */
  readonly trackedState: ReadonlySet<string>;
  /** Names the repo map has seen, for Tab completion. */
  readonly identifiers: () => readonly string[];
  /** The slash commands' view of the session; `signal` (Ctrl-C) stops the commands they run. */
  commandContext(print: (text: string) => void, signal?: AbortSignal): CommandContext;
  showRepoMap(): Promise<string>;
  /** Finishes writes still in flight (the tag cache) so the process can exit right after. */
  close(): Promise<void>;
}

/** Which models, formats and mode the settings ask for, with the model's data filled in. */
interface ModelChoice {
  readonly settings: ModelSettings;
  readonly editorModel: string;
  readonly editFormat: CoderFormat;
  readonly editorFormat: CoderFormat;
  readonly contextWindow: number;
  readonly mode: ChatMode;
}

function chooseModels(settings: Settings, profileOf: ProfileBuilder): ModelChoice {
  const main = profileOf(settings.model);
  const editorModel = settings['editor-model'] ?? settings.model;
  const requested = settings['edit-format'];
  return {
    settings: main.settings,
    editorModel,
    editFormat: requested && requested !== 'ask' ? requested : main.editFormat,
    editorFormat: settings['editor-edit-format'] ?? profileOf(editorModel).editFormat,
    contextWindow: main.contextWindow,
    mode: settings.architect ? 'architect' : requested === 'ask' ? 'ask' : 'code',
  };
}

function createModelClient(settings: Settings, cwd: string, profileOf: ProfileBuilder, logAllowed: boolean, clock: Clock): ModelClient {
  const client = createOpenAIClient({
    baseURL: settings['base-url'] ?? undefined,
    apiKey: settings['api-key'] ?? undefined,
    prices: (model) => profileOf(model).prices,
    rules: (model) => profileOf(model).request,
    timeoutMs: settings['request-timeout'] * 1000,
    maxRetries: settings['max-retries'],
  });
  const llmLog = settings['llm-log'];
  return llmLog && logAllowed ? withLlmLog(client, resolve(cwd, llmLog), () => clock.now()) : client;
}

function createMap(input: BuildInput, root: string, tokens: TokenCounter, tokenizer: () => string, contextWindow: number, stateReader: StateReader): RepoMapHandle | null {
  const { environment, settings } = input;
  if (settings['map-tokens'] <= 0) return null;
  const showProgress = environment.stderrIsTTY && !settings.json;
  return createRepoMapPort({
    root,
    packageRoot: environment.packageRoot,
    tokens,
    refreshMode: settings['map-refresh'],
    emit: input.emit,
    contextWindow,
    noFilesMultiplier: settings['map-multiplier-no-files'],
    tokenizer,
    stateReader,
    progress: showProgress ? (input.mapProgress ?? createProgressBar({ write: (t) => void environment.stderr.write(t), columns: environment.columns })) : undefined,
  });
}

function sessionOptions(settings: Settings, choice: ModelChoice, root: string): SessionOptions {
  return {
    root,
    models: { main: settings.model, weak: settings['weak-model'] ?? choice.settings.weakModel ?? settings.model, editor: choice.editorModel },
    editFormat: choice.editFormat,
    editorFormat: choice.editorFormat,
    mode: choice.mode,
    stream: settings.stream,
    dryRun: settings['dry-run'],
    autoCommits: settings['auto-commits'],
    dirtyCommits: settings['dirty-commits'],
    autoLint: settings['auto-lint'],
    autoTest: settings['auto-test'] && settings['test-cmd'] !== null,
    testCommand: settings['test-cmd'] ?? '',
    maxReflections: settings['max-reflections'],
    mapTokens: settings['map-tokens'],
    maxHistoryTokens: settings['max-chat-history-tokens'],
    contextWindow: choice.contextWindow,
    reminderPlacement: choice.settings.reminder,
    editFormatChosen: settings['edit-format'] !== null && settings['edit-format'] !== 'ask',
    editorFormatChosen: settings['editor-edit-format'] !== null,
  };
}

async function loadSessionTexts(packageRoot: string): Promise<SessionTexts> {
  const read = (id: string): Promise<string> => readPrompt(join(packageRoot, 'prompts'), id);
  const [summarize, summaryTemplate, editorRequest] = await Promise.all([read('summarize.md'), read('context/summary.md'), read('architect/editor-request.md')]);
  return { summarize, summaryTemplate, editorRequest };
}

export async function buildSession(input: BuildInput): Promise<BuiltSession> {
  const { environment, settings, emit } = input;
  const root = input.repoRoot ?? environment.cwd;
  // Every command tandem starts (git and its hooks too) gets an environment without the user's secrets.
  const childEnv = scrubEnvironment(environment.env, { passEnv: settings['pass-env'], secrets: [settings['api-key']] });
  const gitOptions = { env: childEnv };
  if (input.repoRoot) await ensureExcluded(input.repoRoot, '.tandem/', gitOptions);
  const stateProblem = input.repoRoot ? stateDirProblem(root) : null;
  if (stateProblem) emit({ type: 'warning', message: stateProblem });
  // Nothing in .tandem/ is trusted because it is there: files git tracks came with the repository.
  const trackedState = input.repoRoot ? await trackedUnder(input.repoRoot, '.tandem', childEnv) : new Set<string>();
  const trackedWarning = stateTrackedWarning(trackedState);
  if (trackedWarning) emit({ type: 'warning', message: trackedWarning });
  const stateReader = createStateReader(root, { tracked: trackedState, warn: (message) => emit({ type: 'warning', message }) });

  const profileOf = createProfileBuilder({
    baseURL: settings['base-url'] ?? DEFAULT_BASE_URL,
    tokenizers: createTokenizerPool(),
    contextWindow: settings['context-window'],
    startModel: settings.model,
    reasoningEffort: settings['reasoning-effort'],
  });
  const choice = chooseModels(settings, profileOf);
  const profiles = new ModelProfiles(profileOf, { main: settings.model, weak: settings['weak-model'], editor: settings['editor-model'] });
  // The map and /tokens count with whichever main model the chat has now.
  const tokens: TokenCounter = { count: (text) => profiles.get('main').tokens.count(text) };
  const hooksDir = input.repoRoot ? await configuredHooksDir(input.repoRoot, gitOptions) : null;
  const pathContext: PathSettingContext = { root, hooksDir, gitConfigFiles: input.repoRoot ? await repositoryConfigFiles(input.repoRoot, gitOptions) : [] };
  const client = createModelClient(settings, environment.cwd, profileOf, llmLogAllowed(input, pathContext, emit), environment.clock ?? systemClock);
  const runner = createProcessRunner();
  const commandTimeoutMs = settings['command-timeout'] * 1000;
  const runShell = (command: string, extra: ShellRunOptions = {}): ReturnType<ShellPort['run']> =>
    runner.run(command, { cwd: root, timeoutMs: commandTimeoutMs, env: childEnv, ...extra });
  // The map's tag cache and stored maps live in .tandem/ too
  const repoMap = stateProblem ? null : createMap(input, root, tokens, () => profiles.get('main').name, choice.contextWindow, stateReader);

  if (stateProblem && settings.resume !== null) throw new CliError(`cannot resume: ${stateProblem}`, EXIT.usage);
  const resumed = settings.resume !== null ? resumeSession(root, settings.resume, stateReader) : null;
  const log = stateProblem ? { recorder: null, emit } : openSessionLog(input, root, choice, resumed);
  const stateUsable = input.repoRoot !== null && stateProblem === null;
  const ports = createRequestPorts(input, { root, gitOptions, client, tokens, repoMap, runner, runShell, commandTimeoutMs, emit: log.emit, stateUsable, trackedState });
  const session = new Session({ ...sessionOptions(settings, choice, root), hooksDir }, {
    ports,
    emit: log.emit,
    loadCoder: createCoderLoader(environment.packageRoot),
    recorder: log.recorder,
    texts: await loadSessionTexts(environment.packageRoot),
    profiles,
  });
  if (resumed) {
    session.restore(resumed.history, resumed.chatFiles);
    for (const notice of resumed.notices) emit({ type: 'warning', message: notice });
    emit({ type: 'info', message: `Resumed session ${resumed.log.id} with ${resumed.history.length} messages.` });
  }
  const found = readInstructions(root, environment.cwd);
  session.addInstructions(found.instructions);
  for (const note of found.notes) emit({ type: 'warning', message: note });
  const git = input.repoRoot ? createGitCommands(input.repoRoot, gitOptions) : null;
  const built: BuiltSession = {
    session,
    settings,
    root,
    emit: log.emit,
    git,
    stateDirUsable: stateProblem === null,
    trackedState,
    identifiers: () => repoMap?.identifiers() ?? [],
    commandContext: commandContextOf(input, { session, root, git, repoMap, runShell, profiles, tokens, client, ports, stateReader }),
    close: async () => {
      await repoMap?.flush();
    },
    showRepoMap: async () =>
      repoMap ? repoMap.get({ chatFiles: session.chatFiles, readOnlyFiles: [], requestText: '', budget: settings['map-tokens'] }) : '',
  };
  // Files named on the command line go through the same checks as /add (globs, folders, binary, size).
  await addStartFiles(built.commandContext((text) => emit({ type: 'info', message: text.trimEnd() })), input.files, readFilesAllowed(input, pathContext, emit));
  return built;
}

interface ContextParts {
  readonly session: Session;
  readonly root: string;
  readonly git: GitCommandsPort | null;
  readonly repoMap: RepoMapHandle | null;
  readonly runShell: (command: string, options?: ShellRunOptions) => ReturnType<ShellPort['run']>;
  readonly profiles: ModelProfiles;
  readonly tokens: TokenCounter;
  readonly client: ModelClient;
  readonly ports: RequestPorts;
  readonly stateReader: StateReader;
}

/** The slash commands' view of the session, made anew for each command (its printer and Ctrl-C signal). */
function commandContextOf(input: BuildInput, parts: ContextParts): BuiltSession['commandContext'] {
  const { environment, settings } = input;
  const { session, root, git, repoMap, runShell, profiles, tokens, client, ports, stateReader } = parts;
  const commands = allCommands();
  return (print, signal) => ({
    session,
    signal,
    root,
    cwd: environment.cwd,
    stateReader,
    print,
    git,
    runShell: (command, options) => runShell(command, { ...options, signal }),
    lintCommands: settings['lint-cmd'],
    testCommand: settings['test-cmd'],
    repoMap,
    mapTokens: settings['map-tokens'],
    refreshMap: () => repoMap?.refresh(),
    // Read when a command runs, so a /model switch shows at once.
    get model() {
      const main = profiles.get('main');
      return { contextWindow: main.contextWindow, inputPricePerToken: main.prices ? main.prices.inputPerMillion / 1e6 : null };
    },
    commands,
    tokens,
    canAsk: input.interactive,
    syntaxCheck: (path) => syntaxCheckOf(root, path, ports),
    commitMessage: (diff) => userCommitMessage(diff, { client, model: session.models.weak, packageRoot: environment.packageRoot }),
    confirm: (question, kind) => ports.asker.confirm(question, kind),
    listFiles: async () => (ports.files ? ports.files.list() : []),
    settingsReport: () => renderSettingsReport(...withChatChanges(settings, input.sources ?? new Map(), session)),
  });
}

interface PortParts {
  readonly root: string;
  readonly gitOptions: { readonly env: Record<string, string> };
  readonly client: ModelClient;
  readonly tokens: TokenCounter;
  readonly repoMap: RepoMapHandle | null;
  readonly runner: ProcessRunner;
  readonly runShell: (command: string) => ReturnType<ShellPort['run']>;
  readonly commandTimeoutMs: number;
  /** The recording emitter: the asker's questions and answers join the log. */
  readonly emit: EmitEvent;
  /** `.tandem` is a real folder of a repository: the lock and the apply journal may live there. */
  readonly stateUsable: boolean;
  readonly trackedState: ReadonlySet<string>;
}

/** The real ports a request runs through: model, git, checks, asker, map, shell, repository files, lock. */
function createRequestPorts(input: BuildInput, parts: PortParts): RequestPorts {
  const { environment, settings } = input;
  const { root, gitOptions, client, tokens, repoMap, runner, runShell, commandTimeoutMs } = parts;
  const childEnv = gitOptions.env;
  return {
    model: client,
    weakModel: client,
    tokens,
    git: input.repoRoot ? createGitPort(input.repoRoot, gitOptions, settings['git-commit-verify']) : null,
    checks: createChecksPort({ root, runner, env: childEnv, lintCommands: settings['lint-cmd'], testCommand: settings['test-cmd'], timeoutMs: commandTimeoutMs }),
    asker: createAsker({
      yesAlways: settings['yes-always'],
      prompt: input.interactive ? (question, choices, fallback) => input.lines.ask(question, choices, fallback) : null,
      promptCount: () => input.lines.inputCount(),
      emit: parts.emit,
    }),
    repoMap,
    shell: { run: (command) => runShell(command) },
    files: input.repoRoot ? createRepoFilesPort(input.repoRoot, gitOptions) : null,
    lock:
      input.repoRoot && parts.stateUsable
        ? createRepoLock(input.repoRoot, {
            timeoutMs: settings['lock-timeout'] * 1000,
            pid: environment.pid ?? 0,
            tracked: parts.trackedState.has('.tandem/write.lock'),
            warn: (message) => parts.emit({ type: 'warning', message }),
          })
        : null,
    applyJournal: input.repoRoot && parts.stateUsable ? { file: join(input.repoRoot, '.tandem', 'apply-journal.json'), pid: environment.pid ?? 0, trustDir: join(environment.homeDir, '.tandem', 'journals') } : null,
  };
}

/**
 * The session log (created on its first entry, or the resumed one continued) and an emitter that
 * records events in it and in the transcript. Its first line describes the chat from the entries.
 */
function openSessionLog(input: BuildInput, root: string, choice: ModelChoice, resumed: ResumedSession | null): { recorder: SessionRecorder; emit: EmitEvent } {
  const { environment, settings, emit } = input;
  const clock = environment.clock ?? systemClock;
  const recorder = new LazySessionLog(
    root,
    sessionMetaOf(clock, { version: environment.version, model: settings.model, editFormat: choice.editFormat, interactive: input.interactive }),
    resumed?.log ?? null,
    (message) => emit({ type: 'warning', message }),
  );
  return { recorder, emit: recordingEmit(emit, recorder, join(root, '.tandem', 'chat.history.md'), clock) };
}

/** The built-in syntax check of a whole file: against an empty "before", every problem counts. */
async function syntaxCheckOf(root: string, path: string, ports: RequestPorts): Promise<string | null> {
  const text = await readFile(join(root, path), 'utf8').catch(() => null);
  return text === null ? null : ports.checks.syntax(path, '', text);
}

/** /commit's message for the user's own changes, by the weak model with tandem's commit prompt. */
async function userCommitMessage(diff: string, options: { client: ModelClient; model: string; packageRoot: string }): Promise<string> {
  const systemPrompt = await readPrompt(join(options.packageRoot, 'prompts'), 'commit-message.md');
  const paths = [...diff.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1] ?? '');
  return writeCommitMessage({ client: options.client, model: options.model, systemPrompt, diff, paths });
}

async function addStartFiles(context: CommandContext, files: readonly string[], readOnly: readonly string[]): Promise<void> {
  const { session, root, cwd } = context;
  for (const file of files) {
    if (repoRelative(root, cwd, file) === null) throw new CliError(`${file} is outside the repository (${root})`, EXIT.usage);
  }
  // Resumed chat files stay; the command line's are checked like /add's.
  const named = files.filter((file) => !session.chatFiles.includes(repoRelative(root, cwd, file) ?? ''));
  if (named.length > 0) await addFiles(named, { ...context, announce: false });
  for (const file of readOnly) {
    const absolutePath = isAbsolute(file) ? file : resolve(cwd, file);
    if (!existsSync(absolutePath)) throw new CliError(`--read: no such file: ${file}`, EXIT.usage);
    const name = repoRelative(root, cwd, file) ?? absolutePath;
    // A file is editable or read-only, never both: named as both, it stays editable.
    if (!session.chatFiles.includes(name)) session.addReadOnlyFile({ name, absolutePath });
  }
}

function repoRelative(root: string, cwd: string, file: string): string | null {
  const rel = relative(root, isAbsolute(file) ? file : resolve(cwd, file));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}

/**
 * The llm-log is never written into `.git/`, `.tandem/`, a config file or a hook, whoever named it; one a
 * repository named must also be written inside the repository.
 */
function llmLogAllowed(input: BuildInput, context: PathSettingContext, emit: EmitEvent): boolean {
  const file = input.settings['llm-log'];
  if (!file) return true;
  const repo = fromRepository(input, 'llm-log');
  const absolute = resolve(input.environment.cwd, file);
  const problem = pathSettingProblem('llm-log', absolute, repo, context, file) ?? (repo && !writesInside(context.root, absolute) ? `llm-log ${file} from the repository's config leads outside the repository; ignored` : null);
  if (problem === null) return true;
  emit({ type: 'warning', message: problem });
  return false;
}

/** Read-only files a repository named must really lie inside it (after symlinks), outside state and config; the user's own may lie anywhere. */
function readFilesAllowed(input: BuildInput, context: PathSettingContext, emit: EmitEvent): string[] {
  const files = input.settings.read;
  if (!fromRepository(input, 'read')) return [...files];
  return files.filter((file) => {
    const absolute = resolve(input.environment.cwd, file);
    // Outside the repository is the confined read's to say (below); here: state, git's config, hooks.
    const problem = pathSettingProblem('read', absolute, false, context, file);
    if (problem) {
      emit({ type: 'warning', message: `${problem} (named by the repository's config)` });
      return false;
    }
    const read = readConfinedText(absolute, { root: context.root, shown: file });
    if (read.ok || read.kind === 'missing') return true;
    emit({ type: 'warning', message: `read: ${read.message} (named by the repository's config)` });
    return false;
  });
}

function fromRepository(input: BuildInput, key: SettingKey): boolean {
  const source = input.sources?.get(key);
  return source === 'repo' || source === 'dotenv';
}
