// The shapes a session is built from and answers with, apart from the Session class that uses them.
import type { RoundOptions } from '../round/round.js';
import type { ChatMode, CoderFormat } from '../coders/coder.js';
import type { CoderLoader } from '../coders/coder-loader.js';
import type { RequestPorts } from '../coders/ports.js';
import type { TextFileSystem } from '../platform/file-system.js';
import type { EmitEvent } from './events.js';
import type { ModelProfiles, ModelRole } from './model-profiles.js';
import type { SessionRecorder } from './session-log.js';

/** `code` or a coder that is a chat mode of its own (`ask`, `architect`, `context`): coders/registry.ts lists them. */
export type { ChatMode } from '../coders/coder.js';
export type { CoderLoader, LoadedCoder } from '../coders/coder-loader.js';

/** The round's settings (round/round.ts) and the session's own. */
export interface SessionOptions extends RoundOptions {
  readonly models: Record<ModelRole, string>;
  readonly editFormat: CoderFormat;
  readonly editorFormat: CoderFormat;
  readonly mode: ChatMode;
  readonly stream: boolean;
  readonly maxReflections: number;
  readonly mapTokens: number;
  /** null: the main model's default budget. */
  readonly maxHistoryTokens: number | null;
  /** The user picked the formats, so switching models keeps them. */
  readonly editFormatChosen?: boolean;
  readonly editorFormatChosen?: boolean;
  /** Where commands run, for the status line (`commands sandboxed (...)`); absent: as tandem runs. */
  readonly sandbox?: string | null;
}

export interface SessionTexts {
  readonly summarize: string;
  readonly summaryTemplate: string;
  readonly editorRequest: string;
}

export interface SessionDeps {
  readonly ports: RequestPorts;
  readonly emit: EmitEvent;
  readonly loadCoder: CoderLoader;
  readonly recorder: SessionRecorder | null;
  readonly texts: SessionTexts;
  /** The models' whole profiles (window, reminder placement, tokenizer, request rules). */
  readonly profiles: ModelProfiles;
  /** Where the chat's file texts are read; default: node's fs, confined to the repository. */
  readonly fileSystem?: TextFileSystem;
}

export type { RequestOutcome, StepResult } from '../round/outcome.js';

export interface ReadOnlyFile {
  /** Shown to the model under this name (repo-relative when inside the repository). */
  readonly name: string;
  readonly absolutePath: string;
}

/** Repository instructions (AGENTS.md) already read and cut to size. */
export interface Instruction {
  readonly name: string;
  readonly text: string;
}

