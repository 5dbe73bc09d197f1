// /run on a real terminal (tmux): output shows while the command still runs, Ctrl-C stops it and the
// prompt comes back; afterwards the output can be added to the chat, and !cmd does the same as /run.
import { describe, expect, it } from 'vitest';
import { textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitRepo } from '../support/temp-repo.js';
import { cliArgs, promptShown, tmuxTests, type Pane } from './pty-pane.js';

const { open: openPane, serve } = tmuxTests();
let server: FakeOpenAIServer | undefined;

async function start(): Promise<Pane> {
  server = await serve({ replies: { m: [textReply('I see the output.')] } });
  const pane = openPane(gitRepo({ 'a.txt': 'a\n' }), cliArgs(server.url));
  await pane.waitFor((s) => promptShown(s), 'the prompt');
  return pane;
}

describe('/run on a terminal', () => {
  it('shows output before the command ends, and Ctrl-C stops it and returns to the prompt', async () => {
    const pane = await start();
    // The command waits far longer than the test: only Ctrl-C can end it in time.
    // printf builds the marker words, so the typed command line itself never contains them.
    pane.enter("/run printf '%s\\n' first-output-$((1)); sleep 300; printf '%s\\n' never-$((2))");
    const running = await pane.waitFor((s) => s.includes('first-output-1'), 'the first output line');
    expect(promptShown(running.split('first-output-1').at(-1) ?? '')).toBe(false);
    pane.keys('C-c');
    const after = await pane.waitFor((s) => s.includes('(stopped)') && promptShown(s.split('(stopped)').at(-1) ?? ''), 'the prompt after Ctrl-C');
    const output = after.split('first-output-1').at(-1) ?? '';
    expect(output).not.toContain('never-2');
    expect(output).not.toContain('Add the output to the chat?');
  });

  it('offers to add the output to the chat, and !cmd runs a shell command too', async () => {
    const pane = await start();
    pane.enter('!echo marker-$((40 + 2))');
    await pane.waitFor((s) => s.includes('marker-42') && s.includes('Add the output to the chat?'), 'the output and the question');
    pane.keys('y');
    await pane.waitFor((s) => s.includes('Added the output to the chat.'), 'the output added');
    await pane.waitFor((s) => promptShown(s.split('Added the output to the chat.').at(-1) ?? ''), 'the prompt');
    pane.enter('What did it print?');
    await pane.waitFor((s) => s.includes('I see the output.'), 'the reply');
    expect(JSON.stringify(server!.chatRequests('m')[0]!.body.messages)).toContain('marker-42');
  });
});
