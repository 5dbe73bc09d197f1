// The `tandem trace` waterfall: one block per request (its text, time, tokens, cost and outcome), a row
// per step with a bar placed and sized on the request's own time, the decisions taken, and totals.
// Pure: the caller gives the width. Every text from the log is escaped, so a planted log cannot
// drive the terminal.
import { escapeControlChars } from '../platform/control-chars.js';
import type { Mark, RequestTimeline, Step } from './timeline.js';
import { stepEnd } from './timeline.js';

export interface TraceView {
  readonly id: string;
  readonly model: string | null;
  readonly created: string | null;
  readonly requests: readonly RequestTimeline[];
  /** Audit decisions outside every request. */
  readonly marks: readonly Mark[];
  /** Lines of the audit log that were skipped (not JSON, wrong shape). */
  readonly skippedAudit: number;
}

const MIN_BAR = 10;

export function renderTrace(view: TraceView, width: number): string {
  const columns = Math.max(50, width);
  const labelWidth = Math.min(44, Math.floor(columns * 0.45));
  const barWidth = Math.max(MIN_BAR, columns - labelWidth - 10);
  const lines: string[] = [];
  const head = [`Session ${clean(view.id)}`, view.model ? clean(view.model) : null, view.created ? clean(view.created).replace('T', ' ').slice(0, 19) : null];
  lines.push(fit(head.filter((p) => p !== null).join('  '), columns));
  if (view.requests.length === 0) lines.push('  (no requests in this session)');
  for (const request of view.requests) {
    lines.push('');
    lines.push(...requestHeader(request, columns));
    const span = Math.max(1, request.end - request.start);
    const row = (depth: number, label: string, start: number, end: number, fill: string, duration: string): string =>
      `${fit(`${'  '.repeat(depth)}${label}`, labelWidth).padEnd(labelWidth)} ${bar(start - request.start, end - request.start, span, barWidth, fill)} ${duration.padStart(7)}`;
    const walk = (steps: readonly Step[], depth: number): void => {
      for (const step of steps) {
        const end = stepEnd(step);
        lines.push(row(depth, stepLabel(step), step.start, end, step.ok ? '█' : '▒', seconds(end - step.start)));
        walk(step.children, depth + 1);
      }
    };
    walk(request.steps, 1);
    for (const mark of [...request.marks].sort((a, b) => a.at - b.at)) lines.push(row(1, markLabel(mark), mark.at, mark.at, '◆', ''));
  }
  if (view.marks.length > 0) {
    lines.push('', 'Decisions outside requests:');
    for (const mark of view.marks) lines.push(fit(`  ${clean(new Date(mark.at).toISOString().slice(11, 19))}  ${markLabel(mark)}`, columns));
  }
  if (view.skippedAudit > 0) lines.push('', `(${view.skippedAudit} unreadable line(s) of .tandem/audit.jsonl skipped)`);
  lines.push('', ...totalsLines(view.requests).map((line) => fit(line, columns)));
  return `${lines.map((line) => line.trimEnd()).join('\n')}\n`;
}

function requestHeader(request: RequestTimeline, columns: number): string[] {
  const text = firstLine(request.text) || '(request)';
  const mode = request.mode === 'code' ? '' : ` [${clean(request.mode)}]`;
  const first = fit(`#${request.n}${mode} ${clean(text)}`, columns);
  const facts = [
    seconds(request.end - request.start),
    `${tokens(request.promptTokens)} in${request.cachedTokens > 0 ? ` (${tokens(request.cachedTokens)} cached)` : ''}`,
    `${tokens(request.completionTokens)} out`,
    money(request.cost),
    clean(request.status).replace(/_/g, ' '),
  ];
  const error = request.error ? `: ${clean(firstLine(request.error))}` : '';
  return [first, fit(`   ${facts.join(' · ')}${request.status === 'completed' ? '' : error}`, columns)];
}

