// The terminal renderer: a spinner until the first token, the reply rendered as Markdown while it
// streams (plain text when not pretty), edits as coloured diffs, and one status line per reply.
import { escapeControlChars } from '../platform/control-chars.js';
import type { Terminal } from '../platform/terminal.js';
import type { SessionEvent } from '../session/events.js';
import type { Palette } from './colors.js';
import { ANSI, colorDiff, PLAIN } from './colors.js';
import { createPlainStream, sanitize, type MarkdownReplies, type ReplyStream } from './reply-stream.js';
import { createSpinner, localeIsUtf8, type Spinner } from './spinner.js';
import { createThinkingDisplay } from './thinking-display.js';
import { createProgressBar } from './repo-map-adapter.js';

export interface TerminalOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly palette: Palette;
  /** Replies drawn as Markdown (markdown-stream.ts's terminalMarkdown); without it they stream as plain text. */
  readonly markdown?: MarkdownReplies | null;
  /** Shown while waiting for the first token (only given on a terminal). */
  readonly spinner?: Spinner | null;
  /** Terminal width for wrapping prose (Markdown only); a function is asked again for each reply (resizes). */
  readonly columns?: number | (() => number | undefined);
}

/** The renderer, and what the line reader calls before it writes a question or a note. */
export interface TerminalRenderer {
  readonly emit: (event: SessionEvent) => void;
  /** Stops the spinner and ends a half-written line, so the next text starts on a fresh line. */
  readonly settle: (brief?: boolean) => void;
  /** Repository map parse progress, drawn in place of the spinner (null: not on a terminal). */
  readonly mapProgress?: ((done: number, total: number) => void) | null;
}

const PREPARING = 'Preparing the request (repository map, files)...';

export function createTerminalScreen(io: TerminalOutput): TerminalRenderer {
  const { out, err, palette } = io;
  const markdown = io.markdown ?? null;
  const pretty = markdown !== null;
  let streamed = false;
  let endsWithNewline = true;
  const write = (text: string): void => {
    if (text === '') return;
    out(text);
    // An erased live line leaves the cursor at the start of an empty row, as a newline would.
    endsWithNewline = text.endsWith('\n') || text.endsWith('\r\u001b[J');
  };
  const newReply = (): ReplyStream =>
    markdown ? markdown(write, { width: (typeof io.columns === 'function' ? io.columns() : io.columns) ?? 80, live: true }) : createPlainStream(write);
  let reply = newReply();
  const thinking = createThinkingDisplay({ write, dim: pretty ? palette.dim : (s) => s });
  const settle = (brief = false): void => {
    io.spinner?.stop();
    reply.settle(brief);
    if (!endsWithNewline) write('\n');
  };
  const emit = (event: SessionEvent): void => {
    if (event.type !== 'waiting') io.spinner?.stop();
    if (thinking.handle(event)) return;
    // The status line and other notes must not overtake a reply's last, unfinished line, and start on
    // a line of their own (plain mode included).
    if (streamed && event.type !== 'assistant_delta' && event.type !== 'assistant') {
      reply.end();
      if (!endsWithNewline) write('\n');
    }
    switch (event.type) {
      case 'user':
        // Building the request (the first repository map above all) can take seconds: say so.
        io.spinner?.start(PREPARING);
        return;
      case 'session':
        // The model's name may be the server's (its only model) and the files the repository's: both may hold escapes.
        err(palette.dim(`${escapeControlChars(`tandem: model ${event.model}, edit format ${event.editFormat}${event.sandbox ? `, ${event.sandbox}` : ''}${filesNote(event.files)}`)}\n`));
        return;
      case 'waiting':
        streamed = false;
        reply = newReply();
        // Restarted, so the label says what is awaited now (not "preparing").
        io.spinner?.stop();
        io.spinner?.start();
        return;
      case 'assistant_delta':
        streamed = true;
        reply.push(event.text);
        return;
      case 'assistant':
        // A whole reply has no unfinished line to draw live: its last line is complete.
        if (!streamed && event.text) reply.push(event.text.endsWith('\n') ? event.text : `${event.text}\n`);
        reply.end();
        if (!endsWithNewline) write('\n');
        if (event.interrupted) err(palette.yellow('(reply interrupted)\n'));
        streamed = false;
        return;
      case 'edit':
        renderEdit(event, out, err, palette);
        return;
      case 'commit':
        err(palette.dim(`Commit ${event.hash.slice(0, 7)} ${sanitize(event.message, false)}\n`));
        return;
      case 'lint':
      case 'test':
        if (!event.ok) err(palette.yellow(`${event.type === 'lint' ? 'Lint' : 'Tests'} failed:\n${sanitize(event.output, true)}\n`));
        // A passing test run says so in one line, as /test does (a passing lint stays quiet: it runs after every edit)
        else if (event.type === 'test') err('Tests passed.\n');
        return;
      case 'reflection':
        // Re-asks after added files are counted apart from fixes (see reflection-step.ts).
        if (event.reason === 'files added') err(palette.yellow(`Asking again now that the files are in the chat (re-ask ${event.n})\n`));
        else err(palette.yellow(`Sending the ${event.reason} failures back to the model (reflection ${event.n})\n`));
        return;
      case 'usage':
        err(palette.dim(`${usageLine(event)}\n`));
        return;
      case 'shell':
        err(event.ran ? `$ ${escapeControlChars(event.command)}\n${sanitize(event.output ?? '', true)}\n` : palette.dim(`Suggested command not run: ${escapeControlChars(event.command)}\n`));
        return;
      case 'info':
        err(`${shown(event.message)}\n`);
        return;
      case 'warning':
        err(palette.yellow(`${shown(event.message)}\n`));
        return;
      case 'error':
        err(palette.red(`${shown(event.message)}\n`));
        return;
      case 'question':
        // A person who answered saw the question at the prompt; otherwise say what was decided.
        if (event.answeredBy === 'nobody') err(palette.yellow(`${escapeControlChars(event.text)} ${nobodyAnswered(event.personOnly === true)}\n`));
        if (event.answeredBy === 'yes-always') err(palette.dim(`${escapeControlChars(event.text)} Yes (--yes-always).\n`));
        return;
      default:
        // result, and events this renderer has no view of.
        return;
    }
  };
  return { emit, settle };
}

