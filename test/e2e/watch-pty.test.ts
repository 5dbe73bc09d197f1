// Working from the editor in the interactive chat on a real terminal (tmux), one pane for the whole
// story: watch mode sends a request per saved AI comment (the prompt says `watch> `), a trigger during a
// slow reply is queued (`queued: …`) and runs after it, the slow reply rings the user's notifications
// command, `/editor` opens a real terminal editor (vi) and sends what was saved, and in multi-line
// mode Enter adds a line while Meta-Enter sends.
import { existsSync, appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textReply, type FakeStep } from '../support/fake-openai-server.js';
import { searchReplace } from '../support/replies.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';
import { cliArgs, promptShown, tmuxTests } from './pty-pane.js';

const { open: openPane, serve } = tmuxTests({ joined: true, scrollback: 400 });

/** The request text of the n-th chat request (the chat files' text in the same message left out). */
function requestText(body: any): string {
  const text = (body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').at(-1)!.content;
  return text.slice(Math.max(0, text.lastIndexOf('While tandem watched the files')));
}

describe('working from the editor, on a terminal', () => {
  it('watches, queues a trigger behind a slow reply, notifies, opens the editor and takes multi-line input', async () => {
    const root = gitRepo({ 'app.py': 'def add(a, b):\n    return a + b\n', 'util.js': 'function inc(x) {\n  return x + 1;\n}\n' });
    const marker = join(tempDir('tandem-notify-'), 'notified');
    let release: () => void = () => {};
    // Held until the test has queued a trigger behind it, then slower than the notification threshold.
    const slow: FakeStep = () => new Promise<FakeStep>((resolve) => (release = () => resolve(textReply('Renamed it, slowly.', { delayMs: 3500 }))));
    const server = await serve({
      replies: {
        m: [
          textReply(searchReplace('app.py', 'def add(a, b):\n', 'def add(a, b):\n    """Add two numbers."""\n') + searchReplace('app.py', '# add a docstring AI!\n', '')),
          slow,
          textReply('The queued comment is answered.'),
          textReply('Got the message from the editor.'),
          textReply('Got two lines.'),
          textReply('Done again.'),
        ],
      },
      fallback: textReply('Update the code'),
    });
    const args = [...cliArgs(server.url), '--watch-files', '--yes-always', '--notifications-command', `printf '%s\\n' >> ${marker}`, '--editor', 'vi -u NONE -N'];
    const pane = openPane(root, args);
    await pane.waitFor((s) => s.includes('Watching the files for AI comments (2 files).') && promptShown(s, 'watch> '), 'the watching prompt');

    appendFileSync(join(root, 'app.py'), '# add a docstring AI!\n');
    await pane.waitFor((s) => s.includes('watch: app.py:3: add a docstring AI!') && promptShown(s, 'watch> '), 'the first trigger done');
    expect(server.chatRequests('m')).toHaveLength(1);
    expect(requestText(server.chatRequests('m')[0]!.body)).toContain('> 3 | # add a docstring AI!');
    expect(readFileSync(join(root, 'app.py'), 'utf8')).toBe('def add(a, b):\n    """Add two numbers."""\n    return a + b\n');

    appendFileSync(join(root, 'util.js'), '// rename x to count AI!\n');
    await pane.waitFor(() => server.chatRequests('m').length === 2, 'the slow request');
    appendFileSync(join(root, 'app.py'), '# why a plain sum? AI?\n');
    await pane.waitFor((s) => s.includes('queued: AI comment app.py:4: why a plain sum? AI?'), 'the queued trigger');
    expect(server.chatRequests('m')).toHaveLength(2);
    release();
    await pane.waitFor((s) => s.includes('The queued comment is answered.') && promptShown(s, 'watch> '), 'the queued request after the slow one');
    expect(server.chatRequests('m')).toHaveLength(3);
    expect(requestText(server.chatRequests('m')[2]!.body)).toContain('> 4 | # why a plain sum? AI?');
    const screen = pane.screen();
    expect(screen.indexOf('Renamed it, slowly.')).toBeLessThan(screen.indexOf('The queued comment is answered.'));
    // The slow request rang the user's command with its summary.
    await pane.waitFor(() => existsSync(marker), 'the notification');
    expect(readFileSync(marker, 'utf8')).toContain('the reply is done');

    // /editor in vi: insert a line, save and quit; the text is the next message.
    pane.enter('/editor');
    await pane.waitFor((s) => s.includes('message.md'), 'vi on the message file');
    pane.type('iHello from vi');
    pane.keys('Escape');
    pane.enter(':wq');
    await pane.waitFor((s) => s.includes('Got the message from the editor.') && promptShown(s, 'watch> '), 'the editor message sent');
    const fromEditor = server.chatRequests('m')[3]!.body.messages.at(-1).content as string;
    expect(fromEditor).toContain('Hello from vi');

    // Multi-line mode: Enter adds a line, Meta-Enter sends.
    pane.enter('/multiline-mode');
    await pane.waitFor((s) => promptShown(s, 'multi watch> '), 'the multi-line prompt');
    pane.enter('first line');
    await pane.waitFor((s) => promptShown(s, '... '), 'the continuation prompt');
    pane.type('second line');
    pane.keys('M-Enter');
    await pane.waitFor((s) => s.includes('Got two lines.'), 'the two lines sent');
    expect(server.chatRequests('m')[4]!.body.messages.at(-1).content).toContain('first line\nsecond line');
    expect(server.chatRequests('m')).toHaveLength(5);

    // /watch stops watching; a comment saved meanwhile is there when watching starts again: it never fires.
    pane.type('/watch');
    pane.keys('M-Enter');
    await pane.waitFor((s) => s.includes('Stopped watching the files.') && promptShown(s, 'multi> '), 'watching stopped');
    appendFileSync(join(root, 'util.js'), '// written while not watching AI!\n');
    pane.type('/watch');
    pane.keys('M-Enter');
    await pane.waitFor((s) => s.includes('save a comment ending in AI!') && promptShown(s, 'multi watch> '), 'watching again');
    appendFileSync(join(root, 'util.js'), '// and now AI!\n');
    await pane.waitFor(() => server.chatRequests('m').length === 6, 'the request after watching again');
    const again = requestText(server.chatRequests('m')[5]!.body);
    expect(again).toMatch(/> \d \| \/\/ and now AI!/);
    expect(again).not.toMatch(/> \d \| \/\/ written while not watching/);
  });
});
