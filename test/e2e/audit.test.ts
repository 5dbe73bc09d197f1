// The audit log end to end: one headless --yes-always session whose decisions are each of a kind, with
// who decided them, written to .tandem/audit.jsonl as JSON lines (the CLI in process: no process edge here).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { searchReplace } from '../support/replies.js';
import { gitRepo, read, tempDir } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('.tandem/audit.jsonl', () => {
  it('records every decision of a session with its kind, subject and who decided', async () => {
    const repo = gitRepo({ '.tandem.conf.yml': 'lint-cmd: "true"\n', 'app.py': 'x = 1\n', 'other.py': 'y = 1\n', '.env': 'A=1\n' });
    const home = join(tempDir('tandem-home-'), 'home');
    mkdirSync(join(home, '.tandem'), { recursive: true });
    writeFileSync(join(home, '.tandem', 'approved-commands.json'), JSON.stringify([{ root: repo, text: 'true' }]));
    const evilName = 'docs/new-$(id).md';
    const reply = [
      searchReplace('app.py', 'x = 1\n', 'x = 2\n'),
      searchReplace('other.py', 'y = 1\n', 'y = 2\n'),
      searchReplace(evilName, '', 'new\n'),
      searchReplace('.env', 'A=1\n', 'A=2\n'),
      searchReplace('.git/hooks/post-checkout', '', '#!/bin/sh\n'),
      searchReplace('../outside.txt', '', 'x\n'),
      'Then run:\n\n```bash\ntouch ran-it\n```\n',
    ].join('\n');
    server = await startFakeOpenAI({ replies: { m: [textReply(reply)] }, fallback: textReply('Done.') });

    const run = await runCli(['--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'm', '--map-tokens', '0', '--yes-always', '-m', 'edit', 'app.py'], { cwd: repo, home });

    // .env needs a person: nobody can answer headless, so the run ends with exit 4 after the rest landed
    expect(run.code, run.stderr).toBe(4);
    expect(read(repo, 'other.py')).toBe('y = 2\n');
    expect(read(repo, '.env')).toBe('A=1\n');
    expect(existsSync(join(repo, 'ran-it'))).toBe(false);
    const text = readFileSync(join(repo, '.tandem', 'audit.jsonl'), 'utf8');
    // the reply's quotes and backslash are inside a JSON string, never raw
    expect(text).toContain(JSON.stringify(evilName));
    const lines = text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, string>);
    const shape = lines.map(({ kind, subject, decision, by }) => ({ kind, subject, decision, by }));
    expect(shape).toEqual([
      { kind: 'repo-settings', subject: 'lint-cmd: true (.tandem.conf.yml)', decision: 'yes', by: 'remembered' },
      // refused before any question: inside .git, outside the repository
      { kind: 'edit', subject: '.git/hooks/post-checkout', decision: 'no', by: 'policy' },
      { kind: 'edit', subject: '../outside.txt', decision: 'no', by: 'policy' },
      { kind: 'edit', subject: 'other.py', decision: 'yes', by: 'yes-always' },
      { kind: 'new-file', subject: evilName, decision: 'yes', by: 'yes-always' },
      { kind: 'person-only', subject: '.env', decision: 'no', by: 'policy' },
      { kind: 'command', subject: 'touch ran-it', decision: 'no', by: 'policy' },
    ]);
    for (const line of lines) expect(Date.parse(line['time'] ?? '')).not.toBeNaN();
    expect(lines[5]?.['reason']).toMatch(/nobody to ask/);
    expect(lines[1]?.['reason']).toMatch(/outside the repository/);
    // the session's lines name the session whose log holds the same questions
    const session = lines[3]?.['session'];
    expect(session).toMatch(/^\d{8}-\d{6}-[0-9a-z]{4}$/);
    expect(existsSync(join(repo, '.tandem', 'sessions', `${session}.jsonl`))).toBe(true);
  });
});
