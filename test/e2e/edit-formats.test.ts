// Issue 3 through the real CLI: every edit format creates, edits, deletes, survives lost indentation,
// `...` and CRLF, and a SEARCH that matches nothing comes back to the model and is then corrected.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { commitCount, gitRepo, read, statusShort } from '../support/temp-repo.js';

type Format = 'diff' | 'diff-fenced' | 'whole' | 'udiff';
const FENCE = '```';

interface Change {
  readonly path: string;
  /** '' creates the file. */
  readonly search: string;
  readonly replace: string;
  /** The complete new file, for the whole format. */
  readonly whole: string;
}

function render(format: Format, changes: readonly Change[]): string {
  const blocks = changes.map((c) => {
    switch (format) {
      case 'diff':
        return `${c.path}\n${FENCE}python\n<<<<<<< SEARCH\n${c.search}=======\n${c.replace}>>>>>>> REPLACE\n${FENCE}`;
      case 'diff-fenced':
        return `${FENCE}python\n${c.path}\n<<<<<<< SEARCH\n${c.search}=======\n${c.replace}>>>>>>> REPLACE\n${FENCE}`;
      case 'whole':
        return `${c.path}\n${FENCE}python\n${c.whole}${FENCE}`;
      case 'udiff':
        return `${FENCE}diff\n${udiffOf(c)}${FENCE}`;
    }
  });
  return `Here are the changes.\n\n${blocks.join('\n\n')}\n`;
}

function udiffOf(change: Change): string {
  const minus = lines(change.search);
  const plus = lines(change.replace);
  let head = 0;
  while (head < minus.length && head < plus.length && minus[head] === plus[head]) head++;
  let tail = 0;
  while (tail < minus.length - head && tail < plus.length - head && minus.at(-1 - tail) === plus.at(-1 - tail)) tail++;
  const body = [
    ...minus.slice(0, head).map((l) => ` ${l}`),
    ...minus.slice(head, minus.length - tail).map((l) => `-${l}`),
    ...plus.slice(head, plus.length - tail).map((l) => `+${l}`),
    ...minus.slice(minus.length - tail).map((l) => ` ${l}`),
  ];
  const from = change.search === '' ? '/dev/null' : `a/${change.path}`;
  return `--- ${from}\n+++ b/${change.path}\n@@ @@\n${body.join('\n')}\n`;
}

function lines(text: string): string[] {
  return text === '' ? [] : text.replace(/\n$/, '').split('\n');
}

const CALC = 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runWith(format: Format, replies: string[], files: Record<string, string>, chat: string[]) {
  server = await startFakeOpenAI({ replies: { m: replies.map((r) => textReply(r)) }, fallback: textReply('chore: apply edit') });
  const repo = gitRepo(files);
  const run = await runCli(
    ['-m', 'please change it', '--yes-always', '--no-stream', '--edit-format', format, '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', ...chat],
    { cwd: repo },
  );
  return { repo, run, requests: server.chatRequests('m') };
}

const FORMATS: Format[] = ['diff', 'diff-fenced', 'whole', 'udiff'];

