// Edit throughput: parse + plan of large generated replies over a large file, per edit format, in
// MB of reply per second and blocks per second. Pure string work, so it runs in this process.
import { parseReply } from '../src/coders/registry.js';
import { planEdits } from '../src/edits/plan.js';
import type { EditFormat, FileSnapshot } from '../src/edits/types.js';
import { matchScalingRows } from './match-scaling.js';
import { median, type BenchRow, type SectionContext, type SectionResult } from './measure.js';

const FILE_PATH = 'src/big_module.py';
const CHUNK_LINES = 8;

export interface EditsSize {
  readonly fileLines: number;
}

/** A Python-like file of unique lines (so every block matches exactly once). */
export function bigFile(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(i % CHUNK_LINES === 0 ? `def step_${i}(value, options=None):` : `    total_${i} = compute(value, ${i}, "payload-${(i * 7919) % 100000}")`);
  }
  return `${out.join('\n')}\n`;
}

function chunks(file: string): string[][] {
  const lines = file.split('\n').slice(0, -1);
  const out: string[][] = [];
  for (let i = 0; i + CHUNK_LINES <= lines.length; i += CHUNK_LINES) out.push(lines.slice(i, i + CHUNK_LINES));
  return out;
}

const changed = (lines: string[]): string[] => lines.map((line) => line.replace('compute(', 'compute_fast('));
// The fuzzy reply indents every line 4 spaces more than the file does (a whole block shifted, as models
// do when they quote a method): the matching ladder must find it and keep the file's indentation.
const shifted = (lines: string[]): string[] => lines.map((line) => `    ${line}`);

function block(search: readonly string[], replace: readonly string[]): string {
  return [FILE_PATH, '```python', '<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE', '```', ''].join('\n');
}

/** One SEARCH/REPLACE block per chunk of the file; `fuzzy` shifts each block's indentation. */
export function searchReplaceReply(file: string, fuzzy = false): string {
  const blocks = chunks(file).map((lines) => {
    const search = fuzzy ? shifted(lines) : lines;
    const replace = fuzzy ? shifted(changed(lines)) : changed(lines);
    return block(search, replace);
  });
  return `Here are the changes.\n\n${blocks.join('\n')}`;
}

/** Each block quotes the chunk's first and last two lines around a `# ...` elision line. */
export function elidedReply(file: string): string {
  const blocks = chunks(file).map((lines) => {
    const cut = (l: string[]): string[] => [...l.slice(0, 2), '    # ...', ...l.slice(-2)];
    return block(cut(lines), cut(changed(lines)));
  });
  return `Here are the changes.\n\n${blocks.join('\n')}`;
}

// Word-processor quotes in SEARCH where the file has straight ones: only the unicode rung matches.
const curly = (lines: string[]): string[] => lines.map((line) => line.replace(/"([^"]*)"/g, '\u201C$1\u201D'));

export function smartQuotesReply(file: string): string {
  const blocks = chunks(file).map((lines) => block(curly(lines), changed(lines)));
  return `Here are the changes.\n\n${blocks.join('\n')}`;
}

/** One block per `every` chunks whose SEARCH misspells a name, so it fails and gets a closest-lines message. */
export function noMatchReply(file: string, every: number): string {
  const blocks = chunks(file)
    .filter((_, i) => i % every === 0)
    .map((lines) => block(lines.map((l) => l.replace('compute(', 'compote(')), changed(lines)));
  return `Here are the changes.\n\n${blocks.join('\n')}`;
}

/** One unified diff with one hunk per chunk of the file. */
export function udiffReply(file: string): string {
  const hunks = chunks(file).map((lines) => {
    const [head, ...rest] = lines;
    return ['@@ @@', ` ${head}`, ...rest.map((l) => `-${l}`), ...changed(rest).map((l) => `+${l}`)].join('\n');
  });
  return ['Here is the diff.', '', '```diff', `--- a/${FILE_PATH}`, `+++ b/${FILE_PATH}`, ...hunks, '```', ''].join('\n');
}

export function wholeReply(file: string): string {
  return ['Here is the new file.', '', FILE_PATH, '```python', ...changed(file.split('\n').slice(0, -1)), '```', ''].join('\n');
}

interface Case {
  readonly label: string;
  readonly format: EditFormat;
  readonly reply: string;
  /** Every block is meant to fail (the no-match case). */
  readonly failing?: boolean;
}

interface CaseResult {
  readonly blocks: number;
  readonly failures: number;
  readonly problems: number;
  readonly ms: number;
}

function runCase(c: Case, snapshot: FileSnapshot): CaseResult {
  const started = performance.now();
  const parsed = parseReply(c.format, c.reply, { chatFiles: [FILE_PATH] });
  const plan = planEdits(parsed.edits, new Map([[FILE_PATH, snapshot]]), { chatFiles: [FILE_PATH] });
  const ms = performance.now() - started;
  return { blocks: parsed.edits.length, failures: plan.failures.length, problems: parsed.problems.length, ms };
}

export async function runEditsBench(ctx: SectionContext): Promise<SectionResult> {
  const fileLines = ctx.quick ? 800 : 20_000;
  const runs = ctx.quick ? 2 : 5;
  const file = bigFile(fileLines);
  const snapshot: FileSnapshot = { path: FILE_PATH, text: file, eol: '\n', bom: false, finalNewline: true };
  const cases: Case[] = [
    { label: 'diff, exact', format: 'diff', reply: searchReplaceReply(file) },
    { label: 'diff, shifted indentation', format: 'diff', reply: searchReplaceReply(file, true) },
    { label: 'diff, `...` elision', format: 'diff', reply: elidedReply(file) },
    { label: 'diff, smart quotes', format: 'diff', reply: smartQuotesReply(file) },
    { label: 'diff, no match', format: 'diff', reply: noMatchReply(file, 50), failing: true },
    { label: 'udiff', format: 'udiff', reply: udiffReply(file) },
    { label: 'whole', format: 'whole', reply: wholeReply(file) },
  ];
  const rows: BenchRow[] = [];
  const notes = [`file: ${fileLines} lines, ${(file.length / 1048576).toFixed(2)} MB; median of ${runs} runs`];
  for (const c of cases) {
    ctx.log(`edits: ${c.label}`);
    const results = Array.from({ length: runs }, () => runCase(c, snapshot));
    const first = results[0]!;
    const ms = median(results.map((r) => r.ms));
    const mb = c.reply.length / 1048576;
    rows.push({ metric: `${c.label}: ${mb.toFixed(2)} MB reply, ${first.blocks} blocks`, value: mb / (ms / 1000), unit: 'MB/s' });
    rows.push({ metric: `${c.label}: blocks per second`, value: first.blocks / (ms / 1000), unit: 'blocks/s' });
    const expected = c.failing ? first.blocks : 0;
    if (first.failures !== expected || first.problems > 0) notes.push(`${c.label}: ${first.failures} failed edits, ${first.problems} parse problems`);
  }
  ctx.log('edits: how matching scales');
  rows.push(...matchScalingRows(ctx.quick));
  return { name: 'edits', rows, notes };
}
