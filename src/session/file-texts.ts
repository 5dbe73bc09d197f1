// The texts of the chat's files as a request carries them: read confined and capped, a missing file
// left out quietly, any other refusal said once as a warning.
import type { FileText } from '../coders/messages.js';
import { join } from 'node:path';
import { nodeFileSystem, type FileSystem } from '../platform/file-system.js';
import type { EmitEvent } from './events.js';
import type { ReadOnlyFile } from './session-types.js';

/** Confined like writing: a chat file whose real path leaves the repository, or that is no regular file, is not sent. */
export function readChatFileTexts(root: string, paths: readonly string[], emit: EmitEvent, fs: FileSystem = nodeFileSystem): FileText[] {
  return readTexts(paths.map((path) => ({ path, absolutePath: join(root, path), root })), emit, fs);
}

/** The user named these (--read, /read-only): they may lie outside the repository, but are still capped. */
export function readReadOnlyTexts(files: readonly ReadOnlyFile[], emit: EmitEvent, fs: FileSystem = nodeFileSystem): FileText[] {
  return readTexts(files.map((f) => ({ path: f.name, absolutePath: f.absolutePath, root: null })), emit, fs);
}

function readTexts(files: ReadonlyArray<{ path: string; absolutePath: string; root: string | null }>, emit: EmitEvent, fs: FileSystem): FileText[] {
  const out: FileText[] = [];
  for (const file of files) {
    const read = fs.readText(file.absolutePath, { root: file.root, shown: file.path });
    if (read.ok) out.push({ path: file.path, text: read.text });
    else if (read.kind !== 'missing') emit({ type: 'warning', message: read.message });
  }
  return out;
}
