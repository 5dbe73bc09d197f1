import { describe, expect, it } from 'vitest';
import { OPTIONS } from '../../src/config/schema.js';
import { EVAL_OPTIONS, parseEvalArgs, renderEvalHelp } from '../../src/eval/eval-args.js';

describe('parseEvalArgs', () => {
  it('reads pass-through options, defaults and inline values', () => {
    const parsed = parseEvalArgs(['--model', 'gpt-4o', '--edit-format=whole', '--architect', '--threads', '4', '--filter', 'py-']);
    expect(parsed).toMatchObject({
      ok: true,
      args: { mode: 'run', model: 'gpt-4o', editFormat: 'whole', architect: true, threads: 4, tries: 2, filter: 'py-', testTimeoutSeconds: 60 },
    });
  });

  it('knows the modes and their runs', () => {
    expect(parseEvalArgs(['--compare', 'a', 'b'])).toMatchObject({ ok: true, args: { mode: 'compare', runs: ['a', 'b'] } });
    expect(parseEvalArgs(['--replay', 'r1'])).toMatchObject({ ok: true, args: { mode: 'replay', runs: ['r1'] } });
    expect(parseEvalArgs(['--resume', 'r1', '--threads', '2'])).toMatchObject({ ok: true, args: { mode: 'resume', runs: ['r1'], threads: 2 } });
  });

  it('parses --prices', () => {
    expect(parseEvalArgs(['--prices', '2.5,10'])).toMatchObject({ ok: true, args: { prices: { input: 2.5, output: 10 } } });
    expect(parseEvalArgs(['--prices', 'cheap'])).toMatchObject({ ok: false });
  });

  it.each([
    [['--nope'], /unknown eval option --nope/],
    [['--model'], /--model needs a value/],
    [['--tries', '0'], /--tries: expected a whole number >= 1, got '0'/],
    [['--compare', 'a'], /needs two runs/],
    [['--replay', 'a', '--resume', 'b'], /cannot be used together/],
    [['stray'], /unexpected argument "stray"/],
    [['--list=yes'], /takes no value/],
    [['--edit-format', 'patch'], /--edit-format: 'patch' is not one of diff, diff-fenced, whole, udiff, ask/],
    [['--threads', 'many'], /--threads: expected a whole number >= 1/],
  ])('rejects %j with one line', (argv, message) => {
    const parsed = parseEvalArgs(argv);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });

  it('takes the pass-through flags from the one option table', () => {
    const passed = EVAL_OPTIONS.filter((row) => row.spec.eval).map((row) => row.name);
    expect(passed).toEqual(['model', 'base-url', 'api-key', 'edit-format', 'architect']);
    for (const name of passed) expect(EVAL_OPTIONS.find((row) => row.name === name)?.spec).toBe(OPTIONS[name as keyof typeof OPTIONS]);
    expect(renderEvalHelp()).toContain(`  --edit-format F          ${OPTIONS['edit-format'].help} (passed to tandem)\n`);
  });
});
