// Watch mode around the chat: creating the watcher, running a trigger's request as if the user had
// typed it, and the headless loop (`--watch-files` with no terminal): one request per trigger, each
// ending with its own `result`, until SIGINT or SIGTERM.
// Exit code of a headless watch run: a signal while waiting is how such a run ends normally, so the
// run exits with the most severe outcome of its requests (0 when none ran or all completed); a signal
// while a request runs interrupts it, and the run exits 130.
import { join } from 'node:path';
import { escapeControlChars } from '../platform/control-chars.js';
import type { WatchFiles } from '../platform/file-watcher.js';
import type { ResultStatus } from '../session/events.js';
import { EXIT, exitCodeFor, mostSevere } from '../session/exit-codes.js';
import type { BurstTimer } from '../watch/save-burst.js';
import type { WatchRequest, WatchRequestTemplates } from '../watch/watch-request.js';
import type { BuiltSession } from './session-build.js';
import type { CliEnvironment } from './cli-environment.js';
import { addFiles } from './commands/add-files.js';
import { failedInput } from './run-input.js';
import { FileWatch } from './watch-files.js';

/** What /watch and the prompt see of watch mode. */
export interface WatchToggle {
  readonly watching: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface WatchMode extends WatchToggle {
  /** Files watched (known once started). */
  readonly fileCount: number;
  /** Where triggers go (the line reader's queue, or the headless loop). */
  setTarget(target: (request: WatchRequest) => void): void;
  /** tandem wrote this file: not the user's comments. */
  ownWrite(path: string): void;
}

export const realTimer: BurstTimer = {
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

export interface WatchModeOptions {
  readonly root: string;
  readonly env: Record<string, string | undefined>;
  readonly watchFiles: WatchFiles;
  readonly templates: WatchRequestTemplates;
  readonly warn: (message: string) => void;
  readonly timer?: BurstTimer;
  readonly quietMs?: number;
}

export function createWatchMode(options: WatchModeOptions): WatchMode {
  let target: (request: WatchRequest) => void = () => {};
  const watch = new FileWatch({ ...options, timer: options.timer ?? realTimer, onTrigger: (request) => target(request) });
  return {
    get watching() {
      return watch.watching;
    },
    get fileCount() {
      return watch.fileCount;
    },
    start: () => watch.start(),
    stop: () => watch.stop(),
    setTarget(next) {
      target = next;
    },
    ownWrite: (path) => watch.ownWrite(path),
  };
}

/** A trigger's request: its files join the chat, then it runs in its mode like a typed request. */
export async function runWatchRequest(built: BuiltSession, request: WatchRequest, signal: AbortSignal, print: (text: string) => void): Promise<ResultStatus> {
  try {
    built.emit({ type: 'info', message: `watch: ${request.summary}` });
    // File names come from the repository: shown with control characters escaped.
    const context = built.commandContext((text) => print(escapeControlChars(text, { keepNewlines: true })), signal);
    const missing = request.files.filter((path) => !built.session.chatFiles.includes(path));
    if (missing.length > 0) await addFiles(missing.map((path) => join(built.root, path)), context);
    built.session.lastRequestStartHash = built.git ? await built.git.headHash() : null;
    return (await built.session.runRequest(request.text, signal, { mode: request.mode })).status;
  } catch (error) {
    return failedInput(built, error).status;
  }
}

/** The headless loop: runs each trigger in turn until a signal; see the exit code rule at the top. */
export async function runWatchHeadless(built: BuiltSession, environment: CliEnvironment, watch: WatchMode): Promise<number> {
  const queue: WatchRequest[] = [];
  let wake: (() => void) | null = null;
  let stopped = false;
  let current: AbortController | null = null;
  let interrupted = false;
  const stopListening = environment.onInterrupt(() => {
    stopped = true;
    if (current) {
      interrupted = true;
      current.abort();
    }
    wake?.();
  });
  watch.setTarget((request) => {
    // Like type-ahead in the chat: a trigger while a request runs waits for it, never joins it.
    if (current) built.emit({ type: 'info', message: `queued: AI comment ${request.summary}` });
    queue.push(request);
    wake?.();
  });
  const print = built.settings.json ? (text: string) => built.emit({ type: 'info', message: text.trimEnd() }) : (text: string) => void environment.stdout.write(text);
  let status: ResultStatus = 'completed';
  let ran = 0;
  try {
    built.session.announce();
    await watch.start();
    built.emit({ type: 'info', message: `Watching the files for AI comments (${watch.fileCount} files; AI! asks for a change, AI? a question); SIGINT or SIGTERM ends.` });
    while (!stopped) {
      const request = queue.shift();
      if (!request) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        continue;
      }
      current = new AbortController();
      const outcome = await runWatchRequest(built, request, current.signal, print);
      current = null;
      const requestStatus = interrupted ? 'interrupted' : outcome;
      status = mostSevere(status, requestStatus);
      ran += 1;
      built.emit({ type: 'result', status: requestStatus, totals: built.session.resultTotals() });
    }
  } finally {
    stopListening();
    await watch.stop();
  }
  // The stream ends with a result: after the last request's own, or one for a run that ran none.
  if (ran === 0) built.emit({ type: 'result', status, totals: built.session.resultTotals() });
  return interrupted ? EXIT.interrupted : exitCodeFor(status);
}
