// A scripted OpenAI-compatible HTTP server on 127.0.0.1 for tests: each chat request takes the next
// step of its model's script (a reply, an error, a delay, a hang, a cut stream) and is logged.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cached_tokens: number;
}

/** A normal answer: SSE chunks when the request asked for `stream: true`, one JSON body otherwise. */
export interface FakeTextStep {
  readonly type: 'text';
  readonly text: string;
  /** Explicit stream chunks; default: `text` cut into pieces of `chunkSize` characters. */
  readonly chunks?: readonly string[];
  readonly chunkSize?: number;
  readonly finishReason?: string;
  /** Defaults: prompt = request characters / 4, completion = text characters / 4, cached = 0. */
  readonly usage?: Partial<FakeUsage>;
  /** Leave the usage out entirely, as some local servers do. */
  readonly noUsage?: boolean;
  readonly delayMs?: number;
  /** Pause between stream chunks, for a reply that is still arriving when the test acts. */
  readonly chunkDelayMs?: number;
  /** Cut the connection right after the finish_reason chunk, before usage and [DONE]. */
  readonly cutAfterFinish?: boolean;
  /** Reasoning sent before the text in its own field (streamed as deltas, or in the message). */
  readonly reasoning?: string;
  /** The field's name: DeepSeek, vLLM and llama-server say reasoning_content, OpenRouter and Ollama reasoning. */
  readonly reasoningField?: 'reasoning_content' | 'reasoning';
  /** The usage object exactly as sent, for the shapes other providers use. */
  readonly rawUsage?: object;
}

export interface FakeErrorStep {
  readonly type: 'error';
  readonly status: number;
  readonly message?: string;
  readonly code?: string;
  /** Raw body instead of the OpenAI-style `{ error: { message } }`. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly delayMs?: number;
}

/** Accepts the request and never answers; the request ends when the client goes away. */
export interface FakeHangStep {
  readonly type: 'hang';
}

/** Streams `afterChunks` content chunks, then destroys the socket, hangs, or ends without finish_reason. */
export interface FakePartialStep {
  readonly type: 'partial';
  readonly text: string;
  readonly afterChunks: number;
  readonly then: 'destroy' | 'hang' | 'end';
  readonly chunkSize?: number;
  readonly delayMs?: number;
}

/** Closes the connection before any response. */
export interface FakeDropStep {
  readonly type: 'drop';
}

export type FakeStep =
  | FakeTextStep
  | FakeErrorStep
  | FakeHangStep
  | FakePartialStep
  | FakeDropStep
  | ((request: FakeRequest) => FakeStep | Promise<FakeStep>);

export interface FakeRequest {
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body (the raw string when it is not JSON, null when empty). */
  readonly body: any;
  readonly model: string | null;
  readonly stream: boolean;
  /** The body's bytes as received (multipart uploads). */
  readonly rawBody?: Buffer;
}

export interface FakeOpenAIOptions {
  /** One shared script, or one per model name ('*' for models without their own). */
  readonly replies?: readonly FakeStep[] | Readonly<Record<string, readonly FakeStep[]>>;
  /** Answer once a script is used up; without it such a request gets a 400 naming the model. */
  readonly fallback?: FakeStep;
  /** Listed by GET /v1/models; default: the script's model names, else ['fake-model']. */
  readonly models?: readonly string[];
  /** Answers to POST /v1/audio/transcriptions in order (text, or an error); without it the route is a 404. */
  readonly transcriptions?: Array<string | FakeErrorStep>;
  /** GET /v1/models answers exactly this body (a server's own shape: vLLM's max_model_len, hostile names...). */
  readonly modelsBody?: unknown;
  /** GET /props answers this body, as llama-server does; without it, 404. */
  readonly props?: unknown;
  /** POST /api/show answers this body, as Ollama does; without it, 404. */
  readonly apiShow?: unknown;
}

export interface FakeOpenAIServer {
  /** Base URL ending in /v1, ready for `--base-url`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order (chat, models and unknown paths). */
  readonly requests: readonly FakeRequest[];
  /** Chat requests only. */
  chatRequests(model?: string): FakeRequest[];
  /** Appends steps to a model's script ('*' or omitted: the shared one). */
  enqueue(steps: readonly FakeStep[], model?: string): void;
  /** Resolves once at least `count` requests have arrived (tandem asks /v1/models and /props at start-up too). */
  waitForRequests(count: number): Promise<void>;
  /** Resolves once at least `count` chat requests have arrived. */
  waitForChatRequests(count: number): Promise<void>;
  /** Resolves once at least `count` responses were cut short by the client going away. */
  waitForDisconnects(count: number): Promise<void>;
  close(): Promise<void>;
}

export const textReply = (text: string, options: Omit<FakeTextStep, 'type' | 'text'> = {}): FakeTextStep => ({
  type: 'text',
  text,
  ...options,
});

export const errorReply = (
  status: number,
  message: string,
  options: Omit<FakeErrorStep, 'type' | 'status' | 'message'> = {},
): FakeErrorStep => ({ type: 'error', status, message, ...options });

export const hangReply = (): FakeHangStep => ({ type: 'hang' });

export const partialReply = (
  text: string,
  afterChunks: number,
  then: FakePartialStep['then'] = 'destroy',
  options: Pick<FakePartialStep, 'chunkSize' | 'delayMs'> = {},
): FakePartialStep => ({ type: 'partial', text, afterChunks, then, ...options });

export const dropReply = (): FakeDropStep => ({ type: 'drop' });

const SHARED = '*';

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> {
  const queues = new Map<string, FakeStep[]>();
  const replies = options.replies ?? [];
  if (Array.isArray(replies)) queues.set(SHARED, [...replies]);
  else for (const [model, steps] of Object.entries(replies)) queues.set(model, [...(steps as FakeStep[])]);

  const requests: FakeRequest[] = [];
  let disconnects = 0;
  const waiters = new Set<() => void>();
  const notify = (): void => {
    for (const check of [...waiters]) check();
  };
  const waitUntil = (ready: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (!ready()) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });

