import { describe, expect, it } from 'vitest';
import { ANSI, PLAIN } from '../../src/cli/colors.js';
import { terminalMarkdown } from '../../src/cli/markdown-stream.js';
import { createTerminalScreen } from '../../src/cli/render-terminal.js';
import type { SessionEvent } from '../../src/session/events.js';

function render(events: SessionEvent[], pretty: boolean): string {
  let out = '';
  const renderer = createTerminalScreen({ out: (t) => (out += t), err: () => {}, palette: pretty ? ANSI : PLAIN, markdown: pretty ? terminalMarkdown(false) : null }).emit;
  for (const event of events) renderer(event);
  return out;
}

const reply: SessionEvent[] = [
  { type: 'waiting' },
  { type: 'reasoning_delta', text: 'Weigh the ' },
  { type: 'reasoning_delta', text: 'options.\n' },
  { type: 'assistant_delta', text: 'The answer.\n' },
  { type: 'reasoning', text: 'Weigh the options.\n' },
  { type: 'assistant', text: 'The answer.\n', interrupted: false },
];

describe('the thinking display', () => {
  it('shows reasoning under a Thinking label, once, and closes it before the reply', () => {
    const out = render(reply, false);
    expect(out).toBe('Thinking…\nWeigh the options.\n\nThe answer.\n');
  });

  it('dims the label and the reasoning, not the reply', () => {
    const out = render(reply, true);
    expect(out).toContain(ANSI.dim('Thinking…\n'));
    expect(out).toContain(ANSI.dim('Weigh the '));
    expect(out).not.toContain(ANSI.dim('The answer.'));
  });

  it('escapes control characters in the reasoning', () => {
    const out = render([{ type: 'waiting' }, { type: 'reasoning_delta', text: 'a\u001b[2Jb' }, { type: 'assistant', text: 'x', interrupted: false }], false);
    expect(out).not.toContain('\u001b[2J');
    expect(out).toContain('Thinking…');
  });
});
