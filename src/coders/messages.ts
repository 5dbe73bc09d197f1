// Assembles one request's messages from parts with known token counts, fixed parts first so that
// servers with prompt caching can reuse the prefix: system, examples, read-only files, repo map,
// history, then the changing parts (chat files, the request).
import type { ChatMessage } from '../model/types.js';
import type { FormatPrompts } from './prompt-files.js';
import { fillPlaceholders } from './prompt-files.js';
import type { TokenCounter } from './ports.js';

export interface FileText {
  readonly path: string;
  readonly text: string;
}

export interface ContextPrompts {
  readonly chatFiles: string;
  readonly noChatFiles: string;
  readonly readOnly: string;
  readonly repoMap: string;
  readonly ack: string;
}

export interface MessageInput {
  readonly format: FormatPrompts;
  readonly context: ContextPrompts;
  readonly readOnlyFiles: readonly FileText[];
  readonly repoMap: string;
  readonly history: readonly ChatMessage[];
  readonly chatFiles: readonly FileText[];
  readonly request: string;
  /** Where the format's reminder goes: the end of the system prompt, or the end of the request. */
  readonly reminderPlacement?: 'system' | 'user';
}

export interface MessagePart {
  readonly name: string;
  readonly messages: readonly ChatMessage[];
}

export interface BuiltMessages {
  readonly messages: ChatMessage[];
  readonly parts: MessagePart[];
}

/** Tokens per part, counted only when someone asks (loading an encoder costs over a second). */
export function countParts(built: BuiltMessages, tokens: TokenCounter): Array<{ name: string; tokens: number }> {
  return built.parts.map((part) => ({
    name: part.name,
    tokens: part.messages.reduce((sum, m) => sum + tokens.count(m.content) + PER_MESSAGE_TOKENS, 0),
  }));
}

// Chat formats wrap each message in a few tokens of role markers.
const PER_MESSAGE_TOKENS = 4;

/** A fence longer than any backtick run at the start of a line in `text`. */
export function fenceFor(text: string): string {
  let longest = 2;
  for (const match of text.matchAll(/^\s*(`{3,})/gm)) longest = Math.max(longest, match[1]!.length);
  return '`'.repeat(longest + 1);
}

export function renderFiles(files: readonly FileText[]): string {
  return files
    .map((file) => {
      const fence = fenceFor(file.text);
      const body = file.text.endsWith('\n') || file.text === '' ? file.text : `${file.text}\n`;
      return `${file.path}\n${fence}\n${body}${fence}`;
    })
    .join('\n\n');
}

export function buildMessages(input: MessageInput): BuiltMessages {
  const messages: ChatMessage[] = [];
  const parts: MessagePart[] = [];
  const add = (name: string, added: ChatMessage[]): void => {
    if (added.length === 0) return;
    messages.push(...added);
    parts.push({ name, messages: added });
  };
  const pair = (content: string): ChatMessage[] => [
    { role: 'user', content },
    { role: 'assistant', content: input.context.ack },
  ];

  const reminder = input.format.reminder ? `\n\n${input.format.reminder}` : '';
  const inSystem = input.reminderPlacement === 'system';
  add('system prompt', [{ role: 'system', content: `${input.format.system}${inSystem ? reminder : ''}` }]);
  add('examples', input.format.examples);
  if (input.readOnlyFiles.length > 0) {
    add('read-only files', pair(fillPlaceholders(input.context.readOnly, { files: renderFiles(input.readOnlyFiles) })));
  }
  if (input.repoMap.trim() !== '') {
    add('repo map', pair(fillPlaceholders(input.context.repoMap, { map: input.repoMap })));
  }
  add('history', [...input.history]);
  const filesText =
    input.chatFiles.length > 0
      ? fillPlaceholders(input.context.chatFiles, { files: renderFiles(input.chatFiles) })
      : input.context.noChatFiles;
  add('chat files', pair(filesText));
  add('request', [{ role: 'user', content: `${input.request}${inSystem ? '' : reminder}` }]);
  return { messages, parts };
}
