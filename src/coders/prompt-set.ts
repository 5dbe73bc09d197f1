// Every prompt one session needs, loaded once from prompts/.
import type { ContextPrompts } from './messages.js';
import type { FormatPrompts, PromptValues } from './prompt-files.js';
import { loadFormatPrompts, readPrompt } from './prompt-files.js';

export interface ReflectionPrompts {
  readonly parseProblems: string;
  readonly addedFilesRedo: string;
  readonly syntax: string;
  readonly lint: string;
  readonly test: string;
  readonly addedFiles: string;
}

export interface PromptSet {
  readonly format: FormatPrompts;
  readonly context: ContextPrompts;
  readonly reflection: ReflectionPrompts;
  readonly commitMessage: string;
}

export async function loadPromptSet(promptsDir: string, format: string, values: PromptValues): Promise<PromptSet> {
  const read = (id: string): Promise<string> => readPrompt(promptsDir, id).then((t) => t.trim());
  const [formatPrompts, chatFiles, noChatFiles, readOnly, repoMap, ack, fileChanges, mentioned] = await Promise.all([
    loadFormatPrompts(promptsDir, format, values),
    read('context/chat-files.md'),
    read('context/no-chat-files.md'),
    read('context/read-only.md'),
    read('context/repo-map.md'),
    read('context/ack.md'),
    read('context/file-changes.md'),
    read('context/mentioned.md'),
  ]);
  const [webPages, images] = await Promise.all([read('context/web-pages.md'), read('context/images.md')]);
  const [parseProblems, addedFilesRedo, syntax, lint, test, addedFiles, commitMessage] = await Promise.all([
    read('reflection/parse-problems.md'),
    read('reflection/added-files-redo.md'),
    read('reflection/syntax.md'),
    read('reflection/lint.md'),
    read('reflection/test.md'),
    read('reflection/added-files.md'),
    read('commit-message.md'),
  ]);
  return {
    format: formatPrompts,
    context: { chatFiles, noChatFiles, readOnly, repoMap, ack, fileChanges, mentioned, webPages, images },
    reflection: { parseProblems, addedFilesRedo, syntax, lint, test, addedFiles },
    commitMessage,
  };
}
