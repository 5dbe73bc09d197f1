import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
    setupFiles: ['./test/support/setup.ts'],
    reporters: ['default', './test/support/count-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Measured side by side at the same load: threads took 10% longer and more CPU than forks.
    pool: 'forks',
    // Vitest's default on 2 cores is one worker; much e2e time is waiting on a spawned CLI, a lock or a
    // pane, which other files can use. Since the CLI runs bundled (a spawn costs a third less CPU), three
    // workers beat two side by side: alone 96 s against 103 s (means of 4 and 3 runs), and beside two
    // busy loops 136 s against 143 s.
    maxWorkers: 3,
    // A fresh process per file cost more than many files' tests: files share a worker's loaded modules.
    // Nothing in src/ keeps per-run state in a module (the CLI gets everything from its environment),
    // and test/support/setup.ts cleans up after each file.
    isolate: false,
  },
});
