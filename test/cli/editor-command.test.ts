// /editor with real editor processes: a script set as $EDITOR (with arguments) that writes the message,
// one that exits non-zero, one that leaves the file empty; --editor wins over $VISUAL and $EDITOR.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function script(body: string): string {
  const file = join(tempDir('tandem-editor-'), 'editor.sh');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

async function runEditor(line: string, env: Record<string, string>, extra: string[] = []): Promise<{ run: Awaited<ReturnType<typeof runCliInProcess>>; sent: string[] }> {
  server = await startFakeOpenAI({ replies: { m: [textReply('Noted.')] } });
  const repo = gitRepo({ 'a.py': 'x = 1\n' });
  const run = await runCliInProcess(['--json', '-m', line, '--base-url', server.url, '--api-key', 'k', '--model', 'm', '--map-tokens', '0', ...extra], { cwd: repo, env });
  const sent = server.chatRequests('m').map((r) => (r.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').at(-1)!.content);
  return { run, sent };
}

describe('/editor', () => {
  it('sends what the editor saved, starting from TEXT, with the editor command taking arguments', async () => {
    // "$1" is --wait, "$2" the file: an editor with arguments gets the file last.
    const editor = script('[ "$1" = "--wait" ] || exit 9\nprintf "second line from the editor\\n" >> "$2"');
    const { run, sent } = await runEditor('/edit first line typed', { EDITOR: `${editor} --wait`, VISUAL: '' });
    expect(run.code).toBe(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('first line typed\nsecond line from the editor');
    expect(run.events().at(-1)).toMatchObject({ type: 'result', status: 'completed' });
  });

  it('sends nothing when the editor exits non-zero, and says so', async () => {
    const editor = script('printf "half a message" > "$1"\nexit 3');
    const { run, sent } = await runEditor('/editor', { VISUAL: editor, EDITOR: script('exit 0') });
    expect(sent).toEqual([]);
    expect(JSON.stringify(run.events())).toContain('exited with code 3. Nothing sent.');
  });

  it('sends nothing for an empty file; --editor wins over $VISUAL', async () => {
    const empty = script(': > "$1"');
    const { run, sent } = await runEditor('/editor start text', { VISUAL: script('printf "from visual" > "$1"') }, ['--editor', empty]);
    expect(sent).toEqual([]);
    expect(JSON.stringify(run.events())).toContain('The message was left empty. Nothing sent.');
  });
});
