// The runner of every command tandem starts for the repository (lint, test, /run, !cmd, suggested
// commands): inside bubblewrap with --sandbox, and a command the sandbox refused is in the audit log.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../config/schema.js';
import type { AuditLog } from '../platform/audit-log.js';
import { createProcessRunner, type ProcessRunner } from '../platform/process.js';
import { createSandbox, SandboxError, type Sandbox } from '../platform/sandbox.js';
import type { CliEnvironment } from './cli-environment.js';
import { stateDirProblem } from './state-dir.js';

export function sandboxFor(environment: CliEnvironment, settings: Settings, root: string, repoRoot: string | null): Sandbox | null {
  if (!settings.sandbox) return null;
  // `.tandem/` is read-only inside only if it exists: made now, a command cannot plant tandem's state files.
  if (repoRoot !== null && stateDirProblem(repoRoot) === null) mkdirSync(join(repoRoot, '.tandem'), { recursive: true });
  // The home folder by $HOME and by the account (they differ under sudo, or in tests) both go behind a tmpfs.
  const homes = [environment.homeDir, environment.env['HOME']].filter((dir): dir is string => typeof dir === 'string' && dir !== '');
  return createSandbox({ root, hiddenDirs: homes, network: settings['sandbox-network'], path: environment.env['PATH'] });
}

export function createCommandRunner(sandbox: Sandbox | null, audit: AuditLog): ProcessRunner {
  const runner = createProcessRunner({ sandbox });
  if (sandbox === null) return runner;
  return {
    async run(command, options) {
      try {
        return await runner.run(command, options);
      } catch (error) {
        if (error instanceof SandboxError) audit.record({ kind: 'command', subject: command, decision: 'no', by: 'policy', reason: error.message });
        throw error;
      }
    },
  };
}

/** How the status line and /settings describe where commands run. */
export function sandboxNote(settings: Settings): string | null {
  if (!settings.sandbox) return null;
  return settings['sandbox-network'] ? 'commands sandboxed (bubblewrap, network on)' : 'commands sandboxed (bubblewrap, no network)';
}
