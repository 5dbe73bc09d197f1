// A terminal as a port: where text goes, whether a person's terminal is on the other end, and its
// width. Renderers take these instead of reading a stream's `isTTY`/`columns`, so tests pick them.
export interface Terminal {
  /** A terminal (colours, spinners, redraws in place), not a pipe or a file. */
  readonly isTTY: boolean;
  /** The width in columns when known; asked again each time, so a resize counts. */
  columns(): number | undefined;
  write(text: string): void;
}

/** The Node stream's own width where it has one (a TTY stream follows resizes). */
interface NodeOutput extends NodeJS.WritableStream {
  readonly columns?: number;
}

export interface StreamTerminalOptions {
  readonly isTTY: boolean;
  /** The width known at start, for streams that report none. */
  readonly columns?: number | undefined;
}

export function streamTerminal(stream: NodeOutput, options: StreamTerminalOptions): Terminal {
  return {
    isTTY: options.isTTY,
    columns: () => stream.columns ?? options.columns,
    write: (text) => void stream.write(text),
  };
}
