// The one table of every tandem setting. Flags, config-file keys, environment variables, defaults
// and --help are all derived from it, so they cannot drift apart.
import { CODE_MODE, CODERS } from '../coders/registry.js';
import type { OptionGroup, OptionSpec } from './option-spec.js';

// The table's row types and the value checks live beside it; everything is imported from here.
export type { OptionGroup, OptionSpec } from './option-spec.js';
export { checkConfigValue, checkTextValue, closestName, expectedOf, type CheckedValue } from './option-values.js';

/** `--chat-mode`'s choices: `code`, the default, first; then the coders that are a mode of their own. */
const CHAT_MODE_CHOICES: readonly string[] = [CODE_MODE.name, ...CODERS.chatModes.map((mode) => mode.name).filter((name) => name !== CODE_MODE.name)];

/** `--resume` with no ID means the most recent session. */
export const RESUME_LATEST = 'latest';

/** Timers hold at most 2^31-1 ms; a longer timeout would fire at once. */
const MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

export const OPTIONS = {
  // model
  model: { type: 'string', default: 'gpt-4o', group: 'model', repo: 'raises-cost', metavar: 'NAME', eval: true, help: 'model for the chat' },
  'weak-model': {
    type: 'string', default: null, group: 'model', repo: 'raises-cost', metavar: 'NAME', defaultLabel: 'per model, else the main model',
    help: 'model for commit messages and history summaries',
  },
  'editor-model': {
    type: 'string', default: null, group: 'model', repo: 'raises-cost', metavar: 'NAME', defaultLabel: 'the main model',
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
    type: 'enum', values: CODERS.editFormatChoices, default: null, group: 'model', metavar: 'F', defaultLabel: 'per model', eval: true,
    help: 'how the model writes edits (ask: no edits)',
  },
  'editor-edit-format': {
    type: 'enum', values: CODERS.editFormats, default: null, group: 'model', metavar: 'F',
    defaultLabel: 'per editor model', help: 'edit format of the editor model in architect mode',
  },
  architect: {
    type: 'boolean', default: false, group: 'model', repo: 'raises-cost', eval: true,
    help: 'plan with the main model, edit with the editor model',
  },
  'context-window': {
    type: 'int', min: 1, default: null, group: 'model', repo: 'raises-cost', metavar: 'N', defaultLabel: 'per model',
    help: 'context window in tokens, for models tandem does not know',
  },
  'request-timeout': {
    type: 'int', min: 1, max: MAX_SECONDS, default: 600, group: 'model', metavar: 'SECONDS',
    help: 'give up on a model request after this long',
  },
  'max-retries': {
    type: 'int', min: 0, max: 100, default: 3, group: 'model', repo: 'raises-cost', metavar: 'N',
    help: 'retries after rate limits, server errors and dropped connections',
  },
  stream: { type: 'boolean', default: true, group: 'model', help: 'stream replies as they arrive' },
  'reasoning-effort': {
    type: 'enum', values: ['low', 'medium', 'high'], default: null, group: 'model', repo: 'raises-cost', metavar: 'E', defaultLabel: "the server's",
    help: 'how hard a reasoning model thinks, sent in the form its settings accept',
  },
  'thinking-tokens': {
    type: 'int', min: 0, default: null, group: 'model', repo: 'raises-cost', metavar: 'N', defaultLabel: "the server's",
    help: 'thinking budget for models that take one (Anthropic thinking, a router reasoning.max_tokens); 0: none',
  },
  'check-model-accepts-settings': {
    type: 'boolean', default: true, group: 'model',
    help: "send reasoning controls only to models whose settings accept them (else say so once)",
  },
  // A repository's own files are read with its trust: no headers, extra body fields or system prompt prefix.
  'model-settings-file': {
    type: 'string', default: null, group: 'model', metavar: 'FILE', repo: 'inside-repo', defaultLabel: '.tandem.model.settings.yml',
    help: "model settings, YAML in Aider's .aider.model.settings.yml format (read from home, repo, current folder, then FILE)",
  },
  'model-metadata-file': {
    type: 'string', default: null, group: 'model', metavar: 'FILE', repo: 'inside-repo', defaultLabel: '.tandem.model.metadata.json',
    help: "context windows and prices, JSON in Aider's .aider.model.metadata.json format (same places)",
  },
  alias: {
    type: 'string[]', default: [], group: 'model', repo: 'raises-cost', metavar: 'NAME:MODEL',
    help: 'a short name for a model, usable wherever a model is named (repeatable)',
  },
  'list-models': {
    type: 'string', default: null, optionalValue: '', optionalValueTakes: 'word', group: 'model', metavar: '[SEARCH]', cliOnly: true,
    help: "list the server's models and the known ones matching SEARCH, with context window and prices, and exit",
  },
  'cache-keepalive-pings': {
    type: 'int', min: 0, max: 1000, default: 0, group: 'model', repo: 'raises-cost', metavar: 'N',
    help: "while the chat is idle, keep the provider's prompt cache warm with at most N one-token requests",
  },
  'cache-keepalive-interval': {
    type: 'int', min: 1, max: MAX_SECONDS, default: 295, group: 'model', metavar: 'SECONDS',
    help: 'time between keep-alive pings (a prompt cache lasts 5 minutes)',
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
  apply: {
    type: 'string', default: null, group: 'request', metavar: 'FILE', cliOnly: true,
    help: 'apply the edits of a reply saved in FILE (no model request), then exit',
  },
  'apply-clipboard-edits': {
    type: 'boolean', default: false, negatable: false, group: 'request', cliOnly: true,
    help: "apply the edits of the reply on the clipboard (no model request), then exit",
  },
  'copy-paste': {
    type: 'boolean', default: false, group: 'request', repo: 'user-only',
    help: 'no API: copy each prompt to the clipboard and wait for the reply to appear there',
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
  'detect-urls': {
    type: 'boolean', default: true, group: 'request',
    help: 'offer to add the web pages your messages name (/web URL adds one)',
  },
  // The recorder is a command and the server receives the API key: only the user names them.
  'voice-command': {
    type: 'string', default: null, group: 'request', metavar: 'CMD', repo: 'user-only', defaultLabel: 'rec or arecord',
    help: 'command that records WAV to {file} for /voice (Enter stops it)',
  },
  'voice-model': {
    type: 'string', default: 'whisper-1', group: 'request', metavar: 'NAME',
    help: 'transcription model for /voice',
  },
  'voice-base-url': {
    type: 'string', default: null, group: 'request', metavar: 'URL', repo: 'user-only', defaultLabel: '--base-url',
    help: 'OpenAI-compatible server for /voice transcriptions (a local whisper server)',
  },
  'web-timeout': {
    type: 'int', min: 1, max: MAX_SECONDS, default: 30, group: 'request', metavar: 'SECONDS',
    help: 'give up on a web page after this long',
  },

  // repository map
  'map-tokens': {
    type: 'int', min: 0, default: 1024, group: 'repomap', repo: 'raises-cost', metavar: 'N',
    help: 'repo map budget in tokens while files are in the chat; 0 turns the map off',
  },
  'map-multiplier-no-files': {
    type: 'int', min: 1, default: 2, group: 'repomap', repo: 'raises-cost', metavar: 'N',
    help: 'with no files in the chat the map may grow to N x --map-tokens (at most 1/8 of the context window)',
  },
  'map-refresh': {
    type: 'enum', values: ['auto', 'always', 'files', 'manual'], default: 'auto', group: 'repomap', metavar: 'WHEN',
    help: 'when to rebuild the repo map',
  },
  // The user's own cache folder, shared by every checkout: a repository must not aim it anywhere.
  'tag-cache-dir': {
    type: 'string', default: null, group: 'repomap', metavar: 'DIR', repo: 'user-only',
    defaultLabel: '$XDG_CACHE_HOME/tandem/tags', help: 'the tags of file contents parsed before, shared by all your checkouts (up to 512 MB)',
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
    type: 'int', min: 0, max: 100, default: 3, group: 'checks', repo: 'raises-cost', metavar: 'N',
    // The re-asks' own bound is MAX_FILES_ADDED_REASKS (round/reflection-step.ts).
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
  // A repository may ask for the sandbox (a tightening), never turn it off, never open the network.
  sandbox: {
    type: 'boolean', default: false, group: 'checks', repo: 'never-disable',
    help: 'run every command (lint, test, /run, suggestions) inside bubblewrap',
  },
  'sandbox-network': {
    type: 'boolean', default: false, group: 'checks', repo: 'never-enable',
    help: 'let sandboxed commands use the network',
  },

  // session
  'max-chat-history-tokens': {
    type: 'int', min: 0, default: null, group: 'session', repo: 'raises-cost', metavar: 'N', defaultLabel: 'per model',
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

  // issue 25: the commands and options an Aider user reaches for
  'chat-mode': {
    type: 'enum', values: CHAT_MODE_CHOICES, default: null, group: 'model', metavar: 'MODE',
    defaultLabel: 'code', help: 'code, ask, architect, or context (the model names the files a request needs)',
  },
  load: {
    type: 'string', default: null, group: 'session', metavar: 'FILE', cliOnly: true,
    help: 'run the slash commands in FILE at start (/save writes such a file)',
  },
  'subtree-only': {
    type: 'boolean', default: false, group: 'repomap',
    help: 'see only the files under the folder tandem starts in (map, mentions, completion, /ls)',
  },
  lint: {
    type: 'boolean', default: false, negatable: false, cliOnly: true, group: 'checks',
    help: 'lint the FILEs (else the files changed since HEAD), then exit',
  },
  test: {
    type: 'boolean', default: false, negatable: false, cliOnly: true, group: 'checks',
    help: 'run --test-cmd, then exit',
  },
  commit: {
    type: 'boolean', default: false, negatable: false, cliOnly: true, group: 'git',
    help: 'commit the changed tracked files with a weak-model message, then exit',
  },
  'attribute-author': {
    type: 'boolean', default: false, group: 'git',
    help: "add ' (tandem)' to the author name of tandem's commits",
  },
  'attribute-committer': {
    type: 'boolean', default: true, group: 'git',
    help: "add ' (tandem)' to the committer name of tandem's commits",
  },
  'attribute-co-authored-by': {
    type: 'boolean', default: false, group: 'git',
    help: "add a 'Co-authored-by: tandem (MODEL)' trailer to tandem's commits",
  },
  // Files tandem appends model text and typed lines to: a repository naming one could aim them at a file
  // that runs (.husky/pre-commit, .envrc), so only the user may choose them.
  'chat-history-file': {
    type: 'string', default: null, group: 'session', metavar: 'FILE', repo: 'user-only',
    defaultLabel: '.tandem/chat.history.md', help: 'the readable chat transcript',
  },
  'input-history-file': {
    type: 'string', default: null, group: 'session', metavar: 'FILE', repo: 'user-only',
    defaultLabel: '.tandem/input.history', help: 'the lines typed at the prompt, for Up and Ctrl-R',
  },
  'env-file': {
    type: 'string', default: null, group: 'general', metavar: 'FILE', cliOnly: true,
    defaultLabel: "the repository's .env", help: 'read this .env file (yours: its values need no approval) instead of the repository\'s',
  },
  // The user's own yes: command line only, so no repository file or variable can give it.
  'trust-repo-settings': {
    type: 'boolean', default: false, negatable: false, cliOnly: true, group: 'general',
    help: "approve the repository's settings that need your yes (shows each), then exit",
  },

  // output
  json: { type: 'boolean', default: false, group: 'output', help: 'JSON lines on stdout, never ask' },
  pretty: {
    type: 'boolean', default: true, group: 'output', help: 'colours and Markdown rendering on a terminal',
  },

  // tracing: only the user's own config, environment or flags may send prompts and timings elsewhere
  'otlp-endpoint': {
    type: 'string', default: null, group: 'output', metavar: 'URL', repo: 'user-only',
    defaultLabel: 'env OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _ENDPOINT, else off',
    help: 'send a trace of every request over OTLP/HTTP to URL (a collector, Jaeger...)',
  },
  'otlp-headers': {
    type: 'string[]', default: [], group: 'output', metavar: 'NAME=VALUE', repo: 'user-only', secret: true,
    defaultLabel: 'env OTEL_EXPORTER_OTLP_HEADERS',
    help: 'header sent with the traces, e.g. an API key (repeatable)',
  },
  'otlp-content': {
    type: 'boolean', default: false, group: 'output', repo: 'user-only',
    help: 'put prompt and reply text in the traces',
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
