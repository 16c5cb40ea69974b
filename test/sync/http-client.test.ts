/**
 * RemoteClient against a real GiftDesk server on 127.0.0.1, through the fault proxy: each
 * way a request can end is reported with the outcome the engine must act on, and what the
 * remote actually holds afterwards proves the report truthful.
 */
import net from 'node:net';
import util from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRemoteClient, apiRoot, type RemoteClient } from '../../electron/sync/net/http-client.ts';
import { describeNetworkError } from '../../electron/sync/net/network-error.ts';
import { createPacer } from '../../electron/sync/net/pacer.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { forwardAll, startFaultProxy, type FaultProxy } from './fault-proxy.ts';

let remote: TestServer;
let proxy: FaultProxy;
let client: RemoteClient;
let seq = 0;

function makeClient(
  opts: { timeoutMs?: number; rate?: number; burst?: number; secret?: string; baseUrl?: string } = {},
): RemoteClient {
  return createRemoteClient({
    baseUrl: opts.baseUrl ?? proxy.url,
    keyId: remote.keyId,
    secret: opts.secret ?? remote.secret,
    pacer: createPacer({ ratePerSecond: opts.rate ?? 200, burst: opts.burst ?? 2 }),
    timeoutMs: opts.timeoutMs ?? 5000,
  });
}

async function contactsNamed(lastName: string): Promise<number> {
  const r = await remote.request(
    'GET',
    `/api/v1/contacts?accountId=${remote.accountId}&search=${encodeURIComponent(lastName)}&limit=100`,
  );
  expect(r.status).toBe(200);
  return (r.body.data as { lastName: string }[]).filter((c) => c.lastName === lastName).length;
}

function newContact() {
  const lastName = `Proxytest${++seq}x${Date.now().toString(36)}`;
  return { lastName, body: { accountId: remote.accountId, firstName: 'Ada', lastName } };
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  remote = await startTestServer();
  proxy = await startFaultProxy({ target: remote.url });
  client = makeClient();
});
afterAll(async () => {
  await proxy?.close();
  await remote?.close();
});
beforeEach(() => proxy.setRule(forwardAll));

describe('RemoteClient: answers', () => {
  it('a created contact is applied, with the remote body, status and rate headers', async () => {
    const c = newContact();
    const r = await client.request('POST', '/contacts', c.body);
    expect(r.outcome).toBe('applied');
    expect(r.sent).toBe(true);
    expect(r.status).toBe(201);
    expect((r.body as { id: string }).id).toMatch(/^cnt_/);
    expect(r.headers?.get('x-ratelimit-limit')).toBeTruthy();
    expect(await contactsNamed(c.lastName)).toBe(1);
  });

  it('sends the spec’s auth headers and JSON content type; GET takes a query', async () => {
    const r = await client.request('GET', '/contacts', undefined, {
      query: { accountId: remote.accountId, limit: 1, offset: undefined },
    });
    expect(r.status).toBe(200);
    const rec = proxy.records.at(-1)!;
    expect(rec.path).toBe(`/api/v1/contacts?accountId=${remote.accountId}&limit=1`);
  });

  it('a 400 is not applied, with the remote’s message and the field it names', async () => {
    const r = await client.request('POST', '/donations', {
      accountId: remote.accountId,
      contactId: 'cnt_nope',
      donationAmount: -5,
      donationDate: '2026-11-24',
      paymentMethod: 'cash',
      campaignId: 'cmp_x',
    });
    expect(r.outcome).toBe('notApplied');
    expect(r.status).toBe(400);
    expect(r.error?.message).toMatch(/donationAmount/);
    expect(r.error?.details?.some((d) => d.field === 'donationAmount')).toBe(true);
  });

  it('a 404 for a contact that is not there is not applied', async () => {
    const r = await client.request('PUT', '/contacts/cnt_00000000000000000000000000', { firstName: 'X' });
    expect(r.outcome).toBe('notApplied');
    expect(r.status).toBe(404);
    expect(r.error?.message).toBeTruthy();
  });

  it('the envelope error shape {error: {…}} is read the same way', async () => {
    proxy.setRule(() => ({
      kind: 'respond',
      status: 400,
      body: JSON.stringify({
        error: {
          code: 'bad_field',
          message: 'Unknown custom field "Colour"',
          details: [{ field: 'customFields.Colour', issue: 'no such field' }],
        },
      }),
    }));
    const r = await client.request('PUT', '/contacts/cnt_x', { customFields: { Colour: 'red' } });
    expect(r.outcome).toBe('notApplied');
    expect(r.error).toEqual({
      message: 'Unknown custom field "Colour"',
      code: 'bad_field',
      details: [{ field: 'customFields.Colour', issue: 'no such field' }],
    });
  });

  it('a wrong secret is a 401, and the secret appears nowhere in what comes back', async () => {
    const secret = 'gds_this-is-not-the-right-secret-0123456789';
    const bad = makeClient({ secret });
    const r = await bad.request('GET', '/contacts', undefined, { query: { accountId: remote.accountId } });
    expect(r.outcome).toBe('notApplied');
    expect(r.status).toBe(401);
    const shown = `${JSON.stringify(r)} ${util.inspect(r, { depth: 10 })} ${util.inspect(bad, { depth: 10, showHidden: true })} ${JSON.stringify(bad)}`;
    expect(shown).not.toContain(secret);
    expect(util.inspect(client, { depth: 10, showHidden: true })).not.toContain(remote.secret);
  });
});

