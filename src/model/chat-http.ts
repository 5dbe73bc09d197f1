// The chat completions call of the OpenAI protocol, over node:http: one POST to `<base>/chat/completions`,
// its answer read as one JSON body or as server-sent events. What goes wrong is thrown as the errors
// errors.ts classifies (ModelHttpError, ModelReplyError, a socket error with its code, the abort's reason).
import { StringDecoder } from 'node:string_decoder';
import { readCapped, sendHttp, type HttpAnswer } from '../platform/http-request.js';
import { ModelHttpError, ModelReplyError } from './errors.js';
import type { RequestBody } from './request-body.js';
import type { RawUsage } from './usage.js';

/** The fields tandem reads of a streamed chunk; a server may send more, or less. */
export interface ChatChunk {
  readonly choices?: readonly { readonly delta?: { readonly content?: string | null } & Record<string, unknown>; readonly finish_reason?: string | null }[];
  readonly usage?: RawUsage | null;
}

/** The fields tandem reads of a whole (not streamed) answer. */
export interface ChatCompletion {
  readonly choices?: readonly { readonly message?: { readonly content?: string | null } & Record<string, unknown>; readonly finish_reason?: string | null }[];
  readonly usage?: RawUsage | null;
}

export interface ChatCall {
  readonly baseURL: string;
  readonly apiKey: string;
  readonly body: RequestBody;
  /** Extra headers a user's model settings file asks for; they win over tandem's own. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}

/** The largest whole answer or error body read; a server sending more is cut off there. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** An error body is only read for its message. */
const MAX_ERROR_BYTES = 1024 * 1024;

/** The whole answer of a request sent with `stream: false`. */
export async function completeChat(call: ChatCall): Promise<ChatCompletion> {
  const answer = await post(call, false);
  const { body, truncated } = await readCapped(answer.body, MAX_BODY_BYTES);
  if (truncated) throw new ModelReplyError(`the answer is larger than ${MAX_BODY_BYTES} bytes`);
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (typeof parsed !== 'object' || parsed === null) throw new SyntaxError('the answer is not a JSON object');
  const error = (parsed as { error?: unknown }).error;
  if (error !== undefined && error !== null && !('choices' in parsed)) throw new ModelReplyError(messageOf(error));
  return parsed as ChatCompletion;
}

/** The chunks of a request sent with `stream: true`, as they arrive; ends at `[DONE]` or when the body ends. */
export async function streamChat(call: ChatCall): Promise<AsyncIterator<ChatChunk>> {
  const answer = await post(call, true);
  return chunksOf(answer)[Symbol.asyncIterator]();
}

async function post(call: ChatCall, stream: boolean): Promise<HttpAnswer> {
  const answer = await sendHttp({
    method: 'POST',
    url: new URL(`${call.baseURL.replace(/\/+$/, '')}/chat/completions`),
    headers: {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      authorization: `Bearer ${call.apiKey}`,
      'user-agent': 'tandem',
      ...call.headers,
    },
    body: Buffer.from(JSON.stringify(call.body)),
    signal: call.signal,
  });
  if (answer.status >= 200 && answer.status < 300) return answer;
  if (answer.status >= 300 && answer.status < 400) {
    answer.body.destroy();
    // Not followed: the key would go wherever the server points.
    const location = answer.header('location');
    throw new ModelHttpError(answer.status, `redirected to ${location ?? 'another address'}; use that address as --base-url`, null, answer.header);
  }
  const { body } = await readCapped(answer.body, MAX_ERROR_BYTES).catch(() => ({ body: Buffer.alloc(0) }));
  const text = body.toString('utf8');
  const error = errorField(text);
  throw new ModelHttpError(answer.status, error === null ? text : messageOf(error), error, answer.header);
}

/** The `error` of a JSON error body ({"error": {...}} or {"error": "..."}), else null. */
function errorField(text: string): unknown {
  try {
    const parsed = JSON.parse(text) as { error?: unknown } | null;
    return typeof parsed === 'object' && parsed !== null && parsed.error !== undefined ? parsed.error : null;
  } catch {
    return null;
  }
}

function messageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}

/**
 * Server-sent events, each `data:` field a JSON chunk. An `error` event, or a chunk holding only an
 * `error`, is the server's failure mid-reply; a comment line (`:`) or another field is skipped.
 */
async function* chunksOf(answer: HttpAnswer): AsyncGenerator<ChatChunk> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let event = '';
  let data: string[] = [];
  for await (const piece of answer.body) {
    pending += typeof piece === 'string' ? piece : decoder.write(piece as Buffer);
    let newline: number;
    while ((newline = pending.search(/\r\n|\r|\n/)) !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + (pending.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) {
          const text = data.join('\n');
          if (text === '[DONE]') {
            answer.body.destroy();
            return;
          }
          yield chunkOf(text, event);
        }
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
    }
  }
  pending += decoder.end();
  // A last event without its blank line still counts.
  const rest = pending.startsWith('data:') ? [...data, pending.slice(5).replace(/^ /, '')] : data;
  if (rest.length > 0 && rest.join('\n') !== '[DONE]') yield chunkOf(rest.join('\n'), event);
}

function chunkOf(text: string, event: string): ChatChunk {
  const parsed: unknown = JSON.parse(text);
  const error = typeof parsed === 'object' && parsed !== null ? (parsed as { error?: unknown }).error : undefined;
  if (event === 'error') throw new ModelReplyError(messageOf(error ?? parsed));
  if (error !== undefined && error !== null && !('choices' in (parsed as object))) throw new ModelReplyError(messageOf(error));
  return parsed as ChatChunk;
}
