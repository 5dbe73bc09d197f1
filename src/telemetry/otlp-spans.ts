// The OpenTelemetry SDK side of tracing, loaded only when tracing is on: a tracer provider with a
// batching OTLP/HTTP (JSON) exporter, and a request's timeline turned into spans with their real
// start and end times. The first failed export is one warning; after it nothing more is sent, so an
// unreachable collector never slows a request or the exit.
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { escapeControlChars } from '../platform/control-chars.js';
import type { OtlpTarget } from './otlp-target.js';
import type { AttributeValue, RequestTimeline, Step } from './timeline.js';
import { stepEnd } from './timeline.js';

export interface OtlpSpansOptions {
  readonly target: OtlpTarget;
  readonly version: string;
  /** Epoch ms the session started. */
  readonly start: number;
  readonly warn: (message: string) => void;
  /** How long an export may take, and how long the exit waits for the last one. */
  readonly timeoutMs?: number;
}

export interface OtlpSpans {
  /** Attributes of the session span (model, edit format), known once the session announces itself. */
  describeSession(attributes: Record<string, AttributeValue>): void;
  exportRequest(request: RequestTimeline): void;
  /** Ends the session span and sends what is left, waiting at most the timeout. */
  close(end: number): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 2_000;

export function createOtlpSpans(options: OtlpSpansOptions): OtlpSpans {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const guard = new WarnOnce(options.target.url, options.warn);
  const exporter = new GuardedExporter(new OTLPTraceExporter({ url: options.target.url, headers: { ...options.target.headers }, timeoutMillis: timeoutMs }), guard);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'tandem', 'service.version': options.version }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 500, exportTimeoutMillis: timeoutMs })],
  });
  const tracer = provider.getTracer('tandem', options.version);
  const session = tracer.startSpan('tandem session', { startTime: options.start, kind: SpanKind.INTERNAL });
  // An empty export at once tells, in the background, whether the collector can be reached at all.
  exporter.probe();
  const content = options.target.content;

  const startChild = (parent: Span, name: string, start: number, attributes: Attributes, kind = SpanKind.INTERNAL): Span =>
    tracer.startSpan(name, { startTime: start, attributes, kind }, trace.setSpan(context.active(), parent));

  const exportStep = (parent: Span, step: Step, request: RequestTimeline, first: { model: boolean }): void => {
    const attributes: Attributes = { ...(step.attributes as Attributes) };
    if (step.kind === 'model') {
      attributes['gen_ai.operation.name'] = 'chat';
      if (content && step.reply !== undefined) attributes['gen_ai.output.messages'] = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: step.reply }] }]);
      if (content && first.model) attributes['gen_ai.input.messages'] = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: request.text }] }]);
      first.model = false;
    }
    const span = startChild(parent, spanName(step), step.start, attributes, step.kind === 'model' ? SpanKind.CLIENT : SpanKind.INTERNAL);
    span.setStatus(step.ok ? { code: SpanStatusCode.OK } : { code: SpanStatusCode.ERROR, message: step.error ?? `${step.kind} failed` });
    for (const child of step.children) exportStep(span, child, request, first);
    span.end(stepEnd(step));
  };

  return {
    describeSession(attributes) {
      session.setAttributes(attributes as Attributes);
    },
    exportRequest(request) {
      if (guard.down) return;
      const attributes: Attributes = {
        'tandem.request.n': request.n,
        'tandem.request.mode': request.mode,
        'tandem.request.status': request.status,
        'gen_ai.usage.input_tokens': request.promptTokens,
        'gen_ai.usage.output_tokens': request.completionTokens,
        'gen_ai.usage.cache_read.input_tokens': request.cachedTokens,
        'gen_ai.usage.reasoning.output_tokens': request.reasoningTokens,
        ...(request.cost === null ? {} : { 'tandem.cost_usd': request.cost }),
        ...(content ? { 'tandem.request.text': request.text } : {}),
      };
      const span = startChild(session, 'tandem request', request.start, attributes);
      for (const mark of request.marks) span.addEvent('decision', { 'tandem.decision.question': mark.text, 'tandem.decision.answer': mark.decision, 'tandem.decision.by': mark.by }, mark.at);
      const first = { model: true };
      for (const step of request.steps) exportStep(span, step, request, first);
      span.setStatus(request.status === 'completed' ? { code: SpanStatusCode.OK } : { code: SpanStatusCode.ERROR, message: request.error ?? request.status });
      span.end(request.end);
    },
    async close(end) {
      session.end(end);
      if (guard.down) return void provider.shutdown().catch(() => {});
      const finished = await withinTime(provider.shutdown(), timeoutMs + 500);
      if (!finished) guard.fail(`no answer within ${((timeoutMs + 500) / 1000).toFixed(1)} s`);
    },
  };
}

function spanName(step: Step): string {
  switch (step.kind) {
    case 'model':
      return `chat ${String(step.attributes['gen_ai.request.model'] ?? '')}`.trimEnd();
    case 'round':
      return 'edit round';
    case 'syntax':
      return 'syntax check';
    case 'reflection':
      return `reflection ${String(step.attributes['tandem.reflection.n'] ?? '')}`.trimEnd();
    default:
      return step.kind;
  }
}

/** Says once that the collector could not be reached, and remembers it. */
class WarnOnce {
  down = false;

  constructor(
    private readonly url: string,
    private readonly warn: (message: string) => void,
  ) {}

  fail(reason: string): void {
    if (this.down) return;
    this.down = true;
    this.warn(`tracing: could not send traces to ${escapeControlChars(this.url)} (${escapeControlChars(reason)}); no more traces are sent in this session`);
  }
}

/** The OTLP exporter, refusing at once after the first failure instead of retrying every batch. */
class GuardedExporter implements SpanExporter {
  constructor(
    private readonly inner: OTLPTraceExporter,
    private readonly guard: WarnOnce,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (this.guard.down) return done({ code: ExportResultCode.FAILED });
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) this.guard.fail(firstLine(result.error?.message || 'export failed'));
      done(result);
    });
  }

  /** Sends an empty request: only a collector that cannot be reached (no HTTP answer) counts as down. */
  probe(): void {
    this.inner.export([], (result) => {
      const answered = typeof (result.error as { code?: unknown } | undefined)?.code === 'number';
      if (result.code !== ExportResultCode.SUCCESS && !answered) this.guard.fail(firstLine(result.error?.message || 'no answer'));
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.slice(0, 200);
}

/** Whether `promise` settled within `ms`. (The timer stays referenced: the exit waits for the answer.) */
function withinTime(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}
