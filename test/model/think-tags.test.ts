import { describe, expect, it } from 'vitest';
import { createThinkSplitter, splitOrphanClose, withoutReasoning } from '../../src/model/think-tags.js';

/** Feeds `content` in pieces of `size` characters and joins what comes out. */
function split(content: string, size: number): { reasoning: string; text: string; unclosed: boolean } {
  const splitter = createThinkSplitter();
  let reasoning = '';
  let text = '';
  for (let i = 0; i < content.length; i += size) {
    const piece = splitter.push(content.slice(i, i + size));
    reasoning += piece.reasoning;
    text += piece.text;
  }
  const rest = splitter.end();
  return { reasoning: reasoning + rest.reasoning, text: text + rest.text, unclosed: rest.unclosed };
}

const REPLY = [
  '<think>',
  'The user wants greet() to say hello. Maybe I edit the wrong function:',
  'app.py',
  '<<<<<<< SEARCH',
  'def farewell():',
  '=======',
  'def farewell_wrong():',
  '>>>>>>> REPLACE',
  'No, that is farewell. The right one is greet.',
  '</think>',
  '',
  'Here is the change.',
  '',
].join('\n');

describe('createThinkSplitter', () => {
  it('keeps a leading think block out of the answer, whatever the delta sizes', () => {
    for (const size of [1, 2, 3, 7, 16, 1000]) {
      const result = split(REPLY, size);
      expect(result.text, `size ${size}`).toBe('Here is the change.\n');
      expect(result.reasoning, `size ${size}`).toContain('def farewell_wrong():');
      expect(result.reasoning).not.toContain('<think>');
      expect(result.unclosed).toBe(false);
    }
  });

  it('knows <thinking> and <reasoning> too, in any case, after leading blank lines', () => {
    expect(split('\n\n<Thinking>plan</Thinking>answer', 2)).toMatchObject({ reasoning: 'plan', text: 'answer' });
    expect(split('<REASONING>\nplan\n</REASONING>\n\nanswer\n', 3)).toMatchObject({ reasoning: '\nplan\n', text: 'answer\n' });
  });

  it('leaves a reply alone that does not start with a think block', () => {
    expect(split('Use <think> tags like this: <think>x</think>', 4)).toEqual({ reasoning: '', text: 'Use <think> tags like this: <think>x</think>', unclosed: false });
    expect(split('<b>bold</b> text', 1)).toMatchObject({ reasoning: '', text: '<b>bold</b> text' });
    expect(split('<thin', 2)).toMatchObject({ reasoning: '', text: '<thin' });
  });

  it('reports a cut reply that ended inside its reasoning, with no answer at all', () => {
    expect(split('<think>I will edit app.py:\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n</thi', 5)).toMatchObject({ text: '', unclosed: true });
  });

  it('never holds back more than a possible tag', () => {
    const splitter = createThinkSplitter();
    expect(splitter.push('<think>abc</')).toEqual({ reasoning: 'abc', text: '' });
    expect(splitter.push('thinking')).toEqual({ reasoning: '</thinking', text: '' });
    expect(splitter.push('</think>ok')).toEqual({ reasoning: '', text: 'ok' });
  });
});

describe('splitOrphanClose', () => {
  it('takes the text before a lone </think> line as reasoning (templates that open the block themselves)', () => {
    expect(splitOrphanClose('Let me think.\nSEARCH draft\n</think>\n\nThe answer.')).toEqual({ reasoning: 'Let me think.\nSEARCH draft\n', text: 'The answer.' });
  });

  it('ignores a close tag inside a line or after an opening tag', () => {
    expect(splitOrphanClose('write `</think>` to end it')).toBeNull();
    expect(splitOrphanClose('<think>\nx\n</think>\n')).toBeNull();
    expect(splitOrphanClose('no tags at all')).toBeNull();
  });
});

describe('withoutReasoning', () => {
  it('strips a leading think block or the text before a lone </think> line, and leaves the rest alone', () => {
    expect(withoutReasoning('<think>draft</think>\n\nfinal')).toBe('final');
    expect(withoutReasoning('draft\n</think>\nfinal')).toBe('final');
    expect(withoutReasoning('just an answer with <think> in it')).toBe('just an answer with <think> in it');
    expect(withoutReasoning('<think>cut off')).toBe('');
  });
});
