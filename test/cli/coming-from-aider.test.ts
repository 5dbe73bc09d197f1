// The README's "Coming from Aider" table names only tandem commands and options that exist: every
// `--option` of its tandem column is in `tandem --help`, every `/command` in `/help`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allCommands } from '../../src/cli/commands/registry.js';
import type { CommandContext } from '../../src/cli/commands/types.js';
import { renderHelp } from '../../src/cli/help.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function tandemColumn(): string[] {
  const start = readme.indexOf('## Coming from Aider');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| ---') && !line.startsWith('| Aider'));
  return rows.map((row) => row.split(/(?<!\\)\|/)[2] ?? '');
}

async function slashHelp(): Promise<string> {
  let printed = '';
  const commands = allCommands();
  const help = commands.find((c) => c.name === 'help')!;
  await help.run('', { commands, print: (text: string) => (printed += text) } as unknown as CommandContext);
  return printed;
}

describe('the Coming from Aider table', () => {
  it('names only options in --help and commands in /help', async () => {
    const cells = tandemColumn();
    expect(cells.length).toBeGreaterThan(25);
    const names = cells.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => (m[1] ?? '').split(' ')[0] ?? ''));
    const options = names.filter((n) => n.startsWith('--'));
    const commands = names.filter((n) => n.startsWith('/'));
    expect(options.length).toBeGreaterThan(30);
    expect(commands.length).toBeGreaterThan(25);
    const help = renderHelp();
    const listed = await slashHelp();
    const missingOptions = options.filter((flag) => !new RegExp(`(?<![\\w-])${flag}(?![\\w-])`).test(help));
    const missingCommands = commands.filter((name) => !new RegExp(`^  ${name}\\s`, 'm').test(listed));
    expect(missingOptions).toEqual([]);
    expect(missingCommands).toEqual([]);
  });
});
