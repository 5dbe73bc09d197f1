import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  GROUP_TITLES,
  checkConfigValue,
  checkTextValue,
  closestName,
  defaultSettings,
  envNamesOf,
  settingKeys,
  specOf,
  type Settings,
} from '../../src/config/schema.js';
import type { CoderFormat } from '../../src/coders/coder.js';

describe('the option table', () => {
  it('types each setting from its spec', () => {
    expectTypeOf<Settings['map-tokens']>().toEqualTypeOf<number>();
    expectTypeOf<Settings['context-window']>().toEqualTypeOf<number | null>();
    expectTypeOf<Settings['auto-commits']>().toEqualTypeOf<boolean>();
    expectTypeOf<Settings['model']>().toEqualTypeOf<string>();
    expectTypeOf<Settings['weak-model']>().toEqualTypeOf<string | null>();
    expectTypeOf<Settings['edit-format']>().toEqualTypeOf<CoderFormat | null>();
    expectTypeOf<Settings['map-refresh']>().toEqualTypeOf<'auto' | 'always' | 'files' | 'manual'>();
    expectTypeOf<Settings['read']>().toEqualTypeOf<readonly string[]>();
  });

  it('has consistent entries: defaults valid, aliases unique, groups titled', () => {
    const shorts = new Set<string>();
    for (const key of settingKeys()) {
      const spec = specOf(key);
      expect(key, key).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(GROUP_TITLES[spec.group], key).toBeDefined();
      expect(spec.help.length, key).toBeGreaterThan(5);
      if (spec.type === 'enum' && spec.default !== null) expect(spec.values, key).toContain(spec.default);
      if (spec.type === 'int' && spec.default !== null) expect(spec.default, key).toBeGreaterThanOrEqual(spec.min);
      if (spec.short !== undefined) {
        expect(shorts.has(spec.short), key).toBe(false);
        shorts.add(spec.short);
      }
    }
  });

  it('has the documented defaults', () => {
    const d = defaultSettings();
    expect(d.model).toBe('gpt-4o');
    expect(d['map-tokens']).toBe(1024);
    expect(d['max-reflections']).toBe(3);
    expect(d['auto-commits']).toBe(true);
    expect(d['auto-test']).toBe(false);
    expect(d['yes-always']).toBe(false);
    expect(d.stream).toBe(true);
    expect(d['map-refresh']).toBe('auto');
    expect(d.read).toEqual([]);
    expect(specOf('yes-always').repo).toBe('never-enable');
    expect(specOf('test-cmd').repo).toBe('needs-approval');
    expect(specOf('lint-cmd').repo).toBe('needs-approval');
  });

  it('gives fresh lists on every call', () => {
    const a = defaultSettings();
    (a.read as string[]).push('x');
    expect(defaultSettings().read).toEqual([]);
  });

  it('names environment variables TANDEM_<UPPER_SNAKE>, plus the conventional OPENAI_ ones', () => {
    expect(envNamesOf('map-tokens')).toEqual(['TANDEM_MAP_TOKENS']);
    expect(envNamesOf('model')).toEqual(['TANDEM_MODEL']);
    expect(envNamesOf('api-key')).toEqual(['TANDEM_API_KEY', 'OPENAI_API_KEY']);
    expect(envNamesOf('base-url')).toEqual(['TANDEM_BASE_URL', 'OPENAI_BASE_URL']);
    expect(envNamesOf('message')).toEqual([]);
  });
});

describe('value checks', () => {
  const say = (r: ReturnType<typeof checkTextValue>, shown: string) => (r.ok ? 'ok' : r.describe(shown));

  it('reads text by type', () => {
    expect(checkTextValue(specOf('map-tokens'), ' 12 ')).toEqual({ ok: true, value: 12 });
    expect(checkTextValue(specOf('stream'), 'No')).toEqual({ ok: true, value: false });
    expect(checkTextValue(specOf('stream'), '1')).toEqual({ ok: true, value: true });
    expect(checkTextValue(specOf('read'), 'a.md')).toEqual({ ok: true, value: ['a.md'] });
    expect(say(checkTextValue(specOf('map-tokens'), '1.5'), "'1.5'")).toBe("expected a whole number >= 0, got '1.5'");
    expect(say(checkTextValue(specOf('map-tokens'), '99999999999999999999'), 'x')).toBe('expected a whole number >= 0, got x');
    expect(say(checkTextValue(specOf('edit-format'), 'Diff'), "'Diff'")).toBe("'Diff' is not one of diff, diff-fenced, whole, udiff, ask");
  });

  it('refuses timeouts a timer cannot hold and counts out of range, from flags and config alike', () => {
    expect(say(checkTextValue(specOf('request-timeout'), '3000000'), '3000000')).toBe('expected a whole number from 1 to 2147483, got 3000000');
    expect(checkTextValue(specOf('command-timeout'), '2147483')).toEqual({ ok: true, value: 2147483 });
    expect(checkConfigValue(specOf('command-timeout'), 2147484).ok).toBe(false);
    expect(checkConfigValue(specOf('lock-timeout'), 0)).toEqual({ ok: true, value: 0 });
    expect(say(checkTextValue(specOf('max-retries'), '1000'), '1000')).toBe('expected a whole number from 0 to 100, got 1000');
  });

  it('reads YAML values strictly by type, strings like text', () => {
    expect(checkConfigValue(specOf('map-tokens'), 5)).toEqual({ ok: true, value: 5 });
    expect(checkConfigValue(specOf('map-tokens'), '2048')).toEqual({ ok: true, value: 2048 });
    expect(checkConfigValue(specOf('stream'), 'yes')).toEqual({ ok: true, value: true });
    expect(checkConfigValue(specOf('read'), ['a', 'b'])).toEqual({ ok: true, value: ['a', 'b'] });
    expect(checkConfigValue(specOf('model'), 4)).toEqual({ ok: true, value: '4' });
    expect(checkConfigValue(specOf('map-tokens'), 2.5).ok).toBe(false);
    expect(checkConfigValue(specOf('map-tokens'), true).ok).toBe(false);
    expect(checkConfigValue(specOf('read'), [1]).ok).toBe(false);
    expect(checkConfigValue(specOf('stream'), 1).ok).toBe(false);
  });

  it('suggests a close name and nothing for a far one', () => {
    const names = settingKeys();
    expect(closestName('map-tokes', names)).toBe('map-tokens');
    expect(closestName('weakmodel', names)).toBe('weak-model');
    expect(closestName('frobnicate', names)).toBeNull();
  });
});
