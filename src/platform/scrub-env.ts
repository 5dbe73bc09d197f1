// The environment every command tandem starts gets (lint, test, /run, approved suggestions, git and
// its hooks): the API key and anything that looks like a secret stay with tandem.

export interface ScrubOptions {
  /** Names the user's own config keeps although they look secret (`pass-env`). */
  readonly passEnv?: readonly string[];
  /** Values never handed on, wherever they appear (the API key in use). */
  readonly secrets?: ReadonlyArray<string | null | undefined>;
}

/**
 * Whole name parts that mark a secret: `GITHUB_PAT`, `NPM_CONFIG__AUTH`; `OTEL_EXPORTER_OTLP_HEADERS` carries a
 * collector's API key, a `..._COOKIE` a session.
 */
const EXACT_PARTS: ReadonlySet<string> = new Set(['PAT', 'AUTH', 'AUTHORIZATION', 'KEY', 'PASS', 'CREDS', 'HEADER', 'COOKIE']);
/** Markers that may be glued to another word in a part: `AUTHTOKEN`, `DBPASSWORD`, `APIKEY`. */
const GLUED_MARKERS: readonly string[] = ['TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'CREDENTIAL', 'APIKEY', 'ACCESSKEY', 'PRIVATEKEY'];

/** True for names like `AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`, `NPM_CONFIG__AUTH`, `OPENAI_API_KEY`. */
export function isSecretName(name: string): boolean {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((part) => part !== '');
  return parts.some((part) => {
    if (EXACT_PARTS.has(part)) return true;
    // KEYS, TOKENS, CREDENTIALS; but not KEYBOARD or MONKEY: only words that begin or end with a marker
    const singular = part.endsWith('S') ? part.slice(0, -1) : part;
    if (EXACT_PARTS.has(singular)) return true;
    return GLUED_MARKERS.some((marker) => singular.endsWith(marker) || singular.startsWith(marker));
  });
}

/** A URL carrying a password: `postgres://user:password@host/db`. */
export function hasUrlPassword(value: string): boolean {
  return /[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/i.test(value);
}

/** A copy of `env` without secret-looking variables, URLs with passwords, or the given secret values. */
export function scrubEnvironment(env: Readonly<Record<string, string | undefined>>, options: ScrubOptions = {}): Record<string, string> {
  const keep = new Set(options.passEnv ?? []);
  const secrets = (options.secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= 4);
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (keep.has(name)) {
      clean[name] = value;
      continue;
    }
    if (isSecretName(name) || hasUrlPassword(value) || secrets.some((secret) => value.includes(secret))) continue;
    clean[name] = value;
  }
  return clean;
}
