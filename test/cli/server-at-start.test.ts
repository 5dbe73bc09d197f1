// The server's model questions at start-up are asked only when its answer could be used: a named model
// whose context window the user's settings give already needs nothing from it.
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../src/config/schema.js';
import { askServerAtStart } from '../../src/cli/model-setup.js';
import type { HttpPort } from '../../src/platform/http.js';

function countingHttp(): { http: HttpPort; asked: string[] } {
  const asked: string[] = [];
  const http: HttpPort = {
    async request(url) {
      asked.push(url.replace(/^http:\/\/[^/]+/, ''));
      if (url.endsWith('/models')) return { ok: true, status: 200, text: JSON.stringify({ data: [{ id: 'm', max_model_len: 16384 }] }) };
      return { ok: true, status: 404, text: '' };
    },
  };
  return { http, asked };
}

const local = { ...defaultSettings(), 'base-url': 'http://127.0.0.1:9/v1', model: 'm' };

describe('asking the server at start-up', () => {
  it('asks for the models and the window when the settings leave the window open', async () => {
    const { http, asked } = countingHttp();
    const answer = await askServerAtStart({ settings: local, modelGiven: true, layers: [], aliases: new Map(), http });
    expect(asked).toEqual(['/v1/models', '/props']);
    expect(answer.windows.get('m')).toBe(16384);
  });

  it('asks nothing when the model is named and --context-window or the user\'s model file sets its window', async () => {
    const { http, asked } = countingHttp();
    expect(await askServerAtStart({ settings: { ...local, 'context-window': 8000 }, modelGiven: true, layers: [], aliases: new Map(), http })).toEqual({ windows: new Map(), model: null, note: null });
    const layers = [{ file: 'models.yml', entries: [{ name: 'm', contextWindow: 4000 }] }];
    await askServerAtStart({ settings: local, modelGiven: true, layers, aliases: new Map(), http });
    expect(asked).toEqual([]);
    // With no model named, the server's single model may become the chat's: it is asked.
    await askServerAtStart({ settings: { ...local, 'context-window': 8000 }, modelGiven: false, layers: [], aliases: new Map(), http });
    expect(asked).toEqual(['/v1/models', '/props']);
  });
});
