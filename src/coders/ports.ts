// The side effects one request needs, as small interfaces. The CLI builds the real ones; tests may swap them.
import type { ModelClient } from '../model/types.js';
import type { AuditLog } from '../platform/audit-log.js';
import type { Clock } from '../platform/clock.js';
import type { RepoLock } from '../platform/repo-lock.js';
import type { TokenCounter } from '../platform/token-counter.js';

export type { TokenCounter } from '../platform/token-counter.js';

/** Git as one request sees it. Absent (null) when the folder is not a git repository. */
export interface GitPort {
  /** Which of these repo-relative paths have uncommitted changes the user made. */
  dirtyFiles(paths: readonly string[]): Promise<string[]>;
  /** Commit the user's own pending changes to `paths`, not attributed to tandem. */
  commitUserChanges(paths: readonly string[], message: string): Promise<string | null>;
  /** Commit exactly `paths` as tandem's change; returns the hash, or null when nothing changed. */
  commitTandemChange(paths: readonly string[], message: string): Promise<string | null>;
  /** Those of these tracked paths whose edits a commit would miss (skip-worktree, in a submodule), with why. */
  untrackable?(paths: readonly string[]): Promise<Array<{ path: string; reason: string }>>;
}

export interface CheckOutcome {
  readonly ok: boolean;
  /** Text for the model (and the user) when not ok. */
  readonly output: string;
  /** The command that ran (the failing one when several did) and its exit code, for traces. */
  readonly command?: string;
  readonly exitCode?: number | null;
}

/** The checks run after a change is written. */
export interface ChecksPort {
  /**
   * The files a reply is about to write: the syntax check may start loading what it needs for them, so
   * that it loads while the change is written and committed rather than after. Never fails.
   */
  prepare?(paths: readonly string[]): void;
  /** Syntax errors the edit introduced in `path`; null when none (or the language is unknown). */
  syntax(path: string, before: string | null, after: string): Promise<string | null>;
  /** Lint commands for these files; null when no lint command applies. Aborting stops the command. */
  lint(paths: readonly string[], signal?: AbortSignal): Promise<CheckOutcome | null>;
  /** The test command; null when tests are off. Aborting stops the command. */
  test(signal?: AbortSignal): Promise<CheckOutcome | null>;
}

export type ApprovalKind =
  | 'edit-outside-chat'
  | 'create-file'
  /** An edit of a file that changes what runs next (.env, git hooks): --yes-always does not answer it. */
  | 'sensitive-file'
  /** A reply that creates more than ~100 files or writes more than a set size: --yes-always does not answer it. */
  | 'large-reply'
  | 'shell-command'
  | 'add-file'
  | 'fix-failures'
  | 'oversized-request'
  /** Fetching a URL the user's own message names (it only adds context). */
  | 'fetch-url';

export type Answer = 'yes' | 'no' | 'unanswerable';

/** Asks the user a yes/no question. `unanswerable` means nobody could answer (headless). */
export interface Asker {
  /** `subject`: what is decided about (the command, the file), for the audit log; default the question. */
  confirm(question: string, kind: ApprovalKind, subject?: string): Promise<Answer>;
}

export interface RepoMapPort {
  /** The shared map: shaped by the chat and read-only files, not by the request's words, so it stays put. */
  get(request: {
    chatFiles: readonly string[];
    readOnlyFiles: readonly string[];
    requestText: string;
    budget: number;
  }): Promise<string>;
  /** Definition lines (outside the chat files) for the names `requestText` mentions; '' for none. */
  mentionedDefinitions?(request: { chatFiles: readonly string[]; requestText: string }): Promise<string>;
}

export interface ShellPort {
  /** Runs `command`; `onOutput` sees the output as it arrives; aborting stops it (and its process group). */
  run(command: string, options?: { signal?: AbortSignal; onOutput?: (text: string) => void }): Promise<{ exitCode: number | null; output: string }>;
}

/** The repository's files (tracked and untracked-not-ignored), for noticing mentioned file names. */
export interface RepoFilesPort {
  list(): Promise<string[]>;
}

export interface RequestPorts {
  readonly model: ModelClient;
  readonly weakModel: ModelClient;
  readonly git: GitPort | null;
  readonly checks: ChecksPort;
  readonly asker: Asker;
  readonly repoMap: RepoMapPort | null;
  readonly shell: ShellPort | null;
  readonly files: RepoFilesPort | null;
  /** One writer per repository (absent: no other process to fear, e.g. no repository). */
  readonly lock?: RepoLock | null;
  /** Where a reply being applied is recorded on disk (with the lock), so a killed run can be undone. */
  readonly applyJournal?: { readonly file: string; readonly pid: number; readonly trustDir: string } | null;
  /** Decisions no question was asked for (a refused path, an edit declined earlier) go to the audit log here. */
  readonly audit?: AuditLog;
  /** Times model calls, checks and commits for traces; absent: events carry no durations. */
  readonly clock?: Clock;
}
