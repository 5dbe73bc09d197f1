import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withSafeImportPaths } from '../../src/platform/safe-import-env.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { searchReplace } from '../support/replies.js';
import { markerPath } from '../support/safety.js';
import { gitRepo, read } from '../support/temp-repo.js';

function pythonWithSafePath(): boolean {
  try {
    return execFileSync('python3', ['-c', 'import sys; print(sys.version_info >= (3, 11))'], { encoding: 'utf8' }).trim() === 'True';
  } catch {
    return false;
  }
}

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the environment of the commands tandem starts', () => {
  it('sets PYTHONSAFEPATH and drops PERL_USE_UNSAFE_INC, keeping the rest', () => {
    expect(withSafeImportPaths({ PATH: '/bin', PERL_USE_UNSAFE_INC: '1', PYTHONSAFEPATH: '' })).toEqual({ PATH: '/bin', PYTHONSAFEPATH: '1' });
  });

  // A cloned repository that already carries py_compile.py: the user's lint command imports the real one.
  it.skipIf(!pythonWithSafePath())('a py_compile.py the repository carries does not run under `python3 -m py_compile`', async () => {
    const marker = markerPath();
    const repo = gitRepo({ 'app.py': 'x = 1\n', 'py_compile.py': `open(${JSON.stringify(marker)}, "w").write("pwned")\n` });
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('app.py', 'x = 1\n', 'x = 2\n'))] }, fallback: textReply('fix: x') });

    const run = await runCliInProcess(
      ['--no-stream', '--json', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--lint-cmd', 'python3 -m py_compile', '-m', 'edit', 'app.py'],
      { cwd: repo },
    );

    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'app.py')).toBe('x = 2\n');
    expect(run.events().filter((e) => e.type === 'lint')).toEqual([expect.objectContaining({ ok: true })]);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(repo, '__pycache__'))).toBe(true); // the real py_compile ran and compiled app.py
  });
});
