// Speech to text through an OpenAI-compatible transcription endpoint (/v1/audio/transcriptions): the main
// server or a local whisper server. Failures are one line: no endpoint, connection, HTTP errors.

export interface TranscribeOptions {
  readonly baseURL: string;
  readonly apiKey: string | null;
  readonly model: string;
  readonly timeoutMs: number;
}

export type Transcript = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

export async function transcribe(wav: Buffer, options: TranscribeOptions, signal?: AbortSignal): Promise<Transcript> {
  const url = `${options.baseURL.replace(/\/+$/, '')}/audio/transcriptions`;
  const form = new FormData();
  form.append('model', options.model);
  form.append('file', new Blob([wav], { type: 'audio/wav' }), 'voice.wav');
  const timeout = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      body: form,
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (timeout.aborted) return { ok: false, message: `the transcription server did not answer within ${Math.round(options.timeoutMs / 1000)} s` };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, message: `cannot reach the transcription server ${url}: ${cause?.code ?? cause?.message ?? String(error)}` };
  }
  const body = await response.text();
  if (response.status === 404 || response.status === 405) return { ok: false, message: `the server has no transcription endpoint (${url}: HTTP ${response.status}); use --voice-base-url for a whisper server` };
  if (!response.ok) return { ok: false, message: `the transcription failed: HTTP ${response.status} ${serverMessage(body)}`.trimEnd() };
  try {
    const text = (JSON.parse(body) as { text?: unknown }).text;
    if (typeof text === 'string') return { ok: true, text: text.trim() };
  } catch {
    // not JSON: below
  }
  return { ok: false, message: 'the transcription server answered without a text' };
}

function serverMessage(body: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return `(${message.slice(0, 200)})`;
  } catch {
    // plain text
  }
  return '';
}