function stepLabel(step: Step): string {
  const a = step.attributes;
  switch (step.kind) {
    case 'model': {
      const ttft = a['tandem.time_to_first_token_ms'];
      const first = typeof ttft === 'number' ? ` ttft ${seconds(ttft)}` : '';
      return `model ${clean(String(a['gen_ai.request.model'] ?? ''))}${first}`.trimEnd() + (step.ok ? '' : ' (failed)');
    }
    case 'round': {
      const files = (a['tandem.edit.files'] as readonly string[]).map(clean).join(', ');
      const failures = a['tandem.edit.failures'] as number;
      return `edit ${files || '(no files)'}${failures > 0 ? ` (${failures} failed)` : ''}`;
    }
    case 'commit':
      return `commit ${clean(String(a['tandem.commit.hash'] ?? '')).slice(0, 7)}${a['tandem.commit.user'] === true ? ' (your changes)' : ''}`;
    case 'reflection':
      return `reflection ${String(a['tandem.reflection.n'] ?? '')}: ${clean(String(a['tandem.reflection.reason'] ?? ''))}`;
    default: {
      const command = typeof a['tandem.check.command'] === 'string' ? `: ${clean(a['tandem.check.command'])}` : '';
      const exit = typeof a['process.exit.code'] === 'number' && a['process.exit.code'] !== 0 ? ` (exit ${a['process.exit.code']})` : '';
      return `${step.kind}${step.ok ? ' ok' : ' failed'}${exit}${command}`;
    }
  }
}

function markLabel(mark: Mark): string {
  const who = mark.by ? ` (${clean(mark.by)})` : '';
  return `${mark.source === 'audit' ? 'audit' : 'asked'}: ${clean(firstLine(mark.text))} → ${clean(mark.decision)}${who}`;
}

function totalsLines(requests: readonly RequestTimeline[]): string[] {
  const sum = (pick: (r: RequestTimeline) => number): number => requests.reduce((total, r) => total + pick(r), 0);
  const costs = requests.map((r) => r.cost).filter((c): c is number => c !== null);
  const calls = requests.reduce((total, r) => total + countSteps(r.steps, 'model'), 0);
  const commits = requests.reduce((total, r) => total + countSteps(r.steps, 'commit'), 0);
  const reflections = requests.reduce((total, r) => total + countSteps(r.steps, 'reflection'), 0);
  const cached = sum((r) => r.cachedTokens);
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [
    `Total: ${[plural(requests.length, 'request'), seconds(sum((r) => r.end - r.start)), plural(calls, 'model call'), plural(commits, 'commit'), plural(reflections, 'reflection')].join(' · ')}`,
    `       ${[
      `${tokens(sum((r) => r.promptTokens))} in${cached > 0 ? ` (${tokens(cached)} cached)` : ''}`,
      `${tokens(sum((r) => r.completionTokens))} out`,
      money(costs.length === 0 ? null : costs.reduce((a, b) => a + b, 0)),
    ].join(' · ')}`,
  ];
}

function countSteps(steps: readonly Step[], kind: Step['kind']): number {
  return steps.reduce((total, step) => total + (step.kind === kind ? 1 : 0) + countSteps(step.children, kind), 0);
}

/** A bar of `width` cells: blank before `from`, `fill` up to `to` (one cell at least). */
export function bar(from: number, to: number, span: number, width: number, fill: string): string {
  const clamp = (x: number): number => Math.min(width, Math.max(0, x));
  const start = clamp(Math.floor((from / span) * width));
  const end = Math.max(clamp(Math.round((to / span) * width)), Math.min(width, start + 1));
  return `${' '.repeat(Math.min(start, width - 1))}${fill.repeat(Math.max(1, end - start))}`.padEnd(width).slice(0, width);
}

function seconds(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '-';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
}

function tokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

function money(cost: number | null): string {
  return cost === null ? 'cost unknown' : `$${cost.toFixed(4)}`;
}

function clean(text: string): string {
  return escapeControlChars(text);
}

function firstLine(text: string): string {
  return text.trim().split('\n', 1)[0] ?? '';
}

/** Cuts to `width` characters, ending with an ellipsis when cut. */
function fit(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}