function renderEdit(event: Extract<SessionEvent, { type: 'edit' }>, out: (t: string) => void, err: (t: string) => void, palette: Palette): void {
  if (event.diff) out(`${colorDiff(sanitize(event.diff, true), palette)}\n`);
  // a reply names the path: it may hold escapes
  const path = escapeControlChars(event.path);
  if (event.status === 'applied') err(palette.green(`Applied edit to ${path}\n`));
  if (event.status === 'planned') err(palette.cyan(`Would edit ${path} (dry run)\n`));
  if (event.status === 'failed') {
    err(palette.red(`Edit to ${path} failed: ${escapeControlChars(event.error ?? '')}\n`));
    // What the model is told (the closest lines of the file), so the user sees why, too.
    const detail = failureDetail(event.detail ?? '');
    if (detail.some((line) => line.trim() !== '')) err(palette.dim(`${sanitize(shorten(detail, DETAIL_LINES).join('\n'), true).trimEnd()}\n`));
  }
  if (event.status === 'denied') err(palette.yellow(`Edit to ${path} not allowed\n`));
}

const DETAIL_LINES = 30;

/** The explanation after its first line; from the closest lines on when it has them (the block itself was just shown). */
function failureDetail(detail: string): string[] {
  const lines = detail.split('\n').slice(1);
  const closest = lines.findIndex((line) => /^The closest lines\b/.test(line));
  return closest >= 0 ? lines.slice(closest) : lines;
}

function shorten(lines: readonly string[], max: number): string[] {
  return lines.length <= max ? [...lines] : [...lines.slice(0, max), `[... ${lines.length - max} more lines]`];
}

function filesNote(files: readonly string[]): string {
  return files.length > 0 ? `, files: ${files.join(' ')}` : '';
}

