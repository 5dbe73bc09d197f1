// The one prompt loader: every text from prompts/ once, each coder's set the shared texts plus its own
// folder, a reflection worded by the format where its folder has one, and a missing file named.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { defineCoder } from '../../src/coders/coder.js';
import { createPromptLoader } from '../../src/coders/prompt-set.js';
import { CODERS } from '../../src/coders/registry.js';
import { createPromptReader, type PromptReader } from '../../src/platform/prompt-files.js';

const PROMPTS = fileURLToPath(new URL('../../prompts', import.meta.url));
const VALUES = { fence: '````', platform: 'plan9' };

/** The real prompts with some files laid over them (a string) or taken away (null); counts every read. */
function overlay(files: Record<string, string | null> = {}): { read: PromptReader; reads: string[] } {
  const real = createPromptReader(PROMPTS);
  const reads: string[] = [];
  return {
    reads,
    read: async (id) => {
      reads.push(id);
      return id in files ? (files[id] ?? null) : real(id);
    },
  };
}

describe('the prompt loader', () => {
  it('holds every text: the format, context, reflections, commit, summary, architect hand-over, watch and /help', async () => {
    const prompts = createPromptLoader(overlay().read, VALUES);
    const set = await prompts.forCoder(CODERS.get('diff'));
    expect(set.format.system).toContain('plan9');
    expect(set.format.examples.map((t) => t.role)).toContain('assistant');
    expect(set.format.examples.map((t) => t.content).join('\n')).toContain('````');
    expect(set.context.repoMap).not.toBe('');
    expect(set.reflection.lint).toContain('{details}');
    expect(set.commitMessage).not.toBe('');
    expect(set.editorRequest).toContain('{plan}');
    expect(set.watch.code).not.toBe('');
    expect(set.help).toContain('{docs}');
    expect(await prompts.shared()).toMatchObject({ summarize: set.summarize, summaryTemplate: set.summaryTemplate, help: set.help });
  });

  it('reads each file once however many coders and callers ask', async () => {
    const { read, reads } = overlay();
    const prompts = createPromptLoader(read, VALUES);
    await Promise.all([prompts.forCoder(CODERS.get('diff')), prompts.forCoder(CODERS.get('diff')), prompts.forCoder(CODERS.get('whole')), prompts.shared()]);
    expect(reads.length).toBeGreaterThan(20);
    expect(new Set(reads).size).toBe(reads.length);
  });

  it('takes a reflection from the format folder where the format words it its own way', async () => {
    const { read } = overlay({ 'whole/reflection/parse-problems.md': 'Your file listings were cut:\n{problems}\n' });
    const prompts = createPromptLoader(read, VALUES);
    const whole = await prompts.forCoder(CODERS.get('whole'));
    const diff = await prompts.forCoder(CODERS.get('diff'));
    expect(whole.reflection.parseProblems).toBe('Your file listings were cut:\n{problems}');
    expect(diff.reflection.parseProblems).not.toBe(whole.reflection.parseProblems);
    expect(whole.reflection.lint).toBe(diff.reflection.lint);
  });

  it('names a prompt file that is missing, and does without the optional ones', async () => {
    const { read } = overlay({ 'context/ack.md': null });
    await expect(createPromptLoader(read, VALUES).shared()).rejects.toThrow("tandem's prompt file prompts/context/ack.md is missing");
    const bare = defineCoder({ name: 'bare' });
    const set = await createPromptLoader(overlay({ 'bare/system.md': 'Answer on {platform}.' }).read, VALUES).forCoder(bare);
    expect(set.format).toMatchObject({ examples: [], reminder: '' });
  });
});
