// The composition root's assembly: real model client, git, checks, repo map and asker, wired into a Session.
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { createCoderLoader } from '../coders/coder-loader.js';
import { CODERS } from '../coders/registry.js';
import type { ShellPort, TokenCounter } from '../coders/ports.js';
import type { Settings } from '../config/schema.js';
import { ensureExcluded } from '../git/exclude.js';
import { withLlmLog } from '../model/logging-client.js';
import { createProfileBuilder, type ProfileBuilder } from '../model/model-profile.js';
import { createOpenAIClient, DEFAULT_BASE_URL } from '../model/openai-client.js';
import type { ModelClient } from '../model/types.js';
import { createTokenizerPool } from '../model/tokens.js';
import { configuredHooksDir } from '../git/hooks-path.js';
import { withSafeImportPaths } from '../platform/safe-import-env.js';
import { systemClock, type Clock } from '../platform/clock.js';
import { openAudit } from './audit.js';
import { createCommandRunner, sandboxFor, sandboxNote } from './command-runner.js';
import { scrubEnvironment } from '../platform/scrub-env.js';
import { createClipboard } from '../platform/clipboard.js';
import { createClipboardClient } from '../model/clipboard-client.js';
import { restoreContext } from './restore-context.js';
import { createStateReader, stateTrackedWarning, type StateReader } from '../platform/state-files.js';
import { RequestListing } from '../git/repo-listing.js';
import type { GuardState } from '../git/repo.js';
import type { EmitEvent } from '../session/events.js';
import { ModelProfiles } from '../session/model-profiles.js';
import { Session, type SessionTexts } from '../session/session.js';
import { readInstructions } from './instructions.js';
import { LazySessionLog, recordingEmit, resumeSession, sessionMetaOf, type ResumedSession } from './session-files.js';
import { stateDirProblem, writesInside } from './state-dir.js';
import { chooseModels, sessionOptionsFrom, type ModelChoice } from '../config/session-options.js';
import { allowedReadFiles, llmLogProblem, type PathTrustInput } from '../config/repo-policy.js';
import { configFilesInRepository, repositoryConfigFiles } from '../git/config-files.js';
import type { CliEnvironment } from './cli-environment.js';
import type { CommandContext, ShellRunOptions } from './commands/types.js';
import { addFiles } from './commands/add-files.js';
import { addImageFile, isImageFile } from './commands/add-image.js';
import { CliError } from './cli-error.js';
import { missingApiKeyProblem, withApiKeyCheck } from './api-key-check.js';
import { EXIT } from '../session/exit-codes.js';
import { createGitCommands } from './git-adapter.js';
import { createProgressBar, createRepoMapPort, type RepoMapHandle } from './repo-map-adapter.js';
import { defaultTagStoreDir } from '../platform/tag-store.js';
import { requestRules } from '../model/model-profile.js';
import { ReasoningControls } from '../session/reasoning-controls.js';
import { SessionTotals } from '../session/totals.js';
import { createKeepAlive } from './keepalive-adapter.js';
import { withModelDefaults, withModelNames } from './model-setup.js';
import { commandContextOf } from './command-context.js';
import type { BuildInput, BuiltSession } from './session-build.js';
import type { PromptLoader } from '../coders/prompt-set.js';
import { createRequestPorts, subtreeOf } from './request-ports.js';
import { repoRelativePath } from '../platform/repo-path.js';

function createModelClient(settings: Settings, cwd: string, profileOf: ProfileBuilder, logAllowed: boolean, clock: Clock, reasoning: ReasoningControls, emit: EmitEvent): ModelClient {
  const baseURL = settings['base-url'] ?? DEFAULT_BASE_URL;
  const client = createOpenAIClient({
    baseURL: settings['base-url'] ?? undefined,
    apiKey: settings['api-key'] ?? undefined,
    prices: (model) => profileOf(model).prices,
    // Read per request: /reasoning-effort and /think-tokens change the choice mid-chat.
    rules: (model) => {
      const { effort, thinkingTokens } = reasoning.current;
      return requestRules(profileOf(model).settings, { baseURL, reasoningEffort: effort, thinkingTokens, checkAcceptsSettings: reasoning.checkAccepts });
    },
    timeoutMs: settings['request-timeout'] * 1000,
    maxRetries: settings['max-retries'],
  });
  const llmLog = settings['llm-log'];
  const logged = llmLog && logAllowed ? withLlmLog(client, resolve(cwd, llmLog), () => clock.now(), (message) => emit({ type: 'warning', message })) : client;
  return withApiKeyCheck(logged, missingApiKeyProblem(settings['base-url'], settings['api-key']));
}

