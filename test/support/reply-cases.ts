// Reads the real-model reply cases of test/edits/replies/<case>/: case.json, reply.md (and followup.md,
// the model's next reply), before/ and after/ trees.
import { readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EditFormat } from '../../src/edits/types.js';

export const REPLY_CASES_DIR = fileURLToPath(new URL('../edits/replies/', import.meta.url));

export interface ExpectedFailure {
  readonly reason: string;
  readonly path: string;
  /** Words the message to the model must contain. */
  readonly says: string[];
}

export interface ReplyCase {
  readonly name: string;
  readonly format: EditFormat;
  readonly chatFiles: string[];
  readonly reply: string;
  readonly followup: string | null;
  /** Words the parse problems must contain; empty means no problem at all. */
  readonly problems: string[];
  readonly failures: ExpectedFailure[];
  /** Words the planner's notes must contain. */
  readonly notes: string[];
  /** Model requests the CLI makes for the case (default: 1, or 2 when something goes back to the model). */
  readonly requests: number | undefined;
  /** Files outside the chat that must be in the chat afterwards. */
  readonly joins: string[];
  /** Words the second request must carry back to the model. */
  readonly toModel: string[];
  readonly beforeDir: string;
  readonly afterDir: string;
}

export function replyCaseNames(): string[] {
  return readdirSync(REPLY_CASES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

export async function readReplyCase(name: string): Promise<ReplyCase> {
  const dir = path.join(REPLY_CASES_DIR, name);
  const raw = JSON.parse(await fs.readFile(path.join(dir, 'case.json'), 'utf8')) as Record<string, any>;
  let followup: string | null = null;
  try {
    followup = await fs.readFile(path.join(dir, 'followup.md'), 'utf8');
  } catch {
    followup = null;
  }
  return {
    name,
    format: raw['format'] as EditFormat,
    chatFiles: raw['chatFiles'] as string[],
    reply: await fs.readFile(path.join(dir, 'reply.md'), 'utf8'),
    followup,
    problems: (raw['problems'] as string[] | undefined) ?? [],
    failures: (raw['failures'] as ExpectedFailure[] | undefined) ?? [],
    notes: (raw['notes'] as string[] | undefined) ?? [],
    requests: raw['requests'] as number | undefined,
    joins: (raw['joins'] as string[] | undefined) ?? [],
    toModel: (raw['toModel'] as string[] | undefined) ?? [],
    beforeDir: path.join(dir, 'before'),
    afterDir: path.join(dir, 'after'),
  };
}

/** Every file under `dir` (relative posix path → exact text), skipping .git and .tandem. */
export async function listTree(dir: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    if (e.name === '.git' || e.name === '.tandem') continue;
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, await listTree(path.join(dir, e.name), rel));
    else out[rel] = await fs.readFile(path.join(dir, e.name), 'utf8');
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
