// What a slash command is and what it may touch.
import type { AuditLog } from '../../platform/audit-log.js';
import type { Answer, ApprovalKind, RepoMapPort, TokenCounter } from '../../coders/ports.js';
import type { Clipboard } from '../../platform/clipboard.js';
import type { FetchResult } from '../../platform/http-fetch.js';
import type { StateReader } from '../../platform/state-files.js';
import type { ResultStatus } from '../../session/events.js';
import type { ChatMode, Session } from '../../session/session.js';
import type { ReasoningControls } from '../../session/reasoning-controls.js';

/** Git operations behind /undo, /diff, /commit, /git. Null without a repository. */
export interface GitCommandsPort {
  undo(): Promise<{ ok: boolean; message: string }>;
  diffSince(hash: string | null): Promise<string>;
  /** Commits the pending changes: all of them, or just `paths` (repository-relative). */
  commitPending(message: string | null, paths?: readonly string[]): Promise<{ ok: boolean; message: string }>;
  /** Changed tracked files and untracked files git does not ignore, repository-relative. */
  pendingFiles(): Promise<{ readonly tracked: readonly string[]; readonly untracked: readonly string[] }>;
  /** The user's pending changes (work tree against HEAD), for a commit message. */
  pendingDiff(paths?: readonly string[]): Promise<string>;
  headHash(): Promise<string | null>;
  raw(args: string): Promise<{ exitCode: number | null; output: string }>;
}

export interface ShellRunOptions {
  readonly signal?: AbortSignal;
  readonly onOutput?: (text: string) => void;
  /** A lint command: it runs with the runtimes' safe import paths (PYTHONSAFEPATH=1). */
  readonly lint?: boolean;
}

export interface CommandContext {
  readonly session: Session;
  /** The repository root (or the working folder without git). */
  readonly root: string;
  /** Where relative paths typed by the user start. */
  readonly cwd: string;
  /** How `.tandem/` state is read (confined; files git tracks ignored); default: confined only. */
  readonly stateReader?: StateReader;
  readonly print: (text: string) => void;
  readonly git: GitCommandsPort | null;
  /** Runs a shell command; `onOutput` sees the output as it arrives, `signal` (Ctrl-C) stops it. */
  readonly runShell: (command: string, options?: ShellRunOptions) => Promise<{ exitCode: number | null; output: string }>;
  /** Aborted by Ctrl-C while the command runs. */
  readonly signal?: AbortSignal;
  readonly lintCommands: readonly string[];
  /** The built-in syntax check of one file's whole text: the problems with context, or null. */
  readonly syntaxCheck: (path: string) => Promise<string | null>;
  readonly testCommand: string | null;
  readonly repoMap: RepoMapPort | null;
  readonly mapTokens: number;
  readonly refreshMap: () => void;
  readonly model: { readonly contextWindow: number; readonly inputPricePerToken: number | null };
  readonly commands: readonly SlashCommand[];
  readonly tokens: TokenCounter;
  /** Whether a person can answer questions (a terminal, not --json); offers are skipped otherwise. */
  readonly canAsk: boolean;
  /** Asks the user (one key on a terminal); `unanswerable` without one. */
  readonly confirm: (question: string, kind: ApprovalKind, subject?: string) => Promise<Answer>;
  /** Files git knows (tracked, and untracked not ignored), repository-relative; empty without git. */
  readonly listFiles: () => Promise<readonly string[]>;
  /** A commit message for `diff` from the weak model (a plain fallback when it cannot write one). */
  readonly commitMessage: (diff: string) => Promise<string>;
  /** The effective settings and where each came from, for /settings. */
  readonly settingsReport: () => string;
  /** One question to the main model outside the chat's history (/help QUESTION): its answer, or why not. */
  readonly askOnce?: (system: string, question: string) => Promise<{ readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string }>;
  /** tandem's own documentation (its README, shipped in the package), for /help QUESTION. */
  readonly tandemDocs?: () => Promise<string>;
  /** The system prompt of /help QUESTION (prompts/help/system.md, with `{docs}`). */
  readonly helpPrompt?: () => Promise<string>;
  /** Decisions about what leaves the machine (a typed /web URL) go on record here. */
  readonly audit?: AuditLog;
  /** Fetches a web page (http and https only, capped, the user's proxy); failures are one line. */
  readonly fetchPage?: (url: string, signal?: AbortSignal) => Promise<FetchResult>;
  /** The system clipboard (text and images). */
  readonly clipboard?: Clipboard;
  /** Writes an escape sequence straight to the terminal; false when stdout is no terminal (or --json). */
  readonly terminalEscape?: (sequence: string) => boolean;
  /** Records audio with the system's recorder and transcribes it. */
  readonly transcribe?: (signal?: AbortSignal) => Promise<{ readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string }>;
  /** Puts text at the next prompt to edit or send; absent without a terminal. */
  readonly prefill?: (text: string) => void;
  /** The chat's reasoning effort and thinking budget (/reasoning-effort, /think-tokens). */
  readonly reasoning?: ReasoningControls;
  /** The server's and the known models matching a search, as text (/models). */
  readonly listModels?: (search: string) => Promise<string>;
  /** Watch mode, multi-line input and the editor (/watch, /multiline-mode, /editor); absent in tests. */
  readonly chatInput?: ChatInputTools | null;
}

/** What /watch sees of watch mode. */
export interface WatchToggle {
  readonly watching: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export type EditorOutcome = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

export interface ChatInputTools {
  /** null without a git repository, or outside the interactive chat. */
  readonly watch: WatchToggle | null;
  /** The prompt's multi-line mode; null without a terminal. */
  readonly input: { multiline: boolean } | null;
  /** Opens the user's editor on a temporary Markdown file holding `initial`; the saved text. */
  readonly openEditor: (initial: string) => Promise<EditorOutcome>;
}

export interface CommandResult {
  /** Leave the REPL. */
  readonly exit?: boolean;
  /** Status for one-shot mode (default completed). */
  readonly status?: ResultStatus;
  /** Text that should now go to the model as a request. */
  readonly request?: string;
  /** The mode for `request` when it is a one-off (`/ask how does X work`); default: the chat's mode. */
  readonly mode?: ChatMode;
}

export interface SlashCommand {
  readonly name: string;
  /** Other exact names (`/edit` for `/editor`). */
  readonly aliases?: readonly string[];
  readonly summary: string;
  /** Shown by `/help NAME`. */
  readonly usage?: string;
  /** Whether arguments complete as repository paths (`chat`: only the files in the chat). */
  readonly completesPaths?: boolean | 'chat';
  run(args: string, context: CommandContext): Promise<CommandResult>;
}
