import { describe, expect, it } from 'vitest';
import { createAsker } from '../../src/cli/asker.js';
import type { Choice } from '../../src/cli/keys.js';
import { allCommands, findCommand } from '../../src/cli/commands/registry.js';
import type { SessionEvent } from '../../src/session/events.js';

describe('asker', () => {
  it('says yes to edits with --yes-always but still asks a person about shell commands', async () => {
    const events: SessionEvent[] = [];
    const asked: string[] = [];
    const asker = createAsker({ yesAlways: true, prompt: async (q, choices, fallback) => (asked.push(`${q} ${choices.join('/')} [${fallback}]`), 'no'), emit: (e) => events.push(e) });
    expect(await asker.confirm('Edit x?', 'edit-outside-chat')).toBe('yes');
    expect(await asker.confirm('Run ls?', 'shell-command')).toBe('no');
    // "all" is never offered for a shell command: each one needs its own yes.
    expect(asked).toEqual(['Run ls? yes/no/never [no]']);
    expect(events).toEqual([
      { type: 'question', text: 'Edit x?', answer: true, answeredBy: 'yes-always' },
      { type: 'question', text: 'Run ls?', answer: false, answeredBy: 'user', personOnly: true },
    ]);
  });

  it('headless, a person-only question is unanswerable even with --yes-always, and says so', async () => {
    const events: SessionEvent[] = [];
    const asker = createAsker({ yesAlways: true, prompt: null, emit: (e) => events.push(e) });
    expect(await asker.confirm('Run ls?', 'shell-command')).toBe('unanswerable');
    expect(await asker.confirm('Write this reply?', 'large-reply')).toBe('unanswerable');
    expect(await asker.confirm('Create .pre-commit-config.yaml?', 'sensitive-file')).toBe('unanswerable');
    expect(await asker.confirm('Create x.py?', 'create-file')).toBe('yes');
    expect(events.map((e) => e.type === 'question' && [e.answeredBy, e.personOnly === true])).toEqual([
      ['nobody', true],
      ['nobody', true],
      ['nobody', true],
      ['yes-always', false],
    ]);
  });

  it('remembers "all" for the rest of the input and "don\'t ask again" for the session', async () => {
    let inputs = 1;
    const answers: Choice[] = ['all', 'never'];
    const asked: string[] = [];
    const asker = createAsker({ yesAlways: false, prompt: async (q) => (asked.push(q), answers.shift() ?? 'no'), emit: () => {}, promptCount: () => inputs });
    expect(await asker.confirm('Add a.py to the chat?', 'add-file')).toBe('yes');
    expect(await asker.confirm('Add b.py to the chat?', 'add-file')).toBe('yes');
    expect(await asker.confirm('Create new file c.py?', 'create-file')).toBe('no');
    inputs++;
    expect(await asker.confirm('Create new file c.py?', 'create-file')).toBe('no');
    expect(await asker.confirm('Add d.py to the chat?', 'add-file')).toBe('no');
    expect(asked).toEqual(['Add a.py to the chat?', 'Create new file c.py?', 'Add d.py to the chat?']);
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
