/**
 * The station's pinned TLS client: a request goes only to the certificate whose fingerprint was
 * pinned. Against a real TLS server on 127.0.0.1 that records every byte it receives: with the
 * pinned certificate the request is answered; with another, the client refuses before a
 * single request byte is written, says so in words a person can act on, and reports the
 * request as not sent (so the engine may send it again without reconciling).
 */
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHubAddress } from '#shared/hub-address.ts';
import { normaliseFingerprint } from '#shared/hub-link.ts';
import { connectionProblem } from '../../electron/sync/net/connection-problem.ts';
import { createRemoteClient } from '../../electron/sync/net/http-client.ts';
import { createPacer } from '../../electron/sync/net/pacer.ts';
import { PIN_MISMATCH_CODE, pinnedFetch } from '../../electron/sync/net/pinned-fetch.ts';
import { makeCert, type TestCert } from './tls.ts';

let hubCert: TestCert;
let otherCert: TestCert;
let server: tls.Server;
let url: string;
/** Bytes of request the server read, per connection. */
const received: string[] = [];

beforeAll(async () => {
  hubCert = makeCert('hub');
  otherCert = makeCert('other');
  server = tls.createServer({ cert: hubCert.cert, key: hubCert.key }, (socket) => {
    const i = received.push('') - 1;
    socket.on('data', (d: Buffer) => {
      received[i] += d.toString('latin1');
      if (received[i]!.includes('\r\n\r\n'))
        socket.end(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: close\r\n\r\n{"ok":true}',
        );
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

function client(fingerprint: string) {
  return createRemoteClient({
    baseUrl: url,
    keyId: 'gdk_test',
    secret: 'gds_station_secret_value',
    pacer: createPacer({ ratePerSecond: 100, burst: 5 }),
    timeoutMs: 5000,
    fetch: pinnedFetch(fingerprint),
  });
}

describe('the pinned client', () => {
  it('sends to the certificate with the pinned fingerprint (typed in any case, with or without colons)', async () => {
    const typed = hubCert.fingerprint.replace(/:/g, '').toUpperCase().replace('SHA256', 'sha256:');
    expect(normaliseFingerprint(typed)).toBe(hubCert.fingerprint);
    const before = received.length;
    const r = await client(typed).request('POST', '/hub/report', { entered: 1, lastSeq: 2, waiting: 0 });
    expect(r.status).toBe(200);
    expect(r.outcome).toBe('applied');
    expect(r.body).toEqual({ ok: true });
    const sent = received.slice(before).join('');
    expect(sent).toMatch(/^POST \/api\/v1\/hub\/report HTTP\/1\.1\r\n/);
    expect(sent).toContain('"entered":1');
  });

  it('refuses another certificate before any request byte is written, and says so', async () => {
    const before = received.length;
    const r = await client(otherCert.fingerprint).request('POST', '/donations', { donationAmount: 5 });
    expect(r.sent).toBe(false);
    expect(r.outcome).toBe('notApplied');
    expect(r.status).toBeUndefined();
    expect(r.networkError?.code).toBe(PIN_MISMATCH_CODE);
    expect(r.networkError?.message).toBe(
      'The hub’s certificate does not match the fingerprint this station was given',
    );
    // The handshake may have been made; not one byte of the request reached the server.
    await new Promise((res) => setTimeout(res, 50));
    expect(received.slice(before).join('')).toBe('');
    const problem = connectionProblem(r, url);
    expect(problem?.sentence).toMatch(
      /^The hub’s certificate does not match the fingerprint this station was given at https:\/\/127\.0\.0\.1:\d+: nothing was sent to it\./,
    );
  });

  it('never sends over plain http', async () => {
    await expect(
      pinnedFetch(hubCert.fingerprint)(new URL(url.replace('https:', 'http:')), {
        method: 'GET',
        headers: {},
      }),
    ).rejects.toThrow(/https only/);
  });
});

describe('a hub address as a person gives it', () => {
  const fp = `sha256:${'ab:'.repeat(31)}ab`;
  it('reads the address, and either form of the join link', () => {
    expect(parseHubAddress('https://10.0.0.5:4871/')).toEqual({
      url: 'https://10.0.0.5:4871',
      code: null,
      fingerprint: null,
    });
    const hex = 'AB'.repeat(32);
    expect(parseHubAddress(`https://10.0.0.5:4871/join#code=ABCD-EFGH&fingerprint=sha256:${hex}`)).toEqual({
      url: 'https://10.0.0.5:4871',
      code: 'ABCD-EFGH',
      fingerprint: fp,
    });
    expect(
      parseHubAddress(`https://10.0.0.5:4871/#join?code=ABCDEFGH&fingerprint=${encodeURIComponent(fp)}`),
    ).toEqual({
      url: 'https://10.0.0.5:4871',
      code: 'ABCDEFGH',
      fingerprint: fp,
    });
  });
  it('refuses plain http and a link with a broken fingerprint', () => {
    expect(parseHubAddress('http://10.0.0.5:4871')).toEqual({ problem: expect.stringMatching(/https/) });
    expect(parseHubAddress('https://h:1/join#code=X&fingerprint=sha256:12')).toEqual({
      problem: expect.stringMatching(/fingerprint/),
    });
    expect(parseHubAddress('not a url')).toHaveProperty('problem');
  });
});
