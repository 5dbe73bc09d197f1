// The shapes a session is built from and answers with, apart from the Session class that uses them.
import type { Coder, CoderFormat } from '../coders/base-coder.js';
import type { RequestPorts } from '../coders/ports.js';
import type { PromptSet } from '../coders/prompt-set.js';
import type { TextFileSystem } from '../platform/file-system.js';
import type { EmitEvent, ResultStatus } from './events.js';
import type { ModelProfiles, ModelRole } from './model-profiles.js';
import type { SessionRecorder } from './session-log.js';

/** `context`: the model names the files a request needs, and tandem offers to add them; no edits. */
export type ChatMode = 'code' | 'ask' | 'architect' | 'context';

export interface SessionOptions {
  readonly root: string;
  readonly models: Record<ModelRole, string>;
  readonly editFormat: CoderFormat;
  readonly editorFormat: CoderFormat;
  readonly mode: ChatMode;
  readonly stream: boolean;
  readonly dryRun: boolean;
  readonly autoCommits: boolean;
  readonly dirtyCommits: boolean;
  readonly autoLint: boolean;
  readonly autoTest: boolean;
  readonly testCommand: string;
  readonly maxReflections: number;
  readonly mapTokens: number;
  /** null: the main model's default budget. */
  readonly maxHistoryTokens: number | null;
  /** For sessions built without model profiles: the window and placement every model gets. */
  readonly contextWindow: number;
  readonly reminderPlacement: 'system' | 'user';
  /** The user picked the formats, so switching models keeps them. */
  readonly editFormatChosen?: boolean;
  readonly editorFormatChosen?: boolean;
  /** Where commands run, for the status line (`commands sandboxed (...)`); absent: as tandem runs. */
  readonly sandbox?: string | null;
  /** git's hooks folder relative to the root (core.hooksPath), whose files only a person may edit. */
  readonly hooksDir?: string | null;
  /** Files the repository's git config includes (repository-relative), whose edits need a person. */
  readonly gitIncludes?: readonly string[];
  /** The lint and test commands as configured: new files that change what they load need a person. */
  readonly commandsRun?: readonly string[];
}

export interface LoadedCoder {
  readonly coder: Coder;
  readonly prompts: PromptSet;
}

/** Loads (and caches) the coder of an edit format, or the architect's planner. */
export type CoderLoader = (kind: CoderFormat | 'architect' | 'context') => Promise<LoadedCoder>;

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
  /** The models' whole profiles; default: fixed ones made of the options' window and placement. */
  readonly profiles?: ModelProfiles;
  /** Where the chat's file texts are read; default: node's fs, confined to the repository. */
  readonly fileSystem?: TextFileSystem;
}

export interface RequestOutcome {
  readonly status: ResultStatus;
  readonly message?: string;
}

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

/** How one step of a request ends: the request is over, or the next message goes to the model. */
export type StepResult = { readonly end: RequestOutcome } | { readonly next: string };