  const nextStep = (model: string | null): FakeStep | undefined => {
    const own = model !== null ? queues.get(model) : undefined;
    const queue = own && own.length > 0 ? own : queues.get(SHARED);
    return queue?.shift() ?? options.fallback;
  };

  const server = createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableFinished) {
        disconnects++;
        notify();
      }
    });
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake server bug: ${String(err)}` } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readRequest(req, requests.length);
    requests.push(request);
    notify();
    const path = request.path.replace(/\?.*$/, '');
    if (req.method === 'GET' && path === '/v1/models') {
      return options.modelsBody !== undefined ? sendJson(res, 200, options.modelsBody) : sendModels(res, options, queues);
    }
    if (req.method === 'GET' && path === '/props' && options.props !== undefined) return sendJson(res, 200, options.props);
    if (req.method === 'POST' && path === '/api/show' && options.apiShow !== undefined) return sendJson(res, 200, options.apiShow);
    if (req.method === 'POST' && path === '/v1/audio/transcriptions' && options.transcriptions) {
      const answer = options.transcriptions.shift() ?? { type: 'error', status: 400, message: 'fake server: no transcription left' };
      if (typeof answer === 'string') return sendJson(res, 200, { text: answer });
      return sendError(res, answer);
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJson(res, 404, { error: { message: `fake server: no route ${req.method} ${path}` } });
    }
    const step = await resolveStep(nextStep(request.model), request);
    if (!step) {
      const message = `fake server: no scripted reply left for model ${request.model} (request #${request.index})`;
      return sendJson(res, 400, { error: { message, type: 'invalid_request_error' } });
    }
    await play(step, request, res);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    chatRequests: (model?: string) =>
      requests.filter((r) => r.path.startsWith('/v1/chat/completions') && (model === undefined || r.model === model)),
    enqueue(steps, model = SHARED) {
      const queue = queues.get(model) ?? [];
      queue.push(...steps);
      queues.set(model, queue);
    },
    waitForRequests: (count) => waitUntil(() => requests.length >= count),
    waitForChatRequests: (count) => waitUntil(() => requests.filter((r) => r.path.startsWith('/v1/chat/completions')).length >= count),
    waitForDisconnects: (count) => waitUntil(() => disconnects >= count),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function resolveStep(step: FakeStep | undefined, request: FakeRequest): Promise<Exclude<FakeStep, Function> | undefined> {
  let current = step;
  for (let depth = 0; typeof current === 'function' && depth < 10; depth++) current = await current(request);
  return typeof current === 'function' ? undefined : current;
}

async function play(step: Exclude<FakeStep, Function>, request: FakeRequest, res: ServerResponse): Promise<void> {
  if (step.type === 'drop') {
    res.socket?.destroy();
    return;
  }
  if (step.type === 'hang') return untilClosed(res);
  if (step.delayMs) await delay(step.delayMs, res);
  if (res.destroyed) return;
  if (step.type === 'error') return sendError(res, step);
  if (step.type === 'partial') return sendPartial(res, step, request);
  if (request.stream) return streamText(res, step, request);
  sendJson(res, 200, completionBody(step, request));
}

function sendError(res: ServerResponse, step: FakeErrorStep): void {
  const body = step.body ?? { error: { message: step.message ?? 'fake error', type: 'fake_error', code: step.code ?? null } };
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
  res.end(text);
}

