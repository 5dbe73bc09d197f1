// A session's steps in time, built from its events: each request with its model calls, edit rounds,
// checks, commits and reflections. The same tree feeds the OTLP spans and the `tandem trace` waterfall.
// Events may come from a log a stranger wrote: every field is read as unknown and checked.

/** One event and when it happened (epoch ms; null when an old log did not say). */
export interface TimedEvent {
  readonly at: number | null;
  readonly event: Readonly<Record<string, unknown>>;
}

export type StepKind = 'model' | 'round' | 'syntax' | 'lint' | 'test' | 'commit' | 'reflection';

export type AttributeValue = string | number | boolean | readonly string[];

export interface Step {
  readonly kind: StepKind;
  start: number;
  end: number;
  /** false: the step failed (a model error, a failed check, an edit that did not apply). */
  ok: boolean;
  error?: string;
  /** A model call's reply text (exported only with --otlp-content). */
  reply?: string;
  readonly attributes: Record<string, AttributeValue>;
  readonly children: Step[];
}

/** A decision shown on the timeline: a question the session asked, or a line of the audit log. */
export interface Mark {
  readonly at: number;
  readonly source: 'question' | 'audit';
  readonly text: string;
  readonly decision: string;
  readonly by: string;
}

export interface RequestTimeline {
  readonly n: number;
  readonly text: string;
  readonly mode: string;
  start: number;
  end: number;
  status: string;
  error?: string;
  readonly steps: Step[];
  readonly marks: Mark[];
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  /** USD of the calls whose price was known; null when none was. */
  cost: number | null;
}

const str = (e: Readonly<Record<string, unknown>>, key: string): string | undefined => (typeof e[key] === 'string' ? (e[key] as string) : undefined);
const num = (e: Readonly<Record<string, unknown>>, key: string): number | undefined => {
  const v = e[key];
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
};

/** Builds request timelines from events fed in order; `finish` closes whatever is still open. */
export class TimelineBuilder {
  readonly requests: RequestTimeline[] = [];
  private request: RequestTimeline | null = null;
  private model: Step | null = null;
  /** The last model call of the request, whose reply the next `assistant` event carries. */
  private lastModel: Step | null = null;
  private modelFirstToken = false;
  private round: Step | null = null;
  private reflection: Step | null = null;
  private lastAt = 0;
  private lastModelEnd: number | null = null;

  /** `firstN`: the number the next request gets (a live trace numbers on across builders). */
  constructor(private readonly firstN = 1) {}

  add({ at: stamped, event }: TimedEvent): void {
    const at = stamped ?? this.lastAt;
    const type = str(event, 'type');
    if (type === 'user') {
      this.startRequest(at, event);
      return;
    }
    const request = this.request ?? (type && STEP_EVENTS.has(type) ? this.startRequest(at, { type: 'user', text: '', mode: 'code' }) : null);
    if (!request) return;
    switch (type) {
      case 'waiting':
        this.closeRound();
        this.model = this.open('model', at, {});
        this.lastModel = this.model;
        this.modelFirstToken = false;
        break;
      case 'assistant_delta':
      case 'reasoning_delta':
        if (this.model && !this.modelFirstToken) {
          this.modelFirstToken = true;
          this.model.attributes['tandem.time_to_first_token_ms'] = at - this.model.start;
        }
        break;
      case 'usage':
        this.finishModel(at, event);
        break;
      case 'assistant':
        if (typeof event['text'] === 'string' && this.lastModel) this.lastModel.reply = event['text'];
        if (this.model) this.closeModel(at);
        break;
      case 'error':
        this.failModel(at, str(event, 'message') ?? 'error', request);
        break;
      case 'edit':
        this.addEdit(at, event);
        break;
      case 'commit':
        this.addCheckLike('commit', at, event);
        break;
      case 'lint':
        this.addCheckLike(event['check'] === 'syntax' ? 'syntax' : 'lint', at, event);
        break;
      case 'test':
        this.addCheckLike('test', at, event);
        break;
      case 'reflection':
        this.startReflection(at, event);
        break;
      case 'question':
        request.marks.push({ at, source: 'question', text: str(event, 'text') ?? '', decision: event['answer'] === true ? 'yes' : 'no', by: str(event, 'answeredBy') ?? '' });
        break;
      case 'request_end':
      case 'result':
        this.endRequest(at, str(event, 'status') ?? 'completed');
        break;
    }
    this.lastAt = Math.max(this.lastAt, at);
  }

