// /voice end to end: a recorder script that emits a WAV made with espeak-ng, the scripted server's
// transcription endpoint (on the main server or --voice-base-url), and the transcript as the next
// message; a missing recorder, a failing device and a server without the endpoint are one line each.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

const noEspeak = spawnSync('sh', ['-c', 'command -v espeak-ng']).status !== 0;
if (noEspeak) console.warn('voice tests skipped: espeak-ng is not installed (apt-get install espeak-ng)');

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(options: Parameters<typeof startFakeOpenAI>[0]): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAI(options);
  servers.push(server);
  return server;
}

const args = (url: string, extra: string[] = []): string[] => ['--base-url', url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--json', '--edit-format', 'ask', ...extra];
const infos = (events: Array<Record<string, any>>): string[] => events.filter((e) => e.type === 'info').map((e) => String(e.message));

describe.skipIf(noEspeak)('/voice', () => {
  it('records with the given command, transcribes on the server, and sends the text as the next message', async () => {
    const wav = join(tempDir(), 'speech.wav');
    execFileSync('espeak-ng', ['-w', wav, 'add a docstring to the parser']);
    const server = await serve({ fallback: textReply('Done.'), transcriptions: ['add a docstring to the parser'] });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const run = await runCli(args(server.url, ['--voice-command', `cat '${wav}' > {file}`]), { cwd: repo, stdin: '/voice\n' });
    expect(run.code, run.stderr).toBe(0);
    const upload = server.requests.find((r) => r.path === '/v1/audio/transcriptions')!;
    expect(upload.rawBody!.indexOf(readFileSync(wav))).toBeGreaterThan(0);
    expect(upload.rawBody!.toString('latin1')).toMatch(/name="model"\r\n\r\nwhisper-1/);
    expect(upload.headers['authorization']).toBe('Bearer k');
    expect(run.events().find((e) => e.type === 'user')?.text).toBe('add a docstring to the parser');
    expect((server.chatRequests()[0]!.body.messages as Array<{ content: string }>).at(-1)!.content).toContain('add a docstring to the parser');
  });

  it('uses --voice-base-url and --voice-model for a separate whisper server', async () => {
    const wav = join(tempDir(), 'speech.wav');
    execFileSync('espeak-ng', ['-w', wav, 'hello']);
    const whisper = await serve({ transcriptions: ['hello there'] });
    const server = await serve({ fallback: textReply('Hi.') });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const run = await runCli(args(server.url, ['--voice-command', `cp '${wav}' "$TANDEM_VOICE_FILE"`, '--voice-base-url', whisper.url, '--voice-model', 'large-v3']), { cwd: repo, stdin: '/voice\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(whisper.requests[0]!.rawBody!.toString('latin1')).toMatch(/name="model"\r\n\r\nlarge-v3/);
    expect(server.requests.some((r) => r.path.includes('audio'))).toBe(false);
    expect(run.events().find((e) => e.type === 'user')?.text).toBe('hello there');
  });

  it('says in one line when the recorder is missing, the device fails, or the server has no endpoint', async () => {
    const wav = join(tempDir(), 'speech.wav');
    execFileSync('espeak-ng', ['-w', wav, 'hello']);
    const server = await serve({ fallback: textReply('Hi.') });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    symlinkSync(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), join(bin, 'git'));
    const missing = await runCli(args(server.url), { cwd: repo, env: { PATH: bin }, stdin: '/voice\n' });
    expect(infos(missing.events())).toContain('Cannot use voice: no audio recorder: install sox (rec) or alsa-utils (arecord), or set --voice-command.');
    const device = await runCli(args(server.url, ['--voice-command', 'echo "cannot open audio device default" >&2; exit 1']), { cwd: repo, stdin: '/voice\n' });
    expect(infos(device.events())).toContain('Cannot use voice: the recorder made no audio: cannot open audio device default.');
    const endpoint = await runCli(args(server.url, ['--voice-command', `cp '${wav}' {file}`]), { cwd: repo, stdin: '/voice\n' });
    expect(infos(endpoint.events()).find((l) => l.startsWith('Cannot use voice'))).toMatch(/^Cannot use voice: the server has no transcription endpoint \(.*HTTP 404\)/);
    expect(server.chatRequests()).toHaveLength(0);
  });
});
