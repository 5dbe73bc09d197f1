// The one list of coders. Every list of edit formats and chat modes comes from it: the option table's
// `--edit-format`, `--editor-edit-format` and `--chat-mode` choices, /chat-mode, the eval's formats and
// replay, and the coder loader. Adding a format: its file in formats/, its prompts/ folder, one line below.
import type { ParseContext, ParseResult } from '../edits/types.js';
import type { ChatMode, Coder, CoderFormat } from './coder.js';
import { architectCoder } from './formats/architect.js';
import { askCoder } from './formats/ask.js';
import { contextCoder } from './formats/context.js';
import { diffFencedCoder } from './formats/diff-fenced.js';
import { diffCoder } from './formats/diff.js';
import { udiffCoder } from './formats/udiff.js';
import { wholeCoder } from './formats/whole.js';

export interface ChatModeInfo {
  readonly name: ChatMode;
  readonly description: string;
}

/** `code` is no coder of its own: it is the mode of whichever edit format the chat uses. */
export const CODE_MODE: ChatModeInfo = { name: 'code', description: 'ask for changes; the model edits the files (the default)' };

export interface CoderRegistry {
  readonly coders: readonly Coder[];
  find(name: string): Coder | undefined;
  /** The coder of that name; throws for a name no entry point should have let through. */
  get(name: CoderFormat): Coder;
  /** The formats whose replies carry edits (`--editor-edit-format`), in list order. */
  readonly editFormats: readonly CoderFormat[];
  /** `--edit-format`'s choices: the formats that edit, then those that only talk. */
  readonly editFormatChoices: readonly CoderFormat[];
  /** Every chat mode in list order; the formats that edit make one mode, `code`, where the first of them stands. */
  readonly chatModes: readonly ChatModeInfo[];
}

export function createCoderRegistry(coders: readonly Coder[]): CoderRegistry {
  const byName = new Map<string, Coder>();
  for (const coder of coders) {
    if (byName.has(coder.name) || coder.name === CODE_MODE.name) throw new Error(`two coders are named ${coder.name}`);
    byName.set(coder.name, coder);
  }
  const editing = coders.filter((c) => c.makesEdits);
  const chatModes: ChatModeInfo[] = [];
  for (const coder of coders) {
    if (coder.chatMode !== null) chatModes.push({ name: coder.name, description: coder.chatMode });
    else if (coder === editing[0]) chatModes.push(CODE_MODE);
  }
  return {
    coders,
    find: (name) => byName.get(name),
    get(name) {
      const coder = byName.get(name);
      if (!coder) throw new Error(`no coder is named ${JSON.stringify(name)}`);
      return coder;
    },
    editFormats: editing.map((c) => c.name),
    editFormatChoices: [...editing, ...coders.filter((c) => !c.makesEdits && c.editFormatChoice)].map((c) => c.name),
    chatModes,
  };
}

// In the order /chat-mode shows them: `ask` (talk only), the formats that edit (together the mode `code`),
// then the modes that plan for another model or point at files.
export const BUILT_IN_CODERS: readonly Coder[] = [askCoder, diffCoder, diffFencedCoder, wholeCoder, udiffCoder, architectCoder, contextCoder];

export const CODERS: CoderRegistry = createCoderRegistry(BUILT_IN_CODERS);

/** Reads a reply in a built-in format by name (tests, the eval's replay); the round reads through its coder. */
export function parseReply(format: CoderFormat, reply: string, context: ParseContext): ParseResult {
  return CODERS.get(format).parse(reply, context);
}
