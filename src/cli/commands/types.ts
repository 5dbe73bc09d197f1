// What a slash command is and what it may touch.
import type { Answer, ApprovalKind, RepoMapPort, TokenCounter } from '../../coders/ports.js';
import type { StateReader } from '../../platform/state-files.js';
import type { ResultStatus } from '../../session/events.js';
import type { ChatMode, Session } from '../../session/session.js';

/** Git operations behind /undo, /diff, /commit, /git. Null without a repository. */
export interface GitCommandsPort {
  undo(): Promise<{ ok: boolean; message: string }>;
  diffSince(hash: string | null): Promise<string>;
  commitPending(message: string | null): Promise<{ ok: boolean; message: string }>;
  /** The user's pending changes (work tree against HEAD), for a commit message. */
  pendingDiff(): Promise<string>;
  headHash(): Promise<string | null>;
  raw(args: string): Promise<{ exitCode: number | null; output: string }>;
}

export interface ShellRunOptions {
  readonly signal?: AbortSignal;
  readonly onOutput?: (text: string) => void;
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
  readonly confirm: (question: string, kind: ApprovalKind) => Promise<Answer>;
  /** Files git knows (tracked, and untracked not ignored), repository-relative; empty without git. */
  readonly listFiles: () => Promise<readonly string[]>;
  /** A commit message for `diff` from the weak model (a plain fallback when it cannot write one). */
  readonly commitMessage: (diff: string) => Promise<string>;
  /** The effective settings and where each came from, for /settings. */
  readonly settingsReport: () => string;
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
  readonly summary: string;
  /** Shown by `/help NAME`. */
  readonly usage?: string;
  /** Whether arguments complete as repository paths (`chat`: only the files in the chat). */
  readonly completesPaths?: boolean | 'chat';
  run(args: string, context: CommandContext): Promise<CommandResult>;
}
