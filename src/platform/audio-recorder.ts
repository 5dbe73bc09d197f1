// The audio recorder port for /voice: the system's recorder (sox's `rec` or ALSA's `arecord`, found on
// PATH) or the user's --voice-command, writing a WAV file. Recording ends when `stop` resolves (Enter)
// or the recorder exits on its own; a missing recorder or a failing device is one line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RecordOptions {
  /** A shell command writing WAV to `{file}` (or to $TANDEM_VOICE_FILE); null: rec or arecord. */
  readonly command: string | null;
  readonly env: Readonly<Record<string, string>>;
  /** Resolves when the user wants the recording to end. */
  readonly stop: Promise<void>;
  readonly signal?: AbortSignal;
  /** Recordings larger than this are refused (the transcription endpoint takes 25 MB). */
  readonly maxBytes: number;
}

export type Recording = { readonly ok: true; readonly wav: Buffer } | { readonly ok: false; readonly message: string };

export async function recordAudio(options: RecordOptions): Promise<Recording> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-voice-'));
  const file = join(dir, 'voice.wav');
  try {
    const command = options.command ?? defaultRecorder(options.env, file);
    if (!command) return { ok: false, message: 'no audio recorder: install sox (rec) or alsa-utils (arecord), or set --voice-command' };
    // Loaded on first use, like every process tool outside a request.
    const { execa } = await import('execa');
    const child = execa('sh', ['-c', command.replace(/\{file\}/g, `'${file}'`)], {
      env: { ...options.env, TANDEM_VOICE_FILE: file },
      extendEnv: false,
      stdin: 'ignore',
      stdout: 'ignore',
      detached: true,
      reject: false,
    });
    const stopGroup = (): void => {
      // SIGINT lets rec and arecord finish the WAV header; the whole group, so a shell's child stops too.
      if (child.pid) {
        try {
          process.kill(-child.pid, 'SIGINT');
        } catch {
          // already gone
        }
      }
    };
    void options.stop.then(stopGroup);
    options.signal?.addEventListener('abort', stopGroup, { once: true });
    const result = await child;
    if (options.signal?.aborted) return { ok: false, message: 'recording cancelled' };
    return readRecording(file, result, options.maxBytes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readRecording(file: string, result: { exitCode?: number; signal?: string; stderr?: unknown }, maxBytes: number): Recording {
  let wav: Buffer;
  try {
    wav = readFileSync(file);
  } catch {
    const said = String(result.stderr ?? '').trim().split('\n')[0];
    return { ok: false, message: `the recorder made no audio${said ? `: ${said.slice(0, 200)}` : ` (exit ${result.exitCode ?? result.signal})`}` };
  }
  if (wav.length > maxBytes) return { ok: false, message: `the recording is ${wav.length} bytes, over the ${maxBytes}-byte limit` };
  if (wav.length <= 44) return { ok: false, message: 'the recording is empty (no audio device?)' };
  return { ok: true, wav };
}

/** rec (sox) or arecord, whichever is on PATH: 16 kHz mono 16-bit WAV, what speech models expect. */
function defaultRecorder(env: Readonly<Record<string, string>>, file: string): string | null {
  const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`], { env, stdio: 'ignore' }).status === 0;
  if (has('rec')) return `rec -q -c 1 -r 16000 -b 16 '${file}'`;
  if (has('arecord')) return `arecord -q -f S16_LE -r 16000 -c 1 '${file}'`;
  return null;
}
