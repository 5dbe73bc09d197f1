import { describe, expect, it } from 'vitest';
import { ANSI, PLAIN } from '../../src/cli/colors.js';
import { terminalMarkdown } from '../../src/cli/markdown-stream.js';
import { createTerminalEmit, createTerminalScreen, usageLine } from '../../src/cli/render-terminal.js';
import { createSpinner, localeIsUtf8, type SpinnerTimers } from '../../src/cli/spinner.js';
import type { SessionEvent } from '../../src/session/events.js';
import { FakeTerminal } from '../support/fake-platform.js';

function capture() {
  const log: Array<{ stream: 'out' | 'err'; text: string }> = [];
  return {
    log,
    out: (text: string) => log.push({ stream: 'out', text }),
    err: (text: string) => log.push({ stream: 'err', text }),
    text: (stream: 'out' | 'err') => log.filter((l) => l.stream === stream).map((l) => l.text).join(''),
  };
}

function manualTimers() {
  const ticks: Array<() => void> = [];
  const timers: SpinnerTimers = {
    setInterval: (callback) => ticks.push(callback),
    clearInterval: () => ticks.splice(0),
  };
  return { timers, tick: () => ticks.forEach((t) => t()), active: () => ticks.length };
}

const usage = (cost: number | null): SessionEvent => ({
  type: 'usage', promptTokens: 12_345, completionTokens: 210, cachedTokens: 2_000, cost, sessionCost: cost === null ? null : 1.5,
});

