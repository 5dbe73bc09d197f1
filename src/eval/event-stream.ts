// Reads one tandem run's --json event stream into what the eval counts: each reply with the edits it
// produced, whether it was well formed, reflections, syntax errors, tokens and cost.

export interface EditRecord {
  readonly path: string;
  readonly status: string;
  readonly diff?: string;
  readonly error?: string;
}

export interface ReplyRecord {
  /** The model's full reply, kept for --replay. */
  readonly text: string;
  readonly edits: EditRecord[];
  /** Parsed and applied without a format failure (no failed edit, no reflection for an edit problem). */
  wellFormed: boolean;
}

export interface StreamStats {
  readonly editFormat: string | null;
  readonly replies: ReplyRecord[];
  readonly reflections: number;
  readonly syntaxErrors: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** null when no request had a known price. */
  readonly cost: number | null;
  readonly status: string | null;
  readonly errors: string[];
}

type Event = Record<string, unknown>;

/** Splits stdout into events; lines that are not JSON objects are skipped rather than fatal. */
export function parseEventLines(stdout: string): Event[] {
  const events: Event[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    try {
      events.push(JSON.parse(line) as Event);
    } catch {
      // A line cut short by a crash: the rest of the stream still counts.
    }
  }
  return events;
}

const EDIT_REASON = /\bedit\b/;

export function analyzeEvents(events: readonly Event[]): StreamStats {
  const replies: ReplyRecord[] = [];
  const errors: string[] = [];
  let editFormat: string | null = null;
  let reflections = 0;
  let syntaxErrors = 0;
  let promptTokens = 0;
  let completionTokens = 0;
  let cost: number | null = null;
  let status: string | null = null;
  const last = (): ReplyRecord | undefined => replies[replies.length - 1];
  const markMalformed = (): void => {
    const reply = last();
    if (reply) reply.wellFormed = false;
  };
  for (const event of events) {
    switch (event['type']) {
      case 'session':
        editFormat = typeof event['editFormat'] === 'string' ? event['editFormat'] : null;
        break;
      case 'assistant':
        if (event['interrupted'] !== true) replies.push({ text: String(event['text'] ?? ''), edits: [], wellFormed: true });
        break;
      case 'edit': {
        const record = toEditRecord(event);
        last()?.edits.push(record);
        if (record.status === 'failed') markMalformed();
        break;
      }
      case 'reflection':
        reflections++;
        if (EDIT_REASON.test(String(event['reason'] ?? ''))) markMalformed();
        break;
      case 'lint':
        if (event['ok'] === false) syntaxErrors++;
        break;
      case 'usage':
        promptTokens += Number(event['promptTokens'] ?? 0);
        completionTokens += Number(event['completionTokens'] ?? 0);
        if (typeof event['cost'] === 'number') cost = (cost ?? 0) + event['cost'];
        break;
      case 'error': {
        const message = String(event['message'] ?? '');
        errors.push(message);
        // At the reflection limit the last failure is reported as an error, not a reflection.
        if (/still failing:.*\bedit\b/.test(message)) markMalformed();
        break;
      }
      case 'result':
        status = typeof event['status'] === 'string' ? event['status'] : null;
        break;
    }
  }
  return { editFormat, replies, reflections, syntaxErrors, promptTokens, completionTokens, cost, status, errors };
}

function toEditRecord(event: Event): EditRecord {
  const record: { path: string; status: string; diff?: string; error?: string } = {
    path: String(event['path'] ?? ''),
    status: String(event['status'] ?? ''),
  };
  if (typeof event['diff'] === 'string') record.diff = event['diff'];
  if (typeof event['error'] === 'string') record.error = event['error'];
  return record;
}
