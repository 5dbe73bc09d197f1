// Lint/test commands named by a repository's own config run only once the user approved that exact
// text; approvals are remembered in the user's home folder, never in the repository.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';

export interface ApprovalStore {
  isApproved(command: string): Promise<boolean>;
  approve(command: string): Promise<void>;
}

export function approvalFile(homeDir: string): string {
  return join(homeDir, '.tandem', 'approved-commands.json');
}

export function createApprovalStore(file: string): ApprovalStore {
  const load = async (): Promise<string[]> => {
    try {
      const data: unknown = JSON.parse(await readFile(file, 'utf8'));
      return Array.isArray(data) ? data.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  };
  return {
    async isApproved(command) {
      return (await load()).includes(command);
    },
    async approve(command) {
      const approved = await load();
      if (approved.includes(command)) return;
      await mkdir(dirname(file), { recursive: true });
      const temp = `${file}.${randomUUID()}.tmp`;
      await writeFile(temp, `${JSON.stringify([...approved, command], null, 2)}\n`);
      await rename(temp, file);
    },
  };
}