describe('RemoteClient: faults, and what the remote really holds', () => {
  it('refused connection: not sent, not applied', async () => {
    const port = await freePort();
    const r = await makeClient({ baseUrl: `http://127.0.0.1:${port}` }).request(
      'POST',
      '/contacts',
      newContact().body,
    );
    expect(r).toMatchObject({
      outcome: 'notApplied',
      sent: false,
      networkError: { kind: 'refused', code: 'ECONNREFUSED' },
    });
  });

  it('a name that does not resolve: not sent, not applied', async () => {
    const r = await makeClient({ baseUrl: 'http://giftdesk-hq.invalid' }).request('GET', '/contacts');
    expect(r).toMatchObject({ outcome: 'notApplied', sent: false, networkError: { kind: 'dns' } });
  });

  it('answer dropped after the remote committed: unknown — and the contact IS at the remote', async () => {
    proxy.setRule(() => ({ kind: 'dropAfterCommit' }));
    const c = newContact();
    const r = await client.request('POST', '/contacts', c.body);
    expect(r).toMatchObject({ outcome: 'unknown', sent: true, networkError: { kind: 'reset' } });
    expect(await contactsNamed(c.lastName)).toBe(1);
  });

  it('connection reset before forwarding: unknown to the client — and the contact is NOT at the remote', async () => {
    proxy.setRule(() => ({ kind: 'resetBeforeForward' }));
    const c = newContact();
    const r = await client.request('POST', '/contacts', c.body);
    expect(r.outcome).toBe('unknown');
    expect(r.sent).toBe(true);
    expect(r.networkError?.kind).toBe('reset');
    expect(await contactsNamed(c.lastName)).toBe(0);
  });

  it('no answer within the deadline after the remote committed: unknown (timeout)', async () => {
    proxy.setRule(() => ({ kind: 'hangAfterCommit' }));
    const c = newContact();
    const r = await makeClient({ timeoutMs: 300 }).request('POST', '/contacts', c.body);
    expect(r).toMatchObject({ outcome: 'unknown', sent: true, networkError: { kind: 'timeout' } });
    expect(await contactsNamed(c.lastName)).toBe(1);
  });

  it('forwarded, then answered 503: unknown (applied but looks failed)', async () => {
    proxy.setRule(() => ({ kind: 'respond', status: 503, forward: true }));
    const c = newContact();
    const r = await client.request('POST', '/contacts', c.body);
    expect(r).toMatchObject({ outcome: 'unknown', status: 503 });
    expect(r.error?.message).toMatch(/503/);
    expect(await contactsNamed(c.lastName)).toBe(1);
  });

  it('a 500 without forwarding is unknown too (the client cannot tell)', async () => {
    proxy.setRule(() => ({ kind: 'respond', status: 500 }));
    const c = newContact();
    const r = await client.request('POST', '/contacts', c.body);
    expect(r).toMatchObject({ outcome: 'unknown', status: 500 });
    expect(await contactsNamed(c.lastName)).toBe(0);
  });

  it('the caller cancelling while waiting for the pacer: not sent, the proxy never sees it', async () => {
    const slow = makeClient({ rate: 1, burst: 1 });
    await slow.request('GET', '/contacts', undefined, { query: { accountId: remote.accountId } });
    const before = proxy.records.length;
    const ac = new AbortController();
    const pending = slow.request('POST', '/contacts', newContact().body, { signal: ac.signal });
    ac.abort();
    const r = await pending;
    expect(r).toMatchObject({ outcome: 'notApplied', sent: false, networkError: { kind: 'aborted' } });
    expect(proxy.records.length).toBe(before);
  });

  it('beforeSend runs before the request leaves; when it throws, nothing is sent', async () => {
    const before = proxy.records.length;
    let seenByProxyAtHook = -1;
    const ok = await client.request('GET', '/contacts', undefined, {
      query: { accountId: remote.accountId },
      beforeSend: () => void (seenByProxyAtHook = proxy.records.length),
    });
    expect(ok.status).toBe(200);
    expect(seenByProxyAtHook).toBe(before);
    await expect(
      client.request('POST', '/contacts', newContact().body, {
        beforeSend: () => {
          throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    expect(proxy.records.length).toBe(before + 1);
  });
});

describe('RemoteClient: 429 through the pacer', () => {
  it('429 with Retry-After: not applied, the wait is reported, and a request that already held its token waits out the pause', async () => {
    const c = makeClient({ rate: 50, burst: 2 });
    let n = 0;
    proxy.setRule(() =>
      n++ === 0 ? { kind: 'respond', status: 429, retryAfter: '1' } : { kind: 'forward' },
    );
    const start = proxy.records.length;
    const first = c.request('GET', '/contacts', undefined, { query: { accountId: remote.accountId } });
    // The second gets its token at once (burst 2), then is held up until the 429 has arrived.
    let heldAfterToken = false;
    let beforeSendCalls = 0;
    const second = c.request('GET', '/contacts', undefined, {
      query: { accountId: remote.accountId },
      beforeSend: async () => {
        await first;
        if (beforeSendCalls++ === 0) heldAfterToken = c.pacer.isHeld();
      },
    });
    const r1 = await first;
    expect(r1).toMatchObject({ outcome: 'notApplied', status: 429, retryAfterMs: 1000 });
    expect(r1.error?.message).toBeTruthy();
    const r2 = await second;
    expect(heldAfterToken).toBe(true);
    // After the pause it runs again, right before the request leaves (the engine renews its lease there).
    expect(beforeSendCalls).toBe(2);
    expect(r2.status).toBe(200);
    const [limited, later] = proxy.records.slice(start);
    expect(limited!.status).toBe(429);
    expect(later!.at - limited!.doneAt!).toBeGreaterThanOrEqual(950); // not before Retry-After
    expect(c.pacer.currentRate).toBe(25);
  });

  it('429 with only the body’s retryAfter is honoured too', async () => {
    const c = makeClient();
    proxy.setRule(() => ({ kind: 'respond', status: 429, bodyRetryAfter: 2 }));
    const r = await c.request('GET', '/contacts');
    expect(r).toMatchObject({ outcome: 'notApplied', status: 429, retryAfterMs: 2000 });
    expect(c.pacer.pausedUntil).toBeGreaterThan(Date.now() + 1500);
  });
});

describe('describeNetworkError and apiRoot', () => {
  it.each<[string, unknown, boolean, string]>([
    [
      'ECONNREFUSED',
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      }),
      false,
      'refused',
    ],
    [
      'ENOTFOUND',
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }),
      }),
      false,
      'dns',
    ],
    [
      'connect timeout',
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }),
      }),
      false,
      'timeout',
    ],
    [
      'ECONNRESET',
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      }),
      true,
      'reset',
    ],
    [
      'other side closed',
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      }),
      true,
      'reset',
    ],
    [
      'headers timeout',
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }),
      }),
      true,
      'timeout',
    ],
    ['something new', new Error('mystery'), true, 'other'],
  ])('%s', (_n, err, sent, kind) => {
    const d = describeNetworkError(err);
    expect(d.sent).toBe(sent);
    expect(d.error.kind).toBe(kind);
  });

  it.each([
    ['https://hq.example.org', 'https://hq.example.org/api/v1'],
    ['https://hq.example.org/', 'https://hq.example.org/api/v1'],
    ['https://hq.example.org/api/v1', 'https://hq.example.org/api/v1'],
    ['https://hq.example.org/api/v1/', 'https://hq.example.org/api/v1'],
    ['https://example.org/giftdesk/', 'https://example.org/giftdesk/api/v1'],
  ])('apiRoot(%s)', (base, want) => {
    expect(apiRoot(base)).toBe(want);
  });

  it('apiRoot refuses what is not http(s)', () => {
    expect(() => apiRoot('ftp://hq.example.org')).toThrow(/http/);
  });
});

