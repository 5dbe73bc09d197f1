// The side effects one request needs, as small interfaces. The CLI builds the real ones; tests may swap them.
import type { ModelClient } from '../model/types.js';

export interface TokenCounter {
  count(text: string): number;
}

/** Git as one request sees it. Absent (null) when the folder is not a git repository. */
export interface GitPort {
  /** Which of these repo-relative paths have uncommitted changes the user made. */
  dirtyFiles(paths: readonly string[]): Promise<string[]>;
  /** Commit the user's own pending changes to `paths`, not attributed to tandem. */
  commitUserChanges(paths: readonly string[], message: string): Promise<string | null>;
  /** Commit exactly `paths` as tandem's change; returns the hash, or null when nothing changed. */
  commitTandemChange(paths: readonly string[], message: string): Promise<string | null>;
}

export interface CheckOutcome {
  readonly ok: boolean;
  /** Text for the model (and the user) when not ok. */
  readonly output: string;
}

/** The checks run after a change is written. */
export interface ChecksPort {
  /** Syntax errors the edit introduced in `path`; null when none (or the language is unknown). */
  syntax(path: string, before: string | null, after: string): Promise<string | null>;
  /** Lint commands for these files; null when no lint command applies. */
  lint(paths: readonly string[]): Promise<CheckOutcome | null>;
  /** The test command; null when tests are off. */
  test(): Promise<CheckOutcome | null>;
}

export type ApprovalKind =
  | 'edit-outside-chat'
  | 'create-file'
  | 'shell-command'
  | 'add-file'
  | 'fix-failures'
  | 'oversized-request';

export type Answer = 'yes' | 'no' | 'unanswerable';

/** Asks the user a yes/no question. `unanswerable` means nobody could answer (headless). */
export interface Asker {
  confirm(question: string, kind: ApprovalKind): Promise<Answer>;
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
  run(command: string): Promise<{ exitCode: number | null; output: string }>;
}

/** The repository's files (tracked and untracked-not-ignored), for noticing mentioned file names. */
export interface RepoFilesPort {
  list(): Promise<string[]>;
}

export interface RequestPorts {
  readonly model: ModelClient;
  readonly weakModel: ModelClient;
  readonly tokens: TokenCounter;
  readonly git: GitPort | null;
  readonly checks: ChecksPort;
  readonly asker: Asker;
  readonly repoMap: RepoMapPort | null;
  readonly shell: ShellPort | null;
  readonly files: RepoFilesPort | null;
}
