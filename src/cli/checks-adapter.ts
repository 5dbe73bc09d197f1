// The checks port over the process runner and the checks/ functions.
import type { ChecksPort } from '../coders/ports.js';
import type { ProcessRunner } from '../platform/process.js';

export interface ChecksAdapterOptions {
  readonly root: string;
  readonly runner: ProcessRunner;
  readonly env: Record<string, string | undefined>;
  readonly lintCommands: readonly string[];
  readonly testCommand: string | null;
  readonly timeoutMs: number;
}

export function createChecksPort(options: ChecksAdapterOptions): ChecksPort {
  void options;
  return {
    syntax: async () => null,
    lint: async () => null,
    test: async () => null,
  };
}
