// The one table of every tandem setting. Flags, config-file keys, environment variables, defaults
// and --help are all derived from it, so they cannot drift apart.
import { CODER_FORMATS, EDIT_FORMATS } from '../model/edit-formats.js';
import type { OptionGroup, OptionSpec } from './option-spec.js';

// The table's row types and the value checks live beside it; everything is imported from here.
export type { OptionGroup, OptionSpec } from './option-spec.js';
export { checkConfigValue, checkTextValue, closestName, expectedOf, type CheckedValue } from './option-values.js';

/** `--resume` with no ID means the most recent session. */
export const RESUME_LATEST = 'latest';

/** Timers hold at most 2^31-1 ms; a longer timeout would fire at once. */
const MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

export const OPTIONS = {
  // model
  model: { type: 'string', default: 'gpt-4o', group: 'model', metavar: 'NAME', eval: true, help: 'model for the chat' },
  'weak-model': {
    type: 'string', default: null, group: 'model', metavar: 'NAME', defaultLabel: 'per model, else the main model',
    help: 'model for commit messages and history summaries',
  },
  'editor-model': {
    type: 'string', default: null, group: 'model', metavar: 'NAME', defaultLabel: 'the main model',
    help: 'model that turns an architect plan into edits',
  },
  // A repository (its config or .env) naming the server would receive the user's API key: approve once.
  'base-url': {
    type: 'string', default: null, group: 'model', metavar: 'URL', extraEnv: ['OPENAI_BASE_URL'], repo: 'needs-approval',
    defaultLabel: 'OpenAI', eval: true, help: 'any OpenAI-compatible endpoint',
  },
  'api-key': {
    type: 'string', default: null, group: 'model', metavar: 'KEY', extraEnv: ['OPENAI_API_KEY'], secret: true, repo: 'user-first', eval: true,
    help: 'sent as bearer token',
  },
  'edit-format': {
    type: 'enum', values: CODER_FORMATS, default: null, group: 'model', metavar: 'F', defaultLabel: 'per model', eval: true,
    help: 'how the model writes edits (ask: no edits)',
  },
  'editor-edit-format': {
    type: 'enum', values: EDIT_FORMATS, default: null, group: 'model', metavar: 'F',
    defaultLabel: 'per editor model', help: 'edit format of the editor model in architect mode',
  },
  architect: {
    type: 'boolean', default: false, group: 'model', eval: true,
    help: 'plan with the main model, edit with the editor model',
  },
  'context-window': {
    type: 'int', min: 1, default: null, group: 'model', metavar: 'N', defaultLabel: 'per model',
    help: 'context window in tokens, for models tandem does not know',
  },
  'request-timeout': {
    type: 'int', min: 1, max: MAX_SECONDS, default: 600, group: 'model', metavar: 'SECONDS',
    help: 'give up on a model request after this long',
  },
  'max-retries': {
    type: 'int', min: 0, max: 100, default: 3, group: 'model', metavar: 'N',
    help: 'retries after rate limits, server errors and dropped connections',
  },
  stream: { type: 'boolean', default: true, group: 'model', help: 'stream replies as they arrive' },
  'reasoning-effort': {
    type: 'enum', values: ['low', 'medium', 'high'], default: null, group: 'model', metavar: 'E', defaultLabel: "the server's",
    help: 'how hard a reasoning model thinks, sent as reasoning_effort',
  },

  // request
  message: {
    type: 'string', default: null, group: 'request', short: 'm', metavar: 'TEXT', cliOnly: true,
    help: 'one request, then exit',
  },
  'message-file': {
    type: 'string', default: null, group: 'request', metavar: 'FILE', cliOnly: true,
    help: 'one request read from FILE, then exit',
  },
  read: {
    type: 'string[]', default: [], group: 'request', metavar: 'FILE', repo: 'inside-repo',
    help: 'read-only context file (repeatable)',
  },
  files: {
    type: 'string[]', default: [], group: 'request', metavar: 'FILE...', cliOnly: true, positional: true,
    help: 'files to add to the chat',
  },
  'dry-run': { type: 'boolean', default: false, group: 'request', help: 'show edits, write nothing' },
  'yes-always': {
    type: 'boolean', default: false, group: 'request', repo: 'never-enable',
    help: 'answer yes to every question',
  },

  // repository map
  'map-tokens': {
    type: 'int', min: 0, default: 1024, group: 'repomap', metavar: 'N',
    help: 'repo map budget in tokens while files are in the chat; 0 turns the map off',
  },
  'map-multiplier-no-files': {
    type: 'int', min: 1, default: 2, group: 'repomap', metavar: 'N',
    help: 'with no files in the chat the map may grow to N x --map-tokens (at most 1/8 of the context window)',
  },
  'map-refresh': {
    type: 'enum', values: ['auto', 'always', 'files', 'manual'], default: 'auto', group: 'repomap', metavar: 'WHEN',
    help: 'when to rebuild the repo map',
  },
  'show-repo-map': {
    type: 'boolean', default: false, negatable: false, cliOnly: true, group: 'repomap',
    help: 'print the repo map for the given files and exit',
  },

  // git
  'auto-commits': { type: 'boolean', default: true, group: 'git', help: 'commit each change' },
  'dirty-commits': {
    type: 'boolean', default: true, group: 'git',
    help: "commit the user's pending changes to a file before editing it",
  },
  // A repository's hooks are its code: only the user may let tandem's commits run them.
  'git-commit-verify': {
    type: 'boolean', default: false, group: 'git', repo: 'user-only',
    help: "run the repository's git hooks on tandem's commits",
  },
  'lock-timeout': {
    type: 'int', min: 0, max: MAX_SECONDS, default: 60, group: 'git', metavar: 'SECONDS',
    help: 'wait this long for another tandem writing to the same repository',
  },

  // checks
  'lint-cmd': {
    type: 'string[]', default: [], group: 'checks', metavar: 'CMD', repo: 'needs-approval',
    help: 'lint command, "LANG: CMD" or CMD (repeatable)',
  },
  'auto-lint': { type: 'boolean', default: true, group: 'checks', help: 'lint after each change' },
  'test-cmd': {
    type: 'string', default: null, group: 'checks', metavar: 'CMD', repo: 'needs-approval',
    help: 'test command',
  },
  'auto-test': {
    type: 'boolean', default: false, group: 'checks', help: 'run the test command after each change',
  },
  'max-reflections': {
    type: 'int', min: 0, max: 100, default: 3, group: 'checks', metavar: 'N',
    // The re-asks' own bound is MAX_FILES_ADDED_REASKS (session/reflection-step.ts).
    help: 'failure round-trips per request (re-asks after added files: 3 more, apart)',
  },
  // Commands get no secret-looking variables; the user may keep some by name.
  'pass-env': {
    type: 'string[]', default: [], group: 'checks', metavar: 'NAME', repo: 'user-only',
    help: 'environment variables commands keep although they look secret (repeatable)',
  },
  'command-timeout': {
    type: 'int', min: 1, max: MAX_SECONDS, default: 600, group: 'checks', metavar: 'SECONDS',
    help: 'kill lint/test commands after this long',
  },

  // session
  'max-chat-history-tokens': {
    type: 'int', min: 0, default: null, group: 'session', metavar: 'N', defaultLabel: 'per model',
    help: 'summarize older history above this many tokens',
  },
  resume: {
    type: 'string', default: null, optionalValue: RESUME_LATEST, group: 'session', metavar: '[ID]', cliOnly: true,
    help: 'continue a saved session (the latest when no ID)',
  },
  sessions: {
    type: 'boolean', default: false, negatable: false, cliOnly: true, group: 'session',
    help: 'list saved sessions and exit',
  },
  'llm-log': {
    type: 'string', default: null, group: 'session', metavar: 'FILE', repo: 'inside-repo',
    help: 'log every model request and response as JSON lines',
  },

  // output
  json: { type: 'boolean', default: false, group: 'output', help: 'JSON lines on stdout, never ask' },
  pretty: {
    type: 'boolean', default: true, group: 'output', help: 'colours and Markdown rendering on a terminal',
  },

  // working from your editor (watch mode, /editor, notifications, multi-line input)
  // A repository must not turn on watching: its files would become requests nobody typed.
  'watch-files': {
    type: 'boolean', default: false, group: 'output', repo: 'user-only',
    help: 'watch the files for AI comments (AI! asks for a change, AI? asks a question) and run them',
  },
  notifications: {
    type: 'boolean', default: false, group: 'output',
    help: 'ring the bell when tandem waits for you after a request that took a while',
  },
  'notifications-command': {
    type: 'string', default: null, group: 'output', metavar: 'CMD', repo: 'user-only',
    help: 'run CMD instead of the bell (the event\'s one-line summary as its argument)',
  },
  multiline: {
    type: 'boolean', default: false, group: 'output',
    help: 'Enter inserts a newline, Meta-Enter sends (/multiline-mode toggles)',
  },
  editor: {
    type: 'string', default: null, group: 'output', metavar: 'CMD', repo: 'user-only', defaultLabel: '$VISUAL, else $EDITOR, else vi',
    help: 'editor /editor opens',
  },

  // general
  config: {
    type: 'string', default: null, group: 'general', metavar: 'FILE', cliOnly: true,
    help: 'read settings from FILE too',
  },
  version: {
    type: 'boolean', default: false, negatable: false, cliOnly: true, group: 'general',
    help: 'print the version and exit',
  },
  help: {
    type: 'boolean', default: false, negatable: false, cliOnly: true, short: 'h', group: 'general',
    help: 'print this help and exit',
  },
} as const satisfies Record<string, OptionSpec>;

