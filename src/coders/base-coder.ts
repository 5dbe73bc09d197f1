// A coder is one edit format: its prompts and how a reply becomes edits. Subclasses only name the format.
import { parseReply } from '../edits/parse.js';
import type { EditFormat, ParseContext, ParseResult } from '../edits/types.js';
import type { FormatPrompts } from './prompt-files.js';

export type CoderFormat = EditFormat | 'ask';

export const CODER_FORMATS: readonly CoderFormat[] = ['diff', 'diff-fenced', 'whole', 'udiff', 'ask'];

export abstract class Coder {
  abstract readonly format: CoderFormat;

  constructor(readonly prompts: FormatPrompts) {}

  /** Whether replies in this format carry edits at all. */
  get makesEdits(): boolean {
    return this.format !== 'ask';
  }

  parse(reply: string, context: ParseContext): ParseResult {
    if (this.format === 'ask') return { edits: [], shellCommands: [], problems: [] };
    return parseReply(this.format, reply, context);
  }
}

export class DiffCoder extends Coder {
  readonly format = 'diff' as const;
}

export class DiffFencedCoder extends Coder {
  readonly format = 'diff-fenced' as const;
}

export class WholeFileCoder extends Coder {
  readonly format = 'whole' as const;
}

export class UnifiedDiffCoder extends Coder {
  readonly format = 'udiff' as const;
}

export class AskCoder extends Coder {
  readonly format = 'ask' as const;
}

export function createCoder(format: CoderFormat, prompts: FormatPrompts): Coder {
  switch (format) {
    case 'diff':
      return new DiffCoder(prompts);
    case 'diff-fenced':
      return new DiffFencedCoder(prompts);
    case 'whole':
      return new WholeFileCoder(prompts);
    case 'udiff':
      return new UnifiedDiffCoder(prompts);
    case 'ask':
      return new AskCoder(prompts);
  }
}
