// --resume puts back the chat's web pages (from the log) and images (read again from disk, by path and
// digest: one that changed is sent as it is now, one that is gone is left out, each with a notice).
import { isAbsolute, resolve } from 'node:path';
import { chatImageOf, MAX_IMAGE_BYTES, type ChatImage } from '../context/images.js';
import { readConfinedBytes } from '../platform/text-files.js';
import type { ReplayedSession } from '../session/session-log.js';
import type { Session } from '../session/session.js';

/** Restores pages and images; returns the notices for the user. */
export function restoreContext(session: Session, replayed: Pick<ReplayedSession, 'pages' | 'images'>, root: string): string[] {
  const notices: string[] = [];
  const images: ChatImage[] = [];
  for (const logged of replayed.images) {
    // A log may be planted: only images inside the repository come back (re-add others with /read-only).
    if (isAbsolute(logged.name)) {
      notices.push(`Image ${logged.name} lies outside the repository and was left out; add it again with /read-only.`);
      continue;
    }
    const full = resolve(root, logged.name);
    const read = readConfinedBytes(full, { root, maxBytes: MAX_IMAGE_BYTES, shown: logged.name });
    if (!read.ok) {
      notices.push(read.kind === 'missing' ? `Image ${logged.name} is gone and was left out.` : `Image ${read.message}; left out.`);
      continue;
    }
    const checked = chatImageOf(logged.name, full, read.bytes);
    if (!checked.ok) {
      notices.push(`${checked.message}; left out.`);
      continue;
    }
    if (checked.image.digest !== logged.digest) notices.push(`Image ${logged.name} changed since the session was saved; its current version is sent.`);
    images.push(checked.image);
  }
  session.context.restore(replayed.pages, images);
  return notices;
}
