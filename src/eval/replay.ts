// --replay: feeds a run's stored replies through today's parsers and matchers, without a model, and
// reports every reply that would now apply differently than it did when it was recorded.
import type { Coder } from '../coders/coder.js';
import { CODERS } from '../coders/registry.js';
import { planEdits } from '../edits/plan.js';
import type { FileSnapshot } from '../edits/types.js';
import { unifiedDiff } from '../edits/unified-diff.js';
import type { EditRecord } from './event-stream.js';
import type { ExerciseResult, TryResult } from './run-exercise.js';

export interface ReplayDifference {
  readonly exercise: string;
  readonly tryN: number;
  /** 1-based reply within the try; 0 for the files at the end of the try. */
  readonly reply: number;
  readonly recorded: string;
  readonly now: string;
}

export interface ReplayReport {
  readonly exercises: number;
  readonly replies: number;
  readonly same: number;
  readonly differences: ReplayDifference[];
  /** Tries whose edit format has no parser (ask), not replayed. */
  readonly skipped: number;
}

/** A made-up root: the planner only needs one to judge absolute paths in replies. */
const REPLAY_ROOT = '/tandem-replay';

export function replayResults(results: readonly ExerciseResult[], fallbackFormat: string | null): ReplayReport {
  const differences: ReplayDifference[] = [];
  let replies = 0;
  let same = 0;
  let skipped = 0;
  for (const result of results) {
    result.tries.forEach((attempt, i) => {
      const coder = CODERS.find(attempt.editFormat ?? fallbackFormat ?? 'diff');
      if (!coder?.makesEdits) {
        skipped++;
        return;
      }
      // Each try starts from the files the previous one really left, so one change does not cascade.
      const start = i === 0 ? result.startingFiles : (result.tries[i - 1]?.files ?? result.startingFiles);
      const outcome = replayTry(result, attempt, start, coder);
      replies += attempt.replies.length;
      same += outcome.same;
      differences.push(...outcome.differences);
    });
  }
  return { exercises: results.length, replies, same, differences, skipped };
}

function replayTry(result: ExerciseResult, attempt: TryResult, start: Record<string, string>, coder: Coder) {
  const files = new Map<string, FileSnapshot>(Object.entries(start).map(([path, text]) => [path, snapshotOf(path, text)]));
  const differences: ReplayDifference[] = [];
  let same = 0;
  attempt.replies.forEach((reply, i) => {
    const now = replayReply(reply.text, coder, result.chatFiles, files);
    const recorded = describe(reply.edits, reply.wellFormed);
    const current = describe(now.edits, now.wellFormed);
    if (recorded === current) same++;
    else differences.push({ exercise: result.name, tryN: attempt.n, reply: i + 1, recorded, now: current });
  });
  const changed = changedPaths(files, attempt.files);
  if (changed.length > 0) {
    differences.push({ exercise: result.name, tryN: attempt.n, reply: 0, recorded: 'files as tandem left them', now: `differ in ${changed.join(', ')}` });
  }
  return { same, differences };
}

/** Parses and plans one reply against `files`, then moves `files` on to the planned state. */
function replayReply(text: string, coder: Coder, chatFiles: readonly string[], files: Map<string, FileSnapshot>) {
  const parsed = coder.parse(text, { chatFiles });
  const plan = planEdits(parsed.edits, files, { chatFiles, root: REPLAY_ROOT });
  const edits: EditRecord[] = plan.failures.map((f) => ({ path: f.edit.path, status: f.reason === 'denied' ? 'denied' : 'failed' }));
  for (const file of plan.files) {
    edits.push({ path: file.path, status: 'applied', diff: unifiedDiff(file.path, file.before.text ?? '', file.after) });
    files.set(file.path, { ...file.before, text: file.after, finalNewline: file.after.endsWith('\n') });
  }
  return { edits, wellFormed: plan.failures.length === 0 && parsed.problems.length === 0 };
}

/** A canonical text of what a reply did, equal exactly when the edits are. */
function describe(edits: readonly EditRecord[], wellFormed: boolean): string {
  const lines = edits
    .map((e) => `${e.status} ${e.path}${e.diff ? ` (${diffSize(e.diff)})` : ''}${e.diff ? `\n${e.diff}` : ''}`)
    .sort();
  return [`${wellFormed ? 'well formed' : 'malformed'}`, ...lines].join('\n');
}

function diffSize(diff: string): string {
  const lines = diff.split('\n');
  const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
  const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
  return `+${added} -${removed}`;
}

function snapshotOf(path: string, raw: string): FileSnapshot {
  const text = raw.replace(/\r\n/g, '\n');
  const eol = raw.includes('\r\n') ? '\r\n' : '\n';
  return { path, text, eol, bom: false, finalNewline: text.endsWith('\n') };
}

function changedPaths(files: ReadonlyMap<string, FileSnapshot>, recorded: Record<string, string>): string[] {
  const paths = new Set([...files.keys(), ...Object.keys(recorded)]);
  return [...paths]
    .filter((path) => {
      const now = files.get(path)?.text ?? null;
      const then = recorded[path] !== undefined ? recorded[path].replace(/\r\n/g, '\n') : null;
      return now !== then;
    })
    .sort();
}

/** Short, readable lines for the terminal: the first line of each description, not the diffs. */
export function renderReplay(runId: string, report: ReplayReport): string {
  const lines = [
    `replay of ${runId}: ${report.replies} replies from ${report.exercises} exercises; ${report.same} apply as recorded, ${report.differences.filter((d) => d.reply > 0).length} differently`,
  ];
  if (report.skipped > 0) lines.push(`  (${report.skipped} tries in a format without edits were skipped)`);
  for (const d of report.differences) {
    const where = d.reply === 0 ? `${d.exercise} try ${d.tryN} files` : `${d.exercise} try ${d.tryN} reply ${d.reply}`;
    lines.push(`  ${where}`, `    recorded: ${headline(d.recorded)}`, `    now:      ${headline(d.now)}`);
  }
  return `${lines.join('\n')}\n`;
}

function headline(description: string): string {
  return description
    .split('\n')
    .filter((l) => /^(well formed|malformed|applied|failed|denied|files|differ)/.test(l))
    .join('; ');
}
