// A session's options from the settings (the option table's values) and the models' profiles: the one
// place a setting becomes something the session reads, typed by the option table.
import type { CoderFormat } from '../coders/coder.js';
import { CODERS, type CoderRegistry } from '../coders/registry.js';
import type { ProfileBuilder } from '../model/model-profile.js';
import type { ModelSettings } from '../model/model-settings.js';
import type { ChatMode, SessionOptions } from '../session/session.js';
import type { SettingKey, Settings } from './schema.js';

/** Which models, formats and mode the settings ask for, with the model's data filled in. */
export interface ModelChoice {
  readonly settings: ModelSettings;
  readonly editorModel: string;
  readonly editFormat: CoderFormat;
  readonly editorFormat: CoderFormat;
  readonly contextWindow: number;
  readonly mode: ChatMode;
  /** The settings name an edit format of their own (not one that only talks, like `ask`). */
  readonly editFormatChosen: boolean;
}

/** `--edit-format ask`: a format that makes no edits picks the chat mode; the edit format stays the model's. */
function talksOnly(format: CoderFormat, coders: CoderRegistry): boolean {
  return !coders.get(format).makesEdits;
}

export function chooseModels(settings: Settings, profileOf: ProfileBuilder, coders: CoderRegistry = CODERS): ModelChoice {
  const main = profileOf(settings.model);
  const editorModel = settings['editor-model'] ?? main.settings.editorModel ?? settings.model;
  const requested = settings['edit-format'];
  const chosen = requested !== null && !talksOnly(requested, coders);
  return {
    settings: main.settings,
    editorModel,
    editFormat: chosen ? requested : main.editFormat,
    editorFormat: settings['editor-edit-format'] ?? main.settings.editorEditFormat ?? profileOf(editorModel).editFormat,
    contextWindow: main.contextWindow,
    mode: settings['chat-mode'] ?? (settings.architect ? 'architect' : requested !== null && talksOnly(requested, coders) ? requested : 'code'),
    editFormatChosen: chosen,
  };
}

/** The session's options that are one setting each, named by the setting: their types come from the option table. */
const FROM_SETTINGS = {
  stream: 'stream',
  dryRun: 'dry-run',
  autoCommits: 'auto-commits',
  dirtyCommits: 'dirty-commits',
  autoLint: 'auto-lint',
  maxReflections: 'max-reflections',
  mapTokens: 'map-tokens',
  maxHistoryTokens: 'max-chat-history-tokens',
} as const satisfies Partial<Record<keyof SessionOptions, SettingKey>>;

type FromSettings = { readonly [K in keyof typeof FROM_SETTINGS]: Settings[(typeof FROM_SETTINGS)[K]] };

function fromSettings(settings: Settings): FromSettings {
  return Object.fromEntries(Object.entries(FROM_SETTINGS).map(([option, key]) => [option, settings[key]])) as FromSettings;
}

/** Everything of SessionOptions the settings decide (the repository's hooks, includes and sandbox come from elsewhere). */
export type SettingsOptions = Omit<SessionOptions, 'hooksDir' | 'gitIncludes' | 'sandbox'>;

export function sessionOptionsFrom(settings: Settings, choice: ModelChoice, root: string): SettingsOptions {
  const testCommand = settings['test-cmd'];
  return {
    root,
    models: { main: settings.model, weak: settings['weak-model'] ?? choice.settings.weakModel ?? settings.model, editor: choice.editorModel },
    editFormat: choice.editFormat,
    editorFormat: choice.editorFormat,
    mode: choice.mode,
    ...fromSettings(settings),
    autoTest: settings['auto-test'] && testCommand !== null,
    testCommand: testCommand ?? '',
    editFormatChosen: choice.editFormatChosen,
    editorFormatChosen: settings['editor-edit-format'] !== null,
    // The lint and test commands as configured: new files that change what they load need a person.
    commandsRun: [...settings['lint-cmd'], ...(testCommand ? [testCommand] : [])],
  };
}
