/**
 * under-lease.ts through its inputs: a real local SQLite file (the rig's), the lease row, and a
 * real GiftDesk HQ on 127.0.0.1 behind the fault proxy, which records every request that
 * reached it. A pass runs only under the lease; a takeover turns what was in flight into
 * `unknown` (a dead holder's records not before its requests must have ended); a request
 * never leaves once another process holds the lease.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createRemoteClient } from '../../electron/sync/net/http-client.ts';
import { leaseHolder, processHolderId } from '../../electron/sync/outbox/lease.ts';
import { createPacer } from '../../electron/sync/net/pacer.ts';
import { createLeasedRemote, LostLease, takeLeaseForPass } from '../../electron/sync/push/under-lease.ts';
import { loadRemoteConfig, type RemoteConfig } from '../../electron/sync/remote/settings.ts';
import { ensureItem, getItem, updateItem, type ItemPatch } from '../../electron/sync/outbox/items.ts';
import { startRig, testKeys, type SyncRig } from './rig.ts';

const LEASE = 30_000;
let rig: SyncRig;
let cfg: RemoteConfig;

beforeAll(async () => {
  rig = await startRig();
  cfg = (await loadRemoteConfig(rig.local.store.db, testKeys, rig.local.accountId))!;
});
afterAll(async () => {
  await rig?.close();
});

/** Three namesakes, their creates "in flight" (as a process that died mid-request leaves them). */
async function inFlightNamesakes(tag: string, patch: ItemPatch = {}): Promise<string[]> {
  const { ctx, store, accountId } = rig.local;
  const ids: string[] = [];
  for (const email of [`rbrown${tag}@example.org`, `rbrown${tag}@example.org`, null]) {
    const c = await createContact(ctx, {
      accountId,
      firstName: 'Robert',
      lastName: 'Brown',
      ...(email ? { email } : {}),
    });
    const at = new Date().toISOString();
    await store.write(async (trx) => {
      await ensureItem(trx, { entityType: 'contact', entityId: c.id, accountId, laneId: c.id, at });
      await updateItem(trx, 'contact', c.id, {
        state: 'in_flight',
        op: 'create',
        attemptId: `att_${tag}_${ids.length}`,
        attemptAt: at,
        ...patch,
      });
    });
    ids.push(c.id);
  }
  return ids;
}

async function states(ids: string[]) {
  return Promise.all(ids.map(async (id) => (await getItem(rig.local.store.db, 'contact', id))!));
}

async function clearLease() {
  await rig.local.store.write((trx) => trx.deleteFrom('syncLease').execute());
}

