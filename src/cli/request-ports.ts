// The real ports a request runs through (model, git, checks, asker, map, shell, files, lock, journal, audit).
import { join } from 'node:path';
import type { RequestPorts, ShellPort } from '../coders/ports.js';
import type { Settings } from '../config/schema.js';
import type { CommitCredit } from '../git/commit.js';
import type { ModelClient } from '../model/types.js';
import { withSafeImportPaths } from '../platform/safe-import-env.js';
import { systemClock } from '../platform/clock.js';
import type { ProcessRunner } from '../platform/process.js';
import type { AuditLog } from '../platform/audit-log.js';
import { createRepoLock } from '../platform/repo-lock.js';
import { NO_MODEL } from '../model/clipboard-client.js';
import type { GuardState } from '../git/repo.js';
import type { RequestListing } from '../git/repo-listing.js';
import type { EmitEvent } from '../session/events.js';
import { createAsker } from './asker.js';
import { createChecksPort } from './checks-adapter.js';
import { createGitPort, createRepoFilesPort } from './git-adapter.js';
import { type RepoMapHandle } from './repo-map-adapter.js';
import type { BuildInput } from './session-build.js';
import { repoRelativePath } from '../platform/repo-path.js';

export interface PortParts {
  readonly root: string;
  readonly gitOptions: { readonly env: Record<string, string>; readonly guards?: Map<string, GuardState> };
  readonly client: ModelClient;
  readonly repoMap: RepoMapHandle | null;
  readonly runner: ProcessRunner;
  readonly runShell: (command: string) => ReturnType<ShellPort['run']>;
  readonly commandTimeoutMs: number;
  /** The recording emitter: the asker's questions and answers join the log. */
  readonly emit: EmitEvent;
  readonly audit: AuditLog;
  /** The chat's main model now (for the Co-authored-by trailer). */
  readonly mainModel: () => string;
  /** `.tandem` is a real folder of a repository: the lock and the apply journal may live there. */
  readonly stateUsable: boolean;
  readonly trackedState: ReadonlySet<string>;
  /** The request's one listing of the repository (null outside a repository). */
  readonly listing: RequestListing | null;
}

/** --attribute-author / --attribute-committer / --attribute-co-authored-by for tandem's commits. */
export function creditOf(settings: Settings, model: string): CommitCredit {
  return {
    author: settings['attribute-author'],
    committer: settings['attribute-committer'],
    coAuthorModel: settings['attribute-co-authored-by'] ? model : null,
  };
}

/** The real ports a request runs through: model, git, checks, asker, map, shell, repository files, lock. */
export function createRequestPorts(input: BuildInput, parts: PortParts): RequestPorts {
  const { environment, settings } = input;
  const { root, gitOptions, client, repoMap, runner, runShell, commandTimeoutMs } = parts;
  const childEnv = gitOptions.env;
  return {
    model: client,
    // With --copy-paste there is no model for commit messages and summaries: tandem writes its own.
    weakModel: settings['copy-paste'] ? NO_MODEL : client,
    git: input.repoRoot ? createGitPort(input.repoRoot, gitOptions, settings['git-commit-verify'], () => creditOf(settings, parts.mainModel()), parts.listing) : null,
    checks: createChecksPort({ root, runner, env: childEnv, lintEnv: withSafeImportPaths(childEnv), lintCommands: settings['lint-cmd'], testCommand: settings['test-cmd'], timeoutMs: commandTimeoutMs }),
    asker: createAsker({
      yesAlways: settings['yes-always'],
      prompt: input.interactive ? (question, choices, fallback) => input.lines.ask(question, choices, fallback) : null,
      promptCount: () => input.lines.inputCount(),
      emit: parts.emit,
      audit: parts.audit,
    }),
    repoMap,
    shell: { run: (command) => runShell(command) },
    files: input.repoRoot ? createRepoFilesPort(input.repoRoot, gitOptions, subtreeOf(input), parts.listing) : null,
    lock:
      input.repoRoot && parts.stateUsable
        ? createRepoLock(input.repoRoot, {
            timeoutMs: settings['lock-timeout'] * 1000,
            pid: environment.pid ?? 0,
            tracked: parts.trackedState.has('.tandem/write.lock'),
            warn: (message) => parts.emit({ type: 'warning', message }),
          })
        : null,
    applyJournal: input.repoRoot && parts.stateUsable ? { file: join(input.repoRoot, '.tandem', 'apply-journal.json'), pid: environment.pid ?? 0, trustDir: join(environment.homeDir, '.tandem', 'journals') } : null,
    audit: parts.audit,
    clock: environment.clock ?? systemClock,
  };
}

/** --subtree-only: the folder tandem started in, repository-relative; null for the whole repository. */
export function subtreeOf(input: Pick<BuildInput, 'settings' | 'repoRoot' | 'environment'>): string | null {
  if (!input.settings['subtree-only'] || input.repoRoot === null) return null;
  return repoRelativePath(input.repoRoot, input.environment.cwd);
}
