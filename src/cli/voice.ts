// /voice's parts assembled: record with the system's recorder (Enter stops it on a terminal; without one
// the recorder ends by itself), then send the audio to the transcription endpoint.
import type { Settings } from '../config/schema.js';
import { DEFAULT_BASE_URL } from '../model/openai-client.js';
import { transcribe, type Transcript } from '../model/transcribe.js';
import { recordAudio } from '../platform/audio-recorder.js';
import type { LineReader } from './line-reader.js';

/** The transcription endpoint takes files up to 25 MB. */
const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

export interface VoiceParts {
  readonly settings: Settings;
  readonly env: Readonly<Record<string, string>>;
  readonly lines: LineReader;
  readonly interactive: boolean;
  readonly print: (text: string) => void;
}

export function createVoice(parts: VoiceParts): (signal?: AbortSignal) => Promise<Transcript> {
  const { settings } = parts;
  return async (signal) => {
    parts.print(parts.interactive ? 'Recording: speak, then press Enter to stop.\n' : 'Recording until the recorder stops.\n');
    const stop = parts.interactive ? parts.lines.ask('(Enter stops the recording)', ['yes'], 'yes').then(() => undefined) : new Promise<void>(() => {});
    const recording = await recordAudio({ command: settings['voice-command'], env: parts.env, stop, signal, maxBytes: MAX_AUDIO_BYTES });
    // The question takes the next key: a recorder that ended by itself (or failed) still waits for Enter,
    // so no key meant for the prompt is swallowed later.
    if (parts.interactive) await stop;
    if (!recording.ok) return recording;
    return transcribe(
      recording.wav,
      {
        baseURL: settings['voice-base-url'] ?? settings['base-url'] ?? DEFAULT_BASE_URL,
        apiKey: settings['api-key'],
        model: settings['voice-model'],
        timeoutMs: settings['request-timeout'] * 1000,
      },
      signal,
    );
  };
}
