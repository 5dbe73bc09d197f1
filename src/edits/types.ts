// The shared vocabulary of edits: what parsers produce, what the planner decides, what apply writes.
// Pure data; nothing here touches the file system.

export type { EditFormat } from '../model/edit-formats.js';

/** Replace `search` with `replace` in `path`. An empty `search` creates the file (or appends to an empty one). */
export interface ReplaceEdit {
  readonly kind: 'replace';
  readonly path: string;
  readonly search: string;
  readonly replace: string;
  /** 0-based index of the block in the reply, for messages to the model. */
  readonly index: number;
  /** The block as the model wrote it, quoted back to the model on failure. */
  readonly source: string;
  /** A udiff `--- /dev/null`: the edit creates the file, so it must not exist with other text. */
  readonly createsFile?: boolean;
  /** A udiff's `\ No newline at end of file` said whether the new text ends the file with a newline. */
  readonly finalNewline?: boolean;
}

/** The complete new contents of `path`. */
export interface WholeFileEdit {
  readonly kind: 'whole';
  readonly path: string;
  readonly content: string;
  readonly index: number;
  readonly source: string;
}

export type Edit = ReplaceEdit | WholeFileEdit;

/** A formatting mistake in the reply that the model must fix (written for the model). */
export interface ParseProblem {
  readonly message: string;
  /** 1-based line in the reply where the problem starts. */
  readonly line: number;
}

export interface ParseResult {
  readonly edits: Edit[];
  /** Fenced bash/sh blocks: suggested shell commands, never edits. */
  readonly shellCommands: string[];
  readonly problems: ParseProblem[];
}

/** What the parser needs to know about the chat to resolve file names. */
export interface ParseContext {
  /** Repository-relative paths of the files in the chat (posix separators). */
  readonly chatFiles: readonly string[];
}

/** A file as the planner sees it: decoded text plus how to write it back faithfully. */
export interface FileSnapshot {
  readonly path: string;
  /** null when the file does not exist. */
  readonly text: string | null;
  readonly eol: '\n' | '\r\n';
  readonly bom: boolean;
  readonly finalNewline: boolean;
}

export type EditFailureReason =
  | 'no_match'
  | 'ambiguous'
  | 'outside_repo'
  | 'binary'
  | 'too_large'
  | 'missing_file'
  | 'file_exists'
  | 'placeholder_path'
  | 'denied'
  /** The file cannot be written where the reply put it (a path through a file, a name too long, git would ignore it). */
  | 'unwritable';

/**
 * A block of the reply that was not written, as a round reports and counts it: which file and block,
 * why, and the text for the model. A whole file refused (unwritable, declined) fails each of its blocks.
 */
export interface BlockFailure {
  readonly edit: Pick<Edit, 'path' | 'index'>;
  readonly reason: EditFailureReason;
  /** Explains to the model exactly what to fix: the block, the closest lines, candidate line numbers. */
  readonly message: string;
}

/** An edit that could not be planned, with text written for the model. */
export interface EditFailure extends BlockFailure {
  readonly edit: Edit;
}

/** The planned new state of one file. */
export interface PlannedFile {
  readonly path: string;
  readonly before: FileSnapshot;
  /** New text, with '\n' line endings (apply restores eol/BOM from `before`). */
  readonly after: string;
  /** Indexes of the edits that contributed. */
  readonly editIndexes: number[];
  /** Which rung of the matching ladder placed each block (`exact`, `indentation`, ...), in order. */
  readonly rungs: string[];
  /** Notes for the user and the model, e.g. "applied to b.py, the file that contains the SEARCH text". */
  readonly notes: string[];
  readonly created: boolean;
}

export interface EditPlan {
  readonly files: PlannedFile[];
  readonly failures: EditFailure[];
  /** Blocks whose SEARCH equals their REPLACE: they change nothing, and are neither applied nor failed. */
  readonly unchanged?: Edit[];
}
