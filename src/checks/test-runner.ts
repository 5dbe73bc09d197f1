// --test-cmd: run the project's tests from the repository root; on failure keep the end of the
// output, where test runners print the failures and the summary.
import type { ProcessRunner } from '../platform/process.js';
import type { CheckRunOptions } from './lint.js';

export interface TestRunResult {
  readonly ok: boolean;
  readonly command: string;
  /** The output trimmed to the budget, its end kept. */
  readonly output: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
}

/** `text` if it fits in `budget` characters, else a marker line and as much of its end as fits. */
export function keepEnd(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const marker = (omitted: number): string => `[... ${omitted} characters omitted ...]\n`;
  let keep = Math.max(0, budget - marker(text.length).length);
  let tail = text.slice(text.length - keep);
  // Start at a line boundary when one is near, so the first kept line is whole.
  const newline = tail.indexOf('\n');
  if (newline >= 0 && newline < 200 && newline < tail.length - 1) {
    tail = tail.slice(newline + 1);
    keep = tail.length;
  }
  return marker(text.length - keep) + tail;
}

export async function runTests(
  runner: ProcessRunner,
  root: string,
  testCmd: string,
  budgetChars: number,
  options: CheckRunOptions,
): Promise<TestRunResult> {
  const result = await runner.run(testCmd, { cwd: root, ...options });
  const ok = result.exitCode === 0 && !result.timedOut;
  const note = result.timedOut ? `\n[the command was stopped after ${options.timeoutMs} ms]\n` : '';
  return {
    ok,
    command: testCmd,
    output: keepEnd(result.output + note, budgetChars),
    exitCode: result.exitCode,
    timedOut: result.timedOut,
  };
}
