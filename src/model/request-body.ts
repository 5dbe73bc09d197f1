// The JSON body of one chat request: the messages, the model's temperature and reasoning rules (in the form
// the model takes them), the prompt-cache hints each kind of server understands (and only that kind: strict
// servers reject unknown fields), and the extra fields a user's model settings file adds.
import type { ChatMessage, ChatRequest } from './types.js';

export type ReasoningEffort = 'low' | 'medium' | 'high';

/** What a model's profile adds to each request. */
export interface RequestRules {
  /** Sent as `temperature`; undefined for models that reject one. */
  readonly temperature?: number;
  /** Sent as `reasoning_effort`. */
  readonly reasoningEffort?: ReasoningEffort;
  /** Mark cache breakpoints with `cache_control` (Anthropic models, also behind OpenRouter). */
  readonly cacheControl: boolean;
  /** Send `cache_prompt: true` (llama-server keeps the prompt's KV cache for the next request). */
  readonly cachePrompt: boolean;
  /** A thinking budget in tokens (Anthropic's `thinking`, or a router's `reasoning.max_tokens`). */
  readonly thinkingTokens?: number;
  /** `router`: reasoning goes in one `reasoning` object, as OpenRouter takes it. */
  readonly reasoningForm?: 'plain' | 'router';
  /** Fields a user's settings file adds to every body (never model, messages or stream). */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** Headers a user's settings file adds to every request. */
  readonly extraHeaders?: Readonly<Record<string, string>>;
  /** A tag the model wraps its reasoning in besides think/thinking/reasoning (`reasoning_tag`). */
  readonly reasoningTag?: string;
}

type TextPart = { type: 'text'; text: string; cache_control?: { type: 'ephemeral' } };
type ImageUrlPart = { type: 'image_url'; image_url: { url: string }; cache_control?: { type: 'ephemeral' } };
type BodyMessage = { role: ChatMessage['role']; content: string | Array<TextPart | ImageUrlPart> };

export interface RequestBody {
  model: string;
  messages: BodyMessage[];
  temperature?: number;
  reasoning_effort?: ReasoningEffort;
  reasoning?: { effort?: ReasoningEffort; max_tokens?: number };
  thinking?: { type: 'enabled'; budget_tokens: number };
  max_tokens?: number;
  cache_prompt?: boolean;
  [extra: string]: unknown;
}

/** Fields of the body an extra_body entry may not replace. */
const OWN_FIELDS = new Set(['model', 'messages', 'stream', 'stream_options']);

export function requestBody(request: ChatRequest, rules: RequestRules): RequestBody {
  const temperature = request.temperature ?? rules.temperature;
  const marks = rules.cacheControl ? cacheBreakpoints(request.messages, request.stablePrefix) : new Set<number>();
  return {
    model: request.model,
    messages: request.messages.map((m, i) => bodyMessage(m, marks.has(i))),
    ...(temperature !== undefined ? { temperature } : {}),
    ...reasoningFields(rules),
    ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    ...(rules.cachePrompt ? { cache_prompt: true } : {}),
    ...extraFields(rules.extraBody),
  };
}

/** `reasoning_effort` and Anthropic's `thinking` budget, or both in one `reasoning` object for a router. */
function reasoningFields(rules: RequestRules): Partial<RequestBody> {
  const effort = rules.reasoningEffort;
  const budget = rules.thinkingTokens !== undefined && rules.thinkingTokens > 0 ? rules.thinkingTokens : undefined;
  if (rules.reasoningForm === 'router') {
    if (!effort && budget === undefined) return {};
    return { reasoning: { ...(effort ? { effort } : {}), ...(budget !== undefined ? { max_tokens: budget } : {}) } };
  }
  return {
    ...(effort ? { reasoning_effort: effort } : {}),
    ...(budget !== undefined ? { thinking: { type: 'enabled' as const, budget_tokens: budget } } : {}),
  };
}

function extraFields(extra: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  if (!extra) return {};
  return Object.fromEntries(Object.entries(extra).filter(([key]) => !OWN_FIELDS.has(key)));
}

/** OpenRouter (by its address, or a model named through it) takes reasoning as one `reasoning` object. */
export function isRouter(baseURL: string, model: string): boolean {
  const host = hostOf(baseURL);
  return host === 'openrouter.ai' || host.endsWith('.openrouter.ai') || model.toLowerCase().startsWith('openrouter/');
}

/**
 * Anthropic caches a prompt only up to a marked message (at most four marks). Three are used: the end of
 * the system messages and the end of the stable prefix (both survive any change further down), and the
 * last message (the end of the history, which the next request repeats when the conversation only grew).
 */
export function cacheBreakpoints(messages: readonly ChatMessage[], stablePrefix?: number): Set<number> {
  const marks = new Set<number>();
  let lastSystem = -1;
  while (messages[lastSystem + 1]?.role === 'system') lastSystem++;
  if (lastSystem >= 0) marks.add(lastSystem);
  if (stablePrefix !== undefined && stablePrefix > 0 && stablePrefix <= messages.length) marks.add(stablePrefix - 1);
  if (messages.length > 0) marks.add(messages.length - 1);
  return marks;
}

/** A message as sent: plain text, or parts when it is a cache breakpoint or carries images. */
function bodyMessage(message: ChatMessage, marked: boolean): BodyMessage {
  const images = message.images ?? [];
  if (!marked && images.length === 0) return { role: message.role, content: message.content };
  const text: TextPart = { type: 'text', text: message.content };
  const imageParts = images.map((image): ImageUrlPart => ({ type: 'image_url', image_url: { url: image.dataUrl } }));
  const parts: Array<TextPart | ImageUrlPart> = [text, ...imageParts];
  // The breakpoint goes on the message's last part.
  if (marked) {
    const last = parts[parts.length - 1]!;
    parts[parts.length - 1] = { ...last, cache_control: { type: 'ephemeral' } };
  }
  return { role: message.role, content: parts };
}

/**
 * Whether the server at `baseURL` may be llama-server, told apart by where it runs: on this machine or a
 * private network. Hosted APIs (OpenAI, OpenRouter, DeepSeek...) never are, and some reject unknown
 * fields; the local servers tandem names (llama-server, vLLM, Ollama, LM Studio) accept or ignore
 * `cache_prompt`. The caller also leaves it out for priced (hosted) models, which a local proxy relays.
 */
export function isLocalServer(baseURL: string): boolean {
  return isLocalHost(hostOf(baseURL));
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return '';
  }
}

function isLocalHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host === '::1') return true;
  if (/^fe80:|^f[cd][0-9a-f]{2}:/.test(host)) return true;
  const octets = host.split('.').map(Number);
  if (octets.length !== 4 || octets.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return false;
  const [a, b] = octets as [number, number, number, number];
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254);
}