function createMap(input: BuildInput, root: string, tokens: TokenCounter, tokenizer: () => string, contextWindow: number, stateReader: StateReader, listing: RequestListing | null): RepoMapHandle | null {
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
    subtree: subtreeOf(input),
    tagCacheDir: settings['tag-cache-dir'] ? resolve(environment.cwd, settings['tag-cache-dir']) : defaultTagStoreDir(environment.env, environment.homeDir),
    listFiles: listing ? () => listing.files() : undefined,
    cleanBlobs: listing ? () => listing.cleanBlobs() : undefined,
  });
}

async function loadSessionTexts(prompts: PromptLoader): Promise<SessionTexts> {
  const { summarize, summaryTemplate, editorRequest } = await prompts.shared();
  return { summarize, summaryTemplate, editorRequest };
}

export async function buildSession(rawInput: BuildInput): Promise<BuiltSession> {
  const aliases = rawInput.models?.aliases ?? new Map<string, string>();
  const named = withModelNames(rawInput.settings, aliases);
  const profileOf = createProfileBuilder({
    baseURL: named['base-url'] ?? DEFAULT_BASE_URL,
    tokenizers: createTokenizerPool(),
    contextWindow: named['context-window'],
    startModel: named.model,
    reasoningEffort: named['reasoning-effort'],
    thinkingTokens: named['thinking-tokens'],
    checkAcceptsSettings: named['check-model-accepts-settings'],
    layers: rawInput.models?.layers ?? [],
    aliases,
    serverWindows: rawInput.models?.serverWindows ?? new Map(),
  });
  const input: BuildInput = { ...rawInput, settings: withModelDefaults(named, profileOf(named.model).settings, rawInput.sources) };
  const { environment, settings, emit } = input;
  const root = input.repoRoot ?? environment.cwd;
  // Every command tandem starts (git and its hooks too) gets an environment without the user's secrets.
  const childEnv = scrubEnvironment(environment.env, { passEnv: settings['pass-env'], secrets: [settings['api-key']] });
  // One listing of the repository's command keys for every git runner of the session (see git/repo.ts).
  const gitOptions = { env: childEnv, guards: input.gitGuards ?? new Map<string, GuardState>() };
  if (input.repoRoot) await ensureExcluded(input.repoRoot, '.tandem/', gitOptions);
  const stateProblem = input.repoRoot ? stateDirProblem(root) : null;
  if (stateProblem) emit({ type: 'warning', message: stateProblem });
  // Nothing in .tandem/ is trusted because it is there: files git tracks came with the repository.
  // One listing of the repository per request (git/repo-listing.ts); start-up's serves a one-shot request too.
  const oneShot = settings.message !== null || settings['message-file'] !== null;
  const listing = input.repoRoot ? new RequestListing(input.repoRoot, { ...gitOptions, firstRequestAtOnce: oneShot }) : null;
  const trackedState = listing ? await listing.trackedUnder('.tandem') : new Set<string>();
  const trackedWarning = stateTrackedWarning(trackedState);
  if (trackedWarning) emit({ type: 'warning', message: trackedWarning });
  const stateReader = createStateReader(root, { tracked: trackedState, warn: (message) => emit({ type: 'warning', message }) });

  const reasoning = new ReasoningControls(
    { effort: settings['reasoning-effort'], thinkingTokens: settings['thinking-tokens'] },
    settings['check-model-accepts-settings'],
  );
  const choice = chooseModels(settings, profileOf);
  // Built from the names as given, so an alias is remembered for /settings.
  const asked = rawInput.settings;
  const profiles = new ModelProfiles(profileOf, { main: asked.model, weak: asked['weak-model'], editor: asked['editor-model'] });
  // The map and /tokens count with whichever main model the chat has now.
  const tokens: TokenCounter = { count: (text) => profiles.get('main').tokens.count(text) };
  const hooksDir = input.repoRoot ? await configuredHooksDir(input.repoRoot, gitOptions) : null;
  const gitConfigFiles = input.repoRoot ? await repositoryConfigFiles(input.repoRoot, gitOptions) : [];
  const pathTrust: PathTrustInput = { settings, sources: input.sources, cwd: environment.cwd, paths: { root, hooksDir, gitConfigFiles }, writesInside: (file) => writesInside(root, file) };
  let sessionRef: Session | null = null;
  const keepAlive = createKeepAlive(input, () => sessionRef?.totals ?? new SessionTotals());
  const rawClient = settings['copy-paste']
    ? copyPasteClient(environment, emit)
    : createModelClient(settings, environment.cwd, profileOf, logAllowedBy(pathTrust, emit), environment.clock ?? systemClock, reasoning, emit);
  const client = keepAlive ? keepAlive.wrap(rawClient) : rawClient;
  const notice = reasoning.noticeFor(profiles.get('main'));
  if (notice !== null) emit({ type: 'warning', message: notice });
  // Filled in once the session log exists, so audit lines name their session.
  let sessionId: () => string | null = () => null;
  const audit = openAudit(environment, input.repoRoot, emit, () => sessionId());
  const runner = createCommandRunner(sandboxFor(environment, settings, root, input.repoRoot), audit);
  const commandTimeoutMs = settings['command-timeout'] * 1000;
  // Lint commands inspect code and must not run a module a file in the repository shadows; test commands and
  // /run run the repository's code by design (and import it from the working folder), so they keep Python's default.
  const runShell = (command: string, { lint, ...extra }: ShellRunOptions = {}): ReturnType<ShellPort['run']> =>
    runner.run(command, { cwd: root, timeoutMs: commandTimeoutMs, env: lint === true ? withSafeImportPaths(childEnv) : childEnv, ...extra });
  // The map's tag cache and stored maps live in .tandem/ too
  const repoMap = stateProblem ? null : createMap(input, root, tokens, () => profiles.get('main').name, choice.contextWindow, stateReader, listing);

  if (stateProblem && settings.resume !== null) throw new CliError(`cannot resume: ${stateProblem}`, EXIT.usage);
  const resumed = settings.resume !== null ? resumeSession(root, settings.resume, stateReader) : null;
  const log = stateProblem ? { recorder: null, emit } : openSessionLog(input, root, choice, resumed);
  if (log.recorder) sessionId = () => log.recorder.id;
  const stateUsable = input.repoRoot !== null && stateProblem === null;
  const ports = createRequestPorts(input, { root, gitOptions, client, repoMap, runner, runShell, commandTimeoutMs, emit: log.emit, audit, mainModel: () => profiles.get('main').name, stateUsable, trackedState, listing });
  const gitIncludes = input.repoRoot ? configFilesInRepository(input.repoRoot, gitConfigFiles) : [];
  const session = new Session({ ...sessionOptionsFrom(settings, choice, root), hooksDir, gitIncludes, sandbox: sandboxNote(settings) }, {
    ports,
    emit: log.emit,
    loadCoder: createCoderLoader(CODERS, input.prompts),
    recorder: log.recorder,
    texts: await loadSessionTexts(input.prompts),
    profiles,
  });
  sessionRef = session;
  if (resumed) {
    session.restore(resumed.history, resumed.chatFiles, resumed.layout);
    for (const notice of [...resumed.notices, ...restoreContext(session, resumed, root)]) emit({ type: 'warning', message: notice });
    emit({ type: 'info', message: `Resumed session ${resumed.log.id} with ${resumed.history.length} messages.` });
  }
  const found = readInstructions(root, environment.cwd);
  session.addInstructions(found.instructions);
  for (const note of found.notes) emit({ type: 'warning', message: note });
  const git = input.repoRoot ? createGitCommands(input.repoRoot, gitOptions, listing) : null;
  const built: BuiltSession = {
    session,
    settings,
    root,
    emit: log.emit,
    git,
    stateDirUsable: stateProblem === null,
    // A .tandem/input.history git tracks came with the repository: no history then (a file of the user's own is fine).
    inputHistoryFile:
      input.repoRoot && stateProblem === null && (settings['input-history-file'] || !trackedState.has('.tandem/input.history'))
        ? historyFile(input, root, 'input-history-file', 'input.history')
        : null,
    trackedState,
    identifiers: () => repoMap?.identifiers() ?? [],
    commandContext: commandContextOf(input, { session, root, git, repoMap, runShell, profiles, tokens, client, ports, reasoning, stateReader }, childEnv),
    reasoning,
    keepAlive,
    close: async () => {
      await repoMap?.flush();
    },
    showRepoMap: async () =>
      repoMap ? repoMap.get({ chatFiles: session.chatFiles, readOnlyFiles: [], requestText: '', budget: settings['map-tokens'] }) : '',
  };
  // Files named on the command line go through the same checks as /add (globs, folders, binary, size).
  const { files: readFiles, warnings: readWarnings } = allowedReadFiles(pathTrust);
  for (const message of readWarnings) emit({ type: 'warning', message });
  await addStartFiles(built.commandContext((text) => emit({ type: 'info', message: text.trimEnd() })), input.files, readFiles);
  return built;
}