/** `Tokens: 2.1k sent (1.0k cached, 48%), 312 received (200 reasoning). Cost: $0.0042 request, $0.0131 session.` */
export function usageLine(event: Extract<SessionEvent, { type: 'usage' }>): string {
  const share = event.promptTokens > 0 ? `, ${Math.round((100 * event.cachedTokens) / event.promptTokens)}%` : '';
  const written = event.cacheWriteTokens ? `, ${formatCount(event.cacheWriteTokens)} written to cache` : '';
  const cached = event.cachedTokens > 0 || written ? ` (${formatCount(event.cachedTokens)} cached${share}${written})` : '';
  const reasoning = event.reasoningTokens ? ` (${formatCount(event.reasoningTokens)} reasoning)` : '';
  const tokens = `Tokens: ${formatCount(event.promptTokens)} sent${cached}, ${formatCount(event.completionTokens)} received${reasoning}.`;
  if (event.cost === null) return tokens;
  return `${tokens} Cost: ${formatCost(event.cost)} request, ${formatCost(event.sessionCost ?? event.cost)} session.`;
}

function formatCost(dollars: number): string {
  return `$${dollars.toFixed(dollars >= 1 ? 2 : 4)}`;
}

function formatCount(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

export interface TerminalStreams {
  readonly stdout: Terminal;
  /** Spinner, map progress and notes. */
  readonly stderr: Terminal;
  readonly env: Readonly<Record<string, string | undefined>>;
}

function noColor(env: TerminalStreams['env']): boolean {
  return env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '';
}

/** Whether replies are drawn as Markdown with colours: stdout is a terminal, `pretty` is on and NO_COLOR is not set. */
export function drawsMarkdown(stdoutIsTTY: boolean, env: TerminalStreams['env'], prettySetting: boolean): boolean {
  return stdoutIsTTY && prettySetting && !noColor(env);
}

/**
 * The Markdown renderer's module (marked, wrap-ansi, highlight.js: most of the renderer's weight). Only a
 * run that draws Markdown loads it; start-up may begin loading it early, the import is shared.
 */
export function loadMarkdownRenderer(): Promise<typeof import('./markdown-stream.js')> {
  return import('./markdown-stream.js');
}

/**
 * The renderer for a person at a terminal: Markdown and colours only on a TTY without NO_COLOR and
 * with `pretty` on; the spinner only when stderr is a terminal.
 */
export async function createTerminalEmit(streams: TerminalStreams, prettySetting: boolean): Promise<TerminalRenderer> {
  const { stdout, stderr } = streams;
  const out = (text: string): void => stdout.write(text);
  const err = (text: string): void => stderr.write(text);
  const pretty = drawsMarkdown(stdout.isTTY, streams.env, prettySetting);
  const unicode = localeIsUtf8(streams.env);
  const spinner = stderr.isTTY && prettySetting ? createSpinner({ write: err, unicode: unicode && !noColor(streams.env) }) : null;
  // Asked for each reply, so a resize counts; stdout piped while stderr is a terminal wraps to stderr's width.
  const columns = (): number | undefined => stdout.columns() ?? stderr.columns();
  const markdown = pretty ? (await loadMarkdownRenderer()).terminalMarkdown(unicode) : null;
  const screen = createTerminalScreen({ out, err, palette: pretty ? ANSI : PLAIN, markdown, spinner, columns });
  if (!stderr.isTTY) return screen;
  const bar = createProgressBar({ write: err, columns: stderr.columns() });
  return {
    ...screen,
    mapProgress: (done, total) => {
      spinner?.stop();
      bar(done, total);
    },
  };
}

/** Messages may quote a repository's or a reply's text: nothing in them may drive the terminal. */
function shown(message: string): string {
  return escapeControlChars(message, { keepNewlines: true });
}

/** Why a headless question was answered no, and what would help: --yes-always never answers a person-only one. */
function nobodyAnswered(personOnly: boolean): string {
  if (personOnly) return 'No: only a person can answer this (--yes-always does not), and there is no terminal.';
  return 'No: nobody can answer without a terminal (use --yes-always).';
}
