// Checks every write of a reply before the first one happens: a path that runs through a file (on disk
// or written by the same reply), a name longer than the file system allows. These are the model's
// mistakes and go back to it as edit failures; nothing is written for them.
import path from 'node:path';
import type { PlannedFile } from '../edits/types.js';
import { nodeFileSystem, type FileSystem } from '../platform/file-system.js';

// Linux limits: 255 bytes a name, 4096 bytes a path (NAME_MAX, PATH_MAX).
const NAME_MAX = 255;
const PATH_MAX = 4095;

export interface WriteProblem {
  readonly path: string;
  readonly message: string;
}

/** Problems with writing `files` under `root`; empty when every write can be attempted. */
export async function checkWrites(root: string, files: readonly PlannedFile[], fs: FileSystem = nodeFileSystem): Promise<WriteProblem[]> {
  const written = new Set(files.map((file) => file.path));
  const problems: WriteProblem[] = [];
  for (const file of files) {
    const problem = nameProblem(root, file.path) ?? (await folderProblem(root, file.path, written, fs));
    if (problem) problems.push({ path: file.path, message: problem });
  }
  return problems;
}

function nameProblem(root: string, rel: string): string | null {
  const long = rel.split('/').find((part) => Buffer.byteLength(part) > NAME_MAX);
  if (long !== undefined) {
    return `Cannot write ${shorten(rel)}: the name ${shorten(long)} is ${Buffer.byteLength(long)} bytes long, more than the ${NAME_MAX} a file name may have. Use a shorter name.`;
  }
  if (Buffer.byteLength(path.join(root, rel)) > PATH_MAX) return `Cannot write ${shorten(rel)}: the path is longer than the file system allows. Use a shorter path.`;
  return null;
}

/** A parent of `rel` that is a file, on disk or in this same reply. */
async function folderProblem(root: string, rel: string, written: ReadonlySet<string>, fs: FileSystem): Promise<string | null> {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) {
    const folder = parts.slice(0, i).join('/');
    let isFolder: boolean | null;
    try {
      isFolder = (await fs.stat(path.join(root, folder))).isDirectory();
    } catch {
      isFolder = null; // missing: it will be created, unless this reply writes it as a file
    }
    if (isFolder === false) return `Cannot write ${rel}: ${folder} is a file, not a folder. Put the new file somewhere else.`;
    if (isFolder === null && written.has(folder)) {
      return `Cannot write ${rel}: this reply also writes ${folder} as a file, and a file cannot hold other files. Choose one.`;
    }
  }
  return null;
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 60)}...${text.slice(-12)}` : text;
}
