// Reads the user's input: a readline prompt with editing, persistent history, Tab completion and
// multi-line input on a terminal, or plain lines from a non-terminal stdin. Created lazily so one-shot
// runs never touch stdin. Multi-line input: a line holding just `{` starts a block ended by a line
// holding just `}`; text pasted on a terminal with bracketed paste is kept whole until Enter.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { CliEnvironment } from './cli-environment.js';

export type Completer = (line: string, callback: (error: Error | null, result: [string[], string]) => void) => void;

export interface LineReaderOptions {
  readonly history?: string[];
  readonly completer?: Completer;
}

export interface LineReaderSetup {
  /** `<repo root>/.tandem/input.history`: loaded now, appended to on every line typed. */
  readonly historyFile?: string | null;
  readonly completer?: Completer | null;
}

export interface LineReader {
  /** The next input (a `{ … }` block or a paste is one input); null at the end of input (Ctrl-D, EOF). */
  read(prompt: string): Promise<string | null>;
  /** Ctrl-C typed on the terminal while the reader is open (not a process signal). */
  onInterrupt(handler: () => void): void;
  /** Lines entered so far, newest first. */
  history(): string[];
  /** Adds what is only known once the repository is: the history file and the completer. */
  configure(setup: LineReaderSetup): void;
  close(): void;
}

const HISTORY_SIZE = 1000;
const BLOCK_PROMPT = '... ';
const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';

export function createLineReader(environment: CliEnvironment, interactive: boolean, options: LineReaderOptions = {}): LineReader {
  let rl: Interface | null = null;
  let ended = false;
  const queued: string[] = [];
  let waiting: ((line: string | null) => void) | null = null;
  const interruptHandlers: Array<() => void> = [];
  let completer: Completer | null = options.completer ?? null;
  let historyFile: string | null = null;
  let lastSaved = '';
  let pasting = false;
  let pasted: string[] = [];

  const deliver = (line: string): void => {
    if (!waiting) {
      queued.push(line);
      return;
    }
    const resolve = waiting;
    waiting = null;
    resolve(line);
  };

  const save = (line: string): void => {
    if (!historyFile || line.trim() === '' || line === lastSaved) return;
    lastSaved = line;
    try {
      mkdirSync(dirname(historyFile), { recursive: true });
      appendFileSync(historyFile, `${line}\n`);
    } catch {
      // History is a convenience: a read-only repository must not stop the chat.
    }
  };

  const onLine = (line: string): void => {
    if (!interactive) return deliver(line);
    save(line);
    if (pasting) {
      pasted.push(line);
      return;
    }
    const whole = pasted.length > 0 ? [...pasted, line].join('\n') : line;
    pasted = [];
    deliver(whole);
  };

  const open = (): Interface => {
    if (rl) return rl;
    rl = createInterface({
      input: environment.stdin,
      output: interactive ? environment.stdout : undefined,
      terminal: interactive,
      history: [...(options.history ?? [])],
      historySize: HISTORY_SIZE,
      completer: interactive ? (line: string, callback: Parameters<Completer>[1]) => (completer ? completer(line, callback) : callback(null, [[], line])) : undefined,
    });
    if (interactive) {
      // Registered after readline's own listener, so a pasted newline has already become a line.
      environment.stdin.on('keypress', (_text: unknown, key: { name?: string } | undefined) => {
        if (key?.name === 'paste-start') pasting = true;
        if (key?.name === 'paste-end') pasting = false;
      });
      environment.stdout.write(PASTE_ON);
      if (historyFile) loadHistoryInto(rl, historyFile);
    }
    rl.on('SIGINT', () => {
      pasted = [];
      for (const handler of interruptHandlers) handler();
    });
    rl.on('close', () => {
      ended = true;
      if (interactive) environment.stdout.write(PASTE_OFF);
      waiting?.(null);
      waiting = null;
    });
    rl.on('line', onLine);
    return rl;
  };

  const readRaw = (prompt: string): Promise<string | null> => {
    const reader = open();
    const next = queued.shift();
    if (next !== undefined) return Promise.resolve(next);
    if (ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      waiting = resolve;
      if (!interactive) return;
      reader.setPrompt(prompt);
      reader.prompt();
    });
  };

  return {
    async read(prompt) {
      const first = await readRaw(prompt);
      if (first === null || first.trim() !== '{') return first;
      const block: string[] = [];
      for (;;) {
        const line = await readRaw(interactive ? BLOCK_PROMPT : '');
        if (line === null || line.trim() === '}') return block.join('\n');
        block.push(line);
      }
    },
    onInterrupt(handler) {
      interruptHandlers.push(handler);
    },
    history() {
      return rl ? [...historyOf(rl)] : [];
    },
    configure(setup) {
      if (setup.completer !== undefined) completer = setup.completer;
      if (setup.historyFile === undefined) return;
      historyFile = setup.historyFile;
      if (rl && interactive && historyFile) loadHistoryInto(rl, historyFile);
    },
    close() {
      rl?.close();
    },
  };
}

/** The saved history, newest first as readline keeps it; missing or unreadable means empty. */
export function loadHistory(file: string, limit = HISTORY_SIZE): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.slice(-limit).reverse();
}

function historyOf(rl: Interface): string[] {
  return (rl as unknown as { history: string[] }).history;
}

function loadHistoryInto(rl: Interface, file: string): void {
  const history = historyOf(rl);
  const typedNow = [...history];
  history.splice(0, history.length, ...typedNow, ...loadHistory(file).filter((line) => !typedNow.includes(line)));
}

/** Asks a yes/no question on the reader; anything but y/yes (or end of input) is no. */
export async function askLine(lines: LineReader, question: string): Promise<'yes' | 'no'> {
  const answer = await lines.read(question);
  return answer !== null && /^\s*y(es)?\s*$/i.test(answer) ? 'yes' : 'no';
}
