// Where traces go, from the user's own settings (flag, home config, TANDEM_OTLP_*) or the standard
// OTEL_EXPORTER_OTLP_* variables of the real environment. A repository's config and .env never get
// here: the option table marks these settings user-only, and .env is never read for OTEL_ names.

export interface OtlpTarget {
  /** The full OTLP/HTTP traces URL (…/v1/traces). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Prompt and reply text go into the spans. */
  readonly content: boolean;
}

export interface OtlpSettings {
  readonly endpoint: string | null;
  readonly headers: readonly string[];
  readonly content: boolean;
}

export type OtlpTargetResult = { readonly target: OtlpTarget | null; readonly problem: string | null };

const TRACES_PATH = 'v1/traces';

/** The target, or null when tracing is off; `problem` names a value that could not be used. */
export function resolveOtlpTarget(settings: OtlpSettings, env: Readonly<Record<string, string | undefined>>): OtlpTargetResult {
  const chosen = chooseUrl(settings.endpoint, env);
  if (chosen === null) return { target: null, problem: null };
  let url: URL;
  try {
    url = new URL(chosen.url);
  } catch {
    return { target: null, problem: `${chosen.from}: not a URL: ${JSON.stringify(chosen.url).slice(0, 200)}; tracing is off` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { target: null, problem: `${chosen.from}: only http and https endpoints are supported (got ${url.protocol}); tracing is off` };
  }
  const headers = settings.headers.length > 0 ? parseHeaderList(settings.headers) : parseHeaderEnv(env['OTEL_EXPORTER_OTLP_TRACES_HEADERS'] ?? env['OTEL_EXPORTER_OTLP_HEADERS'] ?? '');
  if ('problem' in headers) return { target: null, problem: `${headers.problem}; tracing is off` };
  return { target: { url: url.href, headers: headers.value, content: settings.content }, problem: null };
}

function chooseUrl(endpoint: string | null, env: Readonly<Record<string, string | undefined>>): { url: string; from: string } | null {
  // The flag names a collector: a bare host gets the standard traces path, a URL with a path is used as it is.
  if (endpoint) return { url: withTracesPath(endpoint, (u) => u.pathname === '/' || u.pathname === ''), from: '--otlp-endpoint' };
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim();
  if (traces) return { url: traces, from: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' };
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  // The base endpoint always gets the signal's path appended (the OTLP exporter specification).
  if (base) return { url: withTracesPath(base, () => true), from: 'OTEL_EXPORTER_OTLP_ENDPOINT' };
  return null;
}

function withTracesPath(text: string, append: (url: URL) => boolean): string {
  try {
    const url = new URL(text);
    if (!append(url)) return text;
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/${TRACES_PATH}`;
    return url.href;
  } catch {
    return text;
  }
}

type Headers = { value: Record<string, string> } | { problem: string };

/** `--otlp-headers NAME=VALUE`, repeatable. */
function parseHeaderList(items: readonly string[]): Headers {
  const value: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf('=');
    const name = at > 0 ? item.slice(0, at).trim() : '';
    if (!isHeaderName(name)) return { problem: `otlp-headers: expected NAME=VALUE, got an entry without a valid name` };
    value[name] = item.slice(at + 1).trim();
  }
  return { value };
}

/** `OTEL_EXPORTER_OTLP_HEADERS=a=1,b=2`, values percent-encoded (the specification's format). */
function parseHeaderEnv(text: string): Headers {
  const value: Record<string, string> = {};
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    const name = at > 0 ? part.slice(0, at).trim() : '';
    if (!isHeaderName(name)) return { problem: 'OTEL_EXPORTER_OTLP_HEADERS: expected name=value pairs separated by commas' };
    let decoded: string;
    try {
      decoded = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return { problem: `OTEL_EXPORTER_OTLP_HEADERS: the value of ${name} is not percent-encoded correctly` };
    }
    value[name] = decoded;
  }
  return { value };
}

function isHeaderName(name: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name);
}
