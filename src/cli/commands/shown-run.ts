// Runs a shell command for /run and /test with its output on screen: as it arrives for a person at a
// terminal (Ctrl-C stops it), in one piece otherwise (JSON lines and logs get whole output, not chunks).
import type { CommandContext } from './types.js';

export async function runShown(ctx: CommandContext, command: string): Promise<{ exitCode: number | null; output: string }> {
  let endsWithNewline = true;
  const show = (text: string): void => {
    if (text === '') return;
    ctx.print(text);
    endsWithNewline = text.endsWith('\n');
  };
  const result = await ctx.runShell(command, { signal: ctx.signal, ...(ctx.canAsk ? { onOutput: show } : {}) });
  if (!ctx.canAsk) show(result.output);
  if (!endsWithNewline) ctx.print('\n');
  return result;
}
