// The terminal renderer: the reply as it streams, edits as diffs, one status line per request.
import type { SessionEvent } from '../session/events.js';
import type { Palette } from './colors.js';
import { colorDiff } from './colors.js';

export interface TerminalOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly palette: Palette;
}

export function createTerminalRenderer(io: TerminalOutput): (event: SessionEvent) => void {
  const { out, err, palette } = io;
  let streamed = false;
  return (event) => {
    switch (event.type) {
      case 'session':
        err(palette.dim(`tandem: model ${event.model}, edit format ${event.editFormat}${filesNote(event.files)}\n`));
        return;
      case 'waiting':
        streamed = false;
        return;
      case 'assistant_delta':
        streamed = true;
        out(event.text);
        return;
      case 'assistant':
        if (!streamed && event.text) out(event.text);
        if (event.text && !event.text.endsWith('\n')) out('\n');
        if (event.interrupted) err(palette.yellow('(reply interrupted)\n'));
        streamed = false;
        return;
      case 'edit':
        if (event.diff) out(`${colorDiff(event.diff, palette)}\n`);
        if (event.status === 'applied') err(palette.green(`Applied edit to ${event.path}\n`));
        if (event.status === 'planned') err(palette.cyan(`Would edit ${event.path} (dry run)\n`));
        if (event.status === 'failed') err(palette.red(`Edit to ${event.path} failed: ${event.error ?? ''}\n`));
        if (event.status === 'denied') err(palette.yellow(`Edit to ${event.path} not allowed\n`));
        return;
      case 'commit':
        err(palette.dim(`Commit ${event.hash.slice(0, 7)} ${event.message}\n`));
        return;
      case 'lint':
      case 'test':
        if (!event.ok) err(palette.yellow(`${event.type === 'lint' ? 'Lint' : 'Tests'} failed:\n${event.output}\n`));
        return;
      case 'reflection':
        err(palette.yellow(`Sending the ${event.reason} failures back to the model (reflection ${event.n})\n`));
        return;
      case 'usage':
        err(palette.dim(`${usageLine(event)}\n`));
        return;
      case 'shell':
        err(event.ran ? `$ ${event.command}\n${event.output ?? ''}\n` : palette.dim(`Suggested command not run: ${event.command}\n`));
        return;
      case 'question':
        return;
      case 'info':
        err(`${event.message}\n`);
        return;
      case 'warning':
        err(palette.yellow(`${event.message}\n`));
        return;
      case 'error':
        err(palette.red(`${event.message}\n`));
        return;
      case 'result':
        return;
    }
  };
}

function filesNote(files: readonly string[]): string {
  return files.length > 0 ? `, files: ${files.join(' ')}` : '';
}

function usageLine(event: Extract<SessionEvent, { type: 'usage' }>): string {
  const cached = event.cachedTokens > 0 ? ` (${formatCount(event.cachedTokens)} cached)` : '';
  const cost = event.cost === null ? '' : `, cost $${event.cost.toFixed(4)} (session $${(event.sessionCost ?? 0).toFixed(4)})`;
  return `Tokens: ${formatCount(event.promptTokens)} sent${cached}, ${formatCount(event.completionTokens)} received${cost}`;
}

function formatCount(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}
