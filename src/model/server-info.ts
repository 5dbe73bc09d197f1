// What an OpenAI-compatible server says about itself: the models it serves (GET /v1/models, which
// llama-server, vLLM, Ollama and LM Studio answer) and their context windows (vLLM's max_model_len,
// llama-server's meta and /props, OpenRouter's context_length, Ollama's /api/show). Its answers are
// untrusted text: short timeouts, a size cap, names checked and bounded.
import type { HttpPort } from '../platform/http.js';

export interface ServedModel {
  readonly id: string;
  /** The window the server reports for it, if any. */
  readonly contextWindow: number | null;
}

export interface ServerInfo {
  /** null: the server did not answer /v1/models (or not usefully). */
  readonly models: readonly ServedModel[] | null;
  /** The window of `model` (or of the single served model), and where it came from. */
  readonly contextWindow: { readonly model: string; readonly tokens: number; readonly from: string } | null;
  /** The list had more models than were kept. */
  readonly truncated: boolean;
}

export interface AskServerOptions {
  readonly baseURL: string;
  readonly apiKey: string | null;
  readonly http: HttpPort;
  /** The model the chat will use; null: the single served model, if there is one. */
  readonly model: string | null;
  readonly timeoutMs?: number;
}

const MAX_BYTES = 4 * 1024 * 1024;
const MAX_MODELS = 2000;
const MAX_NAME = 200;
const MAX_WINDOW = 100_000_000;

/** Hosted APIs whose model lists tandem's own data already covers: not asked at start-up. */
const HOSTED = ['api.openai.com', 'openrouter.ai', 'api.anthropic.com', 'api.deepseek.com', 'generativelanguage.googleapis.com', 'api.mistral.ai', 'api.groq.com', 'api.together.xyz', 'api.fireworks.ai', 'api.x.ai', 'api.cerebras.ai'];

export function isHostedApi(baseURL: string): boolean {
  let host: string;
  try {
    host = new URL(baseURL).hostname.toLowerCase();
  } catch {
    return false;
  }
  return HOSTED.some((h) => host === h || host.endsWith(`.${h}`));
}

export async function askServer(options: AskServerOptions): Promise<ServerInfo> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const base = options.baseURL.replace(/\/+$/, '');
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  const get = async (url: string, json?: unknown): Promise<unknown> => {
    const result = await options.http.request(url, { method: json === undefined ? 'GET' : 'POST', headers, json, timeoutMs, maxBytes: MAX_BYTES });
    if (!result.ok || result.status !== 200) return result.ok ? undefined : null;
    try {
      return JSON.parse(result.text) as unknown;
    } catch {
      return undefined;
    }
  };
  const listed = await get(`${base}/models`);
  // null: no answer at all (a server that never answers is asked nothing more)
  if (listed === null) return { models: null, contextWindow: null, truncated: false };
  const { models, truncated } = modelsOf(listed);
  const model = options.model ?? (models?.length === 1 ? models[0]!.id : null);
  if (model === null) return { models, contextWindow: null, truncated };
  const fromList = models?.find((m) => m.id === model)?.contextWindow ?? null;
  // The running server's own window beats the model's trained maximum the list may report.
  const root = base.replace(/\/v1$/, '');
  const [props, show] = await Promise.all([get(`${root}/props`), fromList === null ? get(`${root}/api/show`, { model }) : undefined]);
  const fromProps = propsWindow(props);
  if (fromProps !== null) return { models, contextWindow: { model, tokens: fromProps, from: '/props' }, truncated };
  if (fromList !== null) return { models, contextWindow: { model, tokens: fromList, from: '/v1/models' }, truncated };
  const fromShow = ollamaWindow(show);
  return { models, contextWindow: fromShow === null ? null : { model, tokens: fromShow, from: '/api/show' }, truncated };
}

/** `{ data: [{ id, max_model_len | context_length | meta.n_ctx_train }] }`; anything else is no list. */
function modelsOf(body: unknown): { models: ServedModel[] | null; truncated: boolean } {
  const data = (body as { data?: unknown } | null | undefined)?.data;
  if (!Array.isArray(data)) return { models: null, truncated: false };
  const models: ServedModel[] = [];
  for (const item of data) {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || id === '' || id.length > MAX_NAME) continue;
    if (models.length >= MAX_MODELS) return { models, truncated: true };
    const fields = item as { max_model_len?: unknown; context_length?: unknown; meta?: { n_ctx_train?: unknown } };
    models.push({ id, contextWindow: windowOf(fields.max_model_len) ?? windowOf(fields.context_length) ?? windowOf(fields.meta?.n_ctx_train) });
  }
  return { models, truncated: false };
}

/** llama-server's /props: the context size it was started with. */
function propsWindow(body: unknown): number | null {
  const props = body as { default_generation_settings?: { n_ctx?: unknown }; n_ctx?: unknown } | null | undefined;
  return windowOf(props?.default_generation_settings?.n_ctx) ?? windowOf(props?.n_ctx);
}

/** Ollama's /api/show: num_ctx when the model sets it, else the architecture's context_length. */
function ollamaWindow(body: unknown): number | null {
  const show = body as { parameters?: unknown; model_info?: Record<string, unknown> } | null | undefined;
  const numCtx = typeof show?.parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show.parameters)?.[1] : undefined;
  if (numCtx !== undefined) return windowOf(Number(numCtx));
  const info = show?.model_info;
  if (!info || typeof info !== 'object') return null;
  const key = Object.keys(info).find((k) => k.endsWith('.context_length'));
  return key === undefined ? null : windowOf(info[key]);
}

function windowOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= MAX_WINDOW ? value : null;
}
