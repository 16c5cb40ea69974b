/**
 * The renderer's API client against a server that takes a request and never answers it (a
 * hung GiftDesk server): the request ends in a readable error, not a spinner for ever. The
 * client is given a short wait (it is injectable); what is checked is the order of events,
 * never how long anything took. A long operation (an HQ-bound request, an upload) is not cut
 * short by the ordinary wait, and a request the caller cancels stays a cancellation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApiClient, type Timeouts } from '../../renderer/api/client.ts';
import { ApiError, failedWrite } from '../../renderer/api/errors.ts';

/** Requests the server has taken and not answered, by path; `answer` ends one. */
const waiting = new Map<string, http.ServerResponse[]>();
const arrivals: Array<() => void> = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/v1/half-answer') {
      // The status and the start of the body, then nothing.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"ok":');
    }
    waiting.set(path, [...(waiting.get(path) ?? []), res]);
    for (const told of arrivals.splice(0)) told();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Resolves once the server has taken a request for `path`. */
async function arrived(path: string): Promise<void> {
  while (!waiting.get(path)?.length) await new Promise<void>((resolve) => arrivals.push(resolve));
}

function answer(path: string, body: unknown): void {
  const res = waiting.get(path)?.shift();
  if (!res) throw new Error(`no request for ${path} is waiting`);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function client(timeouts: Partial<Timeouts>) {
  const reach: boolean[] = [];
  const api = createApiClient({
    session: { accountId: 'acc_1', keyId: 'key_1', secret: 'secret' },
    baseUrl,
    timeouts,
    onReach: (answered) => reach.push(answered),
  });
  return { api, reach };
}

const Ok = z.object({ ok: z.boolean() });

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('the request succeeded');
    },
    (err: unknown) => err,
  );
}

describe('the API client and a server that never answers', () => {
  it('a read ends in a readable error, and the server counts as not answering', async () => {
    const { api, reach } = client({ ordinaryMs: 50 });
    const err = await failure(api.request('GET', '/search-hangs', { schema: Ok }));
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.isTimeout).toBe(true);
    expect(e.isNetwork).toBe(false);
    expect(e.message).toBe(
      'GiftDesk’s server did not answer within 50 ms. Nothing was lost on this screen; try again in a moment.',
    );
    expect(reach).toEqual([false]);
  });

  it('a write says it is not known whether it went through, and is never called "not saved"', async () => {
    const { api } = client({ ordinaryMs: 50 });
    const err = await failure(api.request('POST', '/save-hangs', { schema: Ok, body: { amount: 5 } }));
    expect((err as ApiError).isTimeout).toBe(true);
    expect((err as ApiError).message).toBe(
      'GiftDesk’s server did not answer within 50 ms, so it is not known whether this went through: check before trying again. Nothing typed here is lost.',
    );
    expect(failedWrite('Not undone', err)).toBe((err as ApiError).message);
    expect(failedWrite('Not undone', new ApiError(409, 'conflict', 'Already sent.'))).toBe(
      'Not undone: Already sent.',
    );
  });

  it('an answer whose body stops halfway ends the same way', async () => {
    // The status line must reach the client before the wait runs out (reach: true, then
    // false), so the wait here is long enough for a loaded machine to deliver it: 50 ms was
    // not, with the headers still on their way when the wait ended.
    const { api, reach } = client({ ordinaryMs: 3_000 });
    const err = await failure(api.request('GET', '/half-answer', { schema: Ok }));
    expect((err as ApiError).isTimeout).toBe(true);
    expect(reach).toEqual([true, false]);
  });

  it('a request the caller cancels stays a cancellation (not a timeout, the server not marked down)', async () => {
    const { api, reach } = client({ ordinaryMs: 60_000 });
    const cancel = new AbortController();
    const pending = failure(api.request('GET', '/cancelled', { schema: Ok, signal: cancel.signal }));
    await arrived('/api/v1/cancelled');
    cancel.abort();
    const err = await pending;
    expect(err).not.toBeInstanceOf(ApiError);
    expect((err as Error).name).toBe('AbortError');
    expect(reach).toEqual([]);
  });

  it('a long operation and an upload outlast the ordinary wait, and are answered', async () => {
    const { api } = client({ ordinaryMs: 50, longMs: 60_000 });
    const long = api.request('POST', '/sync/run', { schema: Ok, body: {}, wait: 'long' });
    const upload = api.upload('/imports', 'a,b\n1,2\n', 'text/csv', { schema: Ok });
    await arrived('/api/v1/sync/run');
    await arrived('/api/v1/imports');
    // An ordinary request sent after both has timed out: the ordinary wait has passed for them too.
    const ordinary = await failure(api.request('GET', '/ordinary', { schema: Ok }));
    expect((ordinary as ApiError).isTimeout).toBe(true);
    answer('/api/v1/sync/run', { ok: true });
    answer('/api/v1/imports', { ok: true });
    expect(await long).toEqual({ ok: true });
    expect(await upload).toEqual({ ok: true });
  });
});
