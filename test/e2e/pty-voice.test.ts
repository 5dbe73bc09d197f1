// /voice on a real terminal (tmux): Enter stops the recorder, the transcript appears at the prompt to
// edit, and Enter sends it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textReply } from '../support/fake-openai-server.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';
import { cliArgs, promptShown, tmuxTests } from './pty-pane.js';

const { open: openPane, serve } = tmuxTests({ joined: true });
const noEspeak = spawnSync('sh', ['-c', 'command -v espeak-ng']).status !== 0;
if (noEspeak) console.warn('voice on a terminal skipped: espeak-ng is not installed (apt-get install espeak-ng)');

describe.skipIf(noEspeak)('/voice on a terminal', () => {
  it('stops on Enter and puts the transcript at the prompt to edit or send', async () => {
    const dir = tempDir();
    const wav = join(dir, 'speech.wav');
    const recorded = join(dir, 'recorded');
    execFileSync('espeak-ng', ['-w', wav, 'rename the helper']);
    const server = await serve({ fallback: textReply('Renamed.'), transcriptions: ['rename the helper'] });
    // The "recorder" writes its audio, says so, then records on until it is stopped.
    const recorder = `cp '${wav}' {file} && touch '${recorded}'; exec sleep 600`;
    const pane = openPane(gitRepo({ 'a.txt': 'a\n' }), [...cliArgs(server.url), '--edit-format', 'ask', '--voice-command', recorder]);
    await pane.waitFor((s) => promptShown(s, 'ask> '), 'the prompt');
    pane.enter('/voice');
    await pane.waitFor((s) => s.includes('(Enter stops the recording)'), 'the recording');
    // On a loaded machine the recorder may not have written its audio yet when the question shows.
    await pane.waitFor(() => existsSync(recorded), 'the audio written');
    pane.keys('Enter');
    await pane.waitFor((s) => s.includes('Heard: rename the helper') && s.trimEnd().endsWith('ask> rename the helper'), 'the transcript at the prompt');
    pane.type(' please');
    pane.keys('Enter');
    await pane.waitFor((s) => s.includes('Renamed.'), 'the reply');
    const sent = server.chatRequests()[0]!.body.messages as Array<{ content: string }>;
    expect(sent.at(-1)!.content).toContain('rename the helper please');
  });
});
