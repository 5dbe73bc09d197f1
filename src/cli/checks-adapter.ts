// The checks port over the checks/ functions: tree-sitter syntax check, lint commands, test command.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderCodeContext } from '../checks/code-context.js';
import { formatLintFailure, lintCommandsFor, parseLintCommands, runLint } from '../checks/lint.js';
import { checkSyntax, describeSyntaxProblems } from '../checks/syntax-check.js';
import { runTests } from '../checks/test-runner.js';
import type { ChecksPort } from '../coders/ports.js';
import type { ProcessRunner } from '../platform/process.js';
import { createGrammarLoader, type GrammarLoader } from '../platform/tree-sitter.js';

/** Test output sent to the model is cut to this many characters, keeping the end. */
const TEST_OUTPUT_BUDGET = 8_000;

export interface ChecksAdapterOptions {
  readonly root: string;
  readonly runner: ProcessRunner;
  readonly env: Record<string, string>;
  /** The lint commands' environment (safe import paths); default: `env`. */
  readonly lintEnv?: Record<string, string>;
  readonly lintCommands: readonly string[];
  readonly testCommand: string | null;
  readonly timeoutMs: number;
}

export function createChecksPort(options: ChecksAdapterOptions): ChecksPort {
  let loader: GrammarLoader | undefined;
  // A syntax check parses a few files: the runtime stays on V8's baseline tier (see runtimeTier).
  const newLoader = (): GrammarLoader => createGrammarLoader({ runtimeTier: 'baseline' });
  const lintCommands = parseLintCommands(options.lintCommands);
  const run = { env: options.env, timeoutMs: options.timeoutMs };
  return {
    prepare(paths) {
      const grammars = (loader ??= newLoader());
      for (const language of new Set(paths.map((path) => grammars.languageForPath(path)))) {
        if (language === null) continue;
        grammars.parser(language).catch(() => {
          // The check itself loads it again and reports what failed.
        });
      }
    },
    async syntax(path, before, after) {
      loader ??= newLoader();
      const result = await checkSyntax(loader, path, before, after);
      if (result.problems.length === 0) return null;
      const context = renderCodeContext(after, result.problems.map((p) => p.line));
      return `${describeSyntaxProblems(path, result.problems)}\n\n${path}:\n${context}`;
    },
    async lint(paths, signal) {
      if (lintCommands.length === 0) return null;
      const result = await runLint(options.runner, options.root, paths, lintCommands, { ...run, env: options.lintEnv ?? options.env, signal });
      const ran = [...new Set(paths.flatMap((path) => lintCommandsFor(path, lintCommands).map((c) => c.command)))].join('; ');
      if (result.ok) return { ok: true, output: '', command: ran, exitCode: 0 };
      const sections = await Promise.all(
        result.failures.map(async (failure) => {
          const text = await readFile(join(options.root, failure.file), 'utf8').catch(() => null);
          return formatLintFailure(failure, text);
        }),
      );
      const first = result.failures[0];
      return { ok: false, output: sections.join('\n\n'), command: first?.command ?? ran, exitCode: first?.exitCode ?? null };
    },
    async test(signal) {
      if (!options.testCommand) return null;
      const result = await runTests(options.runner, options.root, options.testCommand, TEST_OUTPUT_BUDGET, { ...run, signal });
      return { ok: result.ok, output: result.output, command: result.command, exitCode: result.exitCode };
    },
  };
}
