// A coder is one edit format as data: its name and prompts. What a reply means follows from the
// format alone (its parser in edits/, or no edits at all for `ask`), so no format needs its own class.
import { parseReply } from '../edits/parse.js';
import type { ParseContext, ParseResult } from '../edits/types.js';
import type { CoderFormat } from '../model/edit-formats.js';
import type { FormatPrompts } from './prompt-files.js';

export type { CoderFormat } from '../model/edit-formats.js';

export class Coder {
  constructor(
    readonly format: CoderFormat,
    readonly prompts: FormatPrompts,
  ) {}

  /** Whether replies in this format carry edits at all. */
  get makesEdits(): boolean {
    return this.format !== 'ask';
  }

  parse(reply: string, context: ParseContext): ParseResult {
    if (this.format === 'ask') return { edits: [], shellCommands: [], problems: [] };
    return parseReply(this.format, reply, context);
  }
}

export function createCoder(format: CoderFormat, prompts: FormatPrompts): Coder {
  return new Coder(format, prompts);
}
