// Reads the user's input: a readline prompt with editing, persistent history, Tab completion and
// multi-line input on a terminal, or plain lines from a non-terminal stdin. Created lazily so one-shot
// runs never touch stdin. Multi-line input: a line holding just `{` starts a block ended by a line
// holding just `}`; text pasted on a terminal with bracketed paste is kept whole until Enter.
// The reader owns the keyboard: readline sees keys only while its prompt is shown; while the model works
// a typed line is queued (and announced), and a question takes one key press, so type-ahead is never
// an answer.
import { createInterface, type Interface } from 'node:readline';
import type { CliEnvironment } from './cli-environment.js';
import { HISTORY_SIZE, InputHistory } from './input-history.js';
import { createKeyRouter, type KeyRouter } from './key-router.js';
import { answerWord, choicesHint, type Choice } from './keys.js';
import { PendingInput, type ChatInput, type WatchInput } from './pending-input.js';

export type Completer = (line: string, callback: (error: Error | null, result: [string[], string]) => void) => void;

export interface LineReaderOptions {
  readonly history?: string[];
  readonly completer?: Completer;
}

export interface LineReaderSetup {
  /** `<repo root>/.tandem/input.history`: loaded now, appended to on every line typed. */
  readonly historyFile?: string | null;
  readonly completer?: Completer | null;
  /**
   * Ends whatever the renderer has half-drawn (a partial line, the spinner) before the reader writes;
   * `brief`: a one-line note, after which the unfinished line of the reply is drawn again.
   */
  readonly settle?: (brief?: boolean) => void;
}

export interface LineReader {
  /**
   * The next input (a `{ … }` block or a paste is one input, and so is a watch trigger); null at the end
   * of input (Ctrl-D, EOF).
   */
  read(prompt: string): Promise<ChatInput | null>;
  /** A watch trigger: taken by a waiting prompt at once, else queued (and announced) like type-ahead. */
  inject(input: WatchInput): void;
  /** Multi-line mode: Enter inserts a newline and Meta-Enter sends (the other way round when off). */
  multiline: boolean;
  /** Gives the terminal to a program (an editor) while `run` runs: no raw mode, no key reading. */
  withTerminal<T>(run: () => Promise<T>): Promise<T>;
  /** Ctrl-C typed on the terminal while the reader is open (not a process signal). */
  onInterrupt(handler: () => void): void;
  /** Lines entered so far, newest first. */
  history(): string[];
  /** Adds what is only known once the repository is: the history file and the completer. */
  configure(setup: LineReaderSetup): void;
  /**
   * A question answered with one key (Enter is `fallback`); lines typed before it stay queued as
   * requests. Without a terminal, the next line is read as the answer word.
   */
  ask(question: string, choices: readonly Choice[], fallback: Choice): Promise<Choice>;
  /** Prints a one-line note on its own line, above a reply line still being drawn. */
  note(text: string): void;
  /** How many inputs have been read so far. */
  inputCount(): number;
  /** Forgets the queued lines; returns how many there were. */
  clearQueue(): number;
  /** Shows the prompt again on a fresh line, with an empty input (after a note printed at the prompt). */
  redraw(): void;
  /** Text the next prompt starts with, to edit or send (a /voice transcript). */
  prefill(text: string): void;
  /** A one-line note while the prompt waits (a keep-alive ping): printed over the prompt, which is drawn again with what was typed. */
  noteAtPrompt(text: string): void;
  /** Any key typed on the terminal (not piped input). */
  onTyping(handler: () => void): void;
  close(): void;
}

const BLOCK_PROMPT = '... ';
const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';

