// The model port: what the rest of tandem may ask of a chat model, and what comes back.
// The client never throws for model failures; it returns a result carrying a classified error.

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
  /** Images sent with a user message as image_url parts after its text (never kept in the history). */
  readonly images?: readonly ImagePart[];
}

export interface ImagePart {
  /** What the image is called in the chat (its path). */
  readonly name: string;
  /** `data:image/png;base64,...` */
  readonly dataUrl: string;
  /** The provider's rule-of-thumb token count for the image. */
  readonly tokens: number;
}

export type ModelErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'context_overflow'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'bad_request'
  | 'not_found'
  | 'aborted'
  | 'cut_off';

export interface ModelError {
  readonly kind: ModelErrorKind;
  /** One sentence for the user. */
  readonly message: string;
  readonly retryable: boolean;
  readonly status?: number;
}

export interface Usage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Prompt tokens read from the server's cache (a part of promptTokens). */
  readonly cachedTokens: number;
  /** Prompt tokens written to the cache, when the server says (a part of promptTokens). */
  readonly cacheWriteTokens?: number;
  /** Completion tokens spent on reasoning, when the server says (a part of completionTokens). */
  readonly reasoningTokens?: number;
  /** USD, when the model's prices are known. */
  readonly cost: number | null;
}

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly stream: boolean;
  readonly signal?: AbortSignal;
  /** Called with each text delta as it arrives (streaming) or once with the whole text. */
  readonly onText?: (delta: string) => void;
  /** Called with the model's reasoning as it arrives; it is never part of `text`. */
  readonly onReasoning?: (delta: string) => void;
  readonly temperature?: number;
  /** Longest reply wanted, sent as `max_tokens` (a cache keep-alive ping asks for one token). */
  readonly maxTokens?: number;
  /** How many leading messages stay the same from request to request (system prompt, examples, map...). */
  readonly stablePrefix?: number;
  /** Retries for this request instead of the client's (0: one attempt; commit messages have a fallback). */
  readonly maxRetries?: number;
}

export type ChatResult =
  | {
      readonly ok: true;
      /** The answer, without the reasoning (a reply that ended inside its reasoning has none). */
      readonly text: string;
      readonly usage: Usage;
      readonly finishReason: string | null;
      /** The reasoning shown before the answer, if any: never parsed, never sent back. */
      readonly reasoning?: string;
    }
  | { readonly ok: false; readonly error: ModelError; readonly partialText: string; readonly usage: Usage | null };

export interface ModelClient {
  chat(request: ChatRequest): Promise<ChatResult>;
}
