// The cache keep-alive as the CLI wires it: built from the settings when --cache-keepalive-pings is set,
// telling of each ping through the REPL's note line on a terminal, else as info and usage events.
import type { Settings } from '../config/schema.js';
import type { EmitEvent } from '../session/events.js';
import { systemTimers, type Timers } from '../platform/timers.js';
import { CacheKeepAlive } from '../session/cache-keepalive.js';
import type { SessionTotals } from '../session/totals.js';

/** The REPL starts the pings when it waits for input and stops them at the first key or line. */
export interface KeepAlivePort {
  start(): void;
  stop(): void;
  /** Where the pings are told of: the prompt's note line on a terminal; default info and usage events. */
  report: ((text: string) => void) | null;
}

export function createKeepAlive(input: { settings: Settings; environment: { timers?: Timers }; emit: EmitEvent }, totals: () => SessionTotals): (CacheKeepAlive & KeepAlivePort) | null {
  const { settings, environment } = input;
  const pings = settings['cache-keepalive-pings'];
  if (pings <= 0) return null;
  const keepAlive: CacheKeepAlive & KeepAlivePort = Object.assign(
    new CacheKeepAlive({
      pings,
      intervalMs: settings['cache-keepalive-interval'] * 1000,
      timers: environment.timers ?? systemTimers,
      totals,
      onPing: (n, of, usage, error) => {
        const cost = usage?.cost != null ? `, $${usage.cost.toFixed(4)}` : '';
        const cached = usage ? `, ${usage.cachedTokens} of ${usage.promptTokens} prompt tokens cached` : '';
        const text = error ? `Cache keep-alive ping ${n} of ${of} failed: ${error} No more pings.` : `Cache keep-alive ping ${n} of ${of}${cached}${cost}.`;
        if (keepAlive.report) return keepAlive.report(text);
        input.emit({ type: 'info', message: text });
        if (usage) input.emit({ type: 'usage', ...usage, sessionCost: totals().cost });
      },
    }),
    { report: null },
  );
  return keepAlive;
}
