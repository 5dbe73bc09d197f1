// A one-line spinner on stderr while the model has not sent its first token; erased without escape
// codes (carriage return and spaces) so it leaves nothing behind on any terminal.

export interface SpinnerTimers {
  readonly setInterval: (callback: () => void, ms: number) => unknown;
  readonly clearInterval: (handle: unknown) => void;
}

export interface SpinnerOptions {
  readonly write: (text: string) => void;
  readonly label?: string;
  readonly intervalMs?: number;
  /** Braille frames when the terminal's encoding has them, else ASCII. */
  readonly unicode?: boolean;
  readonly timers?: SpinnerTimers;
}

export interface Spinner {
  start(label?: string): void;
  /** Erases the spinner line; does nothing when it is not running. */
  stop(): void;
  readonly running: boolean;
}

const UNICODE_FRAMES = ['\u280b', '\u2819', '\u2839', '\u2838', '\u283c', '\u2834', '\u2826', '\u2827', '\u2807', '\u280f'];
const ASCII_FRAMES = ['|', '/', '-', '\\'];

const realTimers: SpinnerTimers = {
  setInterval: (callback, ms) => {
    const handle = setInterval(callback, ms);
    // A forgotten spinner must not keep the process alive.
    handle.unref();
    return handle;
  },
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

export function createSpinner(options: SpinnerOptions): Spinner {
  const frames = options.unicode ? UNICODE_FRAMES : ASCII_FRAMES;
  const timers = options.timers ?? realTimers;
  let handle: unknown = null;
  let frame = 0;
  let shown = '';
  const draw = (label: string): void => {
    const text = `${frames[frame % frames.length]} ${label}`;
    frame++;
    options.write(`\r${text}`);
    shown = text;
  };
  return {
    start(label = options.label ?? 'Waiting for the model...') {
      if (handle !== null) return;
      frame = 0;
      draw(label);
      handle = timers.setInterval(() => draw(label), options.intervalMs ?? 100);
    },
    stop() {
      if (handle === null) return;
      timers.clearInterval(handle);
      handle = null;
      options.write(`\r${' '.repeat(shown.length)}\r`);
      shown = '';
    },
    get running() {
      return handle !== null;
    },
  };
}

/** Whether the locale promises UTF-8 output (LC_ALL, then LC_CTYPE, then LANG, as the C library reads them). */
export function localeIsUtf8(env: Readonly<Record<string, string | undefined>>): boolean {
  const locale = env['LC_ALL'] || env['LC_CTYPE'] || env['LANG'] || '';
  return /utf-?8/i.test(locale);
}
