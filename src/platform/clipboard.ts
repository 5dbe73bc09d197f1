// The clipboard port: text and images through the system's tools (wl-clipboard on Wayland, xclip or xsel
// on X11), run with the environment the composition root hands in. No display, or no tool: a kind and one
// line saying what to install, so the caller can fall back (OSC 52 for /copy).

export type ClipboardProblem = 'no-display' | 'no-tool' | 'failed';

export type ClipboardResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly kind: ClipboardProblem; readonly message: string };

export interface Clipboard {
  readText(): Promise<ClipboardResult<string>>;
  writeText(text: string): Promise<ClipboardResult<void>>;
  /** The clipboard's image as PNG bytes, or null when it holds none. */
  readImage(maxBytes: number): Promise<ClipboardResult<Buffer | null>>;
}

type Env = Readonly<Record<string, string | undefined>>;

interface Tool {
  readonly name: string;
  readonly readText: readonly string[];
  readonly writeText: readonly string[];
  /** Lists the types on offer; null when the tool cannot (xsel). */
  readonly listTypes: readonly string[] | null;
  readonly readPng: readonly string[] | null;
}

const WL_PASTE: Tool = { name: 'wl-paste', readText: ['wl-paste', '--no-newline'], writeText: ['wl-copy'], listTypes: ['wl-paste', '--list-types'], readPng: ['wl-paste', '--type', 'image/png'] };
const XCLIP: Tool = {
  name: 'xclip',
  readText: ['xclip', '-selection', 'clipboard', '-o'],
  writeText: ['xclip', '-selection', 'clipboard', '-i'],
  listTypes: ['xclip', '-selection', 'clipboard', '-t', 'TARGETS', '-o'],
  readPng: ['xclip', '-selection', 'clipboard', '-t', 'image/png', '-o'],
};
const XSEL: Tool = { name: 'xsel', readText: ['xsel', '--clipboard', '--output'], writeText: ['xsel', '--clipboard', '--input'], listTypes: null, readPng: null };

const TIMEOUT_MS = 5000;

export function createClipboard(env: Env): Clipboard {
  const display = env['WAYLAND_DISPLAY'] ? 'wayland' : env['DISPLAY'] ? 'x11' : null;
  const tools = display === 'wayland' ? [WL_PASTE] : [XCLIP, XSEL];
  const childEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  const noDisplay = <T>(): ClipboardResult<T> => ({
    ok: false,
    kind: 'no-display',
    message: 'no clipboard: there is no display (DISPLAY and WAYLAND_DISPLAY are unset, as over SSH)',
  });
  const noTool = <T>(): ClipboardResult<T> => ({
    ok: false,
    kind: 'no-tool',
    message: display === 'wayland' ? 'no clipboard tool: install wl-clipboard (wl-copy, wl-paste)' : 'no clipboard tool: install xclip or xsel',
  });

  /** Runs the first installed tool's command; ENOENT moves on to the next tool. */
  async function run<T>(pick: (tool: Tool) => readonly string[] | null, options: { input?: string; encoding?: 'buffer'; maxBuffer?: number }, use: (out: string | Buffer) => T): Promise<ClipboardResult<T>> {
    if (!display) return noDisplay();
    for (const tool of tools) {
      const command = pick(tool);
      if (!command) continue;
      try {
        const writing = options.input !== undefined;
        // Loaded on first use: a chat that never touches the clipboard does not pay for execa at start.
        const { execa } = await import('execa');
        const result = await execa(command[0]!, command.slice(1), {
          env: childEnv,
          extendEnv: false,
          timeout: TIMEOUT_MS,
          // xclip and xsel stay behind to serve what was copied: their output pipes must not hold us.
          ...(writing ? { input: options.input, stdout: 'ignore', stderr: 'ignore' } : { stdin: 'ignore' }),
          ...(options.encoding === 'buffer' ? { encoding: 'buffer' } : { stripFinalNewline: false }),
          maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
          reject: true,
        });
        return { ok: true, value: use(result.stdout as string | Buffer) };
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ENOENT') continue;
        const stderr = String((error as { stderr?: unknown }).stderr ?? '');
        // An empty clipboard, or none of the asked type, is no failure.
        if (/target .* not available|Nothing is copied|No selection|no suitable type/i.test(stderr)) return { ok: true, value: use(options.encoding === 'buffer' ? Buffer.alloc(0) : '') };
        if (/Can't open display|cannot open display|Failed to connect/i.test(stderr)) return noDisplay();
        return { ok: false, kind: 'failed', message: `${tool.name} failed: ${(stderr.split('\n')[0] || (error as Error).message).slice(0, 200)}` };
      }
    }
    return noTool();
  }

  return {
    readText: () => run((t) => t.readText, {}, (out) => String(out)),
    writeText: (text) => run((t) => t.writeText, { input: text }, () => undefined),
    async readImage(maxBytes) {
      const types = await run((t) => t.listTypes, {}, (out) => String(out));
      if (!types.ok) return types.kind === 'no-tool' ? { ok: true, value: null } : types;
      if (!/^image\/png$/m.test(types.value)) return { ok: true, value: null };
      const png = await run((t) => t.readPng, { encoding: 'buffer', maxBuffer: maxBytes }, (out) => out as Buffer);
      if (!png.ok) return png;
      return { ok: true, value: png.value.length > 0 ? png.value : null };
    },
  };
}

/** The terminal's own clipboard escape (OSC 52), which terminals and tmux relay, even over SSH. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}
