import { describe, expect, it } from 'vitest';
import { createAsker } from '../../src/cli/asker.js';
import { allCommands, findCommand } from '../../src/cli/commands/registry.js';
import type { SessionEvent } from '../../src/session/events.js';

describe('asker', () => {
  it('says yes to edits with --yes-always but still asks a person about shell commands', async () => {
    const events: SessionEvent[] = [];
    const asked: string[] = [];
    const asker = createAsker({ yesAlways: true, prompt: async (q) => (asked.push(q), 'n'), emit: (e) => events.push(e) });
    expect(await asker.confirm('Edit x?', 'edit-outside-chat')).toBe('yes');
    expect(await asker.confirm('Run ls?', 'shell-command')).toBe('no');
    expect(asked).toEqual(['Run ls? (y/n) ']);
    expect(events).toEqual([
      { type: 'question', text: 'Edit x?', answer: true, answeredBy: 'yes-always' },
      { type: 'question', text: 'Run ls?', answer: false, answeredBy: 'user' },
    ]);
  });

  it('cannot answer without a terminal, and says so', async () => {
    const asker = createAsker({ yesAlways: false, prompt: null, emit: () => {} });
    expect(await asker.confirm('Edit x?', 'edit-outside-chat')).toBe('unanswerable');
    const withYes = createAsker({ yesAlways: true, prompt: null, emit: () => {} });
    expect(await withYes.confirm('Run ls?', 'shell-command')).toBe('unanswerable');
  });
});

describe('slash command lookup', () => {
  const commands = allCommands();

  it('finds a command by name or unique prefix, with its arguments', () => {
    expect(findCommand('/add a.py b.py', commands)).toMatchObject({ kind: 'command', args: 'a.py b.py' });
    expect(findCommand('/tok', commands)).toMatchObject({ kind: 'command', command: { name: 'tokens' } });
  });

  it('treats other text as a request and unknown commands as errors', () => {
    expect(findCommand('please add a test', commands)).toEqual({ kind: 'request' });
    expect(findCommand('/frobnicate', commands)).toMatchObject({ kind: 'unknown' });
  });

  it('gives every command a one-line summary', () => {
    for (const command of commands) expect(command.summary).toMatch(/^[^\n]+$/);
  });
});
