// A round's plan as one value: the files that will be written (edited or created), the blocks the plan
// could not place, and the whole files refused with the reason. Pure: each step returns a new ChangeSet.
import { planEdits, type PlanOptions } from '../edits/plan.js';
import type { BlockFailure, Edit, EditFailure, FileSnapshot, PlannedFile } from '../edits/types.js';

/** Why a whole file of the reply is not written. */
export type RefusalReason = 'unwritable' | 'outside_repo' | 'denied';

/** A file the round will not write: each of the reply's blocks for it fails with this reason. */
export interface FileRefusal {
  readonly path: string;
  /** The reply's blocks (0-based) that went to this file. */
  readonly editIndexes: readonly number[];
  readonly reason: RefusalReason;
  /** Written for the model (and shown to the user). */
  readonly message: string;
}

export interface ChangeSet {
  /** What will be written: each file's new text; `created` marks a new file. */
  readonly files: readonly PlannedFile[];
  /** Blocks the plan could not place (no match, a path outside the repository...), each with its edit. */
  readonly failures: readonly EditFailure[];
  /** Whole files taken out after planning (unwritable, refused by policy, declined), in the order decided. */
  readonly refused: readonly FileRefusal[];
  /** Blocks whose SEARCH equals their REPLACE: neither written nor failed. */
  readonly unchanged: readonly Edit[];
  /** Files the user allowed editing or creating: they join the chat. */
  readonly addedToChat: readonly string[];
  /** A question nobody could answer (headless) refused a file. */
  readonly approvalRequired: boolean;
}

/** The dry run of the reply's edits against the files as loaded. */
export function planChangeSet(edits: readonly Edit[], snapshots: ReadonlyMap<string, FileSnapshot>, options: PlanOptions): ChangeSet {
  const plan = planEdits(edits, snapshots, options);
  return { files: plan.files, failures: plan.failures, refused: [], unchanged: plan.unchanged ?? [], addedToChat: [], approvalRequired: false };
}

/** The set without the files `reasons` names, each refused for its reason (in the set's file order). */
export function refuseFiles(set: ChangeSet, reasons: ReadonlyMap<string, { readonly reason: RefusalReason; readonly message: string }>): ChangeSet {
  if (reasons.size === 0) return set;
  const refused = set.files.flatMap((file) => {
    const why = reasons.get(file.path);
    return why ? [{ path: file.path, editIndexes: file.editIndexes, ...why }] : [];
  });
  return { ...set, files: set.files.filter((file) => !reasons.has(file.path)), refused: [...set.refused, ...refused] };
}

/** Every block the round does not write, as reported and counted: the plan's failures, then the refused files' blocks. */
export function blockFailures(set: ChangeSet): BlockFailure[] {
  const refused = set.refused.flatMap((file) => file.editIndexes.map((index) => ({ edit: { path: file.path, index }, reason: file.reason, message: file.message })));
  return [...set.failures, ...refused];
}

/** How many of the reply's blocks the written files take. */
export function countAppliedEdits(files: readonly PlannedFile[]): number {
  return files.reduce((sum, file) => sum + file.editIndexes.length, 0);
}

/** Every block of the reply had SEARCH equal to REPLACE: their number; undefined otherwise. */
export function unchangedOnly(set: ChangeSet, blocks: number): number | undefined {
  return set.unchanged.length > 0 && set.unchanged.length === blocks ? set.unchanged.length : undefined;
}
