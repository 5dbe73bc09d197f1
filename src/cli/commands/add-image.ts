// Images for /add and /read-only: recognized by their magic bytes (not the name), read only when they are
// regular files under the size cap (and inside the repository unless the user named an outside file),
// refused for a model known not to take images, and sent as image parts.
import { chatImageOf, imageMimeOf, MAX_IMAGE_BYTES } from '../../context/images.js';
import { readConfinedBytes } from '../../platform/text-files.js';
import type { CommandContext } from './types.js';

type ImageContext = Pick<CommandContext, 'session' | 'print'>;

/** Whether the file starts like an image (reads 16 bytes at most, confined like every read). */
export function isImageFile(full: string, root: string | null): boolean {
  const head = readConfinedBytes(full, { root, maxBytes: 16, truncate: true });
  return head.ok && imageMimeOf(head.bytes) !== null;
}

/** Adds an image; `root` null for a file the user named outside the repository. */
export function addImageFile(name: string, full: string, root: string | null, ctx: ImageContext): boolean {
  const model = ctx.session.profiles.get('main');
  if (model.settings.vision === false) {
    ctx.print(`Cannot add ${name}: ${model.name} does not take images (vision: false in its model settings); switch with /model.\n`);
    return false;
  }
  const read = readConfinedBytes(full, { root, maxBytes: MAX_IMAGE_BYTES, shown: name });
  if (!read.ok) {
    ctx.print(`Cannot add ${name}: ${read.message}.\n`);
    return false;
  }
  const checked = chatImageOf(name, full, read.bytes);
  if (!checked.ok) {
    ctx.print(`Cannot add ${checked.message}.\n`);
    return false;
  }
  if (model.settings.vision === null && ctx.session.context.images.length === 0) {
    ctx.print(`tandem does not know whether ${model.name} takes images; sending ${name} anyway.\n`);
  }
  const added = ctx.session.context.addImage(checked.image);
  ctx.print(added ? `Added image ${name} to the chat (about ${checked.image.tokens} tokens).\n` : `${name} is already in the chat.\n`);
  return added;
}
