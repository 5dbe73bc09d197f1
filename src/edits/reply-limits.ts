// How much one reply may write before a person must look: a model (or a planted instruction) that
// creates thousands of files or fills the disk is stopped at a question `--yes-always` does not answer.
import type { PlannedFile } from './types.js';

export const MAX_CREATED_FILES = 100;
/** Text a reply may write in total (new contents of every file it touches), in bytes. */
export const MAX_WRITTEN_BYTES = 10 * 1024 * 1024;

/** The question's reason when the planned files pass a limit, or null. */
export function replyLimitReason(files: readonly PlannedFile[]): string | null {
  const created = files.filter((file) => file.created).length;
  if (created > MAX_CREATED_FILES) return `the reply creates ${created} files, more than ${MAX_CREATED_FILES}`;
  const bytes = files.reduce((sum, file) => sum + Buffer.byteLength(file.after), 0);
  if (bytes > MAX_WRITTEN_BYTES) return `the reply writes ${bytes.toLocaleString('en-US')} bytes, more than ${MAX_WRITTEN_BYTES.toLocaleString('en-US')}`;
  return null;
}
