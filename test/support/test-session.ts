// A session for in-process loop tests, built the way the CLI builds one (settings from the option
// table through config/session-options.ts, model profiles from model settings, the real coders and
// prompts), with a scripted model and the fake ports in place of the server, git, checks and the person.
//
//   const t = createTestSession({ files: { 'app.py': '...' }, chat: ['app.py'], replies: [blockReply], answers: { 'add-file': 'yes' } });
//   await t.session.runRequest('make total safe');
//   expect(t.read('app.py')).toBe('...');
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCoderLoader } from '../../src/coders/coder-loader.js';
import type { Answer, ApprovalKind, RepoFilesPort } from '../../src/coders/ports.js';
import { createPromptLoader, type PromptLoader } from '../../src/coders/prompt-set.js';
import { CODERS, type CoderRegistry } from '../../src/coders/registry.js';
import { defaultSettings, type Settings } from '../../src/config/schema.js';
import { chooseModels, sessionOptionsFrom } from '../../src/config/session-options.js';
import { createProfileBuilder } from '../../src/model/model-profile.js';
import type { ModelFields } from '../../src/model/model-settings.js';
import type { TextFileSystem } from '../../src/platform/file-system.js';
import { createPromptReader } from '../../src/platform/prompt-files.js';
import type { SessionEvent } from '../../src/session/events.js';
import { ModelProfiles } from '../../src/session/model-profiles.js';
import { Session, type SessionTexts } from '../../src/session/session.js';
import { FakeChecks, FakeGit, ScriptedAsker, approxTokens } from './fake-ports.js';
import { ScriptedModel, fixedReplyModel, type ScriptedTurn } from './scripted-model.js';
import { tempDir, writeFiles } from './temp-repo.js';

const PROMPTS = fileURLToPath(new URL('../../prompts', import.meta.url));

/** The real prompts/ folder, read through the one prompt loader. */
export function realPromptLoader(): PromptLoader {
  return createPromptLoader(createPromptReader(PROMPTS), { fence: '```', platform: 'linux' });
}

export interface TestSessionSetup {
  /** Files written into the session's temp folder (its root). */
  readonly files?: Record<string, string>;
  /** Files in the chat from the start. */
  readonly chat?: readonly string[];
  /** The main model's replies, in order (text, an error, or a reply that waits to be aborted). */
  readonly replies: readonly ScriptedTurn[];
  /** How the person answers each kind of question (default: no). */
  readonly answers?: Partial<Record<ApprovalKind, Answer>>;
  /** Settings under their option names, over the option table's defaults and this builder's (see TEST_SETTINGS). */
  readonly settings?: Partial<Settings>;
  /** The scripted models' settings, as a model settings file gives them (e.g. `contextWindow`). */
  readonly model?: ModelFields;
  /** The repository's files, as the files port lists them (default: no files port). */
  readonly repoFiles?: readonly string[];
  /** Where the session reads its chat files' texts (default: the temp folder on disk). */
  readonly fileSystem?: (root: string) => TextFileSystem;
  readonly texts?: SessionTexts;
  /** The coders to pick from (default: the built-in ones) and where their prompts come from (default: prompts/). */
  readonly coders?: CoderRegistry;
  readonly prompts?: PromptLoader;
}

/** What every test session starts from, beside the option table's defaults. */
const TEST_SETTINGS: Partial<Settings> = {
  model: 'scripted',
  'weak-model': 'scripted-weak',
  'editor-model': 'scripted',
  'edit-format': 'diff',
  'editor-edit-format': 'diff',
  stream: true,
  'auto-commits': true,
  'dirty-commits': true,
  'auto-lint': true,
  'auto-test': false,
  'max-reflections': 3,
  'map-tokens': 0,
  'max-chat-history-tokens': 100_000,
};

/** The scripted models' data (any `scripted*` name): a window of 128k tokens, the reminder in the user message. */
const TEST_MODEL: ModelFields = { contextWindow: 128_000, reminder: 'user' };

const TEST_TEXTS: SessionTexts = { summarize: 'Summarize.', summaryTemplate: '{summary}', editorRequest: 'Do this plan:\n{plan}' };

export function createTestSession(setup: TestSessionSetup) {
  const root = tempDir('tandem-session-');
  writeFiles(root, setup.files ?? {});
  const model = new ScriptedModel([...setup.replies]);
  const weakModel = fixedReplyModel('feat: scripted change');
  const git = new FakeGit();
  const checks = new FakeChecks();
  const asker = new ScriptedAsker(setup.answers);
  const events: SessionEvent[] = [];
  const listeners: Array<(event: SessionEvent) => void> = [];
  const settings: Settings = { ...defaultSettings(), ...TEST_SETTINGS, ...setup.settings };
  const profileOf = createProfileBuilder({
    baseURL: '',
    tokenizers: { counterFor: () => approxTokens },
    layers: [{ file: 'test-session', entries: [{ name: 'scripted*', ...TEST_MODEL, ...setup.model }] }],
  });
  const profiles = new ModelProfiles(profileOf, { main: settings.model, weak: settings['weak-model'], editor: settings['editor-model'] });
  const repoFiles: RepoFilesPort | null = setup.repoFiles ? { list: async () => [...(setup.repoFiles ?? [])] } : null;
  const session = new Session(sessionOptionsFrom(settings, chooseModels(settings, profileOf, setup.coders), root), {
    ports: { model, weakModel, git, checks, asker, repoMap: null, shell: null, files: repoFiles },
    emit: (event) => {
      events.push(event);
      for (const listener of listeners) listener(event);
    },
    loadCoder: createCoderLoader(setup.coders ?? CODERS, setup.prompts ?? realPromptLoader()),
    recorder: null,
    texts: setup.texts ?? TEST_TEXTS,
    profiles,
    fileSystem: setup.fileSystem?.(root),
  });
  for (const path of setup.chat ?? []) session.addChatFile(path);
  const read = (path: string): string => readFileSync(join(root, path), 'utf8');
  const ofType = <T extends SessionEvent['type']>(type: T) => events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type);
  /** Resolves at the next event of this type. */
  const once = (type: SessionEvent['type']): Promise<void> => new Promise((resolve) => listeners.push((e) => e.type === type && resolve()));
  return { root, session, model, weakModel, git, checks, asker, events, read, ofType, once };
}

export type TestSession = ReturnType<typeof createTestSession>;
