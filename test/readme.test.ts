// The README stays true: every option of the table is documented, and the set-up commands are the real ones.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTIONS } from '../src/config/schema.js';
import { EVAL_OPTIONS } from '../src/eval/eval-args.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string>; bin: Record<string, string> };

/** Whether `text` names `flag` whole: `--map-tokens` does not document a `--map`, nor `--lint-cmd` a `--lint`. */
function namesFlag(text: string, flag: string): boolean {
  const escaped = flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`).test(text);
}

describe('README', () => {
  it('holds no merge-conflict markers', () => {
    expect(readme.split('\n').filter((line) => /^(<{7} |>{7} |={7}$)/.test(line))).toEqual([]);
  });

  it('matches whole option names only', () => {
    expect(namesFlag('use `--map-tokens N`', '--map')).toBe(false);
    expect(namesFlag('use `--lint-cmd CMD`', '--lint')).toBe(false);
    expect(namesFlag('use `--read FILE`, or --read=FILE', '--read')).toBe(true);
  });

  it('documents every option in the option table', () => {
    const missing = Object.entries(OPTIONS)
      .filter(([, spec]) => !('positional' in spec && spec.positional))
      .map(([name]) => `--${name}`)
      .filter((flag) => !namesFlag(readme, flag));
    expect(missing).toEqual([]);
  });

  it('documents every option of tandem eval', () => {
    const start = readme.indexOf('## Measuring quality: `tandem eval`');
    const end = readme.indexOf('\n## ', start + 1);
    const section = readme.slice(start, end < 0 ? undefined : end);
    const missing = EVAL_OPTIONS.map((row) => `--${row.name}`).filter((flag) => !namesFlag(section, flag));
    expect(missing).toEqual([]);
  });

  it('names the commands that really set up, run and test tandem', () => {
    expect(readme).toContain('npm install');
    expect(readme).toContain('npx tandem');
    expect(readme).toContain('npm test');
    expect(pkg.bin['tandem']).toBeDefined();
    expect(pkg.scripts['prepare']).toContain('build');
    expect(readFileSync(new URL('../.ci/run', import.meta.url), 'utf8')).toContain('npm test');
  });
});
