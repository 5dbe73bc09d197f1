// How a typed command name finds its command: exact name or alias first, then a prefix only when it is
// unique among tandem's names and Aider's, so it never runs a command an Aider user would not expect.
import { describe, expect, it } from 'vitest';
import { allCommands, findCommand } from '../../src/cli/commands/registry.js';

const commands = allCommands();
const nameOf = (line: string): string | null => {
  const found = findCommand(line, commands);
  return found.kind === 'command' ? found.command.name : null;
};

describe('command names', () => {
  it('resolves exact names and aliases first: /editor and /edit open the editor, /editor-model is itself', () => {
    expect(nameOf('/editor')).toBe('editor');
    expect(nameOf('/edit some text')).toBe('editor');
    expect(nameOf('/editor-model')).toBe('editor-model');
    expect(findCommand('/edit some text', commands)).toMatchObject({ args: 'some text' });
  });

  it('takes a prefix only when it is unique among tandem\'s and Aider\'s names', () => {
    expect(nameOf('/tok')).toBe('tokens');
    expect(nameOf('/multi')).toBe('multiline-mode');
    expect(nameOf('/wat')).toBe('watch');
    // Aider has /editor and /editor-model; tandem must not pick one of them for a prefix.
    expect(nameOf('/ed')).toBeNull();
    expect(nameOf('/edito')).toBeNull();
    // /mod could be Aider's /model or /models.
    expect(nameOf('/mod')).toBeNull();
    expect(findCommand('/ed', commands)).toMatchObject({ kind: 'unknown', message: expect.stringContaining('/editor') });
  });
});
