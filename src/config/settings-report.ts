// What `/settings` shows: each setting's effective value and where it came from, secrets masked.

import { settingKeys, specOf, type OptionSpec, type SettingKey, type Settings } from './schema.js';
import type { SettingSource } from './load.js';

export interface SettingsReportRow {
  readonly key: SettingKey;
  /** Display text; secrets are masked. */
  readonly value: string;
  readonly source: SettingSource;
  /** Changed in the chat since start-up, and by what ("/model in this chat"). */
  readonly changedBy?: string;
}

const SOURCE_LABELS: Readonly<Record<SettingSource, string>> = {
  default: 'default',
  home: '~/.tandem.conf.yml',
  repo: 'repository .tandem.conf.yml',
  'config-file': '--config file',
  dotenv: 'repository .env',
  env: 'environment',
  'env-file': '--env-file',
  flag: 'command line',
};

function sourceLabel(source: SettingSource): string {
  return SOURCE_LABELS[source];
}

/** Keeps just enough of a key to tell two keys apart: `sk-proj-abc…xyz9` becomes `****xyz9`. */
export function maskSecret(value: string): string {
  if (value.length <= 8) return '****';
  return `****${value.slice(-4)}`;
}

/** One row per setting, actions (--help, --version, ...) left out since they are not settings. */
export function settingsReportRows(
  settings: Settings,
  sources: ReadonlyMap<SettingKey, SettingSource>,
  changed: ReadonlyMap<SettingKey, string> = new Map(),
): SettingsReportRow[] {
  return settingKeys()
    .filter((key) => !isAction(specOf(key)))
    .map((key) => ({
      key,
      value: showValue(specOf(key), settings[key]),
      source: sources.get(key) ?? 'default',
      ...(changed.has(key) ? { changedBy: changed.get(key) } : {}),
    }));
}

export function renderSettingsReport(
  settings: Settings,
  sources: ReadonlyMap<SettingKey, SettingSource>,
  changed: ReadonlyMap<SettingKey, string> = new Map(),
): string {
  const rows = settingsReportRows(settings, sources, changed);
  const keyWidth = Math.max(...rows.map((row) => row.key.length));
  const valueWidth = Math.min(40, Math.max(...rows.map((row) => row.value.length)));
  const lines = rows.map((row) => {
    const label = row.changedBy ?? (row.source === 'default' ? null : sourceLabel(row.source));
    const source = label === null ? '' : `  (${label})`;
    return `${row.key.padEnd(keyWidth)}  ${row.value.padEnd(valueWidth)}${source}`.trimEnd();
  });
  return lines.join('\n') + '\n';
}

function isAction(spec: OptionSpec): boolean {
  return spec.type === 'boolean' && spec.negatable === false;
}

function showValue(spec: OptionSpec, value: unknown): string {
  if (value === null || value === undefined) {
    return spec.defaultLabel === undefined ? '(not set)' : `(${spec.defaultLabel})`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    return value.map((item) => (spec.secret ? maskSecret(String(item)) : String(item))).join(', ');
  }
  const text = String(value);
  return spec.secret ? maskSecret(text) : text;
}
