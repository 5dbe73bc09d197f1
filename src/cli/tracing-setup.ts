// Turns tracing on when the user asked for it (--otlp-endpoint, their config, OTEL_EXPORTER_OTLP_*):
// the OpenTelemetry SDK is imported only then, so a run without tracing loads none of it.
import type { Settings } from '../config/schema.js';
import { systemClock } from '../platform/clock.js';
import { escapeControlChars } from '../platform/control-chars.js';
import { resolveOtlpTarget } from '../telemetry/otlp-target.js';
import type { Tracing } from '../telemetry/tracing.js';
import type { CliEnvironment } from './cli-environment.js';

export async function startTracingIfAsked(environment: CliEnvironment, settings: Settings): Promise<Tracing | null> {
  const warn = (message: string): void => void environment.stderr.write(`tandem: warning: ${escapeControlChars(message)}\n`);
  const { target, problem } = resolveOtlpTarget(
    { endpoint: settings['otlp-endpoint'], headers: settings['otlp-headers'], content: settings['otlp-content'] },
    environment.env,
  );
  if (problem) warn(problem);
  if (!target) return null;
  const { startTracing } = await import('../telemetry/tracing.js');
  return startTracing({ target, clock: environment.clock ?? systemClock, version: environment.version, warn });
}
