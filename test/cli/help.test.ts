import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';
import { renderHelp } from '../../src/cli/help.js';
import { OPTIONS, settingKeys, specOf } from '../../src/config/schema.js';

describe('renderHelp', () => {
  const help = renderHelp();
  const lines = help.split('\n');

  it('lists every option in the table, with its --no- form for negatable booleans', () => {
    for (const key of settingKeys()) {
      const spec = specOf(key);
      if (spec.positional) {
        expect(help).toContain(spec.metavar);
        continue;
      }
      expect(help, key).toMatch(new RegExp(`--${key}\\b(?!-)`));
      if (spec.type === 'boolean' && spec.negatable !== false) expect(help).toContain(`--no-${key}`);
      if (spec.short !== undefined) expect(help).toContain(`-${spec.short}, --${key}`);
    }
  });

  it('mentions only options the parser accepts', () => {
    const flags = [...help.matchAll(/--([a-z][a-z-]*[a-z])/g)].map((m) => m[1] ?? '');
    for (const name of new Set(flags)) {
      const result = parseArgs([`--${name}`, ...sampleValue(name)]);
      expect(result.ok, `--${name}`).toBe(true);
    }
  });

  it('shows defaults and enum values from the table', () => {
    const line = (flag: string) => lines.find((l) => l.trimStart().startsWith(flag)) ?? '';
    expect(line('--map-tokens N')).toContain('default: 1024');
    expect(line('--max-reflections N')).toContain('default: 3');
    expect(line('--edit-format F')).toContain('diff, diff-fenced, whole, udiff, ask');
    expect(line('--stream, --no-stream')).toContain('default: on');
    expect(line('--api-key KEY')).toContain('OPENAI_API_KEY');
  });

  it('groups options under titles and aligns descriptions in one column', () => {
    expect(lines).toContain('Model:');
    expect(lines).toContain('Repository map:');
    const modelLine = lines.find((l) => l.startsWith('  --model NAME')) ?? '';
    const mapLine = lines.find((l) => l.startsWith('  --map-tokens N')) ?? '';
    expect(modelLine.indexOf('model for the chat')).toBe(mapLine.indexOf('repo map budget'));
    expect(help.startsWith('Usage: tandem')).toBe(true);
  });

  it('is built from the table, not a fixed text', () => {
    expect(Object.keys(OPTIONS).length).toBeGreaterThan(30);
    const optionLines = lines.filter((l) => /^ {2}(-|FILE)/.test(l));
    expect(optionLines.length).toBe(settingKeys().length);
  });
});

/** A valid value for a flag that needs one, so only an unknown name can fail. */
function sampleValue(name: string): string[] {
  if (!(name in OPTIONS)) return [];
  const spec = specOf(name as keyof typeof OPTIONS);
  if (spec.type === 'boolean' || (spec.type === 'string' && spec.optionalValue !== undefined)) return [];
  if (spec.type === 'enum') return [spec.values[0] ?? ''];
  return ['1'];
}
