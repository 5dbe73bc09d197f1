// The texts of the chat's files as a request carries them: read confined and capped, a missing file
// left out quietly, any other refusal said as a warning once per file a session (again only when the
// file's state changes), since every request reads the files again.
import type { FileText } from '../coders/messages.js';
import { isAbsolute, join } from 'node:path';
import { nodeFileSystem, type TextFileSystem } from '../platform/file-system.js';
import type { ConfinedRead, ReadRefusalKind } from '../platform/text-files.js';
import type { EmitEvent } from './events.js';
import type { ReadOnlyFile } from './session-types.js';

/** The refusals already warned about, by absolute path; one per session. */
export class RefusalWarnings {
  private readonly said = new Map<string, ReadRefusalKind>();

  /**
   * Whether the refusal of this read is news: not said yet for this file, or of another kind than
   * the one said. A file read (or gone) is forgotten, so refusing it again later is said again.
   */
  isNews(absolutePath: string, read: ConfinedRead): boolean {
    if (read.ok || read.kind === 'missing') {
      this.said.delete(absolutePath);
      return false;
    }
    if (this.said.get(absolutePath) === read.kind) return false;
    this.said.set(absolutePath, read.kind);
    return true;
  }
}

export interface TextReadDeps {
  readonly emit: EmitEvent;
  readonly warned: RefusalWarnings;
  readonly fs?: TextFileSystem;
}

/** Confined like writing: a chat file whose real path leaves the repository, or that is no regular file, is not sent. */
export function readChatFileTexts(root: string, paths: readonly string[], deps: TextReadDeps): FileText[] {
  return readTexts(paths.map((path) => ({ path, absolutePath: join(root, path), root })), deps);
}

/**
 * The user named these (--read, /read-only): a path outside the repository may lie anywhere, but is still
 * capped. One named inside the repository (kept by its repository-relative name) is confined like a chat
 * file: the clone may have made `CONVENTIONS.md` a link to `~/.aws/credentials`.
 */
export function readReadOnlyTexts(files: readonly ReadOnlyFile[], deps: TextReadDeps, root: string): FileText[] {
  return readTexts(files.map((f) => ({ path: f.name, absolutePath: f.absolutePath, root: isAbsolute(f.name) ? null : root })), deps);
}

function readTexts(files: ReadonlyArray<{ path: string; absolutePath: string; root: string | null }>, deps: TextReadDeps): FileText[] {
  const fs = deps.fs ?? nodeFileSystem;
  const out: FileText[] = [];
  for (const file of files) {
    const read = fs.readText(file.absolutePath, { root: file.root, shown: file.path });
    const news = deps.warned.isNews(file.absolutePath, read);
    if (read.ok) out.push({ path: file.path, text: read.text });
    else if (news) deps.emit({ type: 'warning', message: read.message });
  }
  return out;
}
