// The one prompt loader: every text tandem sends (format rules, context wrappers, reflections, commit
// messages, summaries, the architect's hand-over, watch mode, /help), read from prompts/ once per coder.
import type { Coder } from './coder.js';
import type { ContextPrompts } from './messages.js';
import type { FormatPrompts, PromptReader, PromptValues } from './prompt-files.js';
import { loadFormatPrompts, readPrompt } from './prompt-files.js';

export interface ReflectionPrompts {
  readonly parseProblems: string;
  readonly addedFilesRedo: string;
  readonly syntax: string;
  readonly lint: string;
  readonly test: string;
  readonly addedFiles: string;
}

/** The request templates of watch mode's `AI!` (code) and `AI?` (ask) comments. */
export interface WatchPrompts {
  readonly code: string;
  readonly ask: string;
}

/** The texts no single format owns. */
export interface SharedPrompts {
  readonly context: ContextPrompts;
  readonly reflection: ReflectionPrompts;
  /** System prompt of the commit message writer (tandem's commits and /commit). */
  readonly commitMessage: string;
  /** System prompt and result template of the history summary. */
  readonly summarize: string;
  readonly summaryTemplate: string;
  /** With `{plan}`: the architect's plan as the editor model's request. */
  readonly editorRequest: string;
  readonly watch: WatchPrompts;
  /** With `{docs}`: the system prompt of `/help QUESTION`. */
  readonly help: string;
}

/** Every text one coder's requests use: the shared ones, its own format rules and its reflection wording. */
export interface PromptSet extends SharedPrompts {
  readonly format: FormatPrompts;
}

/** Reads every prompt once: `shared()` for the texts no format owns, `forCoder()` for a coder's whole set. */
export interface PromptLoader {
  shared(): Promise<SharedPrompts>;
  forCoder(coder: Coder): Promise<PromptSet>;
}

// Where each text lives in prompts/. A format may word a reflection its own way in
// prompts/<its folder>/reflection/ (same file name); the shared wording is the default.
const CONTEXT_FILES: Readonly<Record<keyof ContextPrompts, string>> = {
  chatFiles: 'context/chat-files.md',
  noChatFiles: 'context/no-chat-files.md',
  readOnly: 'context/read-only.md',
  repoMap: 'context/repo-map.md',
  ack: 'context/ack.md',
  fileChanges: 'context/file-changes.md',
  mentioned: 'context/mentioned.md',
  webPages: 'context/web-pages.md',
  images: 'context/images.md',
};
const REFLECTION_FILES: Readonly<Record<keyof ReflectionPrompts, string>> = {
  parseProblems: 'reflection/parse-problems.md',
  addedFilesRedo: 'reflection/added-files-redo.md',
  syntax: 'reflection/syntax.md',
  lint: 'reflection/lint.md',
  test: 'reflection/test.md',
  addedFiles: 'reflection/added-files.md',
};
// Sent as written: a template's own line ends are part of the request.
const VERBATIM_FILES = {
  summarize: 'summarize.md',
  summaryTemplate: 'context/summary.md',
  editorRequest: 'architect/editor-request.md',
  watchCode: 'watch/code.md',
  watchAsk: 'watch/ask.md',
  help: 'help/system.md',
} as const;

export function createPromptLoader(read: PromptReader, values: PromptValues): PromptLoader {
  let shared: Promise<SharedPrompts> | null = null;
  const sets = new Map<string, Promise<PromptSet>>();
  const loadShared = (): Promise<SharedPrompts> => (shared ??= loadSharedPrompts(read));
  return {
    shared: loadShared,
    forCoder(coder) {
      let set = sets.get(coder.name);
      if (!set) {
        set = loadCoderPrompts(read, coder, values, loadShared());
        sets.set(coder.name, set);
      }
      return set;
    },
  };
}

async function loadCoderPrompts(read: PromptReader, coder: Coder, values: PromptValues, sharedPrompts: Promise<SharedPrompts>): Promise<PromptSet> {
  const [shared, format, reflection] = await Promise.all([
    sharedPrompts,
    loadFormatPrompts(read, coder.promptFolder, values),
    readReflectionWording(read, coder.promptFolder),
  ]);
  return { ...shared, format, reflection: { ...shared.reflection, ...reflection } };
}

/** The reflections a format's folder words its own way (most have none). */
async function readReflectionWording(read: PromptReader, folder: string): Promise<Partial<ReflectionPrompts>> {
  const entries = await Promise.all(Object.entries(REFLECTION_FILES).map(async ([field, id]) => [field, await read(`${folder}/${id}`)] as const));
  return Object.fromEntries(entries.flatMap(([field, text]) => (text === null ? [] : [[field, text.trim()]])));
}

async function loadSharedPrompts(read: PromptReader): Promise<SharedPrompts> {
  const trim = (text: string): string => text.trim();
  const [context, reflection, commit, verbatim] = await Promise.all([
    readTexts(read, CONTEXT_FILES, trim),
    readTexts(read, REFLECTION_FILES, trim),
    readTexts(read, { commitMessage: 'commit-message.md' }, trim),
    readTexts(read, VERBATIM_FILES, (text) => text),
  ]);
  const { watchCode, watchAsk, ...texts } = verbatim;
  return { context, reflection, commitMessage: commit.commitMessage, ...texts, watch: { code: watchCode, ask: watchAsk } };
}

/** Reads each file of `files` (field -> prompt id) into the same field. */
async function readTexts<K extends string>(read: PromptReader, files: Readonly<Record<K, string>>, shape: (text: string) => string): Promise<Record<K, string>> {
  const entries = await Promise.all(Object.entries<string>(files).map(async ([field, id]) => [field, shape(await readPrompt(read, id))] as const));
  return Object.fromEntries(entries) as Record<K, string>;
}
