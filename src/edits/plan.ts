// The dry run: turns parsed edits into the new text of each file plus the failures, touching nothing.
// Edits for one file apply in order, each to the result of the previous; a failure never stops the rest.
import { finalizeText, missingSnapshot } from './file-text.js';
import {
  ambiguousMessage,
  fileExistsMessage,
  missingFileMessage,
  noMatchMessage,
  placeholderMessage,
  refusedMessage,
} from './failure-message.js';
import { matchBlock, type MatchResult } from './match.js';
import { LineView, fromLines, toLines } from './match-lines.js';
import { PathRefusedError, normalizeRepoPath } from './paths.js';
import { type Redirect, redirectPath } from './redirect.js';
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
  /** Folders the repository has among those a reply names as its example folder (`path/to`): real, so used. */
  readonly existingFolders?: ReadonlySet<string>;
}

interface FileState {
  readonly before: FileSnapshot;
  /** The current text, null while the file does not exist; blocks splice into it in order. */
  view: LineView | null;
  /** End of the previous applied block, for in-order disambiguation. */
  lastEnd: number | null;
  readonly editIndexes: number[];
  /** The matching rung of each block placed by search (for traces). */
  readonly rungs: string[];
  readonly notes: string[];
  /** What the last edit said about the final newline (a udiff's `\ No newline`), if it said anything. */
  finalNewline?: boolean;
}

// A model that echoes an existing file's BOM would otherwise give it a second one (the writer restores
// the file's own); a new file's BOM is the model's choice (C# files carry one) and stays.
const stripBom = (text: string): string => (text.startsWith('\uFEFF') ? text.slice(1) : text);
const stripEchoedBom = (text: string, st: FileState): string => (st.before.text === null ? text : stripBom(text));

function setLines(st: FileState, lines: readonly string[]): void {
  st.view = new LineView(lines);
}

type Outcome = { ok: true } | { ok: false; reason: EditFailureReason; message: string };

class Planner {
  private readonly states = new Map<string, FileState>();
  private readonly order: string[] = [];
  readonly failures: EditFailure[] = [];
  readonly unchanged: Edit[] = [];

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
      rungs: [],
      notes: [],
    };
    this.states.set(path, created);
    this.order.push(path);
    return created;
  }

  plan(edit: Edit): void {
    const written = normalizeRepoPath(edit.path, this.options.root);
    if (written instanceof PathRefusedError) {
      this.fail(edit, 'outside_repo', refusedMessage(edit, written.message));
      return;
    }
    const redirect = redirectPath(written, {
      chatFiles: this.options.chatFiles,
      exists: (p) => this.exists(p),
      folderExists: (p) => this.options.existingFolders?.has(p) === true,
    });
    if (redirect?.kind === 'placeholder') {
      this.fail(edit, 'placeholder_path', placeholderMessage(edit, redirect.prefix));
      return;
    }
    const path = redirect?.kind === 'moved' ? redirect.to : written;
    const refused = this.options.refused?.get(path);
    if (refused) {
      this.fail(edit, refused.reason, refusedMessage(edit, refused.message));
      return;
    }
    const outcome = edit.kind === 'whole' ? this.whole(path, stripEchoedBom(edit.content, this.state(path)), edit.index) : this.replace(path, edit);
    if (!outcome.ok) this.fail(edit, outcome.reason, outcome.message);
    else if (redirect?.kind === 'moved') this.state(path).notes.push(redirectNote(edit.index, written, redirect));
  }

  private hasText(st: FileState): boolean {
    return (st.view?.lines ?? []).some((l) => l.trim() !== '');
  }

  /** True when the file exists now: on disk (and not deleted by this plan) or created earlier in it. */
  private exists(path: string): boolean {
    const st = this.states.get(path);
    if (st) return st.view !== null;
    return (this.files.get(path)?.text ?? null) !== null;
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
    const st = this.state(path);
    const search = toLines(stripBom(edit.search));
    const replace = toLines(stripEchoedBom(edit.replace, st));
    const blank = search.every((l) => l.trim() === '');
    // `--- /dev/null` over a file that has the hunk's old lines is an edit of that file; else it creates one.
    if (edit.createsFile === true && (blank || !this.hasText(st))) return this.create(path, edit, replace);
    if (blank) return this.createOrAppend(path, replace, edit.index);
    if (search.length === replace.length && search.every((l, i) => l === replace[i])) {
      // Models send these for "no change needed here": a note, and the reply's other blocks still land.
      this.unchanged.push(edit);
      st.notes.push(`Edit ${edit.index + 1}: its SEARCH and REPLACE are identical, so it changed nothing in ${path}.`);
      return { ok: true };
    }
    const result: MatchResult = st.view === null ? { kind: 'none' } : matchBlock(st.view, search, replace, st.lastEnd);
    if (result.kind === 'found') {
      this.splice(path, st, result, edit.index);
      // `\ No newline at end of file` speaks of the file's last line: honoured when the hunk ends there.
      const atEnd = result.start + result.replacement.length === (st.view?.lines.length ?? 0);
      if (edit.finalNewline !== undefined && atEnd) st.finalNewline = edit.finalNewline;
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
    st.rungs.push(found.rung);
    if (found.rung !== 'exact') {
      st.notes.push(`Edit ${index + 1}: matched ${path} after allowing for ${rungLabel(found.rung)}.`);
    }
  }

  /** A udiff `--- /dev/null`: creates the file; an existing file with other text is the model's mistake. */
  private create(path: string, edit: ReplaceEdit, replace: string[]): Outcome {
    const st = this.state(path);
    const current = st.view?.lines ?? [];
    if (current.some((l) => l.trim() !== '') && fromLines(current) !== fromLines(replace)) {
      return { ok: false, reason: 'file_exists', message: fileExistsMessage(edit, path) };
    }
    if (edit.finalNewline !== undefined) st.finalNewline = edit.finalNewline;
    return this.createOrAppend(path, replace, edit.index);
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
        after: finalizeText(fromLines(st.view.lines), st.before, st.finalNewline),
        editIndexes: st.editIndexes,
        rungs: st.rungs,
        notes: st.notes,
        created: st.before.text === null,
      });
    }
    return { files, failures: this.failures, unchanged: this.unchanged };
  }
}

function redirectNote(index: number, written: string, redirect: Extract<Redirect, { kind: 'moved' }>): string {
  const why = redirect.why === 'placeholder' ? 'the example folder of the instructions' : 'a near-miss name';
  return `Edit ${index + 1}: the block named ${written} (${why}); applied to ${redirect.to}, the chat file it means.`;
}

function rungLabel(rung: string): string {
  const labels: Record<string, string> = {
    trailing_whitespace: 'trailing whitespace',
    indentation: 'a different indentation',
    blank_edges: 'blank lines at the edges of SEARCH',
    elision: '`...` elision',
    unicode: 'look-alike characters (quotes, dashes, spaces)',
    tabs: 'tabs written as spaces (or spaces as tabs)',
    normalization: 'a different Unicode normalization (composed vs decomposed accents)',
    inner_whitespace: 'different spacing inside lines',
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
