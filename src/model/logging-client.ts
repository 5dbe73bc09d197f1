// --llm-log: every request and its result as JSON lines, for seeing exactly what a model was sent.
import { appendFileSync } from 'node:fs';
import type { ChatRequest, ChatResult, ModelClient } from './types.js';

export function withLlmLog(client: ModelClient, file: string, now: () => Date): ModelClient {
  return {
    async chat(request: ChatRequest): Promise<ChatResult> {
      const started = now();
      const result = await client.chat(request);
      const entry = {
        time: started.toISOString(),
        request: { model: request.model, stream: request.stream, messages: request.messages },
        response: result.ok
          ? { ok: true, text: result.text, reasoning: result.reasoning, usage: result.usage, finishReason: result.finishReason }
          : { ok: false, error: result.error, partialText: result.partialText },
      };
      appendFileSync(file, `${JSON.stringify(entry)}\n`);
      return result;
    },
  };
}
