// Git runs commands named in its config: an fsmonitor hook, clean/smudge filters, a signing program, an
// editor... A repository's own config (`.git/config`, its worktree config and every file they include,
// `includeIf` too) can come with a tarball, so on tandem's git calls every such key set there is
// overridden at command scope: by the value the user's global or system config gives it, or else by a
// value that runs nothing of the repository's. The keys come from git-config(1) and the pages it points to.

export interface ConfigEntry {
  /** `system`, `global`, `local`, `worktree` or `command`, as `git config --show-scope` says. */
  readonly scope: string;
  /** As git lists it: section and name in lower case, a subsection as written. */
  readonly key: string;
  readonly value: string;
  /** Where git read it (`file:.git/config`, `file:/home/u/.gitconfig`), when listed with --show-origin. */
  readonly origin?: string;
}

export type ConfigOverride = readonly [key: string, value: string];

/** Scopes a repository can bring; an include is listed with the scope of the file that includes it. */
const REPOSITORY_SCOPES = new Set(['local', 'worktree']);
/** The user's own scopes, whose values tandem keeps. */
const USER_SCOPES = new Set(['system', 'global']);

interface Rule {
  readonly pattern: RegExp;
  /** What the key is set to when the user's config does not set it; null means "leave it". */
  readonly neutral: (key: string, value: string) => string | null;
  /** Further settings a repository value of this key needs (a filter its `required` flag off...). */
  readonly extra?: (key: string) => ConfigOverride[];
}

const constant = (value: string) => (): string => value;
const GPG_DEFAULTS: Readonly<Record<string, string>> = {
  'gpg.program': 'gpg',
  'gpg.openpgp.program': 'gpg',
  'gpg.x509.program': 'gpgsm',
  'gpg.ssh.program': 'ssh-keygen',
};

/** Every key whose value git (or a git command such as difftool, send-email, archive) runs. */
const RULES: readonly Rule[] = [
  { pattern: /^core\.fsmonitor$/i, neutral: constant('false') },
  // Not commands, but what lets status call a file unchanged by its stat alone: a repository that
  // comes with its own index (a tarball) and these relaxed could have the index vouch for content
  // the file does not hold, and the map looks tags up by the index's blob ids of unchanged files.
  { pattern: /^core\.checkstat$/i, neutral: constant('default') },
  { pattern: /^core\.trustctime$/i, neutral: constant('true') },
  { pattern: /^core\.sshcommand$/i, neutral: constant('ssh') },
  { pattern: /^core\.(askpass|alternaterefscommand)$/i, neutral: constant('') },
  // ":" is git's own "no editor"
  { pattern: /^(core|sequence)\.editor$/i, neutral: constant(':') },
  { pattern: /^(core\.pager|pager\..+)$/i, neutral: constant('cat') },
  // git:// through a proxy command: first match wins, so the protocol itself is turned off instead.
  { pattern: /^core\.gitproxy$/i, neutral: () => null, extra: () => [['protocol.git.allow', 'never']] },
  // An empty filter command passes content through; a required filter would then fail every add.
  {
    pattern: /^filter\..+\.(clean|smudge|process)$/i,
    neutral: constant(''),
    extra: (key) => [[`${key.slice(0, key.lastIndexOf('.'))}.required`, 'false']],
  },
  // tandem's diffs pass --no-ext-diff; an empty command makes any other diff fail instead of running it.
  { pattern: /^diff\.(external|.+\.command)$/i, neutral: constant('') },
  { pattern: /^diff\..+\.textconv$/i, neutral: constant('cat') },
  // An empty driver fails the merge of that file: a conflict, nothing run.
  { pattern: /^merge\..+\.driver$/i, neutral: constant('') },
  { pattern: /^gpg\.(program|[^.]+\.program)$/i, neutral: (key) => GPG_DEFAULTS[key.toLowerCase()] ?? 'gpg' },
  { pattern: /^gpg\.ssh\.defaultkeycommand$/i, neutral: constant('') },
  // The first value wins here, so no override can replace it: a local (file) remote, where the program
  // would run on this machine, is turned off instead; over ssh it runs on the other host.
  { pattern: /^remote\..+\.(uploadpack|receivepack)$/i, neutral: () => null, extra: () => [['protocol.file.allow', 'never']] },
  // The ext:: transport runs a command; a repository that touches protocol policy gets it off.
  { pattern: /^protocol\.(allow|.+\.allow)$/i, neutral: () => null, extra: () => [['protocol.ext.allow', 'never']] },
  { pattern: /^alias\./i, neutral: (_key, value) => (value.trimStart().startsWith('!') ? '' : null) },
  { pattern: /^submodule\..+\.update$/i, neutral: (_key, value) => (value.trimStart().startsWith('!') ? 'checkout' : null) },
  {
    pattern: /^((difftool|mergetool|browser|man)\..+\.(cmd|path)|guitool\..+\.cmd|(diff|merge)\.(tool|guitool)|man\.viewer|web\.browser|instaweb\.(httpd|browser)|imap\.tunnel|interactive\.difffilter|uploadpack\.packobjectshook|tar\..+\.command|trailer\..+\.(command|cmd)|sendemail\.(smtpserver|tocmd|cccmd|headercmd|sendmailcmd|.+\.(smtpserver|tocmd|cccmd|headercmd|sendmailcmd)))$/i,
    neutral: constant(''),
  },
];

