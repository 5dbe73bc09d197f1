// A chat continued with --resume in a new process goes on appending to the conversation the model last
// saw: the resumed run's first request starts with the previous run's last prompt, byte for byte, so a
// provider's prompt cache (or a local server's KV cache) still holds everything up to the new turn.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionsDir } from '../../src/session/session-log.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitRepo, read } from '../support/temp-repo.js';

interface Message {
  readonly role: string;
  readonly content: string;
}

const FILE = 'app.py';
// Large enough that a small edit travels as a diff (diffs that outweigh the file send it whole again).
const TEXT = ['def total(items):', '    return sum(items)', '', '', 'def count(items):', '    return len(items)', '',
  ...Array.from({ length: 30 }, (_, i) => `\n\ndef step_${i}(value):\n    return value + ${i}`)].join('\n') + '\n';

function edit(search: string, replace: string): string {
  return ['Done.', '', FILE, '```python', '<<<<<<< SEARCH', search, '=======', replace, '>>>>>>> REPLACE', '```', ''].join('\n');
}

let server: FakeOpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('--resume keeps the prompt prefix', () => {
  it("starts the resumed run's request with the previous run's last prompt, and the edit diff after it", async () => {
    server = await startFakeOpenAI({
      replies: { main: [textReply(edit('    return sum(items)', '    return sum(items) or 0')), textReply('It counts the items.'), textReply('Yes.')] },
      fallback: textReply('fix: total'),
    });
    const repo = gitRepo({ [FILE]: TEXT });
    const args = (message: string): string[] => ['--json', '--yes-always', '--no-stream', '--base-url', server!.url, '--api-key', 'k', '--model', 'main', '--weak-model', 'weak', '--map-tokens', '0', '--message', message];
    const first = await runCliInProcess([...args('make total return 0 for nothing'), FILE], { cwd: repo });
    expect(first.code, first.stderr).toBe(0);
    expect(read(repo, FILE)).toContain('sum(items) or 0');
    const second = await runCliInProcess([...args('what does count do?'), '--resume'], { cwd: repo });
    expect(second.code, second.stderr).toBe(0);
    const third = await runCliInProcess([...args('is that all?'), '--resume'], { cwd: repo });
    expect(third.code, third.stderr).toBe(0);

    const prompts = server.chatRequests('main').map((r) => (r.body as { messages: Message[] }).messages);
    expect(prompts).toHaveLength(3);
    for (const i of [1, 2]) {
      const previous = prompts[i - 1]!;
      // Message for message, then as one serialized body: the previous prompt is this one's prefix.
      expect(JSON.stringify(prompts[i]!.slice(0, previous.length)), `run ${i + 1}`).toBe(JSON.stringify(previous));
      expect(prompts[i]!.length).toBeGreaterThan(previous.length);
    }
    // The second run's new turn carries the first run's edit as a diff of the copy the model has, not the whole file again.
    const turn = prompts[1]!.at(-1)!.content;
    expect(turn).toContain('+    return sum(items) or 0');
    expect(prompts[1]!.filter((m) => m.content.includes('def step_29(value):')).length).toBe(1);
    expect(turn).not.toContain('def step_29(value):');
    // One log, continued by both resumed runs.
    expect(readdirSync(sessionsDir(repo))).toHaveLength(1);
    const log = readFileSync(join(sessionsDir(repo), readdirSync(sessionsDir(repo))[0]!), 'utf8');
    expect(log.split('\n').filter((line) => line.includes('"layout"'))).toHaveLength(3);
  }, 60_000);
});
