// The coder registry is where every list of formats and chat modes comes from: the option table's
// choices, /chat-mode, the model layer's names and the prompts each coder needs all agree with it.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import table from '../../src/model/model-settings.json' with { type: 'json' };
import { defineCoder } from '../../src/coders/coder.js';
import { BUILT_IN_CODERS, CODERS, createCoderRegistry, parseReply } from '../../src/coders/registry.js';
import { createPromptLoader } from '../../src/coders/prompt-set.js';
import { OPTIONS } from '../../src/config/schema.js';
import { EDIT_FORMATS } from '../../src/model/edit-formats.js';
import { createPromptReader } from '../../src/platform/prompt-files.js';

const PROMPTS = fileURLToPath(new URL('../../prompts', import.meta.url));

describe('the coder registry', () => {
  it('lists the formats, the --edit-format choices and the chat modes in their order', () => {
    expect(CODERS.editFormats).toEqual(['diff', 'diff-fenced', 'whole', 'udiff']);
    expect(CODERS.editFormatChoices).toEqual(['diff', 'diff-fenced', 'whole', 'udiff', 'ask']);
    expect(CODERS.chatModes.map((m) => m.name)).toEqual(['ask', 'code', 'architect', 'context']);
  });

  it('is where the option table takes its choices from', () => {
    expect(OPTIONS['edit-format'].values).toEqual(CODERS.editFormatChoices);
    expect(OPTIONS['editor-edit-format'].values).toEqual(CODERS.editFormats);
    expect(OPTIONS['chat-mode'].values).toEqual(['code', 'ask', 'architect', 'context']);
  });

  it('agrees with the names model settings may pick (model/ sits below coders/ and keeps its own list)', () => {
    expect([...EDIT_FORMATS]).toEqual(CODERS.editFormats);
    const named = [table.defaults.editFormat, ...table.models.flatMap((m) => ('editFormat' in m ? [m.editFormat] : []))];
    for (const name of new Set(named)) expect(CODERS.find(name as string)?.makesEdits, name as string).toBe(true);
  });

  it('tells the coders that edit from those that only talk', () => {
    const reply = 'a.py\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n';
    expect(parseReply('diff', reply, { chatFiles: ['a.py'] }).edits).toHaveLength(1);
    for (const name of ['ask', 'architect', 'context']) {
      const coder = CODERS.get(name);
      expect(coder.makesEdits, name).toBe(false);
      expect(coder.parse(reply, { chatFiles: ['a.py'] }), name).toEqual({ edits: [], shellCommands: [], problems: [] });
    }
  });

  it('finds every coder its prompts: the shared texts, its own folder, and context mode in context-mode/', async () => {
    const prompts = createPromptLoader(createPromptReader(PROMPTS), { fence: '```', platform: 'linux' });
    for (const coder of BUILT_IN_CODERS) {
      const set = await prompts.forCoder(coder);
      expect(set.format.system, coder.name).not.toBe('');
      expect(set.format.system, coder.name).not.toContain('{fence}');
      expect(set.reflection.parseProblems, coder.name).toContain('{problems}');
    }
    expect(CODERS.get('context').promptFolder).toBe('context-mode');
  });

  it('refuses two coders of one name, and a name no coder has', () => {
    const again = defineCoder({ name: 'diff', parse: () => ({ edits: [], shellCommands: [], problems: [] }) });
    expect(() => createCoderRegistry([...BUILT_IN_CODERS, again])).toThrow('two coders are named diff');
    expect(() => createCoderRegistry([defineCoder({ name: 'code' })])).toThrow('two coders are named code');
    expect(CODERS.find('patch')).toBeUndefined();
    expect(() => CODERS.get('patch')).toThrow('no coder is named "patch"');
  });
});