export type Options = typeof OPTIONS;
export type SettingKey = keyof Options;

type ValueOf<S> = S extends { type: 'boolean' }
  ? boolean
  : S extends { type: 'int'; default: number }
    ? number
    : S extends { type: 'int' }
      ? number | null
      : S extends { type: 'string'; default: string }
        ? string
        : S extends { type: 'string' }
          ? string | null
          : S extends { type: 'enum'; values: readonly (infer V)[]; default: null }
            ? V | null
            : S extends { type: 'enum'; values: readonly (infer V)[] }
              ? V
              : S extends { type: 'string[]' }
                ? readonly string[]
                : never;

/** Every setting, typed from the table: `settings['map-tokens']` is a number. */
export type Settings = { readonly [K in SettingKey]: ValueOf<Options[K]> };

export const GROUP_TITLES: Readonly<Record<OptionGroup, string>> = {
  model: 'Model',
  request: 'Request',
  repomap: 'Repository map',
  git: 'Git',
  checks: 'Lint and test',
  session: 'Session and context',
  output: 'Output',
  general: 'General',
};

export function settingKeys(): SettingKey[] {
  return Object.keys(OPTIONS) as SettingKey[];
}

export function isSettingKey(name: string): name is SettingKey {
  return Object.prototype.hasOwnProperty.call(OPTIONS, name);
}

export function specOf(key: SettingKey): OptionSpec {
  return OPTIONS[key];
}

export function defaultSettings(): Settings {
  const out: Record<string, unknown> = {};
  for (const key of settingKeys()) {
    const spec = specOf(key);
    out[key] = spec.type === 'string[]' ? [...spec.default] : spec.default;
  }
  return out as Settings;
}

/** Environment names for a setting, strongest first: `TANDEM_MAP_TOKENS`, then any conventional ones. */
export function envNamesOf(key: SettingKey): string[] {
  const spec = specOf(key);
  if (spec.cliOnly) return [];
  return [`TANDEM_${key.toUpperCase().replace(/-/g, '_')}`, ...(spec.extraEnv ?? [])];
}