/**
 * The session log (created on its first entry, or the resumed one continued) and an emitter that
 * records events in it and in the transcript. Its first line describes the chat from the entries.
 */
function openSessionLog(input: BuildInput, root: string, choice: ModelChoice, resumed: ResumedSession | null): { recorder: LazySessionLog; emit: EmitEvent } {
  const { environment, settings, emit } = input;
  const clock = environment.clock ?? systemClock;
  const recorder = new LazySessionLog(
    root,
    sessionMetaOf(clock, { version: environment.version, model: settings.model, editFormat: choice.editFormat, interactive: input.interactive }),
    resumed?.log ?? null,
    (message) => emit({ type: 'warning', message }),
  );
  return { recorder, emit: recordingEmit(emit, recorder, historyFile(input, root, 'chat-history-file', 'chat.history.md'), clock) };
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
    const imageRoot = repoRelative(root, cwd, file) !== null ? root : null;
    if (isImageFile(absolutePath, imageRoot)) {
      addImageFile(name, absolutePath, imageRoot, context);
      continue;
    }
    // A file is editable or read-only, never both: named as both, it stays editable.
    if (!session.chatFiles.includes(name)) session.addReadOnlyFile({ name, absolutePath });
  }
}

function repoRelative(root: string, cwd: string, file: string): string | null {
  return repoRelativePath(root, file, cwd);
}

