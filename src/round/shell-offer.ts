// Shell commands a reply suggests run only when a person says yes, one by one.
import type { Asker, ShellPort } from '../coders/ports.js';

export type ShellEvent = { readonly type: 'shell'; readonly command: string; readonly ran: boolean; readonly output?: string };

export async function offerShellCommands(
  commands: readonly string[],
  deps: { readonly shell: ShellPort | null; readonly asker: Asker; readonly emit: (event: ShellEvent) => void },
): Promise<{ readonly unanswerable: boolean }> {
  let unanswerable = false;
  for (const command of commands) {
    const answer = deps.shell ? await deps.asker.confirm(`Run the suggested command: ${command}?`, 'shell-command', command) : 'no';
    // Headless nobody can say yes (and --yes-always never does): the run must not pass for done.
    unanswerable ||= answer === 'unanswerable';
    if (answer !== 'yes' || !deps.shell) {
      deps.emit({ type: 'shell', command, ran: false });
      continue;
    }
    const result = await deps.shell.run(command);
    deps.emit({ type: 'shell', command, ran: true, output: result.output });
  }
  return { unanswerable };
}
