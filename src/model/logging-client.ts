// --llm-log: every request and its result as JSON lines, for seeing exactly what a model was sent.
import { appendNoFollow } from '../platform/file-system.js';
import type { ChatRequest, ChatResult, ModelClient } from './types.js';

export function withLlmLog(client: ModelClient, file: string, now: () => Date, onWriteError: (message: string) => void = () => {}): ModelClient {
  let broken = false;
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
      // A log that cannot be written (a full disk, a link put in its place) stops the log, not the chat.
      if (!broken) {
        try {
          appendNoFollow(file, `${JSON.stringify(entry)}\n`);
        } catch (error) {
          broken = true;
          onWriteError(`Could not write the llm-log ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}); no more requests are logged.`);
        }
      }
      return result;
    },
  };
}
