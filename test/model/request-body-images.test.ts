// Images ride on their user message as image_url parts after its text; a cache breakpoint goes on the
// message's last part; messages without images stay plain strings.
import { describe, expect, it } from 'vitest';
import { requestBody } from '../../src/model/request-body.js';

const image = { name: 'logo.png', dataUrl: 'data:image/png;base64,AAAA', tokens: 255 };
const rules = (cacheControl: boolean) => ({ cacheControl, cachePrompt: false });

describe('image parts', () => {
  it('sends the text then each image as an image_url part', () => {
    const body = requestBody({ model: 'm', stream: false, messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'see', images: [image] }, { role: 'user', content: 'q' }] }, rules(false));
    expect(body.messages).toEqual([
      { role: 'system', content: 's' },
      { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
      { role: 'user', content: 'q' },
    ]);
  });

  it('puts a cache breakpoint on the last part of a message with images', () => {
    const body = requestBody({ model: 'm', stream: false, stablePrefix: 2, messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'see', images: [image] }, { role: 'user', content: 'q' }] }, rules(true));
    expect(body.messages[1]!.content).toEqual([
      { type: 'text', text: 'see' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' }, cache_control: { type: 'ephemeral' } },
    ]);
    expect(body.messages[2]!.content).toEqual([{ type: 'text', text: 'q', cache_control: { type: 'ephemeral' } }]);
  });
});
