// Images are recognized by their bytes, sized from their headers and priced by the provider's rule of thumb.
import { describe, expect, it } from 'vitest';
import { chatImageOf, imageMimeOf, imageSizeOf, imageTokens } from '../../src/context/images.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

function gif(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(40);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

function jpeg(width: number, height: number): Buffer {
  // SOI, an APP0 segment of 16 bytes, then SOF0 with the size.
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.alloc(14)]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, ...Buffer.alloc(12)]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof]);
}

function webpX(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(40);
  bytes.write('RIFF', 0, 'latin1');
  bytes.write('WEBPVP8X', 8, 'latin1');
  bytes.writeUIntLE(width - 1, 24, 3);
  bytes.writeUIntLE(height - 1, 27, 3);
  return bytes;
}

describe('images', () => {
  it('knows PNG, JPEG, GIF and WebP by their magic bytes, and nothing else', () => {
    expect(imageMimeOf(PNG)).toBe('image/png');
    expect(imageMimeOf(jpeg(10, 10))).toBe('image/jpeg');
    expect(imageMimeOf(gif(1, 1))).toBe('image/gif');
    expect(imageMimeOf(webpX(1, 1))).toBe('image/webp');
    expect(imageMimeOf(Buffer.from('%PDF-1.4 not an image'))).toBeNull();
    expect(imageMimeOf(Buffer.from('RIFF....WAVEfmt '))).toBeNull();
  });

  it('reads the size from each header', () => {
    expect(imageSizeOf(PNG, 'image/png')).toEqual({ width: 1, height: 1 });
    expect(imageSizeOf(gif(640, 480), 'image/gif')).toEqual({ width: 640, height: 480 });
    expect(imageSizeOf(jpeg(1920, 1080), 'image/jpeg')).toEqual({ width: 1920, height: 1080 });
    expect(imageSizeOf(webpX(800, 600), 'image/webp')).toEqual({ width: 800, height: 600 });
  });

  it('counts tokens as 85 plus 170 per 512-pixel tile after scaling', () => {
    expect(imageTokens({ width: 1, height: 1 })).toBe(255);
    expect(imageTokens({ width: 1024, height: 1024 })).toBe(85 + 170 * 4); // scaled to 768 x 768: 2 x 2 tiles
    expect(imageTokens({ width: 4096, height: 2048 })).toBe(85 + 170 * 6); // 2048 x 1024, then 1536 x 768: 3 x 2
    expect(imageTokens(null)).toBe(85 + 170 * 4);
  });

  it('makes a data URL of the bytes and refuses what is not an image', () => {
    const made = chatImageOf('logo.png', '/r/logo.png', PNG);
    expect(made.ok && made.image.dataUrl).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    expect(chatImageOf('notes.png', '/r/notes.png', Buffer.from('hello'))).toEqual({ ok: false, message: 'notes.png is not a PNG, JPEG, GIF or WebP image' });
  });
});
