// The --json printer: one event a line on stdout. Streaming deltas are left out; the whole reply (and the
// whole reasoning, as a `reasoning` event) follows. `request_end` is for traces: the stream's end is `result`.
import type { SessionEvent } from '../session/events.js';

export function createJsonRenderer(write: (text: string) => void): (event: SessionEvent) => void {
  return (event) => {
    if (event.type === 'assistant_delta' || event.type === 'reasoning_delta' || event.type === 'waiting' || event.type === 'request_end') return;
    write(`${JSON.stringify(event)}\n`);
  };
}