const CREDENTIAL_HELPER = /^credential\.(.+\.)?helper$/i;

function ruleFor(key: string): Rule | undefined {
  return RULES.find((rule) => rule.pattern.test(key));
}

/**
 * The command-scope settings that undo every command key the repository's config sets. Pure: the
 * entries are `git config --list --show-scope --includes` in git's order (system, global, local...).
 */
export function repositoryCommandOverrides(entries: readonly ConfigEntry[]): ConfigOverride[] {
  const fromRepo = entries.filter((entry) => REPOSITORY_SCOPES.has(entry.scope));
  const fromUser = entries.filter((entry) => USER_SCOPES.has(entry.scope));
  const overrides = new Map<string, string>();
  const extras: ConfigOverride[] = [];
  for (const entry of fromRepo) {
    if (CREDENTIAL_HELPER.test(entry.key)) continue;
    const rule = ruleFor(entry.key);
    if (!rule) continue;
    const userValue = fromUser.filter((user) => user.key === entry.key).at(-1)?.value;
    const value = userValue ?? rule.neutral(entry.key, entry.value);
    if (value !== null) overrides.set(entry.key, value);
    if (userValue === undefined) extras.push(...(rule.extra?.(entry.key) ?? []));
  }
  const result: ConfigOverride[] = [...overrides, ...extras];
  // Helpers form a list that an empty value clears: clear it, then give back the user's own helpers.
  if (fromRepo.some((entry) => CREDENTIAL_HELPER.test(entry.key))) {
    result.push(['credential.helper', '']);
    for (const user of fromUser) if (CREDENTIAL_HELPER.test(user.key)) result.push([user.key, user.value]);
  }
  return result;
}

/**
 * Parses `git config --list --show-scope --includes -z`: records `scope NUL key LF value NUL`; with
 * `origin` (listed with --show-origin too), `scope NUL origin NUL key LF value NUL`.
 */
export function parseConfigList(out: string, options: { readonly origin?: boolean } = {}): ConfigEntry[] {
  const fields = out.split('\0');
  const size = options.origin ? 3 : 2;
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + size - 1 < fields.length; i += size) {
    const scope = fields[i] ?? '';
    const origin = options.origin ? { origin: fields[i + 1] ?? '' } : {};
    const record = fields[i + size - 1] ?? '';
    const newline = record.indexOf('\n');
    // A key given without `=` (a bare boolean) has no newline and no value.
    const keyValue = newline < 0 ? { key: record, value: 'true' } : { key: record.slice(0, newline), value: record.slice(newline + 1) };
    entries.push({ scope, ...keyValue, ...origin });
  }
  return entries;
}

/** When the config cannot be listed, every fixed command key is set to its neutral value. */
export const FALLBACK_OVERRIDES: readonly ConfigOverride[] = [
  ['core.fsmonitor', 'false'],
  ['core.checkStat', 'default'],
  ['core.trustCtime', 'true'],
  ['core.sshCommand', 'ssh'],
  ['core.askPass', ''],
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  ['core.pager', 'cat'],
  ['diff.external', ''],
  ['gpg.program', 'gpg'],
  ['credential.helper', ''],
];

/** The overrides as git's own environment variables (no quoting: a key may hold `=` or spaces). */
export function overridesEnv(overrides: readonly ConfigOverride[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(overrides.length) };
  overrides.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}
