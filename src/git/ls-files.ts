// The repository's files as git sees them: tracked, plus untracked ones git does not ignore.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Repo-relative posix paths, or null when `root` is not in a git work tree. */
export async function listRepoFiles(root: string, env?: Readonly<Record<string, string | undefined>>): Promise<string[] | null> {
  try {
    const { stdout } = await execFileAsync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
      cwd: root,
      env: env ? { ...env } : undefined,
      maxBuffer: 512 * 1024 * 1024,
      encoding: 'utf8',
    });
    return [...new Set(stdout.split('\0').filter(Boolean))];
  } catch {
    return null;
  }
}
