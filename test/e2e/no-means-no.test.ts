// No means no, through the real CLI on a terminal (tmux): a user's "no" to an edit outside the chat or
// to adding a file is not sent back to the model as a failure to retry, the request ends after the
// other edits, and a declined file is not asked about again in that chat.
import { describe, expect, it } from 'vitest';
import { textReply } from '../support/fake-openai-server.js';
import { gitRepo, read } from '../support/temp-repo.js';
import { tmuxTests } from './pty-pane.js';

// Joined lines, so a question reads as one line; the whole chat in the scrollback.
const { open, serve } = tmuxTests({ columns: 150, rows: 50, joined: true, scrollback: 500 });
// Plain text, as these checks were written against.
const PLAIN = { NO_COLOR: '1' };

const count = (text: string, part: string): number => text.split(part).length - 1;
/** The prompt is back: the last non-blank line is the bare prompt, shown `n` times so far. */
const promptedTimes = (n: number) => (s: string): boolean => {
  const lines = s.split('\n').filter((l) => l.trim() !== '');
  return lines.at(-1)?.trimEnd() === '>' && lines.filter((l) => l.startsWith('> ') || l.trimEnd() === '>').length >= n;
};

function block(path: string, search: string, replace: string): string {
  return `${path}\n\`\`\`python\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;
}

describe('no means no', () => {
  it('a declined edit and a declined file end the request, go not back to the model, and are not asked again', async () => {
    const first = `I'll update both.\n\n${block('a.py', 'A = 1', 'A = 2')}\n${block('b.py', 'B = 1', 'B = 2')}`;
    const second = 'To do that I need to see c.py first.';
    const third = `Trying b.py again; c.py may matter too.\n\n${block('b.py', 'B = 1', 'B = 3')}`;
    const server = await serve({ replies: { m: [textReply(first), textReply(second), textReply(third)] }, fallback: textReply('chore: edit') });
    const repo = gitRepo({ 'a.py': 'A = 1\n', 'b.py': 'B = 1\n', 'c.py': 'C = 1\n' });
    const pane = open(repo, ['--base-url', server.url, '--api-key', 'test', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', 'a.py'], PLAIN);
    await pane.waitFor(promptedTimes(1), 'the prompt');

    pane.enter('change A and B');
    await pane.waitFor((s) => s.includes('Allow edits to b.py, which is not in the chat?'), 'the question about b.py');
    pane.enter('n');
    await pane.waitFor(promptedTimes(2), 'the prompt after the first request');
    expect(read(repo, 'a.py')).toBe('A = 2\n');
    expect(read(repo, 'b.py')).toBe('B = 1\n');
    // The "no" was not sent back for a retry: one model request for this user request.
    expect(server.chatRequests('m')).toHaveLength(1);

    pane.enter('now use C');
    await pane.waitFor((s) => s.includes('Add c.py to the chat?'), 'the offer of c.py');
    pane.enter('n');
    await pane.waitFor(promptedTimes(3), 'the prompt after the second request');
    expect(server.chatRequests('m')).toHaveLength(2);

    pane.enter('try once more');
    const end = await pane.waitFor((s) => s.includes('Trying b.py again') && promptedTimes(4)(s), 'the third reply and the prompt');
    expect(count(end, 'Allow edits to b.py')).toBe(1);
    expect(count(end, 'Add c.py to the chat?')).toBe(1);
    expect(read(repo, 'b.py')).toBe('B = 1\n');
    expect(server.chatRequests('m')).toHaveLength(3);
    // Nothing about the user's answers was sent to the model as something to fix.
    const sent = JSON.stringify(server.chatRequests('m').map((r) => r.body.messages.at(-1)?.content));
    expect(sent).not.toMatch(/did not allow|not applied/);
  });
});
