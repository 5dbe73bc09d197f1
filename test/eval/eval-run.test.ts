// `tandem eval` through the built CLI against a scripted model that solves two exercises (one on the
// second try, which resumes the first try's session) and fails one (with a malformed reply along the
// way); then --replay, --compare, --resume.
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../support/cli.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer, type FakeRequest, type FakeStep } from '../support/fake-openai-server.js';
import { tempDir } from '../support/temp-repo.js';

const FILTER = 'py-caesar-cipher|js-chunk-array|py-luhn';

const block = (file: string, search: string, replace: string): string =>
  [`${file}`, '```', '<<<<<<< SEARCH', search, '=======', replace, '>>>>>>> REPLACE', '```', ''].join('\n');

const CAESAR_FIX = block(
  'caesar.py',
  'def shift(text, key):\n    raise NotImplementedError',
  [
    'def shift(text, key):',
    '    out = []',
    '    for ch in text:',
    '        base = 97 if ch.islower() else 65',
    '        out.append(chr((ord(ch) - base + key) % 26 + base) if ch.isascii() and ch.isalpha() else ch)',
    "    return ''.join(out)",
  ].join('\n'),
);
const CHUNK_STUB = "export function chunk(items, size) {\n  throw new Error('not implemented');\n}";
const CHUNK_WRONG = block('chunk.mjs', CHUNK_STUB, 'export function chunk(items, size) {\n  return [items];\n}');
const CHUNK_FIX = block(
  'chunk.mjs',
  'export function chunk(items, size) {\n  return [items];\n}',
  [
    'export function chunk(items, size) {',
    "  if (!Number.isInteger(size) || size < 1) throw new RangeError('bad size');",
    '  const out = [];',
    '  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));',
    '  return out;',
    '}',
  ].join('\n'),
);
const LUHN_MALFORMED = block('luhn.py', 'def valid(card):\n    pass', 'def valid(card):\n    return True');
const LUHN_WRONG = block('luhn.py', 'def valid(number):\n    raise NotImplementedError', 'def valid(number):\n    return True');
const LUHN_WRONG_AGAIN = block('luhn.py', 'def valid(number):\n    return True', 'def valid(number):\n    return False');

const messagesOf = (request: FakeRequest): Array<{ role: string; content: string }> =>
  (request.body?.messages ?? []) as Array<{ role: string; content: string }>;

/** Chooses the reply from the exercise named in the request and from the stage of the conversation. */
function scriptedModel(request: FakeRequest): FakeStep {
  const messages = messagesOf(request);
  const all = messages.map((m) => String(m.content)).join('\n');
  const last = String(messages[messages.length - 1]?.content ?? '');
  const retry = /\bthe tests fail\b/i.test(last);
  if (all.includes('# Caesar cipher')) return textReply(`Here it is.\n\n${CAESAR_FIX}`);
  if (all.includes('# Chunk')) return textReply(retry ? CHUNK_FIX : CHUNK_WRONG);
  if (all.includes('# Luhn checksum')) {
    if (retry) return textReply(LUHN_WRONG_AGAIN);
    return textReply(last.includes('# Luhn checksum') ? LUHN_MALFORMED : LUHN_WRONG);
  }
  return textReply('I do not know this exercise.');
}

let server: FakeOpenAIServer;
let cwd: string;
let first: CliRun;
let runId: string;

const evalCli = (args: string[]): Promise<CliRun> => runCli(['eval', ...args], { cwd });
const resultOf = (name: string): Record<string, any> =>
  JSON.parse(readFileSync(join(cwd, '.tandem-eval', runId, `${name}.json`), 'utf8')) as Record<string, any>;

beforeAll(async () => {
  server = await startFakeOpenAI({ fallback: scriptedModel });
  cwd = tempDir('tandem-eval-cwd-');
  first = await evalCli(['--model', 'scripted', '--edit-format', 'diff', '--base-url', server.url, '--filter', FILTER, '--threads', '3', '--prices', '1,2']);
  runId = readdirSync(join(cwd, '.tandem-eval'))[0] ?? '';
});

afterAll(async () => {
  await server.close();
});

