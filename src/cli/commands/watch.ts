// /watch: turns watch mode (AI comments in the files become requests) on or off in the chat, and
// /multiline-mode: swaps what Enter and Meta-Enter do at the prompt.
import type { SlashCommand } from './types.js';

export const watchCommand: SlashCommand = {
  name: 'watch',
  summary: 'watch the files for AI comments (AI! asks for a change, AI? a question), or stop watching',
  async run(_args, ctx) {
    const watch = ctx.chatInput?.watch ?? null;
    if (!watch) {
      ctx.print('Watch mode works in the interactive chat in a git repository.\n');
      return {};
    }
    if (watch.watching) {
      await watch.stop();
      ctx.print('Stopped watching the files.\n');
      return {};
    }
    await watch.start();
    ctx.print('Watching the files: save a comment ending in AI! (a change) or AI? (a question) to send it.\n');
    return {};
  },
};

export const multilineCommand: SlashCommand = {
  name: 'multiline-mode',
  summary: 'swap Enter and Meta-Enter: Enter inserts a newline, Meta-Enter (Esc Enter) sends',
  async run(_args, ctx) {
    const input = ctx.chatInput?.input ?? null;
    if (!input) {
      ctx.print('Multi-line mode needs the interactive chat on a terminal.\n');
      return {};
    }
    input.multiline = !input.multiline;
    ctx.print(
      input.multiline
        ? 'Multi-line mode on: Enter inserts a newline, Meta-Enter (Esc then Enter) sends.\n'
        : 'Multi-line mode off: Enter sends, Meta-Enter (Esc then Enter) inserts a newline.\n',
    );
    return {};
  },
};
