// The interactive loop (and its headless twin reading requests line by line from stdin).
// Ctrl-C clears the queued lines first, then cancels the reply in progress and keeps the chat; at the
// prompt a second Ctrl-C within two seconds, or Ctrl-D, leaves. Lines typed while a request runs wait
// in the line reader's queue and run in order after it, each as its own request: they never join a
// running request (its reflections are about tandem's failures, and a queued line may be a command).
// `!cmd` runs a shell command like `/run cmd`.
import { systemClock, type Clock } from '../platform/clock.js';
import type { ResultStatus } from '../session/events.js';
import type { ChatMode } from '../session/session.js';
import type { BuiltSession } from './session-build.js';
import type { CliEnvironment } from './cli-environment.js';
import { EXIT, exitCodeFor, mostSevere } from '../session/exit-codes.js';
import type { LineReader } from './line-reader.js';
import { runInput } from './run-input.js';
import type { Notifier } from './notifier.js';
import { runWatchRequest, type WatchMode } from './watch-mode.js';

/** Watch mode and notifications, when the chat has them. */
export interface ReplExtras {
  readonly watch?: WatchMode | null;
  readonly notifier?: Notifier | null;
}

const DOUBLE_INTERRUPT_MS = 2000;

/**
 * `ask> ` and `architect> ` in those modes, as Aider shows them; `> ` for code; `multi` in multi-line
 * mode and `watch` while watching the files (`ask multi watch> `).
 */
export function promptFor(mode: ChatMode, flags: { multiline?: boolean; watching?: boolean } = {}): string {
  const words = [mode === 'code' ? '' : mode, flags.multiline ? 'multi' : '', flags.watching ? 'watch' : ''].filter(Boolean);
  return words.length === 0 ? '> ' : `${words.join(' ')}> `;
}

/** `!cmd` is a shell command. */
function shellShortcut(line: string): string {
  return /^!\s*\S/.test(line) ? `/run ${line.replace(/^!\s*/, '')}` : line;
}

/** Asked on each Ctrl-C at the prompt: true when it is the second within the window (the user means to leave). */
export function createDoubleInterrupt(clock: Clock, windowMs = DOUBLE_INTERRUPT_MS): () => boolean {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const now = clock.now().getTime();
    const second = now - last < windowMs;
    last = now;
    return second;
  };
}

export async function runRepl(built: BuiltSession, environment: CliEnvironment, lines: LineReader, interactive: boolean, extras: ReplExtras = {}): Promise<number> {
  const watch = extras.watch ?? null;
  const notifier = extras.notifier ?? null;
  let current: AbortController | null = null;
  const isSecondInterrupt = createDoubleInterrupt(environment.clock ?? systemClock);
  let quit = false;
  const onInterrupt = (signal: 'SIGINT' | 'SIGTERM' = 'SIGINT'): void => {
    // SIGTERM is a script or a process manager asking tandem to end: a running request stops and the
    // chat ends, with no second signal needed (Ctrl-C's "again to leave" is for a person at the prompt).
    if (signal === 'SIGTERM') {
      quit = true;
      current?.abort();
      lines.close();
      return;
    }
    if (current) {
      // Lines a person typed ahead are cleared first; piped lines are the script, not a queue.
      const cleared = interactive ? lines.clearQueue() : 0;
      if (cleared > 0) {
        lines.note(`(cleared ${cleared} queued line${cleared === 1 ? '' : 's'}; Ctrl-C again to stop the request)`);
        return;
      }
      current.abort();
      return;
    }
    if (isSecondInterrupt()) {
      quit = true;
      lines.close();
      return;
    }
    environment.stderr.write('\n(Ctrl-C again to leave, or type /exit)\n');
    lines.redraw();
  };
  lines.onInterrupt(() => onInterrupt('SIGINT'));
  const stopListening = environment.onInterrupt(onInterrupt);
  const print = built.settings.json
    ? (text: string) => built.emit({ type: 'info', message: text.trimEnd() })
    : (text: string) => void environment.stdout.write(text);

  built.session.announce();
  if (interactive) environment.stderr.write(await startupNote(built));
  // On a terminal a ping is a note over the prompt; otherwise info and usage events.
  if (built.keepAlive && interactive) {
    const keepAlive = built.keepAlive;
    keepAlive.report = (text) => lines.noteAtPrompt(text);
    // Typing at the prompt stops the pings at once, before the line is finished.
    lines.onTyping(() => keepAlive.stop());
  }
  let status: ResultStatus = 'completed';
  let internal = false;
  if (watch) {
    watch.setTarget((request) => lines.inject({ kind: 'watch', request }));
    // Taking stock of a large tree takes seconds: the prompt does not wait for it.
    if (built.settings['watch-files']) {
      void watch.start().then(
        () => {
          environment.stderr.write(`\nWatching the files for AI comments (${watch.fileCount} files).\n`);
          lines.redraw();
        },
        (error: unknown) => built.emit({ type: 'warning', message: `watch: ${error instanceof Error ? error.message : String(error)}` }),
      );
    }
  }
  try {
    while (!quit) {
      built.keepAlive?.start();
      const line = await lines.read(interactive ? promptFor(built.session.mode, { multiline: lines.multiline, watching: watch?.watching }) : '');
      built.keepAlive?.stop();
      if (line === null) break;
      if (typeof line === 'string' && line.trim() === '') continue;
      current = new AbortController();
      notifier?.started();
      const outcome =
        typeof line === 'string'
          ? await runInput(built, interactive ? shellShortcut(line) : line, current.signal, print)
          : { status: await runWatchRequest(built, line.request, current.signal, print), exit: false };
      notifier?.finished('tandem: the reply is done');
      current = null;
      status = mostSevere(status, outcome.status);
      internal ||= outcome.internal === true;
      if (outcome.exit) break;
    }
  } finally {
    stopListening();
    await watch?.stop();
  }
  built.emit({ type: 'result', status, totals: built.session.resultTotals() });
  if (internal) return EXIT.error;
  return interactive ? 0 : exitCodeFor(status);
}

/** The second start-up line: weak model, repository and its file count, map budget, and where help is. */
async function startupNote(built: BuiltSession): Promise<string> {
  const files = built.git ? (await built.commandContext(() => {}).listFiles()).length : null;
  const repo = files === null ? 'no git repository' : `git repository with ${files} file${files === 1 ? '' : 's'}`;
  const mapTokens = built.settings['map-tokens'];
  const map = mapTokens > 0 ? `repo map ${mapTokens} tokens` : 'repo map off';
  return `Weak model ${built.session.models.weak}, ${repo}, ${map}. /help for commands.\n`;
}
