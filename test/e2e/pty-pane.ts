// Drives the built CLI on a real pseudo-terminal (tmux) for the pty tests: open a pane, type keys,
// read the screen and wait on its content (never on time).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import { baseEnv, CLI } from '../support/cli.js';
import { startFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { tempDir } from '../support/temp-repo.js';

export const TMUX = '/usr/bin/tmux';
const WAIT_MS = 15000;

export interface Pane {
  readonly socket: string;
  keys(...keys: string[]): void;
  type(text: string): void;
  /** Types `text` and presses Enter. */
  enter(text: string): void;
  screen(colours?: boolean): string;
  /** Polls the screen until `test` holds; fails with the last screen after the deadline. */
  waitFor(test: (screen: string) => boolean, what: string, colours?: boolean): Promise<string>;
  kill(): void;
  /** Whether the CLI in the pane has exited (tmux keeps the dead pane). */
  exited(): boolean;
}

export interface PaneOptions {
  readonly columns?: number;
  readonly rows?: number;
  /**
   * Read the screen with wrapped lines joined and trailing spaces kept (`capture-pane -J`), so a long
   * line is one line and a bare prompt ends in its space.
   */
  readonly joined?: boolean;
  /** The CLI's HOME, for a test that reads what it stored there (default: a fresh private one). */
  readonly home?: string;
  /** Lines of scrollback read above the screen. */
  readonly scrollback?: number;
}

export function requireTmux(): void {
  if (!existsSync(TMUX)) throw new Error(`these tests drive the CLI through tmux, which is missing at ${TMUX}: install tmux`);
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

let opened = 0;

export function openPane(cwd: string, args: readonly string[], env: Record<string, string> = {}, options: PaneOptions = {}): Pane {
  const { columns = 120, rows = 40, joined = false, scrollback = 200 } = options;
  const socket = `tandem-test-${process.pid}-${opened++}-${Date.now()}`;
  const home = options.home ?? join(tempDir('tandem-home-'), 'home');
  mkdirSync(home, { recursive: true });
  // baseEnv sets NO_COLOR for the piped tests; on a terminal colour is what is being tested.
  const { NO_COLOR: _unused, ...inherited } = baseEnv(home);
  const fullEnv: Record<string, string> = { ...inherited, TERM: 'xterm-256color', LANG: 'C.UTF-8', ...env };
  const command = ['env', '-i', ...Object.entries(fullEnv).map(([k, v]) => `${k}=${v}`), process.execPath, CLI, ...args].map(shellQuote).join(' ');
  const tmux = (...words: string[]): string => execFileSync(TMUX, ['-L', socket, '-f', '/dev/null', ...words], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'main', '-x', String(columns), '-y', String(rows), '-c', cwd, command);
  // Keep the pane after the CLI exits, so a failure shows what it printed last.
  tmux('set-option', '-t', 'main', 'remain-on-exit', 'on');
  const pane: Pane = {
    socket,
    keys: (...keys) => void tmux('send-keys', '-t', 'main', ...keys),
    type: (text) => void tmux('send-keys', '-t', 'main', '-l', text),
    enter: (text) => {
      tmux('send-keys', '-t', 'main', '-l', text);
      tmux('send-keys', '-t', 'main', 'Enter');
    },
    exited: () => tmux('display-message', '-p', '-t', 'main', '#{pane_dead}').trim() === '1',
    screen: (colours = false) => tmux('capture-pane', '-p', ...(joined ? ['-J'] : []), '-t', 'main', '-S', String(-scrollback), ...(colours ? ['-e'] : [])),
    async waitFor(test, what, colours = false) {
      const deadline = Date.now() + WAIT_MS;
      let last = '';
      while (Date.now() < deadline) {
        try {
          last = pane.screen(colours);
        } catch {
          last = '(the pane is gone: the CLI exited)';
        }
        if (test(last)) return last;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
    },
    kill: () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
  return pane;
}

export function cliArgs(url: string): string[] {
  return ['--base-url', url, '--api-key', 'test', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--no-auto-commits'];
}

/** The last line of the screen's content is `prompt` with nothing typed after it. */
export function promptShown(screen: string, prompt = '> '): boolean {
  const rows = screen.trimEnd().split('\n');
  return `${rows.at(-1) ?? ''} `.startsWith(prompt) && (rows.at(-1) ?? '').trimEnd() === prompt.trimEnd();
}

/** Occurrences of `text` on the screen. */
export function count(screen: string, text: string): number {
  return screen.split(text).length - 1;
}

/**
 * The set-up every tmux test file shares: tmux must be installed, and after each test the panes it opened
 * are killed and the fake servers it started are closed. `open` and `serve` register what they start;
 * `defaults` are the file's pane options, which one `open` may override.
 */
export function tmuxTests(defaults: PaneOptions = {}): { open: typeof openPane; serve: typeof startFakeOpenAI } {
  const panes: Pane[] = [];
  const servers: FakeOpenAIServer[] = [];
  beforeAll(requireTmux);
  afterEach(async () => {
    for (const pane of panes.splice(0)) pane.kill();
    for (const server of servers.splice(0)) await server.close();
  });
  return {
    open: (cwd, args, env, options) => {
      const pane = openPane(cwd, args, env, { ...defaults, ...options });
      panes.push(pane);
      return pane;
    },
    serve: async (...args) => {
      const server = await startFakeOpenAI(...args);
      servers.push(server);
      return server;
    },
  };
}
