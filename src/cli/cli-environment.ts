// Everything the CLI takes from the process, gathered by main.ts so the rest can be driven by tests.
import type { Readable, Writable } from 'node:stream';
import type { Clock } from '../platform/clock.js';
import type { HttpPort } from '../platform/http.js';
import type { Timers } from '../platform/timers.js';

export interface CliEnvironment {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly homeDir: string;
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Width of the terminal on stderr, when it is one. */
  readonly columns: number | undefined;
  /** The folder holding package.json, prompts/ and queries/. */
  readonly packageRoot: string;
  readonly version: string;
  /** The Node binary running tandem and the script it runs, for spawning the same tandem again (eval). */
  readonly nodePath: string;
  readonly cliPath: string;
  /** This process's id, written into the repository lock so others can tell a crashed holder. */
  readonly pid?: number;
  /** Registers the handler for Ctrl-C / SIGTERM; returns a function that removes it. */
  /** What time it is (session ids, log and transcript stamps, the double Ctrl-C); default: the system clock. */
  readonly clock?: Clock;
  /** Requests to the model server outside the chat (its model list); default: fetch. */
  readonly http?: HttpPort;
  /** Timers for work while the chat is idle (cache keep-alive); default: the system's. */
  readonly timers?: Timers;
  readonly onInterrupt: (handler: (signal: 'SIGINT' | 'SIGTERM') => void) => () => void;
}
