// The one placeholder filler: fills every placeholder in one pass and refuses a mismatch.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from '../../src/platform/placeholders.js';

describe('fillPlaceholders', () => {
  it('fills each placeholder, every time it appears, and leaves other braces alone', () => {
    expect(fillPlaceholders('{fence}\nf"{name}"\n{fence}', { fence: '````' })).toBe('````\nf"{name}"\n````');
    expect(fillPlaceholders('no placeholders {} { files }', {})).toBe('no placeholders {} { files }');
  });

  it('never searches a value for placeholders', () => {
    expect(fillPlaceholders('$ {command}\n{details}', { command: 'echo {details} $&', details: 'out {fence}' })).toBe('$ echo {details} $&\nout {fence}');
  });

  it('an unknown placeholder name or a placeholder without a value is an error', () => {
    expect(() => fillPlaceholders('Fix: {details}', { detail: 'x' } as never)).toThrow(/unknown placeholder \{detail\}/);
    expect(() => fillPlaceholders('Fix: {details}', {})).toThrow(/placeholder \{details\} has no value/);
  });

  it("fills the shipped reflection prompt as the old one-off replace did, byte for byte", () => {
    const template = readFileSync(new URL('../../prompts/reflection/test.md', import.meta.url), 'utf8');
    const old = template.replace('{command}', () => 'npm test').replace('{details}', () => 'FAIL a.test.ts');
    expect(fillPlaceholders(template, { command: 'npm test', details: 'FAIL a.test.ts' })).toBe(old);
  });
});