describe.each(FORMATS)('the %s format through the CLI', (format) => {
  it('creates a file', async () => {
    const body = 'def mul(a, b):\n    return a * b\n';
    const reply = render(format, [{ path: 'mul.py', search: '', replace: body, whole: body }]);
    const { repo, run } = await runWith(format, [reply], { 'calc.py': CALC }, ['calc.py']);
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'mul.py')).toBe(body);
    expect(statusShort(repo)).toBe('');
  });

  it('edits two files in one reply', async () => {
    const reply = render(format, [
      { path: 'calc.py', search: '    return a + b\n', replace: '    return b + a\n', whole: CALC.replace('a + b', 'b + a') },
      { path: 'util.py', search: 'X = 1\n', replace: 'X = 2\n', whole: 'X = 2\n' },
    ]);
    const { repo, run } = await runWith(format, [reply], { 'calc.py': CALC, 'util.py': 'X = 1\n' }, ['calc.py', 'util.py']);
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'calc.py')).toContain('return b + a');
    expect(read(repo, 'util.py')).toBe('X = 2\n');
    expect(commitCount(repo)).toBe(2);
  });

  it('deletes lines', async () => {
    const search = '\n\ndef sub(a, b):\n    return a - b\n';
    const reply = render(format, [{ path: 'calc.py', search: `    return a + b\n${search}`, replace: '    return a + b\n', whole: 'def add(a, b):\n    return a + b\n' }]);
    const { repo, run } = await runWith(format, [reply], { 'calc.py': CALC }, ['calc.py']);
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'calc.py')).toBe('def add(a, b):\n    return a + b\n');
  });

  it('keeps CRLF line endings', async () => {
    const crlf = 'a = 1\r\nb = 2\r\nc = 3\r\n';
    const reply = render(format, [{ path: 'crlf.py', search: 'b = 2\n', replace: 'b = 20\n', whole: 'a = 1\nb = 20\nc = 3\n' }]);
    const { repo, run } = await runWith(format, [reply], { 'crlf.py': crlf }, ['crlf.py']);
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'crlf.py')).toBe('a = 1\r\nb = 20\r\nc = 3\r\n');
  });

  it('sends an unmatched block back with the closest lines, then applies the correction', async () => {
    const wrong = render(format === 'whole' ? 'diff' : format, [
      { path: 'calc.py', search: '    return a - b  # subtract\n', replace: '    return b - a\n', whole: '' },
    ]);
    const right = render(format, [{ path: 'calc.py', search: '    return a - b\n', replace: '    return b - a\n', whole: CALC.replace('a - b', 'b - a') }]);
    if (format === 'whole') return; // a whole file always "matches": there is no SEARCH to miss
    const { repo, run, requests } = await runWith(format, [wrong, right], { 'calc.py': CALC }, ['calc.py']);
    expect(run.code, run.stderr).toBe(0);
    expect(requests).toHaveLength(2);
    const second = requests[1]!.body.messages.at(-1).content as string;
    expect(second).toContain('return a - b  # subtract');
    expect(second).toMatch(/6.*return a - b/);
    expect(read(repo, 'calc.py')).toContain('return b - a');
  });

  it.skipIf(format === 'whole')('applies a SEARCH that lost its indentation', async () => {
    const reply = render(format, [{ path: 'calc.py', search: 'return a - b\n', replace: 'return a - b - 0\n', whole: '' }]);
    const { repo, run } = await runWith(format, [reply], { 'calc.py': CALC }, ['calc.py']);
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'calc.py')).toContain('\n    return a - b - 0\n');
  });

  it.skipIf(format === 'whole')('applies a SEARCH that elides unchanged lines with ...', async () => {
    const search = 'def add(a, b):\n...\n    return a - b\n';
    const replace = 'def add(a, b):\n...\n    return abs(a - b)\n';
    const reply = render(format, [{ path: 'calc.py', search, replace, whole: '' }]);
    const { repo, run } = await runWith(format, [reply], { 'calc.py': CALC }, ['calc.py']);
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'calc.py')).toBe(CALC.replace('return a - b', 'return abs(a - b)'));
  });
});

describe('ambiguous SEARCH', () => {
  it('changes nothing and tells the model both line numbers', async () => {
    const twice = 'def f():\n    return 1\n\n\ndef g():\n    return 1\n';
    const reply = render('diff', [{ path: 'two.py', search: '    return 1\n', replace: '    return 2\n', whole: '' }]);
    const { repo, run, requests } = await runWith('diff', [reply, reply, reply, reply], { 'two.py': twice }, ['two.py']);
    expect(run.code).toBe(3);
    expect(read(repo, 'two.py')).toBe(twice);
    const second = requests[1]!.body.messages.at(-1).content as string;
    expect(second).toMatch(/\b2\b/);
    expect(second).toMatch(/\b6\b/);
  });
});
