// Everything tandem learns about models before the chat starts: the user's settings and metadata files,
// the aliases, and what the server says (its models and their context windows), with what it used said once.
import { resolve } from 'node:path';
import type { SettingKey, Settings } from '../config/schema.js';
import type { ModelSettings } from '../model/model-settings.js';
import type { ConfigProblem, SettingSource } from '../config/load.js';
import { loadModelFiles } from '../config/model-files.js';
import { listModels, renderModelList } from '../model/model-list.js';
import { lookupModelSettings, resolveModelAlias, type ModelLayer } from '../model/model-settings.js';
import { DEFAULT_BASE_URL } from '../model/openai-client.js';
import { askServer, isHostedApi, type ServerInfo } from '../model/server-info.js';
import { escapeControlChars } from '../platform/control-chars.js';
import { fetchHttp, type HttpPort } from '../platform/http.js';
import { CliError } from './cli-error.js';
import { EXIT } from '../session/exit-codes.js';

export interface ModelSetup {
  readonly layers: readonly ModelLayer[];
  readonly aliases: ReadonlyMap<string, string>;
  /** Context windows the server reported, by model. */
  readonly serverWindows: ReadonlyMap<string, number>;
}

export interface ModelFilesInput {
  readonly homeDir: string;
  readonly cwd: string;
  readonly repoRoot: string | null;
  readonly settings: Settings;
  readonly sources: ReadonlyMap<SettingKey, SettingSource>;
  readonly readFile: (file: string) => string | null;
}

/** The model files in their order, and the problems to show (errors end the run with exit 2). */
export function loadModelLayers(input: ModelFilesInput): { layers: ModelLayer[]; problems: ConfigProblem[] } {
  const named = (key: 'model-settings-file' | 'model-metadata-file'): string | null => {
    const value = input.settings[key];
    return value === null ? null : resolve(input.cwd, value);
  };
  return loadModelFiles({
    homeDir: input.homeDir,
    repoRoot: input.repoRoot,
    cwd: input.cwd,
    settingsFile: named('model-settings-file'),
    metadataFile: named('model-metadata-file'),
    settingsFileSource: input.sources.get('model-settings-file'),
    metadataFileSource: input.sources.get('model-metadata-file'),
    readFile: input.readFile,
  });
}

/** `--alias NAME:MODEL`: the name holds no colon, the model may (`qwen3:32b`). */
export function parseAliases(list: readonly string[]): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const item of list) {
    const at = item.indexOf(':');
    const name = at < 0 ? '' : item.slice(0, at).trim();
    const model = at < 0 ? '' : item.slice(at + 1).trim();
    if (name === '' || model === '' || /\s/.test(name) || /\s/.test(model)) {
      throw new CliError(`--alias: expected NAME:MODEL, got ${JSON.stringify(escapeControlChars(item))}`, EXIT.usage);
    }
    aliases.set(name, model);
  }
  return aliases;
}

export interface ServerQuery {
  readonly settings: Settings;
  /** The model was given (flag, config, environment); when not, a single served model is used. */
  readonly modelGiven: boolean;
  /** The user's model files: a window they name wins over the server's, which then goes unmentioned. */
  readonly layers: readonly ModelLayer[];
  readonly aliases: ReadonlyMap<string, string>;
  readonly http?: HttpPort;
}

export interface ServerAnswer {
  readonly windows: ReadonlyMap<string, number>;
  /** The served model to use in place of the default one. */
  readonly model: string | null;
  /** One line saying what tandem used, or null when it used nothing. */
  readonly note: string | null;
}

export const NO_SERVER_ANSWER: ServerAnswer = { windows: new Map(), model: null, note: null };

/**
 * Whether the settings already say all a server's answer could: the model is named and its context window
 * set (--context-window, or the user's model settings file), so whatever the server reports goes unused.
 */
export function settingsSayEverything(query: Pick<ServerQuery, 'settings' | 'modelGiven' | 'layers' | 'aliases'>): boolean {
  if (!query.modelGiven) return false;
  if (query.settings['context-window'] !== null) return true;
  return lookupModelSettings(resolveModelAlias(query.settings.model, query.aliases), query.layers).contextWindowFrom === 'file';
}

/** Asks a server that is not a known hosted API what it serves, at start-up; silent when it says nothing useful. */
export async function askServerAtStart(query: ServerQuery): Promise<ServerAnswer> {
  const baseURL = query.settings['base-url'] ?? DEFAULT_BASE_URL;
  if (isHostedApi(baseURL) || settingsSayEverything(query)) return NO_SERVER_ANSWER;
  const info = await askServer({
    baseURL,
    apiKey: query.settings['api-key'],
    http: query.http ?? fetchHttp,
    model: query.modelGiven ? resolveModelAlias(query.settings.model, query.aliases) : null,
  });
  const served = !query.modelGiven && info.models?.length === 1 ? info.models[0]!.id : null;
  const windows = new Map<string, number>();
  if (info.contextWindow) windows.set(info.contextWindow.model, info.contextWindow.tokens);
  const facts: string[] = [];
  if (served !== null) facts.push(`the model ${escapeControlChars(served)} (the only one it serves)`);
  const window = info.contextWindow;
  const overridden = window !== null && (query.settings['context-window'] !== null || lookupModelSettings(window.model, query.layers).contextWindowFrom === 'file');
  if (window && !overridden) facts.push(`a context window of ${window.tokens.toLocaleString('en-US')} tokens (from ${window.from})`);
  const note = facts.length === 0 ? null : `The server at ${escapeControlChars(baseURL)} told tandem: ${facts.join(', ')}.`;
  return { windows, model: served, note };
}

/** `--list-models [SEARCH]` and `/models [SEARCH]`: the server's models (asked whatever it is) and the known ones. */
export async function modelListText(search: string, settings: Settings, layers: readonly ModelLayer[], http: HttpPort = fetchHttp): Promise<string> {
  const baseURL = settings['base-url'] ?? DEFAULT_BASE_URL;
  const info: ServerInfo = await askServer({ baseURL, apiKey: settings['api-key'], http, model: null });
  const note =
    info.models === null
      ? `(The server at ${escapeControlChars(baseURL)} did not list its models.)`
      : info.truncated
        ? `(The server listed more models than tandem reads; the first ${info.models.length} are shown.)`
        : '';
  const window = info.contextWindow;
  const served = info.models?.map((m) => (window && m.id === window.model ? { ...m, contextWindow: window.tokens } : m)) ?? null;
  return renderModelList(listModels(search, served, layers), search, note);
}

/** --model, --weak-model and --editor-model with their aliases resolved, so the chat names the real models. */
export function withModelNames(settings: Settings, aliases: ReadonlyMap<string, string>): Settings {
  const resolveName = (name: string | null): string | null => (name === null ? null : resolveModelAlias(name, aliases));
  return {
    ...settings,
    model: resolveModelAlias(settings.model, aliases),
    'weak-model': resolveName(settings['weak-model']),
    'editor-model': resolveName(settings['editor-model']),
  };
}

/** A model whose settings say no repo map, or no streaming, gets none, unless the user set it. */
export function withModelDefaults(settings: Settings, main: ModelSettings, sources: ReadonlyMap<SettingKey, SettingSource> | undefined): Settings {
  const userSet = (key: SettingKey): boolean => (sources?.get(key) ?? 'default') !== 'default';
  return {
    ...settings,
    ...(!main.useRepoMap && !userSet('map-tokens') ? { 'map-tokens': 0 } : {}),
    ...(!main.streaming && !userSet('stream') ? { stream: false } : {}),
  };
}
