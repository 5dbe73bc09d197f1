// The fetch port goes through the user's proxy (HTTP_PROXY), except for hosts NO_PROXY names.
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, fetch as undiciFetch } from 'undici';
import { createHttpFetcher, describeNetworkError, isInnerHost, outwardLookup } from '../../src/platform/http-fetch.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('http fetch', () => {
  it('sends requests through HTTP_PROXY and skips it for NO_PROXY hosts', async () => {
    const origin = await listen(createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('from the origin')));
    const seen: string[] = [];
    // A tunnelling proxy (undici asks for a CONNECT tunnel to the target, http or https).
    const proxyServer = createServer((_req, res) => res.writeHead(405).end());
    proxyServer.on('connect', (req, socket, head) => {
      seen.push(req.url ?? '');
      const [, port] = (req.url ?? '').split(':');
      const up = connect(Number(port), '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        up.write(head);
        up.pipe(socket);
        socket.pipe(up);
      });
      up.on('error', () => socket.destroy());
      socket.on('error', () => up.destroy());
    });
    const proxy = await listen(proxyServer);
    const env = { HTTP_PROXY: `http://127.0.0.1:${proxy}` };
    const fetcher = createHttpFetcher({ timeoutMs: 5000, maxRedirects: 5, maxBytes: 1024, env });
    const url = `http://localhost:${origin}/page`;
    const viaProxy = await fetcher.fetch(url);
    expect(viaProxy.ok && viaProxy.body.toString()).toBe('from the origin');
    expect(seen).toEqual([`localhost:${origin}`]);

    const direct = createHttpFetcher({ timeoutMs: 5000, maxRedirects: 5, maxBytes: 1024, env: { ...env, NO_PROXY: 'localhost' } });
    expect((await direct.fetch(url)).ok).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('says a refused connection and an unknown host in one line', async () => {
    const fetcher = createHttpFetcher({ timeoutMs: 5000, maxRedirects: 5, maxBytes: 1024, env: {} });
    const closed = await listen(createServer());
    servers.pop()!.close();
    expect(await fetcher.fetch(`http://127.0.0.1:${closed}/`)).toEqual({ ok: false, message: `http://127.0.0.1:${closed}/: connection refused` });
    const dns = await fetcher.fetch('http://no-such-host.invalid/');
    expect(dns.ok).toBe(false);
    expect(!dns.ok && dns.message).toMatch(/^http:\/\/no-such-host\.invalid\/: cannot resolve the host name/);
  });
});

describe('the connection a redirect from a page elsewhere makes (DNS rebinding)', () => {
  it('is refused when the name resolves to this machine at connect time, whatever it resolved to when checked', async () => {
    const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) => outwardLookup('localhost', {}, (error) => resolve(error)));
    expect(refused?.code).toBe('EINNER');
    // The same lookup in undici's connect: a server on loopback is running, and still nothing connects to it.
    let served = 0;
    const port = await listen(createServer((_req, res) => (served++, res.end('inner'))));
    const agent = new Agent({ connect: { lookup: outwardLookup } });
    const error = await undiciFetch(`http://localhost:${port}/`, { dispatcher: agent }).then(() => null, (e: unknown) => e);
    await agent.close();
    expect(describeNetworkError(error)).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), an address on this machine or its network; not connected$/);
    expect(served).toBe(0);
  });
});

describe('isInnerHost (where a redirect from a page elsewhere may not lead)', () => {
  it('knows loopback, link-local, private, shared and unspecified addresses in every spelling a URL allows', async () => {
    const inner = [
      'http://127.0.0.1/', 'http://127.1/', 'http://2130706433/', 'http://0x7f.0.0.1/', 'http://0/', 'http://localhost/', 'http://LOCALHOST./',
      'http://api.localhost/', 'http://169.254.169.254/', 'http://10.1.2.3/', 'http://172.31.0.1/', 'http://192.168.1.1/', 'http://100.64.0.1/',
      'http://[::1]/', 'http://[::]/', 'http://[::ffff:127.0.0.1]/', 'http://[::127.0.0.1]/', 'http://[fe80::1]/', 'http://[fd00::1]/', 'http://[64:ff9b::a9fe:a9fe]/',
    ];
    for (const url of inner) expect(await isInnerHost(url), url).toBe(true);
    for (const url of ['http://8.8.8.8/', 'http://172.32.0.1/', 'http://[2001:db8::1]/', 'http://no-such-host.invalid/']) expect(await isInnerHost(url), url).toBe(false);
  });
});
