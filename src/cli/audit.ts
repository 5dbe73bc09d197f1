// The audit log of one run: `.tandem/audit.jsonl` of the repository, or nothing when there is no
// repository or `.tandem` is not a real folder of it (stateDirProblem: then tandem writes nothing there).
import { join } from 'node:path';
import { createAuditFile, noAudit, type AuditLog } from '../platform/audit-log.js';
import { systemClock } from '../platform/clock.js';
import type { EmitEvent } from '../session/events.js';
import type { CliEnvironment } from './cli-environment.js';
import { stateDirProblem } from './state-dir.js';

export function auditFile(root: string): string {
  return join(root, '.tandem', 'audit.jsonl');
}

export function openAudit(environment: CliEnvironment, repoRoot: string | null, emit: EmitEvent, session?: () => string | null): AuditLog {
  if (repoRoot === null || stateDirProblem(repoRoot) !== null) return noAudit;
  const clock = environment.clock ?? systemClock;
  return createAuditFile(auditFile(repoRoot), {
    now: () => clock.now(),
    ...(session ? { session } : {}),
    onError: (message) => emit({ type: 'warning', message }),
  });
}
