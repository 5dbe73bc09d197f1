// The dry run: turns parsed edits into the new text of each file plus the failures, touching nothing.
// Edits for one file apply in order, each to the result of the previous; a failure never stops the rest.
import { finalizeText, missingSnapshot } from './file-text.js';
import {
  ambiguousMessage,
  missingFileMessage,
  noMatchMessage,
  refusedMessage,
} from './failure-message.js';
import { matchBlock, type MatchResult } from './match.js';
import { LineView, fromLines, toLines } from './match-lines.js';
import { PathRefusedError, normalizeRepoPath } from './paths.js';
import type {
  Edit,
  EditFailure,
  EditFailureReason,
  EditPlan,
  FileSnapshot,
  PlannedFile,
  ReplaceEdit,
} from './types.js';

/** A path loadSnapshots (or an approval step) would not let us touch. */
export interface RefusedPath {
  readonly reason: EditFailureReason;
  readonly message: string;
}

export interface PlanOptions {
  /** Repo-relative paths of the chat files: candidates when a block names the wrong file. */
  readonly chatFiles: readonly string[];
  /** Paths that must not be edited, keyed by repo-relative path. */
  readonly refused?: ReadonlyMap<string, RefusedPath>;
  /** The repository root, so absolute paths inside it are accepted. */
  readonly root?: string;
}

interface FileState {
  readonly before: FileSnapshot;
  /** The current text, null while the file does not exist; blocks splice into it in order. */
  view: LineView | null;
  /** End of the previous applied block, for in-order disambiguation. */
  lastEnd: number | null;
  readonly editIndexes: number[];
  readonly notes: string[];
}

function setLines(st: FileState, lines: readonly string[]): void {
  st.view = new LineView(lines);
}

type Outcome = { ok: true } | { ok: false; reason: EditFailureReason; message: string };

class Planner {
  private readonly states = new Map<string, FileState>();
  private readonly order: string[] = [];
  readonly failures: EditFailure[] = [];

  constructor(
    private readonly files: ReadonlyMap<string, FileSnapshot>,
    private readonly options: PlanOptions,
  ) {}

  state(path: string): FileState {
    const existing = this.states.get(path);
    if (existing) return existing;
    const before = this.files.get(path) ?? missingSnapshot(path);
    const created: FileState = {
      before,
      view: before.text === null ? null : new LineView(toLines(before.text)),
      lastEnd: null,
      editIndexes: [],
      notes: [],
    };
    this.states.set(path, created);
    this.order.push(path);
    return created;
  }

  plan(edit: Edit): void {
    const path = normalizeRepoPath(edit.path, this.options.root);
    if (path instanceof PathRefusedError) {
      this.fail(edit, 'outside_repo', refusedMessage(edit, path.message));
      return;
    }
    const refused = this.options.refused?.get(path);
    if (refused) {
      this.fail(edit, refused.reason, refusedMessage(edit, refused.message));
      return;
    }
    const outcome = edit.kind === 'whole' ? this.whole(path, edit.content, edit.index) : this.replace(path, edit);
    if (!outcome.ok) this.fail(edit, outcome.reason, outcome.message);
  }

  private fail(edit: Edit, reason: EditFailureReason, message: string): void {
    this.failures.push({ edit, reason, message });
  }

  private whole(path: string, content: string, index: number): Outcome {
    const st = this.state(path);
    setLines(st, toLines(content));
    st.lastEnd = null;
    st.editIndexes.push(index);
    return { ok: true };
  }

  private replace(path: string, edit: ReplaceEdit): Outcome {
    const search = toLines(edit.search);
    const replace = toLines(edit.replace);
    if (search.every((l) => l.trim() === '')) return this.createOrAppend(path, replace, edit.index);
    const st = this.state(path);
    const result: MatchResult = st.view === null ? { kind: 'none' } : matchBlock(st.view, search, replace, st.lastEnd);
    if (result.kind === 'found') {
      this.splice(path, st, result, edit.index);
      return { ok: true };
    }
    if (result.kind === 'ambiguous') {
      return { ok: false, reason: 'ambiguous', message: ambiguousMessage(edit, path, result.candidates) };
    }
    if (this.tryOtherChatFile(path, search, replace, edit.index)) return { ok: true };
    if (st.view === null) return { ok: false, reason: 'missing_file', message: missingFileMessage(edit, path) };
    return {
      ok: false,
      reason: 'no_match',
      message: noMatchMessage(edit, path, st.view, result.hint),
    };
  }

