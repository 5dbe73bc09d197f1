// One request over node:http or node:https, the TLS module loaded only when an https URL asks for it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readCapped, sendHttp, UnsupportedSchemeError } from '../../src/platform/http-request.js';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A plain-http server answering every request with `text`; resolves to its port. */
async function plainServer(text: string): Promise<number> {
  server = http.createServer((_req, res) => res.end(text));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('sendHttp', () => {
  it('answers a plain http request', async () => {
    const port = await plainServer('hello');
    const answer = await sendHttp({ method: 'GET', url: new URL(`http://127.0.0.1:${port}/`), headers: {} });
    expect(answer.status).toBe(200);
    expect((await readCapped(answer.body, 1024)).body.toString()).toBe('hello');
  });

  it('speaks TLS to an https URL: a plain-http server on the other end fails the handshake', async () => {
    const port = await plainServer('not TLS');
    const failure = await sendHttp({ method: 'GET', url: new URL(`https://127.0.0.1:${port}/`), headers: {} }).then(() => null, (error: unknown) => error);
    expect(failure).toMatchObject({ code: 'EPROTO' });
    expect(String((failure as Error).message)).toMatch(/wrong version number|SSL/i);
  });

  it('refuses a scheme other than http and https before connecting', async () => {
    await expect(sendHttp({ method: 'GET', url: new URL('ftp://127.0.0.1/'), headers: {} })).rejects.toBeInstanceOf(UnsupportedSchemeError);
  });
});
