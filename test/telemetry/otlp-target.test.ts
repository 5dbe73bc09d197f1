// Where traces go: the user's flag or config first, then the standard OTEL_* variables, each with the
// path rules of the OTLP exporter specification; headers from the flag or the environment.
import { describe, expect, it } from 'vitest';
import { resolveOtlpTarget } from '../../src/telemetry/otlp-target.js';

const none = { endpoint: null, headers: [], content: false };

describe('resolveOtlpTarget', () => {
  it('is off with nothing set', () => {
    expect(resolveOtlpTarget(none, {})).toEqual({ target: null, problem: null });
  });

  it('adds /v1/traces to a bare --otlp-endpoint and keeps a URL with a path', () => {
    expect(resolveOtlpTarget({ ...none, endpoint: 'http://localhost:4318' }, {}).target?.url).toBe('http://localhost:4318/v1/traces');
    expect(resolveOtlpTarget({ ...none, endpoint: 'https://otel.example/api/traces' }, {}).target?.url).toBe('https://otel.example/api/traces');
  });

  it('prefers the flag, then the traces endpoint as it is, then the base endpoint plus /v1/traces', () => {
    const env = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:1/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b:2/prefix/' };
    expect(resolveOtlpTarget({ ...none, endpoint: 'http://f:3' }, env).target?.url).toBe('http://f:3/v1/traces');
    expect(resolveOtlpTarget(none, env).target?.url).toBe('http://t:1/custom');
    expect(resolveOtlpTarget(none, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b:2/prefix/' }).target?.url).toBe('http://b:2/prefix/v1/traces');
  });

  it('reads headers from the flag, else the environment (percent-encoded values)', () => {
    expect(resolveOtlpTarget({ ...none, endpoint: 'http://h', headers: ['x-key=a=b', 'x-team = blue'] }, { OTEL_EXPORTER_OTLP_HEADERS: 'x-other=1' }).target?.headers).toEqual({ 'x-key': 'a=b', 'x-team': 'blue' });
    expect(resolveOtlpTarget(none, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=s%20cret, x-b=2' }).target?.headers).toEqual({ 'api-key': 's cret', 'x-b': '2' });
  });

  it('turns tracing off with one problem for a value it cannot use', () => {
    expect(resolveOtlpTarget({ ...none, endpoint: 'file:///etc/passwd' }, {}).problem).toMatch(/only http and https/);
    expect(resolveOtlpTarget({ ...none, endpoint: 'not a url' }, {}).problem).toMatch(/not a URL/);
    expect(resolveOtlpTarget({ ...none, endpoint: 'http://h', headers: ['no-equals'] }, {}).problem).toMatch(/NAME=VALUE/);
    expect(resolveOtlpTarget(none, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h', OTEL_EXPORTER_OTLP_HEADERS: 'bad header=1' }).target).toBeNull();
  });
});
