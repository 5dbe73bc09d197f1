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
import { ensureExcluded } from '../git/exclude.js';
import { lookupModelSettings, type ModelSettings } from '../model/model-settings.js';
import { withLlmLog } from '../model/logging-client.js';
import { createOpenAIClient } from '../model/openai-client.js';
import type { ModelClient } from '../model/types.js';
import { createTokenizerPool } from '../model/tokens.js';
import { createProcessRunner, scrubSecrets } from '../platform/process.js';
import type { EmitEvent } from '../session/events.js';
import { Session, type ChatMode, type SessionOptions, type SessionTexts } from '../session/session.js';
import { createAsker } from './asker.js';
import { createChecksPort } from './checks-adapter.js';
import { createCoderLoader } from './coder-loader.js';
import { readInstructions } from './instructions.js';
import { LazySessionLog, newId, recordingEmit, resumeSession } from './session-files.js';
import type { CliEnvironment } from './cli-environment.js';
import { allCommands } from './commands/registry.js';
import type { CommandContext, GitCommandsPort, ShellRunOptions } from './commands/types.js';
import { addFiles } from './commands/add-files.js';
import { CliError, EXIT } from './exit-codes.js';
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
  readonly modelSettings: ModelSettings;
  /** Names the repo map has seen, for Tab completion. */
  readonly identifiers: () => readonly string[];
  commandContext(print: (text: string) => void, signal?: AbortSignal): CommandContext;
  showRepoMap(): Promise<string>;
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

function chooseModels(settings: Settings): ModelChoice {
  const modelSettings = lookupModelSettings(settings.model);
  const editorModel = settings['editor-model'] ?? settings.model;
  const requested = settings['edit-format'];
  return {
    settings: modelSettings,
    editorModel,
    editFormat: requested && requested !== 'ask' ? requested : modelSettings.editFormat,
    editorFormat: settings['editor-edit-format'] ?? lookupModelSettings(editorModel).editFormat,
    contextWindow: settings['context-window'] ?? modelSettings.contextWindow,
    mode: settings.architect ? 'architect' : requested === 'ask' ? 'ask' : 'code',
  };
}

function createModelClient(settings: Settings, cwd: string): ModelClient {
  const client = createOpenAIClient({
    baseURL: settings['base-url'] ?? undefined,
    apiKey: settings['api-key'] ?? undefined,
    timeoutMs: settings['request-timeout'] * 1000,
    maxRetries: settings['max-retries'],
  });
  const llmLog = settings['llm-log'];
  return llmLog ? withLlmLog(client, resolve(cwd, llmLog), () => new Date()) : client;
}

function createMap(input: BuildInput, root: string, tokens: TokenCounter, contextWindow: number): RepoMapHandle | null {
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
    progress: showProgress ? (input.mapProgress ?? createProgressBar({ write: (t) => void environment.stderr.write(t), columns: environment.columns })) : undefined,
  });
}

