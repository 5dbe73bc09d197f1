// The slash commands' view of a session: what each command may touch, built from the session's parts.
import { join } from 'node:path';
import type { RequestPorts, ShellPort, TokenCounter } from '../coders/ports.js';
import { writeCommitMessage } from '../round/commit-message.js';
import { readFile } from 'node:fs/promises';
import { renderSettingsReport } from '../config/settings-report.js';
import { withChatChanges } from './commands/settings.js';
import type { ModelClient } from '../model/types.js';
import { sandboxNote } from './command-runner.js';
import { createHttpFetcher, DEFAULT_FETCH_OPTIONS } from '../platform/http-fetch.js';
import { createClipboard } from '../platform/clipboard.js';
import { createVoice } from './voice.js';
import { type StateReader } from '../platform/state-files.js';
import { ModelProfiles } from '../session/model-profiles.js';
import { Session } from '../session/session.js';
import { allCommands } from './commands/registry.js';
import type { GitCommandsPort, ShellRunOptions } from './commands/types.js';
import { type RepoMapHandle } from './repo-map-adapter.js';
import { ReasoningControls } from '../session/reasoning-controls.js';
import { modelListText } from './model-setup.js';
import type { BuildInput, BuiltSession } from './session-build.js';

export interface ContextParts {
  readonly session: Session;
  readonly root: string;
  readonly git: GitCommandsPort | null;
  readonly repoMap: RepoMapHandle | null;
  readonly runShell: (command: string, options?: ShellRunOptions) => ReturnType<ShellPort['run']>;
  readonly profiles: ModelProfiles;
  readonly tokens: TokenCounter;
  readonly client: ModelClient;
  readonly ports: RequestPorts;
  readonly reasoning: ReasoningControls;
  readonly stateReader: StateReader;
}

/** The slash commands' view of the session, made anew for each command (its printer and Ctrl-C signal). */
export function commandContextOf(input: BuildInput, parts: ContextParts, childEnv: Record<string, string>): BuiltSession['commandContext'] {
  const { environment, settings } = input;
  const { session, root, git, repoMap, runShell, profiles, tokens, client, ports, reasoning, stateReader } = parts;
  const commands = allCommands();
  // Proxies come from the user's environment (undici's fetch does not read it by itself).
  const fetcher = createHttpFetcher({ ...DEFAULT_FETCH_OPTIONS, timeoutMs: settings['web-timeout'] * 1000, env: environment.env });
  const clipboard = createClipboard(environment.env);
  const onTerminal = environment.stdoutIsTTY && !settings.json;
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
    commitMessage: async (diff) => userCommitMessage(diff, { client, model: session.models.weak, fallbackModel: session.models.main, systemPrompt: (await input.prompts.shared()).commitMessage }),
    confirm: (question, kind, subject) => ports.asker.confirm(question, kind, subject),
    listFiles: async () => (ports.files ? ports.files.list() : []),
    settingsReport: () => {
      const report = renderSettingsReport(...withChatChanges(settings, input.sources ?? new Map(), session));
      const sandbox = sandboxNote(settings);
      return sandbox ? `${sandbox[0]?.toUpperCase()}${sandbox.slice(1)}.\n${report}` : report;
    },
    askOnce: async (system, question) => {
      const result = await client.chat({ model: session.models.main, stream: false, messages: [{ role: 'system', content: system }, { role: 'user', content: question }] });
      return result.ok ? { ok: true, text: result.text } : { ok: false, message: result.error.message };
    },
    tandemDocs: () => readFile(join(environment.packageRoot, 'README.md'), 'utf8').catch(() => '(the README is missing from this installation)'),
    helpPrompt: async () => (await input.prompts.shared()).help,
    audit: ports.audit,
    fetchPage: (url, fetchSignal) => fetcher.fetch(url, fetchSignal),
    clipboard,
    terminalEscape: (sequence) => onTerminal && (environment.stdout.write(sequence), true),
    transcribe: createVoice({ settings, env: childEnv, lines: input.lines, interactive: input.interactive, print }),
    prefill: input.interactive ? (text) => input.lines.prefill(text) : undefined,
    reasoning,
    listModels: (search) => modelListText(search, settings, input.models?.layers ?? [], environment.http),
    chatInput: input.chatInput ?? null,
  });
}

/** The built-in syntax check of a whole file: against an empty "before", every problem counts. */
export async function syntaxCheckOf(root: string, path: string, ports: RequestPorts): Promise<string | null> {
  const text = await readFile(join(root, path), 'utf8').catch(() => null);
  return text === null ? null : ports.checks.syntax(path, '', text);
}

/** /commit's message for the user's own changes, by the weak model with tandem's commit prompt. */
export async function userCommitMessage(diff: string, options: { client: ModelClient; model: string; fallbackModel: string; systemPrompt: string }): Promise<string> {
  const paths = [...diff.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1] ?? '');
  return writeCommitMessage({ ...options, diff, paths });
}
