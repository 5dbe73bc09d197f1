// Questions own the keyboard (tmux): lines typed while the model works are queued, shown as queued and
// run afterwards in order; they never answer a question, which takes one key. Declining an edit makes
// no further model request. Ctrl-C clears the queue before it stops a request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textReply, type FakeOpenAIServer, type FakeRequest, type FakeStep } from '../support/fake-openai-server.js';
import { searchReplace } from '../support/replies.js';
import { gitRepo } from '../support/temp-repo.js';
import { cliArgs, promptShown, tmuxTests } from './pty-pane.js';

const { open: openPane, serve } = tmuxTests();
let server: FakeOpenAIServer | undefined;

/** A reply held back until the test calls `release`: the model is "slow" exactly as long as needed. */
function gated(step: FakeStep): { step: FakeStep; release: () => void } {
  let release = (): void => {};
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { step: () => opened.then(() => step), release };
}

function lastUserText(request: FakeRequest): string {
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content);
}

function requestText(turn: string): string {
  const sections = turn.split('\n\n').filter((section) => !section.startsWith('Reminder:'));
  return sections.at(-1) ?? '';
}

const OFFER = 'Add b.py to the chat?';
const QUESTION = 'Allow edits to b.py, which is not in the chat?';

describe('the keyboard on a terminal', () => {
  it('queues lines typed during a slow reply, never takes them as an answer, and runs them afterwards', async () => {
    const slow = gated(textReply(`I will change b.\n\n${searchReplace('b.py', 'b = 1\n', 'b = 2\n')}`));
    server = await serve({ replies: { m: [slow.step] }, fallback: textReply('Done with that.') });
    const repo = gitRepo({ 'a.py': 'a = 1\n', 'b.py': 'b = 1\n' });
    const pane = openPane(repo, [...cliArgs(server.url), 'a.py']);
    await pane.waitFor((s) => promptShown(s), 'the prompt');
    pane.enter('change b');
    await server.waitForChatRequests(1);
    // Typed while the model works: "y" looks like an answer but is a request for later.
    pane.enter('y');
    await pane.waitFor((s) => s.includes('queued: y'), 'the first queued line');
    pane.enter('and then explain it');
    await pane.waitFor((s) => s.includes('queued: and then explain it'), 'the second queued line');
    slow.release();
    const asked = await pane.waitFor((s) => s.includes(QUESTION), 'the question');
    expect(asked).toContain(`${QUESTION} (y)es/(n)o/(a)ll/(d)on't ask again [no]`);
    expect(readFileSync(join(repo, 'b.py'), 'utf8')).toBe('b = 1\n');
    pane.keys('n');
    await pane.waitFor((s) => s.split(QUESTION)[1]?.includes('no') === true, 'the answer shown');
    await pane.waitFor((s) => s.includes('> and then explain it') && promptShown(s.split('> and then explain it')[1] ?? ''), 'both queued lines run');
    expect(readFileSync(join(repo, 'b.py'), 'utf8')).toBe('b = 1\n');
    // The request is the turn's last section (the chat files may come before it, a format reminder after it).
    const texts = server.chatRequests('m').map((r) => requestText(lastUserText(r)));
    expect(texts[0]).toBe('change b');
    expect(texts.slice(-2)).toEqual(['y', 'and then explain it']);
  });

  it('makes no further model request after an edit is declined', async () => {
    server = await serve({
      replies: { m: [textReply(searchReplace('b.py', 'b = 1\n', 'b = 2\n'))] },
      fallback: textReply('A retry that should not have been asked for.'),
    });
    const repo = gitRepo({ 'a.py': 'a = 1\n', 'b.py': 'b = 1\n' });
    const pane = openPane(repo, [...cliArgs(server.url), 'a.py']);
    await pane.waitFor((s) => promptShown(s), 'the prompt');
    pane.enter('change b');
    await pane.waitFor((s) => s.includes(QUESTION), 'the question');
    // Enter takes the default shown, [no] for an edit outside the chat.
    pane.keys('Enter');
    await pane.waitFor((s) => (s.split(QUESTION)[1] ?? '').startsWith(" (y)es/(n)o/(a)ll/(d)on't ask again [no] no"), 'the answer no');
    // The prompt is back only once the request (with any reflection it started) has ended.
    await pane.waitFor((s) => promptShown(s.split(QUESTION)[1] ?? ''), 'the prompt after the answer');
    expect(server.chatRequests('m')).toHaveLength(1);
    expect(pane.screen()).not.toContain('should not have been asked for');
    expect(readFileSync(join(repo, 'b.py'), 'utf8')).toBe('b = 1\n');
  });

  it('takes Enter as the default shown ([yes] to add a file) and lands the edit', async () => {
    // A reply without edits that asks for a file the model has not seen: adding it redoes the request.
    const asks = textReply('To change b I need to see b.py first; please add it to the chat.');
    const edit = textReply(searchReplace('b.py', 'b = 1\n', 'b = 2\n'));
    server = await serve({ replies: { m: [asks, edit] } });
    const repo = gitRepo({ 'a.py': 'a = 1\n', 'b.py': 'b = 1\n' });
    const pane = openPane(repo, [...cliArgs(server.url), 'a.py']);
    await pane.waitFor((s) => promptShown(s), 'the prompt');
    pane.enter('change b');
    const offered = await pane.waitFor((s) => s.includes(OFFER), 'the offer to add b.py');
    expect(offered).toContain(`${OFFER} (y)es/(n)o/(a)ll/(d)on't ask again [yes]`);
    pane.keys('Enter');
    await pane.waitFor((s) => s.includes('Applied edit to b.py'), 'the edit applied after the request was redone with b.py');
    expect(readFileSync(join(repo, 'b.py'), 'utf8')).toBe('b = 2\n');
    expect(server.chatRequests('m')).toHaveLength(2);
  });

  it('clears the queue on the first Ctrl-C and stops the request on the second', async () => {
    const slow = gated(textReply('Late reply.'));
    server = await serve({ replies: { m: [slow.step] }, fallback: textReply('Should never be asked.') });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const pane = openPane(repo, [...cliArgs(server.url), '--edit-format', 'ask']);
    await pane.waitFor((s) => promptShown(s, 'ask> '), 'the ask> prompt');
    pane.enter('slow question');
    await server.waitForChatRequests(1);
    pane.enter('later question');
    await pane.waitFor((s) => s.includes('queued: later question'), 'the queued line');
    pane.keys('C-c');
    await pane.waitFor((s) => s.includes('cleared 1 queued line'), 'the queue cleared');
    pane.keys('C-c');
    await pane.waitFor((s) => promptShown(s, 'ask> ') && s.includes('interrupted'), 'the prompt after the second Ctrl-C');
    slow.release();
    expect(server.chatRequests('m')).toHaveLength(1);
  });

  it('shows the mode in the prompt and redraws it after the Ctrl-C note', async () => {
    server = await serve();
    const pane = openPane(gitRepo({ 'a.txt': 'a\n' }), cliArgs(server.url));
    await pane.waitFor((s) => promptShown(s), 'the > prompt');
    pane.enter('/ask');
    await pane.waitFor((s) => promptShown(s, 'ask> '), 'the ask> prompt');
    pane.enter('/architect');
    await pane.waitFor((s) => promptShown(s, 'architect> '), 'the architect> prompt');
    pane.type('half typed');
    pane.keys('C-c');
    await pane.waitFor((s) => promptShown(s.split('(Ctrl-C again to leave')[1] ?? '', 'architect> '), 'the prompt redrawn after the note');
    pane.enter('/code');
    await pane.waitFor((s) => promptShown(s.split('/code')[1] ?? ''), 'the > prompt again');
  });
});
