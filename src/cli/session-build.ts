// What building a session takes and what it gives the chat loop (the composition root's two shapes).
import type { SettingKey, Settings } from '../config/schema.js';
import type { SettingSource } from '../config/load.js';
import type { EmitEvent } from '../session/events.js';
import type { Session } from '../session/session.js';
import type { CliEnvironment } from './cli-environment.js';
import type { ChatInputTools, CommandContext, GitCommandsPort } from './commands/types.js';
import type { LineReader } from './line-reader.js';
import type { ReasoningControls } from '../session/reasoning-controls.js';
import type { KeepAlivePort } from './keepalive-adapter.js';
import type { ModelSetup } from './model-setup.js';
import type { GuardState } from '../git/repo.js';
import type { PromptLoader } from '../coders/prompt-set.js';

export interface BuildInput {
  readonly environment: CliEnvironment;
  readonly settings: Settings;
  readonly repoRoot: string | null;
  readonly files: readonly string[];
  readonly emit: EmitEvent;
  readonly interactive: boolean;
  readonly lines: LineReader;
  /** Where each setting came from, for /settings. */
  readonly sources?: ReadonlyMap<SettingKey, SettingSource>;
  /** The renderer's map progress display (it knows about its spinner); default a bar on stderr. */
  readonly mapProgress?: ((done: number, total: number) => void) | null;
  /** Model settings and metadata files, aliases, and what the server said. */
  readonly models?: ModelSetup;
  /** Watch mode, multi-line input and the editor, for /watch, /multiline-mode and /editor. */
  readonly chatInput?: ChatInputTools | null;
  /** The git config listings start-up already made (see git/repo.ts), so the session lists no config twice. */
  readonly gitGuards?: Map<string, GuardState>;
  /** The run's one prompt loader (cli/prompt-loader.ts). */
  readonly prompts: PromptLoader;
}

export interface BuiltSession {
  readonly session: Session;
  readonly settings: Settings;
  readonly root: string;
  readonly emit: EmitEvent;
  readonly git: GitCommandsPort | null;
  /** false when `.tandem` is not a real folder of the repository: nothing may be written there. */
  readonly stateDirUsable: boolean;
  /** Where the prompt's input history is kept (--input-history-file), or null for none. */
  readonly inputHistoryFile: string | null;
  /** Files in `.tandem/` that git tracks: they came with the repository and are never read. */
  readonly trackedState: ReadonlySet<string>;
  /** Names the repo map has seen, for Tab completion. */
  readonly identifiers: () => readonly string[];
  /** The slash commands' view of the session; `signal` (Ctrl-C) stops the commands they run. */
  commandContext(print: (text: string) => void, signal?: AbortSignal): CommandContext;
  showRepoMap(): Promise<string>;
  /** Finishes writes still in flight (the tag cache) so the process can exit right after. */
  close(): Promise<void>;
  /** The chat's reasoning effort and thinking budget. */
  readonly reasoning: ReasoningControls;
  /** Cache keep-alive pings while the chat is idle (--cache-keepalive-pings), or null. */
  readonly keepAlive: KeepAlivePort | null;
}