  /** Closes an unfinished request (a crash, a run still going) at the last time seen. */
  finish(): RequestTimeline[] {
    if (this.request) this.endRequest(this.lastAt, 'unfinished');
    return this.requests;
  }

  private startRequest(at: number, event: Readonly<Record<string, unknown>>): RequestTimeline {
    if (this.request) this.endRequest(this.lastAt, 'unfinished');
    this.lastAt = Math.max(this.lastAt, at);
    this.lastModelEnd = null;
    this.lastModel = null;
    const request: RequestTimeline = {
      n: this.firstN + this.requests.length,
      text: str(event, 'text') ?? '',
      mode: str(event, 'mode') ?? 'code',
      start: at,
      end: at,
      status: 'unfinished',
      steps: [],
      marks: [],
      promptTokens: 0,
      completionTokens: 0,
      cachedTokens: 0,
      reasoningTokens: 0,
      cost: null,
    };
    this.requests.push(request);
    this.request = request;
    return request;
  }

  private endRequest(at: number, status: string): void {
    const request = this.request;
    if (!request) return;
    if (this.model) this.closeModel(at);
    this.closeRound();
    if (this.reflection) this.reflection.end = Math.max(this.reflection.end, at);
    this.reflection = null;
    request.end = Math.max(at, request.start);
    request.status = status;
    this.request = null;
  }

  /** A new step under the open reflection (or the request). */
  private open(kind: StepKind, start: number, attributes: Record<string, AttributeValue>): Step {
    const step: Step = { kind, start, end: start, ok: true, attributes, children: [] };
    (this.reflection?.children ?? this.request?.steps ?? []).push(step);
    return step;
  }

  private finishModel(at: number, event: Readonly<Record<string, unknown>>): void {
    const step = this.model ?? this.open('model', at, {});
    this.lastModel = step;
    const duration = num(event, 'durationMs');
    if (duration !== undefined) step.start = Math.min(step.start, at - duration);
    const attrs = step.attributes;
    const model = str(event, 'model');
    if (model) attrs['gen_ai.request.model'] = model;
    const finish = event['finishReason'];
    if (typeof finish === 'string') attrs['gen_ai.response.finish_reasons'] = [finish];
    const first = num(event, 'firstTokenMs');
    if (first !== undefined) attrs['tandem.time_to_first_token_ms'] = first;
    const usage = { prompt: num(event, 'promptTokens') ?? 0, completion: num(event, 'completionTokens') ?? 0, cached: num(event, 'cachedTokens') ?? 0, reasoning: num(event, 'reasoningTokens') ?? 0 };
    attrs['gen_ai.usage.input_tokens'] = usage.prompt;
    attrs['gen_ai.usage.output_tokens'] = usage.completion;
    attrs['gen_ai.usage.cache_read.input_tokens'] = usage.cached;
    attrs['gen_ai.usage.reasoning.output_tokens'] = usage.reasoning;
    const cost = num(event, 'cost');
    if (cost !== undefined) attrs['tandem.cost_usd'] = cost;
    const request = this.request!;
    request.promptTokens += usage.prompt;
    request.completionTokens += usage.completion;
    request.cachedTokens += usage.cached;
    request.reasoningTokens += usage.reasoning;
    if (cost !== undefined) request.cost = (request.cost ?? 0) + cost;
    this.model = step;
    this.closeModel(at);
  }

  private closeModel(at: number): void {
    if (!this.model) return;
    this.model.end = Math.max(this.model.start, at);
    this.lastModelEnd = this.model.end;
    this.model = null;
  }

  private failModel(at: number, message: string, request: RequestTimeline): void {
    request.error = message;
    if (!this.model) return;
    this.model.ok = false;
    this.model.error = message;
    this.closeModel(at);
  }

