// The HTTP fetch port for web pages: http and https only (every redirect is checked again), at most a few
// redirects, a timeout for the whole download, a cap on the bytes read, and the user's proxy settings
// (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) handed in by the composition root. Failures come back as one line.
import type dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import type { Dispatcher } from 'undici';

type Undici = Pick<typeof import('undici'), 'fetch' | 'EnvHttpProxyAgent' | 'Agent'>;

export interface FetchOptions {
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  readonly maxBytes: number;
  /** The proxy variables of the user's environment (either case). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export type FetchResult =
  | { readonly ok: true; readonly url: string; readonly contentType: string; readonly body: Buffer; readonly truncated: boolean }
  | { readonly ok: false; readonly message: string };

export interface HttpFetcher {
  fetch(url: string, signal?: AbortSignal): Promise<FetchResult>;
}

export const DEFAULT_FETCH_OPTIONS = { timeoutMs: 30_000, maxRedirects: 5, maxBytes: 2 * 1024 * 1024 } as const;

export function createHttpFetcher(options: FetchOptions): HttpFetcher {
  // undici loads on the first fetch, not with every start of tandem.
  let loaded: Promise<Dispatchers & { undici: Undici }> | undefined;
  const load = (): Promise<Dispatchers & { undici: Undici }> =>
    (loaded ??= import('undici').then((mod) => {
      // A CommonJS package: bundled, its exports may sit on `default` only.
      const lib = (typeof mod.fetch === 'function' ? mod : (mod as unknown as { default: Undici }).default) as Undici;
      const undici: Undici = { fetch: lib.fetch, EnvHttpProxyAgent: lib.EnvHttpProxyAgent, Agent: lib.Agent };
      const proxy = proxyAgent(undici, options.env);
      // Behind a proxy the proxy resolves names; without one, the address a redirect connects to is checked
      // when it connects, not only before (a name may resolve elsewhere the second time: DNS rebinding).
      return { undici, dispatcher: proxy, outward: proxy ?? new undici.Agent({ connect: { lookup: outwardLookup } }) };
    }));
  return {
    async fetch(url, signal) {
      const { undici, ...dispatchers } = await load();
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        return await follow(url, options, combined, undici, dispatchers);
      } catch (error) {
        if (timeout.aborted) return { ok: false, message: `${url}: no complete answer within ${Math.round(options.timeoutMs / 1000)} s` };
        if (signal?.aborted) return { ok: false, message: `${url}: cancelled` };
        return { ok: false, message: `${url}: ${describeNetworkError(error)}` };
      }
    },
  };
}

interface Dispatchers {
  /** The user's proxy, or none (undici's default). */
  readonly dispatcher: Dispatcher | undefined;
  /** For redirects away from a page elsewhere: refuses to connect to this machine or its network. */
  readonly outward: Dispatcher;
}

async function follow(start: string, options: FetchOptions, signal: AbortSignal, undici: Undici, dispatchers: Dispatchers): Promise<FetchResult> {
  let url = start;
  // The user may name a page on their own machine or network; a page elsewhere may not send tandem there.
  let startsInside: boolean | undefined;
  for (let hops = 0; ; hops++) {
    const problem = schemeProblem(url);
    if (problem) return { ok: false, message: hops === 0 ? problem : `${start} redirects to ${problem}` };
    if (hops > 0) {
      startsInside ??= await isInnerHost(start);
      if (!startsInside && (await isInnerHost(url))) {
        return { ok: false, message: `${start} redirects to ${url}, an address on this machine or its network; not followed` };
      }
    }
    const dispatcher = hops > 0 && startsInside === false ? dispatchers.outward : dispatchers.dispatcher;
    const response = await undici.fetch(url, {
      redirect: 'manual',
      signal,
      headers: { accept: 'text/html,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.5', 'user-agent': 'tandem (terminal pair programmer)' },
      ...(dispatcher ? { dispatcher } : {}),
    });
    if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
      await response.body?.cancel().catch(() => {});
      if (hops >= options.maxRedirects) return { ok: false, message: `${start}: more than ${options.maxRedirects} redirects; not followed` };
      url = new URL(response.headers.get('location')!, url).toString();
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return { ok: false, message: `${url}: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}` };
    }
    const { body, truncated } = await readCapped(response.body, options.maxBytes);
    return { ok: true, url, contentType: response.headers.get('content-type') ?? '', body, truncated };
  }
}

