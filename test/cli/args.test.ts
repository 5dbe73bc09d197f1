import { describe, expect, it } from 'vitest';
import { looksLikeSessionId, parseArgs } from '../../src/cli/args.js';
import { RESUME_LATEST } from '../../src/config/schema.js';

function ok(argv: string[]) {
  const result = parseArgs(argv);
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return result;
}

function error(argv: string[]): string {
  const result = parseArgs(argv);
  if (result.ok) throw new Error(`expected an error for ${argv.join(' ')}`);
  return result.error;
}

describe('parseArgs', () => {
  it('returns nothing for an empty command line', () => {
    const result = ok([]);
    expect(result.flags).toEqual({});
    expect(result.files).toEqual([]);
    expect(result.explicit.size).toBe(0);
  });

  it('reads --x=v and --x v alike, typed by the table', () => {
    expect(ok(['--map-tokens=2048']).flags['map-tokens']).toBe(2048);
    expect(ok(['--map-tokens', '2048']).flags['map-tokens']).toBe(2048);
    expect(ok(['--model', 'qwen', '--edit-format=whole']).flags).toEqual({ model: 'qwen', 'edit-format': 'whole' });
  });

  it('sets booleans with --x and clears them with --no-x, last one wins', () => {
    expect(ok(['--auto-test']).flags['auto-test']).toBe(true);
    expect(ok(['--no-auto-commits']).flags['auto-commits']).toBe(false);
    expect(ok(['--stream', '--no-stream']).flags.stream).toBe(false);
    expect(ok(['--pretty=no']).flags.pretty).toBe(false);
  });

  it('collects repeatable options in order', () => {
    const result = ok(['--read', 'a.md', '--read=b.md', '--lint-cmd', 'python: ruff check']);
    expect(result.flags.read).toEqual(['a.md', 'b.md']);
    expect(result.flags['lint-cmd']).toEqual(['python: ruff check']);
  });

  it('takes -m TEXT, -mTEXT and files around options', () => {
    const result = ok(['a.py', '-m', 'add a docstring', 'b.py']);
    expect(result.flags.message).toBe('add a docstring');
    expect(result.files).toEqual(['a.py', 'b.py']);
    expect(result.flags.files).toEqual(['a.py', 'b.py']);
    expect(ok(['-mhello']).flags.message).toBe('hello');
  });

  it('takes the next word as a value even when it starts with a dash', () => {
    expect(ok(['--message', '--help']).flags).toEqual({ message: '--help' });
  });

  it('treats everything after -- as files', () => {
    const result = ok(['--yes-always', '--', '--weird-name.py', '-m']);
    expect(result.files).toEqual(['--weird-name.py', '-m']);
    expect(result.flags['yes-always']).toBe(true);
  });

  it('records which settings were given explicitly', () => {
    const result = ok(['--no-stream', '--map-tokens', '0', 'x.ts']);
    expect([...result.explicit].sort()).toEqual(['files', 'map-tokens', 'stream']);
  });

  it('reads --resume alone as the latest session, and only takes a session-id-shaped word as its value', () => {
    expect(ok(['--resume']).flags.resume).toBe(RESUME_LATEST);
    const withFile = ok(['--resume', 'file.py']);
    expect(withFile.flags.resume).toBe(RESUME_LATEST);
    expect(withFile.files).toEqual(['file.py']);
    const withId = ok(['--resume', '20250131-142530-a1b2', 'file.py']);
    expect(withId.flags.resume).toBe('20250131-142530-a1b2');
    expect(withId.files).toEqual(['file.py']);
    expect(ok(['--resume=anything']).flags.resume).toBe('anything');
    expect(looksLikeSessionId('20250131-142530-a1b2')).toBe(true);
    expect(looksLikeSessionId('main.py')).toBe(false);
  });

  it('accepts the actions', () => {
    expect(ok(['--help']).flags.help).toBe(true);
    expect(ok(['-h']).flags.help).toBe(true);
    expect(ok(['--version']).flags.version).toBe(true);
    expect(ok(['--show-repo-map', 'a.py']).flags['show-repo-map']).toBe(true);
    expect(ok(['--sessions']).flags.sessions).toBe(true);
  });

  it('names the flag and the valid values in one line', () => {
    expect(error(['--edit-format', 'bogus'])).toBe("--edit-format: 'bogus' is not one of diff, diff-fenced, whole, udiff, ask");
    expect(error(['--map-tokens', '-5'])).toBe("--map-tokens: expected a whole number >= 0, got '-5'");
    expect(error(['--map-tokens=lots'])).toBe("--map-tokens: expected a whole number >= 0, got 'lots'");
    expect(error(['--context-window', '0'])).toBe("--context-window: expected a whole number >= 1, got '0'");
    expect(error(['--map-refresh', 'never'])).toBe("--map-refresh: 'never' is not one of auto, always, files, manual");
    expect(error(['--stream=maybe'])).toBe("--stream: expected true or false, got 'maybe'");
  });

  it('reports a missing or empty value', () => {
    expect(error(['--model'])).toBe('--model needs a value (NAME)');
    expect(error(['--map-tokens'])).toBe('--map-tokens needs a value (a whole number >= 0)');
    expect(error(['-m'])).toBe('-m needs a value (TEXT)');
    expect(error(['--model='])).toBe('--model: empty value');
  });

  it('rejects unknown options and suggests the closest one', () => {
    expect(error(['--frobnicate'])).toBe('unknown option --frobnicate (see tandem --help)');
    expect(error(['--map-token', '5'])).toBe('unknown option --map-token; did you mean --map-tokens? (see tandem --help)');
    expect(error(['--no-auto-commit'])).toBe(
      'unknown option --no-auto-commit; did you mean --no-auto-commits? (see tandem --help)',
    );
    expect(error(['-x'])).toBe('unknown option -x (see tandem --help)');
  });

  it('has no --no- form for actions or non-booleans, and no --files flag', () => {
    expect(error(['--no-help'])).toMatch(/^unknown option --no-help/);
    expect(error(['--no-model'])).toMatch(/^unknown option --no-model/);
    expect(error(['--files', 'a'])).toMatch(/^unknown option --files/);
    expect(error(['--no-stream=1'])).toBe('--no-stream takes no value');
    expect(error(['--help=yes'])).toBe('--help takes no value');
  });

  it('refuses --message together with --message-file', () => {
    expect(error(['-m', 'x', '--message-file', 'f.txt'])).toBe('--message and --message-file cannot be used together');
  });
});