describe('tandem eval', () => {
  it('reports 2 of 3 passed, the well-formed share, tokens and cost', () => {
    expect(first.code, first.stderr).toBe(0);
    expect(runId).toMatch(/^\d{8}-\d{6}--scripted--diff$/);
    expect(first.stdout).toMatch(/passed after try 1 +1\/3 +33\.3%/);
    expect(first.stdout).toMatch(/passed after try 2 +2\/3 +66\.7%/);
    expect(first.stdout).toMatch(/well-formed replies +5\/6 +83\.3%/);
    expect(first.stdout).toMatch(/malformed replies +1\n/);
    expect(first.stdout).toMatch(/reflections used +1\n/);
    expect(first.stdout).toMatch(/tokens in \/ out +[1-9]\d* \/ [1-9]\d*/);
    expect(first.stdout).toMatch(/cost +\$0\.0\d{3}/);
    expect(first.stdout).toMatch(/py-luhn +fail +2 +3 +1/);
  });

  it('writes one JSON result per exercise with every reply and the test outcome', () => {
    const caesar = resultOf('py-caesar-cipher');
    expect(caesar.passedOnTry).toBe(1);
    expect(caesar.tries[0].replies[0].text).toContain('<<<<<<< SEARCH');
    expect(caesar.tries[0].files['caesar.py']).toContain('% 26 + base');
    const chunk = resultOf('js-chunk-array');
    expect(chunk.passedOnTry).toBe(2);
    expect(chunk.tries[0].tests.passed).toBe(false);
    expect(chunk.tries.map((t: { resumed: boolean }) => t.resumed)).toEqual([false, true]);
    // Try 2 is what a user would type: the test output, not the task again.
    expect(chunk.tries[1].message).toMatch(/^The tests fail \(`node --test chunk\.test\.mjs`\):\n\n```\n/);
    expect(chunk.tries[1].message).not.toContain('# Chunk');
    const luhn = resultOf('py-luhn');
    expect(luhn.passed).toBe(false);
    expect(luhn.tries[0].replies.map((r: { wellFormed: boolean }) => r.wellFormed)).toEqual([false, true]);
    // The hidden tests never stay behind in the repository the model sees.
    expect(Object.keys(luhn.tries[1].files)).toEqual(['luhn.py']);
  });

  it("try 2's request carries try 1's exchange: the task, the model's reply, then the test output", () => {
    const retries = server.chatRequests().filter((r) => /\bthe tests fail\b/i.test(String(messagesOf(r).at(-1)?.content ?? '')));
    const chunkRetry = retries.find((r) => messagesOf(r).some((m) => m.content.includes('# Chunk')));
    expect(chunkRetry).toBeDefined();
    const messages = messagesOf(chunkRetry!);
    const texts = messages.map((m) => m.content);
    const task = texts.findIndex((t) => t.includes('# Chunk'));
    const reply = messages.findIndex((m) => m.role === 'assistant' && m.content.includes('return [items];'));
    expect(task).toBeGreaterThanOrEqual(0);
    expect(reply).toBeGreaterThan(task);
    expect(messages.length - 1).toBeGreaterThan(reply);
    expect(messages.at(-1)?.role).toBe('user');
  });

  it('--replay reproduces the same edits, and notices a reply that would now apply differently', async () => {
    const replay = await evalCli(['--replay', runId]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain('6 replies from 3 exercises; 6 apply as recorded, 0 differently');

    const copy = `${runId}-edited`;
    cpSync(join(cwd, '.tandem-eval', runId), join(cwd, '.tandem-eval', copy), { recursive: true });
    const path = join(cwd, '.tandem-eval', copy, 'py-caesar-cipher.json');
    const edited = JSON.parse(readFileSync(path, 'utf8'));
    edited.tries[0].replies[0].text = edited.tries[0].replies[0].text.replace('raise NotImplementedError', 'raise NotImplemented');
    writeFileSync(path, JSON.stringify(edited));
    const changed = await evalCli(['--replay', copy]);
    expect(changed.stdout).toContain('5 apply as recorded, 1 differently');
    expect(changed.stdout).toMatch(/py-caesar-cipher try 1 reply 1\n +recorded: well formed; applied caesar\.py.*\n +now: +malformed; failed caesar\.py/);
  });

  it('--compare shows what changed per exercise', async () => {
    const other = `${runId}-other`;
    cpSync(join(cwd, '.tandem-eval', runId), join(cwd, '.tandem-eval', other), { recursive: true });
    const path = join(cwd, '.tandem-eval', other, 'py-luhn.json');
    writeFileSync(path, JSON.stringify({ ...resultOf('py-luhn'), passed: true, passedOnTry: 2 }));
    const compared = await evalCli(['--compare', runId, other]);
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toMatch(/py-luhn +better +fail, 1 malformed +-> +pass \(try 2\), 1 malformed/);
    expect(compared.stdout).not.toContain('py-caesar-cipher');
    expect(compared.stdout).toContain('passed: A 2/3 (66.7%)  B 3/3 (100.0%)');
  });

  it('--resume runs only the exercises without a result', async () => {
    const before = server.chatRequests().length;
    rmSync(join(cwd, '.tandem-eval', runId, 'py-caesar-cipher.json'));
    const resumed = await evalCli(['--resume', runId]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('2 done, 1 to go');
    expect(server.chatRequests().length - before).toBe(1);
    expect(resumed.stdout).toMatch(/passed after try 2 +2\/3/);
  });

  it('rejects an unknown option with one line and exit code 2', async () => {
    const bad = await evalCli(['--frobnicate']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});