describe('terminal renderer', () => {
  it('renders a streamed reply as Markdown with colours when pretty', () => {
    const io = capture();
    const emit = createTerminalScreen({ ...io, palette: ANSI, markdown: terminalMarkdown(false) }).emit;
    emit({ type: 'waiting' });
    for (const piece of ['# Ti', 'tle\n```py', 'thon\nimport os\n', '```\ndone']) emit({ type: 'assistant_delta', text: piece });
    emit({ type: 'assistant', text: '', interrupted: false });
    const out = io.text('out');
    expect(out).toContain('\u001b[1m\u001b[36mTitle');
    expect(out).toContain('\u001b[35mimport\u001b[39m os');
    expect(out.endsWith('done\n')).toBe(true);
    expect(out).not.toContain('# Ti');
  });

  it('tells a re-ask after added files apart from sending failures back, each with its own count', () => {
    const io = capture();
    const emit = createTerminalScreen({ ...io, palette: PLAIN }).emit;
    emit({ type: 'reflection', n: 1, reason: 'files added' });
    emit({ type: 'reflection', n: 1, reason: 'lint' });
    expect(io.text('err')).toBe('Asking again now that the files are in the chat (re-ask 1)\nSending the lint failures back to the model (reflection 1)\n');
  });

  it('streams plain text unchanged when not pretty, and ends the reply with a newline', () => {
    const io = capture();
    const emit = createTerminalScreen({ ...io, palette: PLAIN }).emit;
    emit({ type: 'waiting' });
    emit({ type: 'assistant_delta', text: '# Title\n**bold** `code`' });
    expect(io.text('out')).toBe('# Title\n**bold** `code`');
    emit({ type: 'assistant', text: '# Title\n**bold** `code`', interrupted: true });
    expect(io.text('out')).toBe('# Title\n**bold** `code`\n');
    expect(io.text('err')).toBe('(reply interrupted)\n');
  });

  it('starts the status line on its own line in plain mode, even when it comes before the reply ends', () => {
    const io = capture();
    const emit = createTerminalScreen({ ...io, palette: PLAIN }).emit;
    emit({ type: 'waiting' });
    emit({ type: 'assistant_delta', text: 'no newline at the end' });
    emit(usage(null));
    expect(io.log.map((l) => l.text).join('')).toBe('no newline at the end\nTokens: 12.3k sent (2000 cached, 16%), 210 received.\n');
  });

  it('draws the unfinished line of a pretty reply and redraws it in place as it grows', () => {
    const io = capture();
    const emit = createTerminalScreen({ ...io, palette: ANSI, markdown: terminalMarkdown(false), columns: 40 }).emit;
    emit({ type: 'waiting' });
    emit({ type: 'assistant_delta', text: 'Words arrive' });
    expect(io.text('out')).toBe('Words arrive');
    emit({ type: 'assistant_delta', text: ' one by one' });
    expect(io.text('out')).toBe('Words arrive one by one');
    emit({ type: 'assistant_delta', text: ' and **bold**\n' });
    // Not a pure append any more (bold changed the text): the line is erased and drawn again whole.
    expect(io.text('out')).toBe('Words arrive one by one\r\u001b[JWords arrive one by one and \u001b[1mbold\u001b[22m\n');
  });

  it('renders a reply that arrives whole (no streaming)', () => {
    const io = capture();
    const emit = createTerminalScreen({ ...io, palette: ANSI, markdown: terminalMarkdown(false) }).emit;
    emit({ type: 'waiting' });
    emit({ type: 'assistant', text: '- one\n- two', interrupted: false });
    expect(io.text('out')).toBe('- one\n- two\n');
  });

  it('shows the spinner until the first token and erases it', () => {
    const io = capture();
    const clock = manualTimers();
    const spinner = createSpinner({ write: io.err, timers: clock.timers, label: 'thinking' });
    const emit = createTerminalScreen({ ...io, palette: PLAIN, spinner }).emit;
    emit({ type: 'waiting' });
    clock.tick();
    expect(io.text('err')).toBe('\r| thinking\r/ thinking');
    emit({ type: 'assistant_delta', text: 'hi' });
    expect(clock.active()).toBe(0);
    expect(io.text('err').endsWith(`\r${' '.repeat('/ thinking'.length)}\r`)).toBe(true);
    expect(io.text('out')).toBe('hi');
  });

  it('shows a spinner while the request is prepared, then one for the model', () => {
    const io = capture();
    const clock = manualTimers();
    const emit = createTerminalScreen({ ...io, palette: PLAIN, spinner: createSpinner({ write: io.err, timers: clock.timers }) }).emit;
    emit({ type: 'user', text: 'hi', mode: 'code' });
    expect(io.text('err')).toContain('Preparing the request');
    emit({ type: 'waiting' });
    expect(io.text('err').endsWith('| Waiting for the model...')).toBe(true);
    emit({ type: 'assistant_delta', text: 'x' });
    expect(clock.active()).toBe(0);
  });

  it('stops the spinner on an error before any token', () => {
    const io = capture();
    const clock = manualTimers();
    const emit = createTerminalScreen({ ...io, palette: PLAIN, spinner: createSpinner({ write: io.err, timers: clock.timers }) }).emit;
    emit({ type: 'waiting' });
    emit({ type: 'error', message: 'server down' });
    expect(clock.active()).toBe(0);
    expect(io.text('err').endsWith('server down\n')).toBe(true);
  });

  it('prints one status line per reply with tokens, cached tokens and both costs', () => {
    expect(usageLine(usage(0.0123) as Extract<SessionEvent, { type: 'usage' }>)).toBe(
      'Tokens: 12.3k sent (2000 cached, 16%), 210 received. Cost: $0.0123 request, $1.50 session.',
    );
    expect(usageLine(usage(null) as Extract<SessionEvent, { type: 'usage' }>)).toBe('Tokens: 12.3k sent (2000 cached, 16%), 210 received.');
    const io = capture();
    createTerminalScreen({ ...io, palette: PLAIN }).emit(usage(0.0123));
    expect(io.text('err').split('\n')).toHaveLength(2);
  });

  it('shows edits as coloured diffs', () => {
    const io = capture();
    createTerminalScreen({ ...io, palette: ANSI }).emit({ type: 'edit', path: 'a.py', status: 'applied', diff: '--- a/a.py\n+++ b/a.py\n-x = 1\n+x = 2' });
    expect(io.text('out')).toContain('\u001b[31m-x = 1\u001b[39m');
    expect(io.text('out')).toContain('\u001b[32m+x = 2\u001b[39m');
  });

  it('chooses plain output for NO_COLOR, a pipe, or --no-pretty', async () => {
    const run = async (env: Record<string, string>, tty: boolean, pretty: boolean): Promise<string> => {
      const stdout = new FakeTerminal(tty);
      const { emit } = await createTerminalEmit({ stdout, stderr: new FakeTerminal(false), env }, pretty);
      emit({ type: 'assistant', text: '**bold**', interrupted: false });
      return stdout.output;
    };
    expect(await run({}, true, true)).toBe('\u001b[1mbold\u001b[22m\n');
    expect(await run({ NO_COLOR: '1' }, true, true)).toBe('**bold**\n');
    expect(await run({}, false, true)).toBe('**bold**\n');
    expect(await run({}, true, false)).toBe('**bold**\n');
  });

  it("wraps prose to the terminal's width, asked again for each reply (a resize counts)", async () => {
    const stdout = new FakeTerminal(true, 30);
    const { emit } = await createTerminalEmit({ stdout, stderr: new FakeTerminal(false), env: {} }, true);
    const paragraph = 'every word of this reply is short but the whole line is far longer than thirty columns';
    const longest = (text: string): number => Math.max(...text.split('\n').map((line) => line.length));
    emit({ type: 'waiting' });
    emit({ type: 'assistant', text: paragraph, interrupted: false });
    const narrow = stdout.output;
    expect(narrow.split('\n').length).toBeGreaterThan(3);
    expect(longest(narrow)).toBeLessThanOrEqual(30);
    stdout.width = 60;
    emit({ type: 'waiting' });
    emit({ type: 'assistant', text: paragraph, interrupted: false });
    const wide = stdout.output.slice(narrow.length);
    expect(longest(wide)).toBeGreaterThan(30);
    expect(longest(wide)).toBeLessThanOrEqual(60);
  });

  it('uses the width of stderr when stdout reports none, and shows the spinner only when stderr is a terminal', async () => {
    const piped = new FakeTerminal(true, null);
    const { emit } = await createTerminalEmit({ stdout: piped, stderr: new FakeTerminal(true, 25), env: {} }, true);
    emit({ type: 'waiting' });
    emit({ type: 'assistant', text: 'a sentence that is a good deal wider than twenty-five columns', interrupted: false });
    expect(Math.max(...piped.output.split('\n').map((line) => line.length))).toBeLessThanOrEqual(25);
    const quietErr = new FakeTerminal(false);
    const noTty = await createTerminalEmit({ stdout: new FakeTerminal(true), stderr: quietErr, env: {} }, true);
    noTty.emit({ type: 'waiting' });
    noTty.settle();
    expect(quietErr.output).toBe('');
    expect(noTty.mapProgress).toBeUndefined();
  });

  it('reads the locale to decide on Unicode glyphs', () => {
    expect(localeIsUtf8({ LANG: 'en_US.UTF-8' })).toBe(true);
    expect(localeIsUtf8({ LC_ALL: 'C', LANG: 'en_US.UTF-8' })).toBe(false);
    expect(localeIsUtf8({})).toBe(false);
  });
});