export function createLineReader(environment: CliEnvironment, interactive: boolean, options: LineReaderOptions = {}): LineReader {
  let rl: Interface | null = null;
  let ended = false;
  const pending = new PendingInput<ChatInput>();
  // Multi-line mode, and the lines of a message being written with newlines (Enter or Meta-Enter).
  let multiline = false;
  let draft: string[] = [];
  let newlineKey = false;
  const interruptHandlers: Array<() => void> = [];
  const typingHandlers: Array<() => void> = [];
  let completer: Completer | null = options.completer ?? null;
  const saved = new InputHistory();
  let pasted: string[] = [];
  let closing = false;
  let inputs = 0;
  let settle: (brief?: boolean) => void = () => {};
  let keys: KeyRouter | null = null;
  // readline edits the array given as its `history` option in place and hands that same array to each
  // 'history' listener, which may change it (Node's documented way to persist or filter history).
  let history: string[] = [...(options.history ?? [])];

  const interrupt = (): void => {
    pasted = [];
    for (const handler of interruptHandlers) handler();
  };

  const deliver = (line: ChatInput): void => {
    if (pending.deliver(line) || !interactive) return;
    settle(true);
    if (typeof line !== 'string') {
      environment.stdout.write(`queued: AI comment ${line.request.summary}\n`);
      return;
    }
    const [first = '', ...more] = line.split('\n');
    environment.stdout.write(`queued: ${first}${more.length > 0 ? ' \u2026' : ''}\n`);
  };

  const onLine = (line: string): void => {
    if (!interactive) return deliver(line);
    saved.save(line);
    if (keys?.pasting) {
      pasted.push(line);
      return;
    }
    if (newlineKey && rl) {
      // Enter (multi-line mode) or Meta-Enter: the line is kept and the message goes on below it.
      newlineKey = false;
      draft.push(line);
      rl.setPrompt(BLOCK_PROMPT);
      rl.prompt();
      return;
    }
    const whole = [...draft, ...pasted, line].join('\n');
    pasted = [];
    draft = [];
    deliver(whole);
  };

  const open = (): Interface => {
    if (rl) return rl;
    rl = createInterface({
      input: environment.stdin,
      output: interactive ? environment.stdout : undefined,
      terminal: interactive,
      history,
      historySize: HISTORY_SIZE,
      completer: interactive ? (line: string, callback: Parameters<Completer>[1]) => (completer ? completer(line, callback) : callback(null, [[], line])) : undefined,
    });
    if (interactive) {
      // readline's own key listener only hears keys while its prompt is up (see key-router).
      const readlineKeys = environment.stdin.listeners('keypress') as Array<(...args: unknown[]) => void>;
      for (const listener of readlineKeys) environment.stdin.off('keypress', listener);
      const router = createKeyRouter({
        prompting: () => pending.isWaiting,
        readlineKeys,
        typedLine: (line) => {
          saved.save(line);
          deliver(line);
        },
        interrupt: () => {
          draft = [];
          interrupt();
        },
        write: (text) => void environment.stdout.write(text),
        enter: (meta) => {
          newlineKey = multiline ? !meta : meta;
        },
      });
      keys = router;
      environment.stdin.on('keypress', (text: string | undefined, key: Parameters<KeyRouter['onKey']>[1]) => {
        for (const handler of typingHandlers) handler();
        router.onKey(text, key);
      });
      environment.stdout.write(PASTE_ON);
      saved.loadInto(history);
    }
    rl.on('history', (live: string[]) => {
      history = live;
    });
    rl.on('SIGINT', interrupt);
    rl.on('close', () => {
      ended = true;
      // Ctrl-D at the prompt: end the prompt's line so the shell's prompt starts on its own.
      if (interactive && !closing) environment.stdout.write('\n');
      if (interactive) environment.stdout.write(PASTE_OFF);
      keys?.cancel();
      pending.end();
    });
    rl.on('line', onLine);
    return rl;
  };

  let prefilled = '';
  const readRaw = (prompt: string): Promise<ChatInput | null> => {
    const reader = open();
    inputs++;
    const next = pending.next();
    if (next !== undefined) {
      // A queued line runs as if typed now, so the screen reads like the conversation it is.
      if (interactive && typeof next === 'string') environment.stdout.write(`${prompt}${next}\n`);
      return Promise.resolve(next);
    }
    if (ended) return Promise.resolve(null);
    return pending.wait(() => {
      if (!interactive) return;
      reader.setPrompt(prompt);
      reader.prompt();
      const typing = `${prefilled}${keys?.takeTyping() ?? ''}`;
      prefilled = '';
      if (typing !== '') reader.write(typing);
    });
  };

  return {
    async read(prompt) {
      const first = await readRaw(prompt);
      if (first === null || typeof first !== 'string' || first.trim() !== '{') return first;
      const block: string[] = [];
      for (;;) {
        const line = await readRaw(interactive ? BLOCK_PROMPT : '');
        if (line === null || (typeof line === 'string' && line.trim() === '}')) return block.join('\n');
        // A trigger arriving inside a block waits for the block to end.
        if (typeof line !== 'string') {
          pending.deliver(line);
          continue;
        }
        block.push(line);
      }
    },
    inject(input) {
      if (ended) return;
      const waiting = pending.isWaiting;
      // At the prompt: end its line, so the request's output starts below it.
      if (waiting && interactive) {
        settle(true);
        environment.stdout.write('\n');
      }
      deliver(input);
    },
    get multiline() {
      return multiline;
    },
    set multiline(on: boolean) {
      multiline = on;
    },
    async withTerminal(run) {
      const stdin = environment.stdin as Partial<{ isTTY: boolean; setRawMode: (on: boolean) => void }> & NodeJS.ReadableStream;
      const raw = interactive && typeof stdin.setRawMode === 'function';
      stdin.pause();
      if (raw) stdin.setRawMode?.(false);
      try {
        return await run();
      } finally {
        if (raw) stdin.setRawMode?.(true);
        if (rl) stdin.resume();
      }
    },
    onInterrupt(handler) {
      interruptHandlers.push(handler);
    },
    async ask(question, choices, fallback) {
      if (!interactive) {
        const line = await readRaw(question);
        return answerWord(typeof line === 'string' ? line : null, choices, fallback);
      }
      open();
      if (ended) return 'no';
      settle();
      environment.stdout.write(`${question} ${choicesHint(choices, fallback)}`);
      return keys ? keys.answer(choices, fallback) : 'no';
    },
    note(text) {
      if (interactive) settle(true);
      environment.stderr.write(`${text}\n`);
    },
    inputCount() {
      return inputs;
    },
    prefill(text) {
      prefilled += text;
    },
    clearQueue() {
      const typing = (keys?.takeTyping() ?? '') === '' ? 0 : 1;
      return pending.clear() + typing;
    },
    redraw() {
      if (!rl || !pending.isWaiting || !interactive) return;
      if (rl.line !== '') {
        // Ctrl-E then Ctrl-U, as if typed: readline's public way to empty the line it is editing.
        rl.write(null, { ctrl: true, name: 'e' });
        rl.write(null, { ctrl: true, name: 'u' });
      }
      rl.prompt();
    },
    onTyping(handler) {
      typingHandlers.push(handler);
    },
    noteAtPrompt(text) {
      if (!rl || !pending.isWaiting || !interactive) {
        environment.stderr.write(`${text}\n`);
        return;
      }
      environment.stderr.write(`\r\u001b[K${text}\n`);
      rl.prompt(true);
    },
    history() {
      return rl ? [...history] : [];
    },
    configure(setup) {
      if (setup.completer !== undefined) completer = setup.completer;
      if (setup.settle) settle = setup.settle;
      if (setup.historyFile === undefined) return;
      saved.use(setup.historyFile);
      if (rl && interactive) saved.loadInto(history);
    },
    close() {
      closing = true;
      rl?.close();
    },
  };
}

/** Asks a yes/no question on the reader (one key on a terminal; Enter is no). */
export async function askLine(lines: LineReader, question: string): Promise<'yes' | 'no'> {
  return (await lines.ask(question, ['yes', 'no'], 'no')) === 'yes' ? 'yes' : 'no';
}
