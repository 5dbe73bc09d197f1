// `tandem --env-file FILE` reaches tandem when the bin runs as a user's shell runs it: a `tandem` on PATH
// linked to package.json's bin (what `npm link` makes), started through its shebang, not `node dist/...`.
// Node 20 takes --env-file from anywhere on its own command line; the shebang's `--` stops that.
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, CLI } from '../support/cli.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A bin folder holding `tandem` linked to the package's bin, as `npm link` leaves it. */
function linkedBin(): { path: string; home: string } {
  const prefix = tempDir('tandem-prefix-');
  mkdirSync(join(prefix, 'bin'));
  symlinkSync(CLI, join(prefix, 'bin', 'tandem'));
  const home = join(prefix, 'home');
  mkdirSync(home);
  return { path: `${join(prefix, 'bin')}:${process.env['PATH'] ?? '/usr/bin:/bin'}`, home };
}

function runTandem(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { path, home } = linkedBin();
  return new Promise((resolve, reject) => {
    const child = spawn('tandem', args, { cwd, env: { ...baseEnv(home), PATH: path }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('--env-file through the installed bin', () => {
  it("is tandem's: the file's server, key and model are used; a missing file is tandem's usage error", async () => {
    server = await startFakeOpenAI({ fallback: textReply('From the env file.') });
    const repo = gitRepo({ 'a.py': 'A = 1\n' });
    writeFileSync(join(repo, '.env2'), `OPENAI_BASE_URL=${server.url}\nOPENAI_API_KEY=key-from-env2\nTANDEM_MODEL=env2-model\nTANDEM_MAP_TOKENS=0\n`);
    const run = await runTandem(['--env-file', '.env2', '--json', '--message', 'hi'], repo);
    expect(run.code, run.stderr).toBe(0);
    const requests = server.chatRequests('env2-model');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers['authorization']).toBe('Bearer key-from-env2');

    const missing = await runTandem(['--env-file', '.nope', '--message', 'hi'], repo);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('tandem: --env-file:');
    expect(missing.stderr).not.toContain('node:');
  });
});
