// Fixed prompt overhead per edit format: the system prompt, the example turns and the reminder as the
// coder sends them on every request, counted in o200k_base tokens (with the per-message framing).
import path from 'node:path';
import { platform } from 'node:os';
import { buildMessages, countParts } from '../src/coders/messages.js';
import { createPromptLoader } from '../src/coders/prompt-set.js';
import { CODERS } from '../src/coders/registry.js';
import { createPromptReader } from '../src/platform/prompt-files.js';
import { createTokenizerPool, type EncodedTokenCounter } from '../src/model/tokens.js';
import type { BenchRow, SectionContext, SectionResult } from './measure.js';

export const PROMPT_FORMATS = CODERS.editFormatChoices;
export const DIFF_LIMIT_TOKENS = 850;
/** Aider's published fixed overhead of its SEARCH/REPLACE ("diff") format, for comparison. */
export const AIDER_DIFF_TOKENS = { low: 1400, high: 1570 };

export interface FormatOverhead {
  readonly format: string;
  readonly system: number;
  readonly examples: number;
  readonly reminder: number;
  readonly total: number;
}

/** Builds a request with no files, map or history, so only the fixed parts carry text. */
export async function measureFormat(promptsDir: string, format: string, tokens: EncodedTokenCounter): Promise<FormatOverhead> {
  const prompts = await createPromptLoader(createPromptReader(promptsDir), { fence: '```', platform: platform() }).forCoder(CODERS.get(format));
  const built = buildMessages({
    format: prompts.format,
    context: prompts.context,
    readOnlyFiles: [],
    repoMap: '',
    conversation: [],
    turn: { text: '', fullFiles: [], changes: [], mentioned: '', noChatFiles: false },
  });
  const counts = new Map(countParts(built, tokens).map((part) => [part.name, part.tokens]));
  const system = counts.get('system prompt') ?? 0;
  const examples = counts.get('examples') ?? 0;
  // The reminder rides on the request message: with an empty request, that message is the reminder.
  const reminder = prompts.format.reminder ? (counts.get('request') ?? 0) : 0;
  return { format, system, examples, reminder, total: system + examples + reminder };
}

export async function runPromptsBench(ctx: SectionContext): Promise<SectionResult> {
  const pool = createTokenizerPool();
  try {
    const tokens = pool.counterFor('gpt-4o');
    const promptsDir = path.join(ctx.packageRoot, 'prompts');
    const measured: FormatOverhead[] = [];
    for (const format of PROMPT_FORMATS) measured.push(await measureFormat(promptsDir, format, tokens));
    const reference = { label: `Aider diff ~${AIDER_DIFF_TOKENS.low}-${AIDER_DIFF_TOKENS.high}`, value: AIDER_DIFF_TOKENS.low };
    const rows: BenchRow[] = measured.map((m) => {
      const metric = `${m.format} (system ${m.system} + examples ${m.examples} + reminder ${m.reminder})`;
      if (m.format !== 'diff') return { metric, value: m.total, unit: 'tokens' };
      return { metric, value: m.total, unit: 'tokens', reference, ratio: m.total / reference.value, target: `<= ${DIFF_LIMIT_TOKENS}`, ok: m.total <= DIFF_LIMIT_TOKENS };
    });
    const diff = measured.find((m) => m.format === 'diff');
    const notes = [`encoding ${tokens.encoding}; each message counts 4 framing tokens`];
    if (diff && diff.total > DIFF_LIMIT_TOKENS) notes.push(`WARNING: diff prompt overhead ${diff.total} exceeds ${DIFF_LIMIT_TOKENS} tokens`);
    return { name: 'prompts', rows, notes, details: measured };
  } finally {
    pool.free();
  }
}