  private splice(path: string, st: FileState, found: Extract<MatchResult, { kind: 'found' }>, index: number): void {
    if (st.view === null) st.view = new LineView([]);
    st.view.splice(found.start, found.end - found.start, found.replacement);
    st.lastEnd = found.start + found.replacement.length;
    st.editIndexes.push(index);
    if (found.rung !== 'exact') {
      st.notes.push(`Edit ${index + 1}: matched ${path} after allowing for ${rungLabel(found.rung)}.`);
    }
  }

  /**
   * Empty SEARCH: creates a missing file or fills an empty one; on a non-empty file it appends,
   * because that is what a model sending "new code, no anchor" means. If the file already holds
   * the text (a block sent twice), nothing is appended.
   */
  private createOrAppend(path: string, replace: string[], index: number): Outcome {
    const st = this.state(path);
    const current = st.view?.lines ?? [];
    st.editIndexes.push(index);
    if (current.every((l) => l.trim() === '')) {
      setLines(st, replace);
      st.lastEnd = null;
      return { ok: true };
    }
    const text = fromLines(current);
    if (replace.length > 0 && ('\n' + text).includes('\n' + fromLines(replace))) {
      st.notes.push(`Edit ${index + 1}: ${path} already contains this text; nothing appended.`);
      return { ok: true };
    }
    setLines(st, [...current, ...replace]);
    st.lastEnd = current.length + replace.length;
    st.notes.push(`Edit ${index + 1}: empty SEARCH, so the text was appended to the end of ${path}.`);
    return { ok: true };
  }

  /** The named file lacks SEARCH: if exactly one other chat file matches uniquely, the edit goes there. */
  private tryOtherChatFile(named: string, search: string[], replace: string[], index: number): boolean {
    const hits: Array<{ path: string; st: FileState; found: Extract<MatchResult, { kind: 'found' }> }> = [];
    let contested = false;
    for (const raw of this.options.chatFiles) {
      const p = normalizeRepoPath(raw, this.options.root);
      if (p instanceof PathRefusedError || p === named || this.options.refused?.has(p)) continue;
      if (!this.files.has(p) && !this.states.has(p)) continue;
      const st = this.state(p);
      if (st.view === null) continue;
      const r = matchBlock(st.view, search, replace, st.lastEnd);
      if (r.kind === 'found') hits.push({ path: p, st, found: r });
      if (r.kind === 'ambiguous') contested = true;
    }
    const hit = hits[0];
    if (contested || hits.length !== 1 || hit === undefined) return false;
    this.splice(hit.path, hit.st, hit.found, index);
    hit.st.notes.push(
      `Edit ${index + 1}: applied to ${hit.path}, the chat file that contains the SEARCH text (the block named ${named}).`,
    );
    return true;
  }

  result(): EditPlan {
    const files: PlannedFile[] = [];
    for (const path of this.order) {
      const st = this.states.get(path);
      if (!st || st.editIndexes.length === 0 || st.view === null) continue;
      files.push({
        path,
        before: st.before,
        after: finalizeText(fromLines(st.view.lines), st.before),
        editIndexes: st.editIndexes,
        notes: st.notes,
        created: st.before.text === null,
      });
    }
    return { files, failures: this.failures };
  }
}

function rungLabel(rung: string): string {
  const labels: Record<string, string> = {
    trailing_whitespace: 'trailing whitespace',
    indentation: 'a different indentation',
    blank_edges: 'blank lines at the edges of SEARCH',
    elision: '`...` elision',
    unicode: 'look-alike characters (quotes, dashes, spaces)',
  };
  return labels[rung] ?? rung;
}

/**
 * Pure: plans `edits` against `files` (snapshots keyed by repo-relative path; a path not in the map
 * is treated as a missing file, so callers load every named path and every chat file first).
 */
export function planEdits(
  edits: readonly Edit[],
  files: ReadonlyMap<string, FileSnapshot>,
  options: PlanOptions,
): EditPlan {
  const planner = new Planner(files, options);
  for (const edit of edits) planner.plan(edit);
  return planner.result();
}
