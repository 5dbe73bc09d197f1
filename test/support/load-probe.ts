// NODE_OPTIONS that make the CLI record what it loads: every module file (through a module hook) and
// every worker thread it starts. Tests count them (a chunk not loaded, no parser thread), never time.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tempDir } from './temp-repo.js';

export interface LoadProbe {
  readonly env: Record<string, string>;
  /** The files of the ES modules the CLI loaded (absolute paths), in load order. */
  modules(): string[];
  /** Worker threads the CLI started. */
  workers(): number;
}

export function loadProbe(): LoadProbe {
  const dir = tempDir('tandem-loads-');
  const modulesLog = join(dir, 'modules.txt');
  const workersLog = join(dir, 'workers.txt');
  const hooks = join(dir, 'hooks.mjs');
  const probe = join(dir, 'probe.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';\n` +
      `export async function load(url, context, next) {\n  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(modulesLog)}, url + '\\n');\n  return next(url, context);\n}\n`,
  );
  writeFileSync(
    probe,
    `import { appendFileSync } from 'node:fs';\nimport { register, syncBuiltinESMExports } from 'node:module';\nimport threads from 'node:worker_threads';\n` +
      `register(${JSON.stringify(pathToFileURL(hooks).href)});\n` +
      // Counted in the constructor: process's 'worker' event would also count the module hooks' own thread.
      `const Base = threads.Worker;\n` +
      `threads.Worker = class extends Base {\n  constructor(...args) {\n    super(...args);\n    appendFileSync(${JSON.stringify(workersLog)}, 'worker\\n');\n  }\n};\n` +
      `syncBuiltinESMExports();\n`,
  );
  writeFileSync(modulesLog, '');
  writeFileSync(workersLog, '');
  const lines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return {
    env: { NODE_OPTIONS: `--import=${pathToFileURL(probe).href}` },
    modules: () => lines(modulesLog).map((url) => fileURLToPath(url)),
    workers: () => lines(workersLog).length,
  };
}
