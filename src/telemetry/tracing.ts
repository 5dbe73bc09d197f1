// Live tracing: watches the session's events as they go by, stamps each with the clock, and hands every
// finished request's timeline to the OTLP exporter. Loaded (with the SDK) only when tracing is on.
import type { Clock } from '../platform/clock.js';
import type { EmitEvent, SessionEvent } from '../session/events.js';
import { createOtlpSpans } from './otlp-spans.js';
import type { OtlpTarget } from './otlp-target.js';
import { TimelineBuilder } from './timeline.js';

export interface TracingOptions {
  readonly target: OtlpTarget;
  readonly clock: Clock;
  readonly version: string;
  /** One line for the user (the collector could not be reached). */
  readonly warn: (message: string) => void;
  readonly timeoutMs?: number;
}

export interface Tracing {
  /** `emit` that also feeds the trace. */
  wrap(emit: EmitEvent): EmitEvent;
  /** Ends the session span and sends what is left, within a short bound. */
  close(): Promise<void>;
}

export function startTracing(options: TracingOptions): Tracing {
  const now = (): number => options.clock.now().getTime();
  const spans = createOtlpSpans({ target: options.target, version: options.version, start: now(), warn: options.warn, timeoutMs: options.timeoutMs });
  let builder = new TimelineBuilder();
  const observe = (event: SessionEvent): void => {
    if (event.type === 'session') {
      spans.describeSession({ 'tandem.session.model': event.model, 'tandem.session.edit_format': event.editFormat });
      return;
    }
    builder.add({ at: now(), event: event as unknown as Record<string, unknown> });
    if (event.type !== 'request_end' && event.type !== 'result') return;
    const done = builder.finish();
    for (const request of done) spans.exportRequest(request);
    builder = new TimelineBuilder((done.at(-1)?.n ?? 0) + 1);
  };
  return {
    wrap: (emit) => (event) => {
      emit(event);
      try {
        observe(event);
      } catch {
        // A trace is never worth a failed request.
      }
    },
    async close() {
      try {
        for (const request of builder.finish()) spans.exportRequest(request);
        await spans.close(now());
      } catch {
        // Nothing about a trace may fail the run at its end.
      }
    },
  };
}
