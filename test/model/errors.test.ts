import { describe, expect, it } from 'vitest';
import { classifyModelError, ModelHttpError, ModelReplyError, retryAfterMsOf } from '../../src/model/errors.js';
import { UnsupportedSchemeError } from '../../src/platform/http-request.js';

const ctx = { baseURL: 'http://127.0.0.1:9/v1', model: 'm1' };

function httpError(status: number, message: string, headers: Record<string, string> = {}): ModelHttpError {
  return new ModelHttpError(status, message, { message }, (name) => headers[name.toLowerCase()] ?? null);
}

function systemError(code: string): Error {
  return Object.assign(new Error(`connect ${code}`), { code });
}

describe('classifyModelError', () => {
  it.each([
    [401, 'bad key', 'auth', false],
    [403, 'forbidden', 'auth', false],
    [404, 'The model `m1` does not exist', 'not_found', false],
    [429, 'Rate limit reached', 'rate_limit', true],
    [400, 'messages: missing', 'bad_request', false],
    [422, 'unprocessable', 'bad_request', false],
    [500, 'oops', 'server', true],
    [503, 'overloaded', 'server', true],
  ] as const)('HTTP %i is %s', (status, message, kind, retryable) => {
    expect(classifyModelError(httpError(status, message), ctx)).toMatchObject({ kind, retryable, status });
  });

  it.each([
    [400, "This model's maximum context length is 128000 tokens"],
    [400, 'the request exceeds the available context size, try increasing it'],
    [413, 'Request too large: too many tokens'],
    [400, 'prompt is too long: 210000 tokens > 200000 maximum'],
  ])('HTTP %i "%s" is context_overflow', (status, message) => {
    const error = classifyModelError(httpError(status, message), ctx);
    expect(error).toMatchObject({ kind: 'context_overflow', retryable: false });
    expect(error.message).toContain('m1');
  });

  it('does not retry an exhausted quota', () => {
    expect(classifyModelError(httpError(429, 'You exceeded your current quota'), ctx)).toMatchObject({
      kind: 'rate_limit',
      retryable: false,
    });
  });

  it('names the server and the reason for network failures', () => {
    expect(classifyModelError(systemError('ECONNREFUSED'), ctx)).toEqual({
      kind: 'connection',
      retryable: true,
      message: 'Cannot reach the model server at http://127.0.0.1:9/v1 (connection refused).',
    });
    expect(classifyModelError(systemError('ENOTFOUND'), ctx).message).toContain('host not found');
    expect(classifyModelError(systemError('ECONNRESET'), ctx).message).toContain('connection reset');
    // A socket error wrapped by whoever caught it is found among the causes.
    expect(classifyModelError(new Error('request failed', { cause: systemError('EHOSTUNREACH') }), ctx).message).toContain('host unreachable');
  });

  it('names any other system error of the socket (TLS, say) by its own message', () => {
    const tls = Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
    expect(classifyModelError(tls, ctx)).toEqual({
      kind: 'connection',
      retryable: true,
      message: 'Cannot reach the model server at http://127.0.0.1:9/v1 (certificate has expired).',
    });
  });

  it('names OpenSSL\'s reason from its long line, and else a long message\'s code', () => {
    const tls = Object.assign(new Error('write EPROTO 800C:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/ssl/record/ssl3_record.c:350:\n'), { code: 'EPROTO' });
    expect(classifyModelError(tls, ctx).message).toBe('Cannot reach the model server at http://127.0.0.1:9/v1 (TLS error: wrong version number).');
    const long = Object.assign(new Error(`refused ${'x'.repeat(150)}`), { code: 'EWHATEVER' });
    expect(classifyModelError(long, ctx).message).toBe('Cannot reach the model server at http://127.0.0.1:9/v1 (EWHATEVER).');
  });

  it('does not retry a base URL whose scheme is not http or https, or that is not a URL', () => {
    const error = classifyModelError(new UnsupportedSchemeError(new URL('ftp://models.test/v1')), ctx);
    expect(error).toMatchObject({ kind: 'connection', retryable: false, message: expect.stringContaining('--base-url') });
    const notUrl = (() => {
      try {
        return new URL('http//no colon/chat/completions');
      } catch (caught) {
        return caught;
      }
    })();
    expect(classifyModelError(notUrl, ctx)).toMatchObject({ kind: 'connection', retryable: false, message: expect.stringContaining('--base-url') });
  });

  it('rethrows Node\'s own errors of a wrong call: a bug, not the network', () => {
    const bug = Object.assign(new TypeError('The "chunk" argument must be of type string'), { code: 'ERR_INVALID_ARG_TYPE' });
    expect(() => classifyModelError(bug, ctx)).toThrow(bug);
  });

  it('classifies an abort', () => {
    expect(classifyModelError(new DOMException('stop', 'AbortError'), ctx)).toMatchObject({ kind: 'aborted', retryable: false });
  });

  it('treats an error event inside a stream as a server error', () => {
    expect(classifyModelError(new ModelReplyError('upstream provider failed'), ctx)).toMatchObject({ kind: 'server', message: expect.stringContaining('upstream provider failed') });
  });

  it('does not follow a redirect: the request is refused, naming where it pointed', () => {
    const redirect = new ModelHttpError(307, 'redirected to https://elsewhere.test/v1; use that address as --base-url', null, () => null);
    expect(classifyModelError(redirect, ctx)).toMatchObject({ kind: 'bad_request', retryable: false, message: expect.stringContaining('https://elsewhere.test/v1') });
  });

  it('rethrows bugs instead of dressing them up as model errors', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'content')");
    expect(() => classifyModelError(bug, ctx)).toThrow(bug);
    expect(() => classifyModelError(new RangeError('x'), ctx)).toThrow(RangeError);
    expect(() => classifyModelError('a string', ctx)).toThrow();
  });

  it('shortens long server messages to one line', () => {
    const error = classifyModelError(httpError(500, `line one\n${'x'.repeat(500)}`), ctx);
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(300);
  });
});

describe('retryAfterMsOf', () => {
  it('reads retry-after-ms, retry-after seconds and an HTTP date', () => {
    expect(retryAfterMsOf(httpError(429, 'x', { 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMsOf(httpError(429, 'x', { 'retry-after': '1.5' }))).toBe(1500);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMsOf(httpError(429, 'x', { 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }), now)).toBe(10_000);
    expect(retryAfterMsOf(httpError(429, 'x'))).toBeNull();
    expect(retryAfterMsOf(new Error('no headers'))).toBeNull();
  });
});
