// Images in the chat: which bytes are an image (by their magic bytes, never by the name), how large it
// is, what it costs in tokens by the provider's rule of thumb, and the data URL it is sent as.
import { createHash } from 'node:crypto';

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** Images larger than this are refused before they are read (providers take about 20 MB at most). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** An image the chat holds: read from disk when added (and on --resume), recorded by path and digest only. */
export interface ChatImage {
  /** Repository-relative path, or the absolute path of an image outside the repository. */
  readonly name: string;
  readonly absolutePath: string;
  readonly mime: ImageMime;
  /** sha256 of the bytes, hex. */
  readonly digest: string;
  readonly dataUrl: string;
  readonly tokens: number;
}

const EXTENSIONS = /\.(png|jpe?g|gif|webp)$/i;

/** Whether a name looks like an image (only to choose the path; the bytes decide). */
export function looksLikeImageName(name: string): boolean {
  return EXTENSIONS.test(name);
}

/** The image type the bytes start with, or null. */
export function imageMimeOf(bytes: Uint8Array): ImageMime | null {
  const starts = (sig: readonly number[], at = 0): boolean => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

/** Width and height from the image's header, or null when the header cannot be read. */
export function imageSizeOf(bytes: Buffer, mime: ImageMime): { width: number; height: number } | null {
  if (bytes.length < 30) return null;
  if (mime === 'image/png') return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (mime === 'image/gif') return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (mime === 'image/webp') return webpSize(bytes);
  return jpegSize(bytes);
}

function webpSize(bytes: Buffer): { width: number; height: number } | null {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  return null;
}

function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    // Start-of-frame markers (baseline, progressive, ...) carry the size; DHT, JPG and DAC do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

/**
 * OpenAI's rule of thumb for a high-detail image: scaled to fit 2048 x 2048, then its short side to 768,
 * 170 tokens per 512-pixel tile plus 85. An image of unknown size counts as four tiles.
 */
export function imageTokens(size: { width: number; height: number } | null): number {
  if (!size || size.width <= 0 || size.height <= 0) return 85 + 170 * 4;
  let { width, height } = size;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const shortSide = Math.min(width, height);
  if (shortSide > 768) {
    width *= 768 / shortSide;
    height *= 768 / shortSide;
  }
  return 85 + 170 * Math.ceil(width / 512) * Math.ceil(height / 512);
}

export type ImageCheck = { readonly ok: true; readonly image: ChatImage } | { readonly ok: false; readonly message: string };

/** Turns the bytes of a file into a chat image, or says why they are not one. */
export function chatImageOf(name: string, absolutePath: string, bytes: Buffer): ImageCheck {
  const mime = imageMimeOf(bytes);
  if (!mime) return { ok: false, message: `${name} is not a PNG, JPEG, GIF or WebP image` };
  return {
    ok: true,
    image: {
      name,
      absolutePath,
      mime,
      digest: digestOf(bytes),
      dataUrl: `data:${mime};base64,${bytes.toString('base64')}`,
      tokens: imageTokens(imageSizeOf(bytes, mime)),
    },
  };
}

export function digestOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
