// The one-shot actions --lint, --test and --commit: run once on the repository, no chat, no model
// (except --commit's message), and exit 0 when it passed, 3 when lint or tests fail, 2 with no test
// command, 4 when only untracked files could be committed and nobody could approve them, 1 when git fails. To have the model fix what fails, send `--message /lint` instead.
import type { Settings } from '../config/schema.js';
import type { ResultStatus } from '../session/events.js';
import { EXIT } from '../session/exit-codes.js';
import type { BuiltSession } from './session-build.js';
import type { CliEnvironment } from './cli-environment.js';
import { commitPending } from './commands/commit.js';
import { lintCommand } from './commands/lint.js';
import { testCommand } from './commands/test.js';
import type { CommandResult } from './commands/types.js';

export type CheckAction = 'lint' | 'test' | 'commit';

export function checkActionOf(settings: Settings): CheckAction | null {
  if (settings.lint) return 'lint';
  if (settings.test) return 'test';
  if (settings.commit) return 'commit';
  return null;
}

export async function runCheckAction(built: BuiltSession, action: CheckAction, environment: CliEnvironment): Promise<number> {
  const print = built.settings.json
    ? (text: string) => built.emit({ type: 'info', message: text.trimEnd() })
    : (text: string) => void environment.stdout.write(text);
  const ctx = built.commandContext(print);
  const { code, status } = await run(action, ctx, built);
  built.emit({ type: 'result', status, totals: built.session.resultTotals() });
  return code;
}

async function run(action: CheckAction, ctx: ReturnType<BuiltSession['commandContext']>, built: BuiltSession): Promise<{ code: number; status: ResultStatus }> {
  if (action === 'commit') {
    const pending = ctx.git ? await ctx.git.pendingFiles() : null;
    if (pending && pending.tracked.length === 0 && pending.untracked.length === 0) {
      ctx.print('Nothing to commit: the work tree is clean.\n');
      return { code: EXIT.ok, status: 'completed' };
    }
    const result = await commitPending(null, ctx);
    // Only untracked files, and nobody here to say yes to them: the approval DESIGN's exit 4 is about
    if (result.status === 'error' && pending?.tracked.length === 0 && !ctx.canAsk) return { code: EXIT.approvalRequired, status: 'approval_required' };
    if (result.status === 'error' && pending?.tracked.length === 0) return { code: EXIT.ok, status: 'completed' };
    return outcome(result, EXIT.error);
  }
  if (action === 'test' && !ctx.testCommand) {
    ctx.print('--test needs a test command: set --test-cmd.\n');
    return { code: EXIT.usage, status: 'error' };
  }
  const command = action === 'lint' ? lintCommand : testCommand;
  const result = await command.run('', ctx);
  if (result.request !== undefined) {
    built.emit({ type: action, ok: false, output: result.request });
    return { code: EXIT.reflectionLimit, status: 'reflection_limit' };
  }
  return outcome(result, EXIT.error);
}

function outcome(result: CommandResult, failure: number): { code: number; status: ResultStatus } {
  const status = result.status ?? 'completed';
  return { code: status === 'completed' ? EXIT.ok : failure, status };
}
