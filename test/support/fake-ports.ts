// Small in-memory ports for in-process tests of the session: git, checks, the asker, token counting.
// Each records what it was asked, so a test asserts on what the session did, not on how.
import type { Answer, ApprovalKind, Asker, CheckOutcome, ChecksPort, GitPort, TokenCounter } from '../../src/coders/ports.js';
import { GitOperationError } from '../../src/git/errors.js';

export interface FakeCommit {
  readonly hash: string;
  readonly paths: readonly string[];
  readonly message: string;
  readonly user: boolean;
}

export class FakeGit implements GitPort {
  readonly commits: FakeCommit[] = [];
  /** Paths the user changed and did not commit. */
  readonly dirty = new Set<string>();
  /** When set, tandem's next commit fails with this message (as git's would), once. */
  failNextCommit: string | null = null;

  async dirtyFiles(paths: readonly string[]): Promise<string[]> {
    return paths.filter((p) => this.dirty.has(p));
  }

  async commitUserChanges(paths: readonly string[], message: string): Promise<string | null> {
    for (const p of paths) this.dirty.delete(p);
    return this.record(paths, message, true);
  }

  async commitTandemChange(paths: readonly string[], message: string): Promise<string | null> {
    if (this.failNextCommit !== null) {
      const message = this.failNextCommit;
      this.failNextCommit = null;
      throw new GitOperationError('git_failed', message);
    }
    return this.record(paths, message, false);
  }

  private record(paths: readonly string[], message: string, user: boolean): string {
    const hash = (this.commits.length + 1).toString(16).padStart(40, 'c');
    this.commits.push({ hash, paths: [...paths], message, user });
    return hash;
  }
}

/** Checks that pass, unless a lint outcome is scripted; records what was checked. */
export class FakeChecks implements ChecksPort {
  readonly linted: string[][] = [];
  /** Outcomes of the next lint runs, in order; when empty, lint passes. */
  readonly lintOutcomes: CheckOutcome[] = [];
  testOutcome: CheckOutcome | null = null;
  /** The paths of each `prepare` call, and of each syntax check, in order. */
  readonly prepared: string[][] = [];
  readonly syntaxChecked: string[] = [];
  /** Called on each `prepare` (e.g. to see what had happened by then). */
  onPrepare: (() => void) | null = null;

  prepare(paths: readonly string[]): void {
    this.prepared.push([...paths]);
    this.onPrepare?.();
  }

  async syntax(path: string): Promise<string | null> {
    this.syntaxChecked.push(path);
    return null;
  }

  async lint(paths: readonly string[]): Promise<CheckOutcome | null> {
    this.linted.push([...paths]);
    return this.lintOutcomes.shift() ?? { ok: true, output: '' };
  }

  async test(): Promise<CheckOutcome | null> {
    return this.testOutcome;
  }
}

/** Answers each kind of question as told (default: `no`), and records every question asked. */
export class ScriptedAsker implements Asker {
  readonly asked: Array<{ readonly question: string; readonly kind: ApprovalKind; readonly answer: Answer }> = [];

  constructor(private readonly answers: Partial<Record<ApprovalKind, Answer>> = {}) {}

  async confirm(question: string, kind: ApprovalKind): Promise<Answer> {
    const answer = this.answers[kind] ?? 'no';
    this.asked.push({ question, kind, answer });
    return answer;
  }
}

/** About four characters a token: enough for budgets, no tokenizer to load. */
export const approxTokens: TokenCounter = { count: (text) => Math.ceil(text.length / 4) };