describe('RemoteClient: a long-lived caller signal', () => {
  it('does not collect a listener per request (no leak over a long sync)', async () => {
    const ac = new AbortController();
    const added: number[] = [];
    const orig = ac.signal.addEventListener.bind(ac.signal);
    const removed: number[] = [];
    ac.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      added.push(1);
      return orig(...args);
    }) as AbortSignal['addEventListener'];
    const origRemove = ac.signal.removeEventListener.bind(ac.signal);
    ac.signal.removeEventListener = ((...args: Parameters<AbortSignal['removeEventListener']>) => {
      removed.push(1);
      return origRemove(...args);
    }) as AbortSignal['removeEventListener'];
    for (let i = 0; i < 15; i++) {
      const r = await client.request('GET', '/contacts', undefined, {
        query: { accountId: remote.accountId, limit: 1 },
        signal: ac.signal,
      });
      expect(r.status).toBe(200);
    }
    expect(added.length).toBeGreaterThan(0);
    expect(removed.length).toBe(added.length);
  });

  it('the caller aborting mid-request: unknown (it left), reported as aborted', async () => {
    proxy.setRule(() => ({ kind: 'hangAfterCommit' }));
    const ac = new AbortController();
    const before = proxy.records.length;
    const p = client.request('POST', '/contacts', newContact().body, { signal: ac.signal });
    // Abort once HQ has saved it and the proxy is holding the answer back (not after a guessed delay).
    await expect.poll(() => proxy.records[before]?.upstreamStatus).toBe(201);
    ac.abort(new Error('shutting down'));
    const r = await p;
    expect(r).toMatchObject({ outcome: 'unknown', sent: true, networkError: { kind: 'aborted' } });
  });
});
