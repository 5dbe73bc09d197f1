// The slash command names an Aider user knows (as Aider's documentation lists them). A typed prefix
// that fits more than one of these and tandem's own is ambiguous even where tandem lacks the others.
export const AIDER_COMMAND_NAMES: readonly string[] = [
  'add', 'architect', 'ask', 'chat-mode', 'clear', 'code', 'commit', 'context', 'copy', 'copy-context', 'diff',
  'drop', 'edit', 'editor', 'editor-model', 'exit', 'git', 'help', 'lint', 'load', 'ls', 'map', 'map-refresh',
  'model', 'models', 'multiline-mode', 'paste', 'quit', 'read-only', 'reasoning-effort', 'report', 'reset',
  'run', 'save', 'settings', 'test', 'think-tokens', 'tokens', 'undo', 'voice', 'weak-model', 'web',
];
