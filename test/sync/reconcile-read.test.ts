/**
 * reconcile.ts's read (readForReconcile) through its inputs: GETs by a real client to a real
 * GiftDesk HQ on 127.0.0.1 behind the fault proxy. A passing failure (no answer, 429, 5xx) is
 * read again, at most three reads in all; a refused key ends the sweep as `auth`; any other
 * answer is a failure at once. The proxy's records show what reached HQ.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createContact } from '../../electron/domain/contacts/index.ts';
import type { RemoteClient } from '../../electron/sync/net/http-client.ts';
import { readForReconcile, type ReadForReconcileDeps } from '../../electron/sync/reconcile/reconcile.ts';
import { loadRemoteConfig, type RemoteConfig } from '../../electron/sync/remote/settings.ts';
import { forwardAll, type FaultAction } from './fault-proxy.ts';
import { startRig, testKeys, type SyncRig } from './rig.ts';

let rig: SyncRig;
let cfg: RemoteConfig;
let client: RemoteClient;

beforeAll(async () => {
  rig = await startRig();
  cfg = (await loadRemoteConfig(rig.local.store.db, testKeys, rig.local.accountId))!;
  client = rig.makeClient(cfg);
  // HQ holds a contact for this account (created through its API, as a push would).
  await client.request('POST', '/contacts', {
    accountId: rig.hq.accountId,
    firstName: 'Zoë',
    lastName: 'Adams',
  });
  expect(
    await createContact(rig.local.ctx, {
      accountId: rig.local.accountId,
      firstName: 'Zoe',
      lastName: 'Adams',
    }),
  ).toBeTruthy();
});
afterAll(async () => {
  await rig?.close();
});
beforeEach(() => {
  rig.proxy.setRule(forwardAll);
  cfg.lastError = null;
});

function deps(extra: Partial<ReadForReconcileDeps> = {}): { d: ReadForReconcileDeps; sent: () => number } {
  let n = 0;
  const d: ReadForReconcileDeps = {
    get: (path, query) => client.request('GET', path, undefined, { query }),
    cfg,
    clock: Date.now,
    random: () => 0,
    stopped: () => false,
    counted: () => n++,
    ...extra,
  };
  return { d, sent: () => n };
}

/** The proxy answers the first reads with these, then forwards. */
function firstAnswers(...actions: FaultAction[]) {
  let i = 0;
  rig.proxy.setRule(() => actions[i++] ?? { kind: 'forward' });
}

const reads = (from: number) => rig.proxy.records.slice(from).filter((r) => r.method === 'GET');

describe('readForReconcile', () => {
  it('reads in the remote’s HQ account, with the query; HQ’s list comes back with its Date header', async () => {
    const from = rig.proxy.records.length;
    const { d, sent } = deps();
    const r = await readForReconcile(d, '/contacts', { limit: 5, offset: 0 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect((r.body as { data: Array<{ lastName: string }> }).data.map((c) => c.lastName)).toEqual(['Adams']);
    expect(r.headers?.get('date')).toBeTruthy();
    expect(sent()).toBe(1);
    const [only] = reads(from);
    const url = new URL(only!.path, 'http://hq');
    expect([
      url.pathname,
      url.searchParams.get('accountId'),
      url.searchParams.get('limit'),
      url.searchParams.get('offset'),
    ]).toEqual(['/api/v1/contacts', rig.hq.accountId, '5', '0']);
  });

  it('503, then a reset: read again, and the third read’s answer is the result', async () => {
    const from = rig.proxy.records.length;
    firstAnswers({ kind: 'respond', status: 503, retryAfter: '0' }, { kind: 'resetBeforeForward' });
    const { d, sent } = deps();
    const r = await readForReconcile(d, '/contacts', { limit: 5 });
    expect(r.ok).toBe(true);
    expect(sent()).toBe(3);
    expect(reads(from).map((x) => x.action)).toEqual(['respond', 'resetBeforeForward', 'forward']);
  });

  it('three 500s: a failure after three reads, never a made-up empty list', async () => {
    const from = rig.proxy.records.length;
    firstAnswers(
      { kind: 'respond', status: 500 },
      { kind: 'respond', status: 500 },
      { kind: 'respond', status: 500 },
    );
    const { d, sent } = deps();
    const r = await readForReconcile(d, '/contacts', { limit: 5 });
    expect(r).toMatchObject({ ok: false, result: 'failed', status: 500 });
    expect(sent()).toBe(3);
    expect(reads(from).every((x) => x.action === 'respond')).toBe(true);
  });

  it('a refused key: `auth` at once, the reason kept for the pass', async () => {
    firstAnswers({ kind: 'respond', status: 403 });
    const { d, sent } = deps();
    expect(await readForReconcile(d, '/contacts', { limit: 5 })).toMatchObject({
      ok: false,
      result: 'auth',
      status: 403,
    });
    expect(sent()).toBe(1);
    expect(cfg.lastError).toMatch(/^HQ refused the API key \(403\): the key is not for this HQ account/);
  });

  it('any other refusal (404) is not read again; nor is a passing failure once the engine stops', async () => {
    const { d, sent } = deps();
    expect(await readForReconcile(d, '/contacts/cnt_nowhere', {})).toMatchObject({
      ok: false,
      result: 'failed',
      status: 404,
    });
    expect(sent()).toBe(1);
    firstAnswers({ kind: 'respond', status: 503, retryAfter: '0' });
    const stopping = deps({ stopped: () => true });
    expect(await readForReconcile(stopping.d, '/contacts', { limit: 5 })).toMatchObject({
      ok: false,
      result: 'failed',
      status: 503,
    });
    expect(stopping.sent()).toBe(1);
  });
});
