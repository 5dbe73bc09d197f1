// `tandem --help`, generated from the option table so it always lists exactly the options that exist.

import {
  GROUP_TITLES,
  envNamesOf,
  settingKeys,
  specOf,
  type OptionGroup,
  type OptionSpec,
  type SettingKey,
} from '../config/schema.js';

const COLUMN = 32;

export function renderHelp(): string {
  const lines = [
    'Usage: tandem [options] [FILE...]          chat about FILEs, interactively',
    '       tandem --message TEXT [FILE...]     one request (with its fixes), then exit',
    '       tandem trace [SESSION]              a saved session\'s timeline (steps, times, tokens, cost)',
    '',
  ];
  for (const group of Object.keys(GROUP_TITLES) as OptionGroup[]) {
    const keys = settingKeys().filter((key) => specOf(key).group === group);
    if (keys.length === 0) continue;
    lines.push(`${GROUP_TITLES[group]}:`);
    for (const key of keys) lines.push(...renderOption(key));
    lines.push('');
  }
  const cliOnly = settingKeys()
    .filter((key) => specOf(key).cliOnly && specOf(key).type !== 'boolean' && !specOf(key).positional)
    .map((key) => `--${key}`);
  lines.push(
    `Every option except ${cliOnly.join(', ')} and the actions can also be set in`,
    '~/.tandem.conf.yml or <repo root>/.tandem.conf.yml (`map-tokens: 2048`), or in the environment',
    '(TANDEM_MAP_TOKENS=2048). Later wins: defaults, home file, repo file, --config file, environment, flags.',
    '',
    'Exit codes: 0 done, 1 error, 2 bad command line or config, 3 reflection limit reached,',
    '4 approval needed but nobody could give it, 130 interrupted.',
  );
  return lines.join('\n') + '\n';
}

function renderOption(key: SettingKey): string[] {
  const spec = specOf(key);
  const left = `  ${flagColumn(key, spec)}`;
  const right = describe(key, spec);
  if (left.length <= COLUMN - 2) return [left.padEnd(COLUMN) + right];
  // long flag spellings get their own line so the descriptions stay aligned
  return [left, ' '.repeat(COLUMN) + right];
}

function flagColumn(key: SettingKey, spec: OptionSpec): string {
  if (spec.positional) return spec.metavar ?? 'FILE...';
  const short = spec.short === undefined ? '' : `-${spec.short}, `;
  const metavar = spec.metavar === undefined ? '' : ` ${spec.metavar}`;
  if (spec.type === 'boolean' && spec.negatable !== false) return `${short}--${key}, --no-${key}`;
  return `${short}--${key}${metavar}`;
}

function describe(key: SettingKey, spec: OptionSpec): string {
  const notes: string[] = [];
  if (spec.type === 'enum') notes.push(spec.values.join(', '));
  const shownDefault = defaultText(spec);
  if (shownDefault !== null) notes.push(`default: ${shownDefault}`);
  const specialEnv = envNamesOf(key).slice(1);
  if (specialEnv.length > 0) notes.push(`env: ${envNamesOf(key).join(' or ')}`);
  if (spec.repo === 'needs-approval' || spec.repo === 'raises-cost') notes.push('from a repo config: asks first');
  return notes.length === 0 ? spec.help : `${spec.help} [${notes.join('; ')}]`;
}

function defaultText(spec: OptionSpec): string | null {
  if (spec.defaultLabel !== undefined) return spec.defaultLabel;
  if (spec.type === 'boolean') return spec.negatable === false ? null : spec.default ? 'on' : 'off';
  if (spec.type === 'string[]' || spec.default === null) return null;
  return String(spec.default);
}
