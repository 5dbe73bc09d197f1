// A coder is one edit format: its name, how a reply in it is read, which prompts teach it, whether it
// edits, and where the user picks it. Each format is one file in coders/formats/ plus its prompts/
// folder; coders/registry.ts lists them, and every list of formats or chat modes comes from there.
import type { ParseContext, ParseResult } from '../edits/types.js';

/** A coder's name, as `--edit-format`, the session log and the registry spell it. */
export type CoderFormat = string;

/** `code` (the chat's edit format) or the name of a coder that is a chat mode of its own (`/chat-mode`). */
export type ChatMode = string;

export interface Coder {
  readonly name: CoderFormat;
  /** Whether replies carry edits that tandem applies; a coder without them only talks. */
  readonly makesEdits: boolean;
  /**
   * Its folder in prompts/: system.md, examples.md and reminder.md (with `{fence}` and `{platform}`),
   * and reflection/<file>.md for any reflection it words its own way (prompts/reflection/ has the rest).
   */
  readonly promptFolder: string;
  /** Whether `--edit-format` offers it. */
  readonly editFormatChoice: boolean;
  /** When it is a chat mode of its own (`/chat-mode`, `/<name>`): what the mode does, in one line. */
  readonly chatMode: string | null;
  /** Reads the edits out of a reply: pure, never throws; formatting mistakes come back as problems for the model. */
  parse(reply: string, context: ParseContext): ParseResult;
}

export interface CoderDefinition {
  readonly name: string;
  /** The format's parser (edits/); none: replies carry no edits. */
  readonly parse?: (reply: string, context: ParseContext) => ParseResult;
  /** Default: the name. */
  readonly promptFolder?: string;
  /** Default: whether it makes edits. */
  readonly editFormatChoice?: boolean;
  readonly chatMode?: string;
}

/** A coder from what makes its format different; the rest follows from having a parser or not. */
export function defineCoder(definition: CoderDefinition): Coder {
  const parser = definition.parse;
  return {
    name: definition.name,
    makesEdits: parser !== undefined,
    promptFolder: definition.promptFolder ?? definition.name,
    editFormatChoice: definition.editFormatChoice ?? parser !== undefined,
    chatMode: definition.chatMode ?? null,
    // A fresh result each time: callers may add to its lists.
    parse: parser ?? (() => ({ edits: [], shellCommands: [], problems: [] })),
  };
}
