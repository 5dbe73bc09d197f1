// Lint/test commands (and a server or API key) named by a repository's own config are used only once
// the user approved that exact text for that repository; approvals live in the user's home folder,
// never in the repository, and one repository's approval means nothing in another.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';

export interface ApprovalStore {
  isApproved(repoRoot: string, text: string): Promise<boolean>;
  approve(repoRoot: string, text: string): Promise<void>;
}

interface Approval {
  readonly root: string;
  readonly text: string;
}

export function approvalFile(homeDir: string): string {
  return join(homeDir, '.tandem', 'approved-commands.json');
}

function isApproval(value: unknown): value is Approval {
  if (typeof value !== 'object' || value === null) return false;
  const { root, text } = value as Record<string, unknown>;
  return typeof root === 'string' && typeof text === 'string';
}

export function createApprovalStore(file: string): ApprovalStore {
  // Entries without a repository (an older format) approve nothing.
  const load = async (): Promise<Approval[]> => {
    try {
      const data: unknown = JSON.parse(await readFile(file, 'utf8'));
      return Array.isArray(data) ? data.filter(isApproval) : [];
    } catch {
      return [];
    }
  };
  const has = (list: readonly Approval[], root: string, text: string): boolean => list.some((a) => a.root === root && a.text === text);
  return {
    async isApproved(repoRoot, text) {
      return has(await load(), repoRoot, text);
    },
    async approve(repoRoot, text) {
      const approved = await load();
      if (has(approved, repoRoot, text)) return;
      await mkdir(dirname(file), { recursive: true });
      const temp = `${file}.${randomUUID()}.tmp`;
      await writeFile(temp, `${JSON.stringify([...approved, { root: repoRoot, text }], null, 2)}\n`);
      await rename(temp, file);
    },
  };
}
