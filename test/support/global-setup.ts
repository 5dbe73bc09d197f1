// Once per test run (vitest.config.ts globalSetup): the template repository gitRepo copies, removed at the end.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TestProject } from 'vitest/node';
import { makeTemplateRepo } from './temp-repo.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateRepo: string;
  }
}

export default function setup(project: TestProject): () => void {
  const root = makeTemplateRepo();
  project.provide('templateRepo', root);
  return () => rmSync(dirname(root), { recursive: true, force: true });
}
