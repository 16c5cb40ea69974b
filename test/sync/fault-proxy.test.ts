/**
 * The fault proxy itself, against a real GiftDesk server: each fault does what it says to
 * the client AND to the remote (what was committed there), and every request is recorded.
 */
import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  forwardAll,
  maxInAnyWindow,
  seededFaults,
  startFaultProxy,
  type FaultAction,
  type FaultProxy,
} from './fault-proxy.ts';

let remote: TestServer;
let proxy: FaultProxy;
let seq = 0;

beforeAll(async () => {
  remote = await startTestServer();
  proxy = await startFaultProxy({ target: remote.url });
});
afterAll(async () => {
  await proxy?.close();
  await remote?.close();
});
beforeEach(() => proxy.setRule(forwardAll));

const auth = () => ({
  'x-api-key': remote.keyId,
  authorization: `Bearer ${remote.secret}`,
  'content-type': 'application/json',
});

/** A plain node:http request (no retries, no pooling), reporting how it ended. */
function raw(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status?: number; body?: string; headers?: http.IncomingHttpHeaders; error?: string }> {
  return new Promise((resolve) => {
    const u = new URL(proxy.url + path);
    const req = http.request(
      {
        hostname: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        headers: auth(),
        agent: false,
        timeout: 2000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString(), headers: res.headers }),
        );
        res.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function atRemote(lastName: string): Promise<number> {
  const r = await remote.request(
    'GET',
    `/api/v1/contacts?accountId=${remote.accountId}&search=${lastName}&limit=100`,
  );
  return (r.body.data as { lastName: string }[]).filter((c) => c.lastName === lastName).length;
}

async function tryCreate(action: FaultAction) {
  proxy.setRule(() => action);
  const lastName = `Faulty${++seq}${Date.now().toString(36)}`;
  const before = proxy.records.length;
  const res = await raw('POST', '/api/v1/contacts', {
    accountId: remote.accountId,
    firstName: 'Grace',
    lastName,
  });
  proxy.setRule(forwardAll);
  return { res, rec: proxy.records[before]!, committed: await atRemote(lastName) };
}

describe('fault proxy actions, checked at the remote', () => {
  it('forward: the remote’s answer, headers included, and the record', async () => {
    const { res, rec, committed } = await tryCreate({ kind: 'forward' });
    expect(res.status).toBe(201);
    expect(res.headers?.['x-ratelimit-remaining']).toBeDefined();
    expect(committed).toBe(1);
    expect(rec).toMatchObject({
      method: 'POST',
      path: '/api/v1/contacts',
      action: 'forward',
      forwarded: true,
      upstreamStatus: 201,
      status: 201,
    });
    expect(JSON.parse(rec.body).firstName).toBe('Grace');
    expect(rec.doneAt! >= rec.at).toBe(true);
  });

  it('forward with latency: still answered, later', async () => {
    const { res, rec, committed } = await tryCreate({ kind: 'forward', delayMs: 80, latencyMs: 80 });
    expect(res.status).toBe(201);
    expect(committed).toBe(1);
    expect(rec.doneAt! - rec.at).toBeGreaterThanOrEqual(150);
  });

  it('dropAfterCommit: the client loses the connection, the remote HAS the contact', async () => {
    const { res, rec, committed } = await tryCreate({ kind: 'dropAfterCommit' });
    expect(res.status).toBeUndefined();
    expect(res.error).toMatch(/ECONNRESET|socket hang up/);
    expect(committed).toBe(1);
    expect(rec).toMatchObject({ forwarded: true, upstreamStatus: 201 });
    expect(rec.status).toBeUndefined();
  });

  it('resetBeforeForward: the client is reset, the remote has nothing', async () => {
    const { res, rec, committed } = await tryCreate({ kind: 'resetBeforeForward' });
    expect(res.error).toMatch(/ECONNRESET|socket hang up/);
    expect(committed).toBe(0);
    expect(rec.forwarded).toBe(false);
  });

  it('hangAfterCommit: no answer at all, the remote has it', async () => {
    const { res, committed } = await tryCreate({ kind: 'hangAfterCommit' });
    expect(res.error).toBe('TIMEOUT');
    expect(committed).toBe(1);
  });

  it('hang: no answer, nothing forwarded', async () => {
    const { res, rec, committed } = await tryCreate({ kind: 'hang' });
    expect(res.error).toBe('TIMEOUT');
    expect(committed).toBe(0);
    expect(rec.forwarded).toBe(false);
  });

  it.each([500, 503])('respond %i without forwarding: the remote has nothing', async (status) => {
    const { res, rec, committed } = await tryCreate({ kind: 'respond', status });
    expect(res.status).toBe(status);
    expect(JSON.parse(res.body!).statusCode).toBe(status);
    expect(committed).toBe(0);
    expect(rec.forwarded).toBe(false);
  });

  it('forward then 503: the client sees a failure, the remote HAS the contact', async () => {
    const { res, rec, committed } = await tryCreate({ kind: 'respond', status: 503, forward: true });
    expect(res.status).toBe(503);
    expect(committed).toBe(1);
    expect(rec).toMatchObject({ forwarded: true, upstreamStatus: 201, status: 503 });
  });

  it('429 with Retry-After, with only the body’s retryAfter, and with neither', async () => {
    const a = await tryCreate({ kind: 'respond', status: 429, retryAfter: '3' });
    expect(a.res.status).toBe(429);
    expect(a.res.headers?.['retry-after']).toBe('3');
    expect(a.committed).toBe(0);
    const b = await tryCreate({ kind: 'respond', status: 429, bodyRetryAfter: 2 });
    expect(b.res.headers?.['retry-after']).toBeUndefined();
    expect(JSON.parse(b.res.body!).retryAfter).toBe(2);
    const c = await tryCreate({ kind: 'respond', status: 429 });
    expect(c.res.headers?.['retry-after']).toBeUndefined();
    expect(JSON.parse(c.res.body!).retryAfter).toBeUndefined();
  });

  it('a rule sees the request index, method, path and body: a 429 burst on requests 2–4', async () => {
    const first = proxy.records.length;
    proxy.setRule((r) =>
      r.index - first >= 2 && r.index - first <= 4
        ? { kind: 'respond', status: 429, retryAfter: '1' }
        : { kind: 'forward' },
    );
    const statuses: (number | undefined)[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await raw('GET', `/api/v1/contacts?accountId=${remote.accountId}&limit=1`)).status);
    expect(statuses).toEqual([200, 200, 429, 429, 429, 200, 200]);
    expect(proxy.records.slice(first).map((r) => r.index - first)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(proxy.forwarded('GET').length).toBeGreaterThanOrEqual(4);
  });
});

describe('seeded faults', () => {
  it('the same seed gives the same faults in the same order; another seed differs', () => {
    const draw = (seed: number) => {
      const rule = seededFaults(seed);
      return Array.from({ length: 200 }, (_, i) =>
        JSON.stringify(rule({ index: i, method: 'POST', path: '/x', body: '' })),
      );
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    const kinds = new Set(draw(7).map((s) => (JSON.parse(s) as FaultAction).kind));
    for (const k of ['forward', 'dropAfterCommit', 'resetBeforeForward', 'respond'])
      expect(kinds.has(k as FaultAction['kind'])).toBe(true);
  });
});

describe('rate enforcement at the proxy', () => {
  it('answers 429 with Retry-After above the rate, and counts what it let through', async () => {
    const limited = await startFaultProxy({ target: remote.url, rateLimit: { ratePerSecond: 5, burst: 2 } });
    try {
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`${limited.url}/api/v1/contacts?accountId=${remote.accountId}&limit=1`, { headers: auth() }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200).length).toBe(2);
      expect(statuses.filter((s) => s === 429).length).toBe(4);
      const tooMany = results.find((r) => r.status === 429)!;
      expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await tooMany.json()) as { retryAfter: number }).retryAfter).toBeGreaterThanOrEqual(1);
      expect(limited.records.filter((r) => r.action === 'rateLimited').length).toBe(4);
      expect(limited.forwarded().length).toBe(2);
    } finally {
      await limited.close();
    }
  });
});

describe('maxInAnyWindow', () => {
  it.each<[number[], number]>([
    [[], 0],
    [[0], 1],
    [[0, 200, 400, 600, 800, 1000], 5],
    [[0, 1, 2, 999, 1000], 4],
    [[1000, 0, 500], 2],
  ])('%j → %i', (times, want) => {
    expect(maxInAnyWindow(times, 1000)).toBe(want);
  });
});
