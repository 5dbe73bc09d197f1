// Reads the user's lines: a readline prompt with editing and history on a terminal, or plain lines
// from a non-terminal stdin. Created lazily so one-shot runs never touch stdin.
import { createInterface, type Interface } from 'node:readline';
import type { CliEnvironment } from './cli-environment.js';

export interface LineReaderOptions {
  readonly history?: string[];
  readonly completer?: (line: string) => [string[], string];
}

export interface LineReader {
  /** The next line; null at the end of input (Ctrl-D, EOF). */
  read(prompt: string): Promise<string | null>;
  /** Ctrl-C typed on the terminal while the reader is open (not a process signal). */
  onInterrupt(handler: () => void): void;
  /** Lines entered so far in this session, newest first (for saving REPL history). */
  history(): string[];
  close(): void;
}

export function createLineReader(environment: CliEnvironment, interactive: boolean, options: LineReaderOptions = {}): LineReader {
  let rl: Interface | null = null;
  let ended = false;
  const queued: string[] = [];
  let waiting: ((line: string | null) => void) | null = null;
  const interruptHandlers: Array<() => void> = [];

  const open = (): Interface => {
    if (rl) return rl;
    rl = createInterface({
      input: environment.stdin,
      output: interactive ? environment.stdout : undefined,
      terminal: interactive,
      history: options.history ? [...options.history] : [],
      historySize: 1000,
      completer: interactive ? options.completer : undefined,
    });
    rl.on('SIGINT', () => {
      for (const handler of interruptHandlers) handler();
    });
    rl.on('close', () => {
      ended = true;
      waiting?.(null);
      waiting = null;
    });
    if (!interactive) {
      rl.on('line', (line) => {
        if (waiting) {
          const resolve = waiting;
          waiting = null;
          resolve(line);
        } else {
          queued.push(line);
        }
      });
    }
    return rl;
  };

  return {
    read(prompt) {
      const reader = open();
      if (!interactive) {
        const next = queued.shift();
        if (next !== undefined) return Promise.resolve(next);
        if (ended) return Promise.resolve(null);
        return new Promise((resolve) => {
          waiting = resolve;
        });
      }
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => {
        waiting = resolve;
        reader.question(prompt, (answer) => {
          waiting = null;
          resolve(answer);
        });
      });
    },
    onInterrupt(handler) {
      interruptHandlers.push(handler);
    },
    history() {
      return rl ? [...((rl as unknown as { history?: string[] }).history ?? [])] : [];
    },
    close() {
      rl?.close();
    },
  };
}

/** Asks a yes/no question on the reader; anything but y/yes (or end of input) is no. */
export async function askLine(lines: LineReader, question: string): Promise<'yes' | 'no'> {
  const answer = await lines.read(question);
  return answer !== null && /^\s*y(es)?\s*$/i.test(answer) ? 'yes' : 'no';
}
