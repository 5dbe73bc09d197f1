// Offers to add repository files a request or a reply names, so the model sees what it talks about.
import type { Coder } from '../coders/base-coder.js';
import type { Asker, RepoFilesPort } from '../coders/ports.js';
import { mentionedFiles } from './mentions.js';

export interface FileOfferDeps {
  readonly files: RepoFilesPort | null;
  readonly asker: Asker;
  readonly chatFiles: readonly string[];
  /** Read-only files (AGENTS.md, --read): never offered, so no yes turns one into a chat file. */
  readonly readOnly?: readonly string[];
  /** Adds a file to the chat; false when it was already there. */
  readonly add: (path: string) => boolean;
}

/** Offers every repository file `text` names that is not in the chat; returns those added. */
export async function offerMentionedFiles(text: string, deps: FileOfferDeps): Promise<string[]> {
  if (!deps.files) return [];
  return offer(mentionedFiles(text, await deps.files.list(), deps.chatFiles), deps);
}

/**
 * A reply that names files it has not seen, and makes no edits or edits those very files, needs them:
 * offer them; the caller redoes the request (without applying the reply) when any were added.
 */
export async function offerFilesTheReplyNeeds(reply: string, coder: Coder, deps: FileOfferDeps): Promise<string[]> {
  if (!deps.files) return [];
  const mentioned = mentionedFiles(reply, await deps.files.list(), deps.chatFiles);
  if (mentioned.length === 0) return [];
  const edited = coder.parse(reply, { chatFiles: deps.chatFiles }).edits.map((e) => e.path);
  return offer(edited.length === 0 ? mentioned : mentioned.filter((file) => edited.includes(file)), deps);
}

async function offer(files: readonly string[], deps: FileOfferDeps): Promise<string[]> {
  const added: string[] = [];
  for (const file of files.filter((f) => !(deps.readOnly ?? []).includes(f))) {
    const answer = await deps.asker.confirm(`Add ${file} to the chat?`, 'add-file');
    if (answer === 'yes' && deps.add(file)) added.push(file);
  }
  return added;
}