// Loaded on first use: a run that fetches no page (most) does not load the resolver's modules.
const requireBuiltin = createRequire(import.meta.url);
let dnsModule: typeof dns | undefined;
const dnsNow = (): typeof dns => (dnsModule ??= requireBuiltin('node:dns') as typeof dns);

/** Loopback, link-local (cloud metadata), private, shared and unspecified ranges: this machine and its network. */
const INNER = new BlockList();
for (const [net, bits] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
  INNER.addSubnet(net, bits, 'ipv4');
}
// IPv4-mapped addresses (::ffff:a.b.c.d) are checked against the IPv4 ranges by BlockList itself.
for (const [net, bits] of [['::', 96], ['64:ff9b::', 96], ['fc00::', 7], ['fe80::', 10]] as const) INNER.addSubnet(net, bits, 'ipv6');

/**
 * Whether a URL's host is this machine or its network: an address in those ranges, `localhost`, or a name
 * that resolves to one (a name that does not resolve here, as behind a proxy, counts as elsewhere).
 */
export async function isInnerHost(url: string): Promise<boolean> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  const family = isIP(host);
  if (family !== 0) return INNER.check(host, family === 6 ? 'ipv6' : 'ipv4');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const timeout = new Promise<[]>((resolve) => setTimeout(() => resolve([]), 2000).unref());
  const addresses = await Promise.race([dnsNow().promises.lookup(host, { all: true }).catch(() => []), timeout]);
  return addresses.some((a) => INNER.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4'));
}

/**
 * A DNS lookup for connections that must not reach this machine or its network: a name that resolves to
 * an inner address fails with `EINNER`. Shaped like `dns.lookup`, as undici's `connect.lookup` calls it.
 */
export function outwardLookup(
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsNow().lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const inner = addresses.find((a) => INNER.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4'));
    if (inner) {
      const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${inner.address}, an address on this machine or its network; not connected`);
      refused.code = 'EINNER';
      return callback(refused, '');
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), '');
    return callback(null, first.address, first.family);
  });
}

/** Null for an http(s) URL; otherwise why it is not fetched. */
export function schemeProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${url} is not a valid URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${parsed.protocol} URLs are not fetched (only http and https): ${url}`;
  return null;
}

function proxyAgent(undici: Undici, env: FetchOptions['env']): Dispatcher | undefined {
  const get = (name: string): string | undefined => env[name] ?? env[name.toLowerCase()];
  const httpsProxy = get('HTTPS_PROXY');
  const httpProxy = get('HTTP_PROXY');
  if (!httpsProxy && !httpProxy) return undefined;
  return new undici.EnvHttpProxyAgent({ httpProxy, httpsProxy: httpsProxy ?? httpProxy, noProxy: get('NO_PROXY') ?? '' });
}

/** DNS, connection and TLS failures in one line each. */
export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string; hostname?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve the host name${cause?.hostname ? ` ${cause.hostname}` : ''} (DNS)`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'EINNER') return cause?.message ?? 'an address on this machine or its network; not connected';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was closed by the server';
  if (code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `TLS error (${code})`;
  const message = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return (message.split('\n')[0] ?? message).slice(0, 200);
}

/** Reads a web-stream body up to `maxBytes`; past that the rest is cancelled and `truncated` says so. */
async function readCapped(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  if (!stream) return { body: Buffer.alloc(0), truncated: false };
  const chunks: Buffer[] = [];
  let length = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { body: Buffer.concat(chunks), truncated: false };
    chunks.push(Buffer.from(value));
    length += value.length;
    if (length > maxBytes) {
      await reader.cancel().catch(() => {});
      return { body: Buffer.concat(chunks).subarray(0, maxBytes), truncated: true };
    }
  }
}
