// The slash commands, in the order /help lists them, and how a typed line finds its command.
import { addCommand } from './add.js';
import { clearCommand } from './clear.js';
import { copyCommand, copyContextCommand, pasteCommand } from './clipboard.js';
import { commitCommand } from './commit.js';
import { diffCommand } from './diff.js';
import { dropCommand } from './drop.js';
import { exitCommand, quitCommand } from './exit.js';
import { gitCommand } from './git.js';
import { helpCommand } from './help.js';
import { lintCommand } from './lint.js';
import { lsCommand } from './ls.js';
import { mapCommand, mapRefreshCommand } from './map.js';
import { chatModeCommand, modeCommands } from './modes.js';
import { editorModelCommand, mainModelCommand, weakModelCommand } from './models.js';
import { readOnlyCommand } from './read-only.js';
import { modelsCommand, reasoningEffortCommand, thinkTokensCommand } from './reasoning.js';
import { resetCommand } from './reset.js';
import { runCommand } from './run.js';
import { createLoadCommand, saveCommand } from './save-load.js';
import { sessionsCommand } from './sessions.js';
import { settingsCommand } from './settings.js';
import { testCommand } from './test.js';
import { tokensCommand } from './tokens.js';
import type { SlashCommand } from './types.js';
import { undoCommand } from './undo.js';
import { voiceCommand } from './voice.js';
import { webCommand } from './web.js';
import { editorCommand } from './editor.js';
import { multilineCommand, watchCommand } from './watch.js';
import { AIDER_COMMAND_NAMES } from './aider-names.js';

export function allCommands(): SlashCommand[] {
  return [
    addCommand,
    dropCommand,
    readOnlyCommand,
    lsCommand,
    webCommand,
    pasteCommand,
    copyCommand,
    copyContextCommand,
    voiceCommand,
    ...modeCommands,
    chatModeCommand,
    mainModelCommand,
    weakModelCommand,
    editorModelCommand,
    modelsCommand,
    reasoningEffortCommand,
    thinkTokensCommand,
    clearCommand,
    resetCommand,
    tokensCommand,
    undoCommand,
    diffCommand,
    commitCommand,
    gitCommand,
    runCommand,
    testCommand,
    lintCommand,
    mapCommand,
    mapRefreshCommand,
    sessionsCommand,
    saveCommand,
    createLoadCommand(findCommand),
    editorCommand,
    watchCommand,
    multilineCommand,
    settingsCommand,
    helpCommand,
    exitCommand,
    quitCommand,
  ];
}

export type CommandLookup =
  | { readonly kind: 'command'; readonly command: SlashCommand; readonly args: string }
  | { readonly kind: 'unknown'; readonly message: string }
  | { readonly kind: 'request' };

/**
 * `/name args` finds its command: an exact name (or alias) first; else a prefix, only when it is unique
 * among tandem's names and Aider's together, so a prefix never runs a different command than the one an
 * Aider user would expect (`/ed` is neither /editor nor /editor-model), and a command added later
 * cannot change what a prefix runs into something else.
 */
export function findCommand(line: string, commands: readonly SlashCommand[]): CommandLookup {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(line.trim());
  if (!match) return { kind: 'request' };
  const [, name = '', args = ''] = match;
  const exact = commands.find((c) => c.name === name || (c.aliases ?? []).includes(name));
  if (exact) return { kind: 'command', command: exact, args };
  const prefixed = commands.filter((c) => c.name.startsWith(name));
  const names = new Set([...commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]), ...AIDER_COMMAND_NAMES]);
  const candidates = [...names].filter((n) => n.startsWith(name));
  if (prefixed.length === 1 && candidates.length === 1) return { kind: 'command', command: prefixed[0]!, args };
  const hint = prefixed.length > 1 || (prefixed.length === 1 && candidates.length > 1)
    ? ` Did you mean ${prefixed.map((c) => `/${c.name}`).join(', ')}?`
    : ' Type /help for the list.';
  return { kind: 'unknown', message: `Unknown command /${name}.${hint}` };
}