/** --chat-history-file / --input-history-file (the user's own: see the option table), else the file in .tandem/. */
function historyFile(input: BuildInput, root: string, key: 'chat-history-file' | 'input-history-file', fallback: string): string {
  const named = input.settings[key];
  if (!named) return join(root, '.tandem', fallback);
  const file = resolve(input.environment.cwd, named);
  // A name inside the repository may be a link the repository placed (`.aider.chat.history.md` pointing at
  // ~/.bashrc): model text is appended to it, so it must stay a plain file inside the repository.
  if (repoRelative(root, input.environment.cwd, file) !== null && !writesInside(root, file)) {
    input.emit({ type: 'warning', message: `${key} ${named} is a link, or leads outside the repository; using .tandem/${fallback} instead` });
    return join(root, '.tandem', fallback);
  }
  return file;
}

/** --copy-paste: the clipboard stands in for the model, polled twice a second. */
function copyPasteClient(environment: CliEnvironment, emit: EmitEvent): ModelClient {
  return createClipboardClient({
    clipboard: createClipboard(environment.env),
    pollMs: 500,
    sleep: (ms, signal) =>
      new Promise((done) => {
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
      }),
    onWaiting: (characters) =>
      emit({ type: 'info', message: `Copied the prompt (${characters} characters) to the clipboard; paste it into your chat and copy the reply (Ctrl-C stops waiting).` }),
  });
}

function logAllowedBy(trust: PathTrustInput, emit: EmitEvent): boolean {
  const problem = llmLogProblem(trust);
  if (problem !== null) emit({ type: 'warning', message: problem });
  return problem === null;
}
