// Assembles "working from your editor" for one run: watch mode (when it can run here), the editor
// of /editor, multi-line input and notifications, and the event tap that tells the watcher which
// writes were tandem's own.
import type { Settings } from '../config/schema.js';
import { systemClock } from '../platform/clock.js';
import { createChokidarWatcher, type WatchFiles } from '../platform/file-watcher.js';
import { scrubEnvironment } from '../platform/scrub-env.js';
import { startNotifyProgram } from '../platform/user-programs.js';
import type { SessionEvent } from '../session/events.js';
import { EXIT } from '../session/exit-codes.js';
import type { CliEnvironment } from './cli-environment.js';
import type { ChatInputTools } from './commands/types.js';
import { createEditorOpener } from './editor-opener.js';
import { CliError } from './cli-error.js';
import type { LineReader } from './line-reader.js';
import { Notifier } from './notifier.js';
import { createWatchMode, type WatchMode } from './watch-mode.js';
import type { PromptLoader } from '../coders/prompt-set.js';

export interface EditorTools {
  readonly chatInput: ChatInputTools;
  readonly watch: WatchMode | null;
  readonly notifier: Notifier | null;
  /** Sees every session event before it is rendered (tandem's own writes, for the watcher). */
  readonly tap: (event: SessionEvent) => void;
}

export interface EditorToolsInput {
  readonly environment: CliEnvironment;
  readonly settings: Settings;
  readonly repoRoot: string | null;
  readonly interactive: boolean;
  /** A one-shot run (--message) never watches. */
  readonly oneShot: boolean;
  readonly lines: LineReader;
  readonly warn: (message: string) => void;
  /** The watcher implementation (tests pass a fake). */
  readonly watchFiles?: WatchFiles;
  /** The run's one prompt loader (watch mode's request templates). */
  readonly prompts: PromptLoader;
}

export async function createEditorTools(input: EditorToolsInput): Promise<EditorTools> {
  const { environment, settings, repoRoot, interactive, lines } = input;
  const wantsWatch = !input.oneShot && (interactive || settings['watch-files']);
  if (settings['watch-files'] && !input.oneShot && repoRoot === null && !interactive) {
    throw new CliError('--watch-files needs a git repository', EXIT.usage);
  }
  const watch =
    wantsWatch && repoRoot !== null
      ? createWatchMode({
          root: repoRoot,
          env: { ...environment.env },
          watchFiles: input.watchFiles ?? createChokidarWatcher(),
          templates: (await input.prompts.shared()).watch,
          warn: input.warn,
        })
      : null;
  if (settings['watch-files'] && interactive && repoRoot === null) input.warn('Watch mode needs a git repository: not watching.');
  const childEnv = scrubEnvironment(environment.env, { passEnv: settings['pass-env'], secrets: [settings['api-key']] });
  const command = settings['notifications-command'];
  const notifier =
    interactive && (settings.notifications || command !== null)
      ? new Notifier({
          clock: environment.clock ?? systemClock,
          bell: () => void environment.stdout.write('\u0007'),
          command: command === null ? null : (summary) => startNotifyProgram(command, summary, { env: childEnv, cwd: repoRoot ?? environment.cwd }),
        })
      : null;
  if (settings.multiline && interactive) lines.multiline = true;
  if (notifier) {
    // A question stops the request until the user answers: that is a wait worth telling.
    const ask = lines.ask.bind(lines);
    lines.ask = (question, choices, fallback) => {
      notifier.waiting(`tandem asks: ${question}`);
      return ask(question, choices, fallback);
    };
  }
  const chatInput: ChatInputTools = {
    watch: interactive ? watch : null,
    input: interactive ? lines : null,
    openEditor: createEditorOpener({ editor: settings.editor, env: environment.env, cwd: environment.cwd, lines, terminal: interactive }),
  };
  return {
    chatInput,
    watch,
    notifier,
    tap: (event) => {
      if (event.type === 'edit' && event.status === 'applied') watch?.ownWrite(event.path);
    },
  };
}