  /** The round of the last reply, opened at the reply's end by its first edit, commit or check. */
  private ensureRound(at: number): Step {
    this.round ??= this.open('round', this.lastModelEnd ?? at, { 'tandem.edit.files': [], 'tandem.edit.blocks': 0, 'tandem.edit.failures': 0, 'tandem.edit.rungs': [] });
    return this.round;
  }

  private closeRound(): void {
    const round = this.round;
    if (!round) return;
    round.end = Math.max(round.end, ...round.children.map((c) => c.end));
    this.round = null;
  }

  private addEdit(at: number, event: Readonly<Record<string, unknown>>): void {
    const round = this.ensureRound(at);
    const attrs = round.attributes;
    const path = str(event, 'path') ?? '';
    const files = attrs['tandem.edit.files'] as string[];
    if (path && !files.includes(path)) files.push(path);
    const status = str(event, 'status');
    if (status === 'applied' || status === 'planned') attrs['tandem.edit.blocks'] = (attrs['tandem.edit.blocks'] as number) + (num(event, 'blocks') ?? 1);
    // Which rungs of the matching ladder were needed: a round that kept needing fuzzy rungs shows here.
    const rungs = attrs['tandem.edit.rungs'] as string[];
    const used = event['rungs'];
    if (Array.isArray(used)) for (const rung of used) if (typeof rung === 'string' && !rungs.includes(rung)) rungs.push(rung);
    if (status === 'failed' || status === 'denied') {
      attrs['tandem.edit.failures'] = (attrs['tandem.edit.failures'] as number) + 1;
      round.ok = false;
      round.error ??= `${path}: ${str(event, 'error') ?? status}`;
    }
    round.end = Math.max(round.end, at);
  }

  /** A commit or a check: it ends now and began its duration ago (or when the round's last step ended). */
  private addCheckLike(kind: StepKind, at: number, event: Readonly<Record<string, unknown>>): void {
    const round = this.ensureRound(at);
    const duration = num(event, 'durationMs');
    const previous = Math.max(round.start, ...round.children.map((c) => c.end));
    const step: Step = { kind, start: duration !== undefined ? at - duration : Math.min(previous, at), end: at, ok: true, attributes: {}, children: [] };
    if (kind === 'commit') {
      step.attributes['tandem.commit.hash'] = str(event, 'hash') ?? '';
      step.attributes['tandem.commit.files'] = Array.isArray(event['files']) ? event['files'].filter((f): f is string => typeof f === 'string') : [];
      if (event['user'] === true) step.attributes['tandem.commit.user'] = true;
    } else {
      const command = str(event, 'command');
      if (command !== undefined) step.attributes['tandem.check.command'] = command;
      const exit = event['exitCode'];
      if (typeof exit === 'number') step.attributes['process.exit.code'] = exit;
      if (event['ok'] === false) {
        step.ok = false;
        step.error = `${kind} failed`;
        round.ok = false;
        round.error ??= step.error;
      }
    }
    if (duration !== undefined) step.attributes['tandem.duration_ms'] = duration;
    round.children.push(step);
    round.end = Math.max(round.end, at);
  }

  private startReflection(at: number, event: Readonly<Record<string, unknown>>): void {
    this.closeRound();
    if (this.reflection) this.reflection.end = Math.max(this.reflection.end, at);
    this.reflection = null;
    this.reflection = this.open('reflection', at, { 'tandem.reflection.n': num(event, 'n') ?? 0, 'tandem.reflection.reason': str(event, 'reason') ?? '' });
    this.lastModelEnd = null;
  }
}

/** Events that belong to a request even when its start was not logged. */
const STEP_EVENTS: ReadonlySet<string> = new Set(['waiting', 'usage', 'edit', 'commit', 'lint', 'test', 'reflection']);

/** The timeline of a whole list of events. */
export function buildTimeline(events: Iterable<TimedEvent>): RequestTimeline[] {
  const builder = new TimelineBuilder();
  for (const event of events) builder.add(event);
  return builder.finish();
}

/** The end of a step's subtree (a reflection lasts until its last child ends). */
export function stepEnd(step: Step): number {
  return Math.max(step.end, ...step.children.map(stepEnd));
}
