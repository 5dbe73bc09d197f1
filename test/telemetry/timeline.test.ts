// The timeline a trace is made of: steps nest under their request and reflection, start and end where
// their events say, and a log without times (or with strangers' lines) still gives a timeline.
import { describe, expect, it } from 'vitest';
import { renderTrace } from '../../src/telemetry/render-timeline.js';
import { buildTimeline, type TimedEvent } from '../../src/telemetry/timeline.js';

const at = (ms: number, event: Record<string, unknown>): TimedEvent => ({ at: ms, event });

describe('buildTimeline', () => {
  it('nests model calls, rounds, checks and commits, and a reflection holding the next turn', () => {
    const [request, ...rest] = buildTimeline([
      at(1000, { type: 'user', text: 'fix it', mode: 'code' }),
      at(1010, { type: 'waiting' }),
      at(1400, { type: 'usage', promptTokens: 100, completionTokens: 20, cachedTokens: 40, cost: 0.5, model: 'm', finishReason: 'stop', durationMs: 380, firstTokenMs: 90 }),
      at(1500, { type: 'commit', hash: 'abc', files: ['a.py'], user: false, durationMs: 50 }),
      at(1510, { type: 'edit', path: 'a.py', status: 'applied', blocks: 2, rungs: ['exact', 'indentation'] }),
      at(1600, { type: 'test', ok: false, command: 'pytest', exitCode: 1, durationMs: 80 }),
      at(1605, { type: 'reflection', n: 1, reason: 'test' }),
      at(1610, { type: 'waiting' }),
      at(1700, { type: 'usage', promptTokens: 150, completionTokens: 10, cachedTokens: 0, cost: null }),
      at(1800, { type: 'request_end', status: 'completed' }),
      at(1801, { type: 'result', status: 'completed' }),
    ]);
    expect(rest).toEqual([]);
    expect(request).toMatchObject({ n: 1, text: 'fix it', start: 1000, end: 1800, status: 'completed', promptTokens: 250, completionTokens: 30, cachedTokens: 40, cost: 0.5 });
    const [model, round, reflection] = request!.steps;
    expect(model).toMatchObject({ kind: 'model', start: 1010, end: 1400, ok: true });
    expect(model!.attributes).toMatchObject({ 'gen_ai.request.model': 'm', 'tandem.time_to_first_token_ms': 90, 'gen_ai.response.finish_reasons': ['stop'] });
    expect(round).toMatchObject({ kind: 'round', start: 1400, end: 1600, ok: false });
    expect(round!.attributes).toMatchObject({ 'tandem.edit.files': ['a.py'], 'tandem.edit.blocks': 2, 'tandem.edit.failures': 0, 'tandem.edit.rungs': ['exact', 'indentation'] });
    expect(round!.children.map((c) => [c.kind, c.start, c.end, c.ok])).toEqual([['commit', 1450, 1500, true], ['test', 1520, 1600, false]]);
    expect(reflection).toMatchObject({ kind: 'reflection', start: 1605, end: 1800 });
    expect(reflection!.children.map((c) => [c.kind, c.start, c.end])).toEqual([['model', 1610, 1700]]);
  });

  it('copes with an old log without times and with lines of the wrong types', () => {
    const events: TimedEvent[] = [
      { at: null, event: { type: 'user', text: 42, mode: ['x'] } },
      { at: null, event: { type: 'waiting' } },
      { at: null, event: { type: 'usage', promptTokens: 'many', completionTokens: -5, durationMs: Number.NaN } },
      { at: null, event: { type: 'lint', ok: false, exitCode: 'x', command: { evil: true } } },
      { at: null, event: { type: 'result', status: 7 } },
    ];
    const requests = buildTimeline(events);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ text: '', mode: 'code', promptTokens: 0, completionTokens: 0, status: 'completed' });
    const text = renderTrace({ id: 'old', model: null, created: null, requests, marks: [], skippedAudit: 0 }, 80);
    expect(text).toContain('#1 (request)');
    expect(text).toContain('lint failed');
    expect(text.split('\n').every((line) => [...line].length <= 80)).toBe(true);
  });
});