describe('takeLeaseForPass', () => {
  it('only one holder runs; a takeover after expiry makes what was in flight unknown, a renewal does not', async () => {
    await clearLease();
    const { store } = rig.local;
    const t0 = Date.now();
    expect(await takeLeaseForPass(store, { holder: 'laptop-a', nowMs: t0, leaseMs: LEASE })).toBe(true);
    const ids = await inFlightNamesakes('a');

    // Another holder while A's lease runs: no pass, nothing touched.
    expect(await takeLeaseForPass(store, { holder: 'laptop-b', nowMs: t0 + 1000, leaseMs: LEASE })).toBe(
      false,
    );
    // A renews: its own in-flight requests are still its own.
    expect(await takeLeaseForPass(store, { holder: 'laptop-a', nowMs: t0 + 2000, leaseMs: LEASE })).toBe(
      true,
    );
    expect((await states(ids)).map((i) => i.state)).toEqual(['in_flight', 'in_flight', 'in_flight']);

    // B after A's lease expired: A's requests ended long ago; their outcome is unknown, looked for at once.
    expect(
      await takeLeaseForPass(store, { holder: 'laptop-b', nowMs: t0 + 2000 + LEASE + 1, leaseMs: LEASE }),
    ).toBe(true);
    const after = await states(ids);
    expect(after.map((i) => i.state)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(after.map((i) => i.nextTryAt)).toEqual([null, null, null]);
    expect((await leaseHolder(store.db))?.holder).toBe('laptop-b');
  });

  it('taken early from a dead process: its in-flight records wait out twice its deadline, a later backoff stays', async () => {
    await clearLease();
    const { store } = rig.local;
    const p = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((resolve) => p.on('exit', resolve));
    const deadline = 700;
    const dead = processHolderId(deadline, p.pid!);
    const t0 = Date.now();
    expect(await takeLeaseForPass(store, { holder: dead, nowMs: t0, leaseMs: LEASE })).toBe(true);
    const later = new Date(t0 + 3_600_000).toISOString();
    const [plain] = await inFlightNamesakes('dead');
    const [backedOff] = await inFlightNamesakes('dead2', { nextTryAt: later });

    // Long before the dead holder's lease would expire.
    expect(
      await takeLeaseForPass(store, { holder: processHolderId(deadline), nowMs: t0 + 100, leaseMs: LEASE }),
    ).toBe(true);
    const [a, b] = await states([plain!, backedOff!]);
    expect(a!.state).toBe('unknown');
    expect(a!.nextTryAt).toBe(new Date(t0 + 2 * deadline).toISOString());
    expect(b!.state).toBe('unknown');
    expect(b!.nextTryAt).toBe(later);
  });
});

describe('createLeasedRemote', () => {
  const client = (timeoutMs: number) =>
    createRemoteClient({
      baseUrl: cfg.baseUrl,
      keyId: cfg.keyId,
      secret: cfg.secret,
      pacer: createPacer({ ratePerSecond: 1000 }),
      timeoutMs,
    });

  it('a request leaves under the lease and renews it; once another process took over, nothing leaves', async () => {
    await clearLease();
    const { store } = rig.local;
    let now = Date.now();
    const remote = createLeasedRemote({
      store,
      holder: 'laptop-a',
      leaseMs: LEASE,
      clock: () => now,
      requestTimeoutMs: 5000,
      makeClient: () => client(5000),
      signal: new AbortController().signal,
    });
    expect(await takeLeaseForPass(store, { holder: 'laptop-a', nowMs: now, leaseMs: LEASE })).toBe(true);
    const c = remote.clientFor(cfg);
    const before = rig.proxy.forwarded().length;

    now += 20_000; // most of the lease gone: the request itself renews it
    const r = await remote.request(c, 'GET', '/contacts', undefined, {
      accountId: rig.hq.accountId,
      limit: 1,
    });
    expect(r.outcome).toBe('applied');
    expect(rig.proxy.forwarded().length).toBe(before + 1);
    expect((await leaseHolder(store.db))?.expiresAt).toBe(new Date(now + LEASE).toISOString());

    // Laptop B takes over after A's lease expired; A's next request is refused before it leaves.
    now += LEASE + 1;
    expect(await takeLeaseForPass(store, { holder: 'laptop-b', nowMs: now, leaseMs: LEASE })).toBe(true);
    await expect(
      remote.request(c, 'POST', '/contacts', {
        accountId: rig.hq.accountId,
        firstName: 'Zoë',
        lastName: 'Twin',
      }),
    ).rejects.toBeInstanceOf(LostLease);
    expect(rig.proxy.forwarded().length).toBe(before + 1);
    expect(rig.proxy.forwarded('POST', '/api/v1/contacts').length).toBe(0);
  });

  it('one client per remote, reused; a client that may wait longer than the holder id promised is refused', async () => {
    const signal = new AbortController().signal;
    let made = 0;
    const ok = createLeasedRemote({
      store: rig.local.store,
      holder: 'h',
      leaseMs: LEASE,
      clock: Date.now,
      requestTimeoutMs: 5000,
      makeClient: () => (made++, client(5000)),
      signal,
    });
    expect(ok.clientFor(cfg)).toBe(ok.clientFor({ ...cfg }));
    expect(made).toBe(1);
    expect(ok.clientFor({ ...cfg, ratePerSecond: cfg.ratePerSecond + 1 })).not.toBe(ok.clientFor(cfg));
    const slow = createLeasedRemote({
      store: rig.local.store,
      holder: 'h',
      leaseMs: LEASE,
      clock: Date.now,
      requestTimeoutMs: 5000,
      makeClient: () => client(5001),
      signal,
    });
    expect(() => slow.clientFor(cfg)).toThrow(/deadline \(5001 ms\) exceeds/);
  });
});
