// After a change is written: syntax check each file, lint, test. Failures become text for the model.
import type { Clock } from '../platform/clock.js';
import type { CheckOutcome, ChecksPort } from '../coders/ports.js';
import type { CheckFacts, EmitRoundEvent } from './round-events.js';
import { fillPlaceholders } from '../platform/placeholders.js';

export interface CheckRoundOptions {
  readonly lint: boolean;
  readonly test: boolean;
}

export interface CheckPrompts {
  readonly syntax: string;
  readonly lint: string;
  readonly test: string;
}

export interface CheckRoundResult {
  /** Sections for the reflection message, one per failing check. */
  readonly failures: string[];
  readonly kinds: Array<'syntax' | 'lint' | 'test'>;
}

export async function runCheckRound(
  written: ReadonlyArray<{ path: string; before: string | null; after: string }>,
  options: CheckRoundOptions,
  deps: { checks: ChecksPort; emit: EmitRoundEvent; prompts: CheckPrompts; testCommand: string; signal?: AbortSignal; clock?: Clock },
): Promise<CheckRoundResult> {
  const failures: string[] = [];
  const kinds: CheckRoundResult['kinds'] = [];
  const syntaxErrors: string[] = [];
  const syntaxTimer = stepTimer(deps.clock);
  for (const file of written) {
    const errors = await deps.checks.syntax(file.path, file.before, file.after);
    if (errors) syntaxErrors.push(errors);
  }
  if (syntaxErrors.length > 0) {
    deps.emit({ type: 'lint', ok: false, output: syntaxErrors.join('\n\n'), check: 'syntax', ...syntaxTimer() });
    failures.push(fillPlaceholders(deps.prompts.syntax, { details: syntaxErrors.join('\n\n') }).trim());
    kinds.push('syntax');
  }
  if (options.lint && written.length > 0) {
    const timer = stepTimer(deps.clock);
    const lint = await deps.checks.lint(written.map((f) => f.path), deps.signal);
    if (lint) {
      deps.emit({ type: 'lint', ok: lint.ok, output: lint.output, ...factsOf(lint, timer()) });
      if (!lint.ok && !deps.signal?.aborted) {
        failures.push(fillPlaceholders(deps.prompts.lint, { details: lint.output }).trim());
        kinds.push('lint');
      }
    }
  }
  // Ctrl-C stopped the lint: the request ends, no test starts.
  if (options.test && !deps.signal?.aborted) {
    const timer = stepTimer(deps.clock);
    const test = await deps.checks.test(deps.signal);
    if (test) {
      deps.emit({ type: 'test', ok: test.ok, output: test.output, ...factsOf(test, timer()) });
      if (!test.ok) {
        const text = fillPlaceholders(deps.prompts.test, { command: deps.testCommand, details: test.output });
        failures.push(text.trim());
        kinds.push('test');
      }
    }
  }
  return { failures, kinds };
}

/** Starts timing a step now; the returned function gives its duration so far (nothing without a clock). */
export function stepTimer(clock: Clock | undefined): () => { durationMs?: number } {
  if (!clock) return () => ({});
  const start = clock.now().getTime();
  return () => ({ durationMs: clock.now().getTime() - start });
}

function factsOf(outcome: CheckOutcome, timing: { durationMs?: number }): CheckFacts {
  return {
    ...(outcome.command === undefined ? {} : { command: outcome.command }),
    ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
    ...timing,
  };
}
