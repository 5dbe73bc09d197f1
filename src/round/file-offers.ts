// Offers to add repository files a request or a reply names, so the model sees what it talks about.
// No means no: a file the user declined is not offered again in this chat.
import type { Asker, RepoFilesPort } from '../coders/ports.js';
import { mentionedFiles } from '../repomap/mentioned-files.js';

export interface FileOfferDeps {
  readonly files: RepoFilesPort | null;
  readonly asker: Asker;
  readonly chatFiles: readonly string[];
  /** Read-only files (AGENTS.md, --read): never offered, so no yes turns one into a chat file. */
  readonly readOnly?: readonly string[];
  /** Adds a file to the chat; false when it was already there. */
  readonly add: (path: string) => boolean;
  /** Files the user declined in this chat; a "no" here joins them. */
  readonly declined: Set<string>;
}

/** Offers every repository file `text` names that is not in the chat; returns those added. */
export async function offerMentionedFiles(text: string, deps: FileOfferDeps): Promise<string[]> {
  if (!deps.files) return [];
  return offer(mentionedFiles(text, await deps.files.list(), deps.chatFiles), deps);
}

/**
 * A reply that names files it has not seen and makes no edits needs them: offer them; the caller
 * redoes the request when any were added. A reply with edits is applied instead (its edits to files
 * outside the chat are approved one by one), and only the edits that did not apply to a file the
 * model has not seen lead to an offer (offerUnseenFiles).
 */
export async function offerFilesTheReplyNeeds(reply: string, parsed: { readonly edits: readonly unknown[] }, deps: FileOfferDeps): Promise<string[]> {
  if (!deps.files) return [];
  if (parsed.edits.length > 0) return [];
  return offer(mentionedFiles(reply, await deps.files.list(), deps.chatFiles), deps);
}

/** Offers the repository files (not in the chat) that edits failed on; returns those added. */
export async function offerUnseenFiles(paths: readonly string[], deps: FileOfferDeps): Promise<string[]> {
  if (!deps.files || paths.length === 0) return [];
  const repo = new Set(await deps.files.list());
  return offer([...new Set(paths)].filter((p) => repo.has(p) && !deps.chatFiles.includes(p)), deps);
}

async function offer(files: readonly string[], deps: FileOfferDeps): Promise<string[]> {
  const added: string[] = [];
  for (const file of files.filter((f) => !(deps.readOnly ?? []).includes(f))) {
    if (deps.declined.has(file)) continue;
    const answer = await deps.asker.confirm(`Add ${file} to the chat?`, 'add-file', file);
    if (answer === 'no') deps.declined.add(file);
    if (answer === 'yes' && deps.add(file)) added.push(file);
  }
  return added;
}