function sessionOptions(settings: Settings, choice: ModelChoice, root: string): SessionOptions {
  return {
    root,
    models: { main: settings.model, weak: settings['weak-model'] ?? settings.model, editor: choice.editorModel },
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
    maxHistoryTokens: settings['max-chat-history-tokens'] ?? defaultHistoryBudget(choice.contextWindow),
    contextWindow: choice.contextWindow,
    reminderPlacement: choice.settings.reminder,
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
  const gitOptions = { env: { ...environment.env } };
  if (input.repoRoot) await ensureExcluded(input.repoRoot, '.tandem/', gitOptions);

  const choice = chooseModels(settings);
  const tokens = createTokenizerPool().counterFor(settings.model);
  const client = createModelClient(settings, environment.cwd);
  const runner = createProcessRunner();
  const commandTimeoutMs = settings['command-timeout'] * 1000;
  const shellEnv = scrubSecrets({ ...environment.env });
  const runShell = (command: string, extra: ShellRunOptions = {}): ReturnType<ShellPort['run']> =>
    runner.run(command, { cwd: root, timeoutMs: commandTimeoutMs, env: shellEnv, ...extra });
  const repoMap = createMap(input, root, tokens, choice.contextWindow);

  const resumed = settings.resume !== null ? resumeSession(root, settings.resume) : null;
  // The log's first line describes the chat as it is when the first entry is written.
  const holder: { session: Session | null } = { session: null };
  const recorder = new LazySessionLog(
    root,
    () => ({
      type: 'meta',
      id: newId(new Date()),
      version: environment.version,
      created: new Date().toISOString(),
      model: settings.model,
      editFormat: choice.editFormat,
      files: [...(holder.session?.chatFiles ?? [])],
      readOnly: holder.session?.readOnlyFiles.map((f) => f.name) ?? [],
      interactive: input.interactive,
    }),
    resumed?.log ?? null,
  );
  const recordingEmitter = recordingEmit(emit, recorder, join(root, '.tandem', 'chat.history.md'), () => new Date());
  const ports: RequestPorts = {
    model: client,
    weakModel: client,
    tokens,
    git: input.repoRoot ? createGitPort(input.repoRoot, gitOptions) : null,
    checks: createChecksPort({ root, runner, env: definedEnv(environment.env), lintCommands: settings['lint-cmd'], testCommand: settings['test-cmd'], timeoutMs: commandTimeoutMs }),
    asker: createAsker({
      yesAlways: settings['yes-always'],
      prompt: input.interactive ? (question, choices, fallback) => input.lines.ask(question, choices, fallback) : null,
      promptCount: () => input.lines.inputCount(),
      emit: recordingEmitter,
    }),
    repoMap,
    shell: { run: (command) => runShell(command) },
    files: input.repoRoot ? createRepoFilesPort(input.repoRoot, gitOptions) : null,
  };
  const session = new Session(sessionOptions(settings, choice, root), {
    ports,
    emit: recordingEmitter,
    loadCoder: createCoderLoader(environment.packageRoot),
    recorder,
    texts: await loadSessionTexts(environment.packageRoot),
  });
  holder.session = session;
  if (resumed) {
    session.restore(resumed.history, resumed.chatFiles);
    for (const notice of resumed.notices) emit({ type: 'warning', message: notice });
    emit({ type: 'info', message: `Resumed session ${resumed.log.id} with ${resumed.history.length} messages.` });
  }
  const found = readInstructions(root, environment.cwd);
  session.instructions.push(...found.instructions);
  for (const note of found.notes) emit({ type: 'warning', message: note });
  const git = input.repoRoot ? createGitCommands(input.repoRoot, gitOptions) : null;
  const commands = allCommands();
  const built: BuiltSession = {
    session,
    settings,
    root,
    emit: recordingEmitter,
    git,
    modelSettings: choice.settings,
    identifiers: () => repoMap?.identifiers() ?? [],
    commandContext: (print, signal) => ({
      session,
      signal,
      root,
      cwd: environment.cwd,
      print,
      git,
      runShell,
      lintCommands: settings['lint-cmd'],
      testCommand: settings['test-cmd'],
      repoMap,
      mapTokens: settings['map-tokens'],
      refreshMap: () => repoMap?.refresh(),
      model: {
        contextWindow: choice.contextWindow,
        inputPricePerToken: choice.settings.prices ? choice.settings.prices.inputPerMillion / 1e6 : null,
      },
      commands,
      tokens,
      canAsk: input.interactive,
      syntaxCheck: (path) => syntaxCheckOf(root, path, ports),
      commitMessage: (diff) => userCommitMessage(diff, { client, model: session.models.weak, packageRoot: environment.packageRoot }),
      confirm: (question, kind) => ports.asker.confirm(question, kind),
      listFiles: async () => (ports.files ? ports.files.list() : []),
      settingsReport: () => renderSettingsReport(settings, input.sources ?? new Map()),
    }),
    showRepoMap: async () =>
      repoMap ? repoMap.get({ chatFiles: session.chatFiles, readOnlyFiles: [], requestText: '', budget: settings['map-tokens'] }) : '',
  };
  // Files named on the command line go through the same checks as /add (globs, folders, binary, size).
  await addStartFiles(built.commandContext((text) => emit({ type: 'info', message: text.trimEnd() })), input.files, settings.read);
  return built;
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

/** History budget when none is set: a sixteenth of the window, between 1k and 8k tokens. */
export function defaultHistoryBudget(contextWindow: number): number {
  return Math.min(Math.max(Math.floor(contextWindow / 16), 1024), 8192);
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

function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
