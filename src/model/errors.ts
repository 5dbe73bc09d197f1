// Turns whatever a model request threw into one classified ModelError, once, at the edge: the model
// call's own errors (below), a socket's error with its system code, an abort.
import { TandemError } from '../platform/errors.js';
import { UnsupportedSchemeError } from '../platform/http-request.js';
import type { ModelError, ModelErrorKind } from './types.js';

/** The server answered a model request with an HTTP error status (or a redirect, which is not followed). */
export class ModelHttpError extends TandemError {
  readonly kind = 'model-http' as const;
  readonly status: number;
  /** The `error` of its JSON body, when it had one. */
  readonly error: unknown;
  /** Its headers, read for retry-after. */
  readonly headers: { get(name: string): string | null };
  constructor(status: number, message: string, error: unknown, header: (name: string) => string | null) {
    super(message);
    this.name = 'ModelHttpError';
    this.status = status;
    this.error = error;
    this.headers = { get: header };
  }
}

/** The server reported a failure inside its answer (an error event mid-stream, an error body with status 200). */
export class ModelReplyError extends TandemError {
  readonly kind = 'model-reply' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ModelReplyError';
  }
}

/** Where the request went, so messages can name it. */
export interface ModelErrorContext {
  readonly baseURL?: string;
  readonly model?: string;
}

const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set(['rate_limit', 'server', 'connection', 'timeout', 'cut_off']);

const CONNECTION_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

const CONTEXT_OVERFLOW =
  /context[ _-]?(length|window|size)|maximum context|too many tokens|prompt is too long|input is too long|exceeds? the (available )?context|n_ctx|reduce the length/i;

/** Builds a ModelError with the kind's usual retryability. */
export function modelError(kind: ModelErrorKind, message: string, status?: number): ModelError {
  const retryable = RETRYABLE.has(kind);
  return status === undefined ? { kind, message, retryable } : { kind, message, retryable, status };
}

/**
 * Classifies a failure of a model request. Anything that is not a recognisable HTTP, network,
 * timeout or abort failure (a TypeError from our own code, say) is rethrown: a bug must not reach
 * the user dressed up as a model error.
 */
export function classifyModelError(err: unknown, context: ModelErrorContext = {}): ModelError {
  const where = context.baseURL ? `the model server at ${context.baseURL}` : 'the model server';
  if (err instanceof ModelHttpError) {
    if (err.status >= 400 && err.status < 600) return classifyStatus(err.status, serverMessage(err), where, context.model);
    return modelError('bad_request', `${capitalize(where)} answered HTTP ${err.status}: ${oneLine(err.message)}.`, err.status);
  }
  if (err instanceof Error && err.name === 'AbortError') return modelError('aborted', 'The request was cancelled.');
  const reason = connectionReason(err);
  if (reason !== undefined) return modelError('connection', `Cannot reach ${where} (${reason}).`);
  if (err instanceof UnsupportedSchemeError || systemCodeOf(err) === 'ERR_INVALID_URL') {
    return { kind: 'connection', message: `Cannot reach ${where} (${err instanceof Error ? err.message : 'not a URL'}); check --base-url.`, retryable: false };
  }
  // Any other system error of the socket (TLS, a refused address...): named by the lowest cause.
  const code = systemCodeOf(err);
  if (code !== undefined) return modelError('connection', `Cannot reach ${where} (${innermostMessage(err) || code}).`);
  // An error event inside an SSE stream carries no status but is still the server's answer.
  if (err instanceof ModelReplyError) {
    const detail = serverMessage(err);
    return modelError('server', `${capitalize(where)} reported an error${detail ? `: ${detail}` : ''}.`);
  }
  throw err;
}

/** The wait a 429/503 asked for via retry-after-ms or retry-after (seconds or an HTTP date), in ms. */
export function retryAfterMsOf(err: unknown, now: number = Date.now()): number | null {
  const headers = (err as { headers?: unknown } | null)?.headers;
  if (!headers || typeof (headers as Headers).get !== 'function') return null;
  const get = (name: string): string | null => (headers as Headers).get(name);
  const ms = Number.parseFloat(get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = get('retry-after');
  if (raw === null) return null;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function classifyStatus(status: number, detail: string, where: string, model: string | undefined): ModelError {
  const said = detail ? `: ${detail}` : '';
  const modelName = model ? `model ${model}` : 'the model';
  if (status === 401) {
    return modelError('auth', `${capitalize(where)} rejected the API key (HTTP 401${said}); check --api-key or OPENAI_API_KEY.`, status);
  }
  if (status === 403) return modelError('auth', `${capitalize(where)} refused access (HTTP 403${said}).`, status);
  if (status === 404) {
    return modelError('not_found', `${capitalize(modelName)} was not found on ${where} (HTTP 404${said}); check --model and --base-url.`, status);
  }
  if (status === 429) {
    // An exhausted quota answers 429 too, but waiting does not help it.
    if (/quota|billing/i.test(detail)) return { kind: 'rate_limit', message: `${capitalize(where)} says the account is out of quota (HTTP 429${said}).`, retryable: false, status };
    return modelError('rate_limit', `${capitalize(where)} is rate limiting requests (HTTP 429${said}).`, status);
  }
  if ((status === 400 || status === 413) && CONTEXT_OVERFLOW.test(detail)) {
    return modelError('context_overflow', `The request is too long for the context window of ${modelName} (HTTP ${status}${said}).`, status);
  }
  if (status === 408) return modelError('timeout', `${capitalize(where)} timed out (HTTP 408${said}).`, status);
  if (status >= 500) return modelError('server', `${capitalize(where)} failed (HTTP ${status}${said}).`, status);
  return modelError('bad_request', `${capitalize(where)} rejected the request (HTTP ${status}${said}).`, status);
}

/** The server's own words, from the JSON error body when there is one, kept short. */
function serverMessage(err: unknown): string {
  const body = (err as { error?: unknown } | null)?.error;
  const fromBody = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  return oneLine(typeof fromBody === 'string' ? fromBody : err instanceof Error ? err.message : '');
}

/** Text on one line, without its closing full stop, at most 200 characters. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** Looks through the error and its causes for a network failure with a system code we can name. */
function connectionReason(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES[code]) return CONNECTION_CODES[code];
    current = current.cause;
  }
  return undefined;
}

/**
 * The code of a failure below the request (ECONNREFUSED, CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, an
 * HTTP parser's HPE_...) on the error or one of its causes. Node's own ERR_ codes are left out, bar TLS's,
 * SSL's and an invalid URL: the others (ERR_INVALID_ARG_TYPE...) are bugs.
 */
function systemCodeOf(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code) && (!code.startsWith('ERR_') || /^ERR_(TLS|SSL)_|^ERR_INVALID_URL$/.test(code))) return code;
    current = current.cause;
  }
  return undefined;
}

/** The message of the last error in the cause chain (the lowest-level reason), kept short. */
function innermostMessage(err: unknown): string {
  let current: unknown = err;
  let message = '';
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    message = current.message;
    current = current.cause;
  }
  // OpenSSL's long lines name their reason after the routine: "...:SSL routines:<routine>:<reason>:<file>...".
  const openssl = /routines:[^:]*:([^:]+):/.exec(message);
  if (openssl) return `TLS error: ${openssl[1]}`;
  return message.length > 120 ? '' : message.replace(/[.\s]+$/, '');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
