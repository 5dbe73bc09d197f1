import { describe, expect, it } from 'vitest';
import { createProfileBuilder } from '../../src/model/model-profile.js';
import { approxTokens } from '../support/fake-ports.js';
import { ModelProfiles } from '../../src/session/model-profiles.js';

const build = createProfileBuilder({ baseURL: 'https://openrouter.ai/api/v1', tokenizers: { counterFor: () => approxTokens } });

describe('ModelProfiles', () => {
  it('starts the weak model at the main model’s suggestion and the editor at the main model', () => {
    const profiles = new ModelProfiles(build, { main: 'anthropic/claude-sonnet-4', weak: null, editor: null });
    expect(profiles.names()).toEqual({ main: 'anthropic/claude-sonnet-4', weak: 'anthropic/claude-3.5-haiku', editor: 'anthropic/claude-sonnet-4' });
    expect(new ModelProfiles(build, { main: 'local-thing', weak: null, editor: null }).names().weak).toBe('local-thing');
  });

  it('swaps whole profiles, and the models the user did not choose follow the main model', () => {
    const profiles = new ModelProfiles(build, { main: 'gpt-4o', weak: null, editor: 'o3' });
    expect(profiles.set('main', 'gpt-4.1', '/model in this chat')).toEqual(['main', 'weak']);
    expect(profiles.names()).toEqual({ main: 'gpt-4.1', weak: 'gpt-4.1-mini', editor: 'o3' });
    expect(profiles.get('main')).toMatchObject({ contextWindow: 1047576, reminder: 'system' });
    expect(profiles.get('weak').prices?.inputPerMillion).toBe(0.4);
    expect(profiles.set('weak', 'gpt-4o-mini', '/weak-model in this chat')).toEqual(['weak']);
    expect(profiles.set('main', 'gpt-4o', '/model in this chat')).toEqual(['main']);
    expect(profiles.names()).toEqual({ main: 'gpt-4o', weak: 'gpt-4o-mini', editor: 'o3' });
    expect([...profiles.changedBy]).toEqual([
      ['main', '/model in this chat'],
      ['weak', '/weak-model in this chat'],
    ]);
  });
});
