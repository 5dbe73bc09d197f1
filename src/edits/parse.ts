// Entry point for reading a model reply: dispatches to the parser of the edit format.
// Parsers are pure and never throw; formatting mistakes come back as `problems` for the model.

import { parseSearchReplace } from './parse-search-replace.js';
import { parseUdiff } from './parse-udiff.js';
import { parseWhole } from './parse-whole.js';
import type { EditFormat, ParseContext, ParseResult } from './types.js';

export function parseReply(format: EditFormat, reply: string, ctx: ParseContext): ParseResult {
  switch (format) {
    case 'diff':
    case 'diff-fenced':
      // Models mix the two layouts up, so one parser accepts both.
      return parseSearchReplace(reply, ctx);
    case 'whole':
      return parseWhole(reply, ctx);
    case 'udiff':
      return parseUdiff(reply, ctx);
  }
}
