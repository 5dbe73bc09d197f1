// A hosted server without an API key fails every request (as "host not found" or 401, after retries):
// say so in one line instead of sending the first one. A local server (llama-server, Ollama) needs no key.
import { isIP } from 'node:net';
import { modelError } from '../model/errors.js';
import { DEFAULT_BASE_URL } from '../model/openai-client.js';
import type { ModelClient } from '../model/types.js';

/** The one-line problem, or null when a key is set or the server looks local. */
export function missingApiKeyProblem(baseUrl: string | null, apiKey: string | null): string | null {
  if (apiKey) return null;
  const url = baseUrl ?? DEFAULT_BASE_URL;
  if (!isHosted(url)) return null;
  return `no API key for ${url}: set OPENAI_API_KEY (or --api-key); a local server needs none`;
}

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa'];

/** Loopback, private, link-local and CGNAT (Tailscale) addresses, local suffixes and one-label names are local. */
export function isHosted(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false; // an unparsable URL gets its own error from the client
  }
  if (host === 'localhost' || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return false;
  if (isIP(host) === 4) return !isPrivateV4(host);
  if (isIP(host) === 6) return !(host === '::1' || host.startsWith('fc') || host.startsWith('fd') || host.startsWith('fe80'));
  return host.includes('.');
}

function isPrivateV4(host: string): boolean {
  const [a = 0, b = 0] = host.split('.').map(Number);
  return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
}

/** With a problem, every request ends at once with it (an auth error: no retries, nothing sent). */
export function withApiKeyCheck(client: ModelClient, problem: string | null): ModelClient {
  if (problem === null) return client;
  return { chat: async () => ({ ok: false, error: modelError('auth', problem), partialText: '', usage: null }) };
}
