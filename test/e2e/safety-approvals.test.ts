// Class: approvals leaked between repositories. A command text approved in one repository is not
// approved in another whose config names the same text.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

function homeApproving(root: string, text: string): string {
  const home = join(tempDir('tandem-home-'), 'home');
  mkdirSync(join(home, '.tandem'), { recursive: true });
  writeFileSync(join(home, '.tandem', 'approved-commands.json'), JSON.stringify([{ root, text }]));
  return home;
}

describe('command approvals are per repository', () => {
  it.each([
    ['headless', [] as string[]],
    ['with --yes-always', ['--yes-always']],
  ])('%s: the approved repository runs its command; another with the same text asks again (exit 4)', async (_, flags) => {
    const config = { '.tandem.conf.yml': 'test-cmd: touch ran-here\n', 'a.py': 'a = 1\n' };
    const approved = gitRepo(config);
    const stranger = gitRepo(config);
    const home = homeApproving(approved, 'touch ran-here');

    const ok = await runCli(['-m', '/test', '--map-tokens', '0', ...flags], { cwd: approved, home });
    const refused = await runCli(['-m', '/test', '--map-tokens', '0', ...flags], { cwd: stranger, home });

    expect(ok.code, ok.stderr).toBe(0);
    expect(existsSync(join(approved, 'ran-here'))).toBe(true);
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toMatch(/test-cmd to touch ran-here, which you have not approved/);
    expect(existsSync(join(stranger, 'ran-here'))).toBe(false);
  });

  it('an approval without a repository (the old format) approves nothing', async () => {
    const repo = gitRepo({ '.tandem.conf.yml': 'test-cmd: touch ran-here\n' });
    const home = join(tempDir('tandem-home-'), 'home');
    mkdirSync(join(home, '.tandem'), { recursive: true });
    writeFileSync(join(home, '.tandem', 'approved-commands.json'), JSON.stringify(['touch ran-here']));
    const run = await runCli(['-m', '/test', '--map-tokens', '0'], { cwd: repo, home });
    expect(run.code).toBe(4);
    expect(existsSync(join(repo, 'ran-here'))).toBe(false);
  });
});