async function streamText(res: ServerResponse, step: FakeTextStep, request: FakeRequest): Promise<void> {
  startStream(res);
  const id = `chatcmpl-fake-${request.index}`;
  const model = request.model ?? 'fake-model';
  writeEvent(res, chunk(id, model, { role: 'assistant', content: '' }, null));
  for (const piece of step.reasoning ? splitText(step.reasoning, step.chunkSize) : []) {
    if (step.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, step.chunkDelayMs));
    if (res.destroyed) return;
    writeEvent(res, chunk(id, model, { content: null, [step.reasoningField ?? 'reasoning_content']: piece }, null));
  }
  for (const piece of step.chunks ?? splitText(step.text, step.chunkSize)) {
    // A plain timer: one close listener per chunk would pile up on a long reply.
    if (step.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, step.chunkDelayMs));
    if (res.destroyed) return;
    writeEvent(res, chunk(id, model, { content: piece }, null));
  }
  writeEvent(res, chunk(id, model, {}, step.finishReason ?? 'stop'));
  if (step.cutAfterFinish) {
    res.socket?.end(() => res.socket?.destroy());
    return;
  }
  if (request.body?.stream_options?.include_usage && !step.noUsage) {
    writeEvent(res, { id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage: usageOf(step, request) });
  }
  res.end('data: [DONE]\n\n');
}

function sendPartial(res: ServerResponse, step: FakePartialStep, request: FakeRequest): Promise<void> | void {
  const pieces = splitText(step.text, step.chunkSize).slice(0, step.afterChunks);
  if (!request.stream) {
    // Headers and half a JSON body, then the cut.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(JSON.stringify(completionBody({ type: 'text', text: pieces.join('') }, request)).slice(0, 20));
  } else {
    startStream(res);
    const id = `chatcmpl-fake-${request.index}`;
    const model = request.model ?? 'fake-model';
    writeEvent(res, chunk(id, model, { role: 'assistant', content: '' }, null));
    for (const piece of pieces) writeEvent(res, chunk(id, model, { content: piece }, null));
  }
  if (step.then === 'hang') return untilClosed(res);
  if (step.then === 'end') {
    res.end();
    return;
  }
  // Let the written chunks leave before the cut, so the client sees them first.
  res.socket?.end(() => res.socket?.destroy());
}

function completionBody(step: FakeTextStep, request: FakeRequest): object {
  return {
    id: `chatcmpl-fake-${request.index}`,
    object: 'chat.completion',
    created: 0,
    model: request.model ?? 'fake-model',
    choices: [{ index: 0, message: { role: 'assistant', content: step.text, ...reasoningOf(step) }, finish_reason: step.finishReason ?? 'stop' }],
    ...(step.noUsage ? {} : { usage: usageOf(step, request) }),
  };
}

function reasoningOf(step: FakeTextStep): object {
  return step.reasoning ? { [step.reasoningField ?? 'reasoning_content']: step.reasoning } : {};
}

function usageOf(step: FakeTextStep, request: FakeRequest): object {
  if (step.rawUsage) return step.rawUsage;
  const messages: unknown[] = Array.isArray(request.body?.messages) ? request.body.messages : [];
  const promptChars = messages.reduce<number>((sum, m) => sum + String((m as { content?: unknown }).content ?? '').length, 0);
  const prompt = step.usage?.prompt_tokens ?? Math.ceil(promptChars / 4);
  const completion = step.usage?.completion_tokens ?? Math.ceil(step.text.length / 4);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: step.usage?.cached_tokens ?? 0 },
  };
}

function chunk(id: string, model: string, delta: object, finishReason: string | null): object {
  return { id, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

function startStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

function writeEvent(res: ServerResponse, data: object): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

function splitText(text: string, size = 8): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendModels(res: ServerResponse, options: FakeOpenAIOptions, queues: Map<string, FakeStep[]>): void {
  const scripted = [...queues.keys()].filter((m) => m !== SHARED);
  const ids = options.models ?? (scripted.length > 0 ? scripted : ['fake-model']);
  sendJson(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })) });
}

async function readRequest(req: IncomingMessage, index: number): Promise<FakeRequest> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const rawBody = Buffer.concat(parts);
  const raw = rawBody.toString('utf8');
  let body: any = null;
  if (raw.length > 0) {
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = String(value);
  return {
    index,
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    headers,
    body,
    model: typeof body?.model === 'string' ? body.model : null,
    stream: body?.stream === true,
    rawBody,
  };
}

function untilClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.socket?.destroyed) resolve();
    else res.on('close', () => resolve());
  });
}

/** Waits, but stops early when the client goes away. */
function delay(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    res.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
