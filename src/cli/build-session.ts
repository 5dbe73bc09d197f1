// The composition root's assembly: real model client, git, checks, repo map and asker, wired into a Session.
import { existsSync } from 'node:fs';
import { platform } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createCoder, type CoderFormat } from '../coders/base-coder.js';
import type { RequestPorts, ShellPort } from '../coders/ports.js';
import { loadPromptSet } from '../coders/prompt-set.js';
import type { Settings } from '../config/schema.js';
import { ensureExcluded } from '../git/exclude.js';
import { lookupModelSettings, type ModelSettings } from '../model/model-settings.js';
import { createOpenAIClient } from '../model/openai-client.js';
import { createTokenizerPool } from '../model/tokens.js';
import { createProcessRunner, scrubSecrets } from '../platform/process.js';
import type { EmitEvent } from '../session/events.js';
import { Session } from '../session/session.js';
import { createAsker } from './asker.js';
import { createChecksPort } from './checks-adapter.js';
import type { CliEnvironment } from './cli-environment.js';
import { allCommands } from './commands/registry.js';
import type { CommandContext, GitCommandsPort } from './commands/types.js';
import { CliError, EXIT } from './exit-codes.js';
import { createGitCommands, createGitPort } from './git-adapter.js';
import type { LineReader } from './line-reader.js';
import { createRepoMapPort, type RepoMapHandle } from './repo-map-adapter.js';

export interface BuildInput {
  readonly environment: CliEnvironment;
  readonly settings: Settings;
  readonly repoRoot: string | null;
  readonly files: readonly string[];
  readonly emit: EmitEvent;
  readonly interactive: boolean;
  readonly lines: LineReader;
}

export interface BuiltSession {
  readonly session: Session;
  readonly settings: Settings;
  readonly root: string;
  readonly emit: EmitEvent;
  readonly git: GitCommandsPort | null;
  readonly modelSettings: ModelSettings;
  commandContext(print: (text: string) => void): CommandContext;
  showRepoMap(): Promise<string>;
}

export async function buildSession(input: BuildInput): Promise<BuiltSession> {
  const { environment, settings, emit } = input;
  const root = input.repoRoot ?? environment.cwd;
  const gitOptions = { env: { ...environment.env } };
  if (input.repoRoot) await ensureExcluded(input.repoRoot, '.tandem/', gitOptions);

  const modelSettings = lookupModelSettings(settings.model);
  const format = (settings['edit-format'] ?? modelSettings.editFormat) as CoderFormat;
  const prompts = await loadPromptSet(join(environment.packageRoot, 'prompts'), format, { fence: '```', platform: platform() });
  const tokens = createTokenizerPool().counterFor(settings.model);
  const client = createOpenAIClient({
    baseURL: settings['base-url'] ?? undefined,
    apiKey: settings['api-key'] ?? undefined,
    timeoutMs: settings['request-timeout'] * 1000,
    maxRetries: settings['max-retries'],
  });
  const runner = createProcessRunner();
  const commandTimeoutMs = settings['command-timeout'] * 1000;
  const shellEnv = scrubSecrets({ ...environment.env });
  const runShell: ShellPort['run'] = (command) =>
    runner.run(command, { cwd: root, timeoutMs: commandTimeoutMs, env: shellEnv });
  const repoMap: RepoMapHandle | null =
    settings['map-tokens'] > 0 ? createRepoMapPort({ root, packageRoot: environment.packageRoot, tokens, refreshMode: settings['map-refresh'], emit }) : null;
  const ports: RequestPorts = {
    model: client,
    weakModel: client,
    tokens,
    git: input.repoRoot ? createGitPort(input.repoRoot, gitOptions) : null,
    checks: createChecksPort({ root, runner, env: definedEnv(environment.env), lintCommands: settings['lint-cmd'], testCommand: settings['test-cmd'], timeoutMs: commandTimeoutMs }),
    asker: createAsker({
      yesAlways: settings['yes-always'],
      prompt: input.interactive ? (question) => input.lines.read(question) : null,
      emit,
    }),
    repoMap,
    shell: { run: runShell },
  };
  const session = new Session(
    {
      root,
      model: settings.model,
      weakModel: settings['weak-model'] ?? settings.model,
      stream: settings.stream,
      dryRun: settings['dry-run'],
      autoCommits: settings['auto-commits'],
      dirtyCommits: settings['dirty-commits'],
      autoLint: settings['auto-lint'],
      autoTest: settings['auto-test'] && settings['test-cmd'] !== null,
      testCommand: settings['test-cmd'] ?? '',
      maxReflections: settings['max-reflections'],
      mapTokens: settings['map-tokens'],
    },
    createCoder(format, prompts.format),
    prompts,
    ports,
    emit,
  );
  addStartFiles(session, root, environment.cwd, input.files, settings.read);
  const git = input.repoRoot ? createGitCommands(input.repoRoot, gitOptions) : null;
  const commands = allCommands();
  return {
    session,
    settings,
    root,
    emit,
    git,
    modelSettings,
    commandContext: (print) => ({
      session,
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
        contextWindow: settings['context-window'] ?? modelSettings.contextWindow,
        inputPricePerToken: modelSettings.prices ? modelSettings.prices.inputPerMillion / 1e6 : null,
      },
      commands,
      tokens,
    }),
    showRepoMap: async () =>
      repoMap ? repoMap.get({ chatFiles: session.chatFiles, readOnlyFiles: [], requestText: '', budget: settings['map-tokens'] }) : '',
  };
}

function addStartFiles(session: Session, root: string, cwd: string, files: readonly string[], readOnly: readonly string[]): void {
  for (const file of files) {
    const rel = repoRelative(root, cwd, file);
    if (rel === null) throw new CliError(`${file} is outside the repository (${root})`, EXIT.usage);
    session.addChatFile(rel);
  }
  for (const file of readOnly) {
    const absolutePath = isAbsolute(file) ? file : resolve(cwd, file);
    if (!existsSync(absolutePath)) throw new CliError(`--read: no such file: ${file}`, EXIT.usage);
    session.readOnlyFiles.push({ name: repoRelative(root, cwd, file) ?? absolutePath, absolutePath });
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
