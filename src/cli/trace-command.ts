// `tandem trace [SESSION] [--width N]`: a saved session's timeline in the terminal, from its log and the
// repository's audit log. Reached from run-cli.ts by a dynamic import, so plain tandem never loads it.
import { join } from 'node:path';
import { findRepoRoot } from '../git/repo.js';
import { escapeControlChars } from '../platform/control-chars.js';
import { EXIT } from '../session/exit-codes.js';
import { listSessions, sessionsDir } from '../session/session-log.js';
import { renderTrace } from '../telemetry/render-timeline.js';
import { buildTimeline } from '../telemetry/timeline.js';
import { placeMarks, readAuditMarks, readSessionEvents } from '../telemetry/trace-sources.js';
import type { CliEnvironment } from './cli-environment.js';

const USAGE = 'usage: tandem trace [SESSION] [--width N]   (SESSION: an id from tandem --sessions; default the latest)';

type TraceArgs =
  | { readonly ok: true; readonly id: string | null; readonly width: number | null; readonly help?: boolean }
  | { readonly ok: false; readonly error: string };

export function parseTraceArgs(argv: readonly string[]): TraceArgs {
  let id: string | null = null;
  let width: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const inline = /^--width=(.*)$/.exec(arg);
    if (arg === '--width' || inline) {
      const value = inline ? inline[1]! : argv[++i];
      if (value === undefined || !/^\d+$/.test(value) || Number(value) < 20 || Number(value) > 1000) return { ok: false, error: '--width takes a number of columns from 20 to 1000' };
      width = Number(value);
    } else if (arg === '--help' || arg === '-h') {
      return { ok: true, id: null, width: null, help: true };
    } else if (arg.startsWith('-') || id !== null) {
      return { ok: false, error: `unexpected argument ${escapeControlChars(arg)}\n${USAGE}` };
    } else {
      id = arg;
    }
  }
  return { ok: true, id, width };
}

export async function runTraceCli(environment: CliEnvironment, argv: readonly string[]): Promise<number> {
  const parsed = parseTraceArgs(argv);
  if (!parsed.ok) {
    environment.stderr.write(`tandem trace: ${parsed.error}\n`);
    return EXIT.usage;
  }
  if (parsed.help) {
    environment.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const root = (await findRepoRoot(environment.cwd, { env: { ...environment.env } })) ?? environment.cwd;
  const ids = listSessions(root);
  // Only names tandem listed: an id is never used as a path.
  const id = parsed.id === null ? ids.at(-1) : ids.find((candidate) => candidate === parsed.id);
  if (!id) {
    const message = parsed.id === null ? 'no saved session in this repository' : `no saved session with id ${escapeControlChars(parsed.id)} (see tandem --sessions)`;
    environment.stderr.write(`tandem trace: ${message}\n`);
    return EXIT.usage;
  }
  const session = readSessionEvents(root, join(sessionsDir(root), `${id}.jsonl`), `.tandem/sessions/${id}.jsonl`);
  if (!session.ok) {
    environment.stderr.write(`tandem trace: ${escapeControlChars(session.message)}\n`);
    return EXIT.error;
  }
  const requests = buildTimeline(session.value.events);
  const audit = readAuditMarks(root);
  if (audit.problem) environment.stderr.write(`tandem: warning: ${escapeControlChars(audit.problem)}\n`);
  const sessionStart = requests[0]?.start ?? Number.NEGATIVE_INFINITY;
  const sessionEnd = requests.at(-1)?.end ?? Number.POSITIVE_INFINITY;
  // Decisions of other sessions are not this one's: only those from its first request to its last.
  const outside = placeMarks(requests, audit.marks.filter((m) => m.at >= sessionStart && m.at <= sessionEnd));
  const width = parsed.width ?? environment.columns ?? widthFromEnv(environment.env) ?? 80;
  environment.stdout.write(renderTrace({ id, model: session.value.model, created: session.value.created, requests, marks: outside, skippedAudit: audit.skipped }, width));
  return EXIT.ok;
}

function widthFromEnv(env: Readonly<Record<string, string | undefined>>): number | null {
  const columns = Number(env['COLUMNS']);
  return Number.isInteger(columns) && columns >= 20 && columns <= 1000 ? columns : null;
}
