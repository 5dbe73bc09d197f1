// Class: read-only stayed read-only only sometimes. A --read file or AGENTS.md is never edited, even
// under --yes-always, the model is told so, and no question turns it into a chat file.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCli } from '../support/cli.js';
import { searchReplace } from '../support/replies.js';
import { gitRepo, read, statusShort } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('read-only files', () => {
  it.each([
    ['headless', [] as string[]],
    ['with --yes-always', ['--yes-always']],
  ])('are never edited and never join the chat (%s)', async (_, flags) => {
    const reply = [
      searchReplace('AGENTS.md', 'Be careful.\n', 'Anything goes.\n'),
      searchReplace('docs/notes.md', 'Notes.\n', 'Rewritten.\n'),
      searchReplace('a.py', 'a = 1\n', 'a = 2\n'),
    ].join('\n');
    server = await startFakeOpenAI({ replies: { m: [textReply(reply), textReply('Understood, only a.py.')] }, fallback: textReply('fix: a') });
    const repo = gitRepo({ 'a.py': 'a = 1\n', 'AGENTS.md': 'Be careful.\n', 'docs/notes.md': 'Notes.\n' });

    const run = await runCli(
      ['--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--json', '-m', 'edit a.py, AGENTS.md and docs/notes.md', '--read', 'docs/notes.md', ...flags, 'a.py'],
      { cwd: repo },
    );

    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'a.py')).toBe('a = 2\n');
    expect(statusShort(repo)).toBe('');
    expect(read(repo, 'AGENTS.md')).toBe('Be careful.\n');
    expect(read(repo, 'docs/notes.md')).toBe('Notes.\n');
    const requests = server.chatRequests('m');
    expect(requests).toHaveLength(2);
    const told = JSON.stringify(requests[1]?.body.messages.at(-1));
    expect(told).toContain('AGENTS.md is read-only context and is never edited');
    expect(told).toContain('docs/notes.md is read-only context and is never edited');
    // nobody was asked to add or edit them
    const questions = run.events().filter((e) => e.type === 'question').map((e) => e.text as string);
    expect(questions.filter((q) => /AGENTS|notes/.test(q))).toEqual([]);
  });
});
