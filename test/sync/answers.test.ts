/**
 * answers.ts through its inputs: a record prepared for real (prepare.ts) on the rig's local
 * SQLite file, sent by a real client to a real GiftDesk HQ on 127.0.0.1 behind the fault
 * proxy, and the answer — as HQ or the proxy really gave it — written down. What the local
 * state says afterwards is what the next pass acts on: done, retried blindly, parked for a
 * person, or looked for at HQ first.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createContact, deleteContact, updateContact } from '../../electron/domain/contacts/index.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import type { RemoteClient } from '../../electron/sync/net/http-client.ts';
import { acquireLease } from '../../electron/sync/outbox/lease.ts';
import { prepare } from '../../electron/sync/push/prepare.ts';
import type { SendStep } from '../../electron/sync/push/prepare-step.ts';
import { backOff, recordAnswer, type RecordResult } from '../../electron/sync/push/answers.ts';
import { loadRemoteConfig, type RemoteConfig } from '../../electron/sync/remote/settings.ts';
import { linkRemote, remoteIdFor } from '../../electron/sync/outbox/links.ts';
import { getItem, type PushEntity } from '../../electron/sync/outbox/items.ts';
import { forwardAll, type FaultRule } from './fault-proxy.ts';
import { startRig, testKeys, type SyncRig } from './rig.ts';

const DEADLINE = 1500;
let rig: SyncRig;
let cfg: RemoteConfig;
let client: RemoteClient;
let done = 0;

beforeAll(async () => {
  rig = await startRig({ timeoutMs: DEADLINE });
  cfg = (await loadRemoteConfig(rig.local.store.db, testKeys, rig.local.accountId))!;
  client = rig.makeClient(cfg);
});
afterAll(async () => {
  await rig?.close();
});
beforeEach(async () => {
  rig.proxy.setRule(forwardAll);
  await rig.local.store.write((trx) => trx.deleteFrom('syncLease').execute());
  await acquireLease(rig.local.store, 'laptop-a', Date.now(), 30_000);
});

/** HQ as this rig's account sees it (its own key). */
const hq = (method: string, path: string) =>
  client.request(method, path, undefined, { query: { accountId: rig.hq.accountId } });

const deps = () => ({ store: rig.local.store, clock: Date.now, random: () => 0.5 });

/** Prepares the record for real, sends it through the proxy under `rule`, records the answer. */
async function pushOnce(
  entityType: PushEntity,
  entityId: string,
  rule: FaultRule = forwardAll,
): Promise<{ r: RecordResult; step: SendStep; sentAt: number }> {
  const { store, ctx, accountId } = rig.local;
  const step = await prepare({
    store,
    ctx,
    holder: 'laptop-a',
    leaseMs: 30_000,
    clock: Date.now,
    cfg,
    record: { entityType, entityId, firstSeq: 0 },
    emailMatch: false,
    progress: () => undefined,
  });
  if (step.kind !== 'send') throw new Error(`expected a request, got ${JSON.stringify(step)}`);
  expect(accountId).toBe(cfg.accountId);
  rig.proxy.setRule(rule);
  const res = await client.request(
    step.method,
    step.path,
    step.body,
    step.query ? { query: step.query } : {},
  );
  rig.proxy.setRule(forwardAll);
  const r = await recordAnswer(deps(), {
    cfg,
    record: { entityType, entityId, firstSeq: 0 },
    step,
    res,
    deadlineMs: DEADLINE,
    progress: (n) => (done += n),
  });
  return { r, step, sentAt: res.sentAt };
}

async function changes(entityId: string) {
  return rig.local.store.db
    .selectFrom('changeLog')
    .select(['attemptId', 'syncedAt'])
    .where('entityId', '=', entityId)
    .orderBy('seq')
    .execute();
}

const person = (firstName: string, lastName: string, extra: Record<string, unknown> = {}) =>
  createContact(rig.local.ctx, { accountId: rig.local.accountId, firstName, lastName, ...extra });

describe('recordAnswer', () => {
  it('applied create: linked to HQ’s id, its changes done, the item idle with what HQ holds', async () => {
    const c = await person('Zoë', 'Adams');
    const before = done;
    const { r, step } = await pushOnce('contact', c.id);
    expect(r).toBe('again');
    const remoteId = await remoteIdFor(rig.local.store.db, 'contact', c.id);
    expect(((await hq('GET', `/contacts/${remoteId}`)).body as { lastName: string }).lastName).toBe('Adams');
    expect((await changes(c.id)).every((ch) => ch.syncedAt !== null)).toBe(true);
    expect(done - before).toBe(1);
    const item = await getItem(rig.local.store.db, 'contact', c.id);
    expect(item).toMatchObject({ state: 'idle', attemptId: null, failures: 0, nextTryAt: null });
    expect(JSON.parse(item!.pushedState!)).toEqual(step.body);
  });

  it('created at HQ but the answer was lost: unknown, its changes still held by the attempt, not looked for before the deadline', async () => {
    const c = await person('Robert', 'Brown', { primaryEmail: 'rbrown@example.org' });
    const { r, step, sentAt } = await pushOnce('contact', c.id, () => ({ kind: 'dropAfterCommit' }));
    expect(r).toBe('failed');
    const item = await getItem(rig.local.store.db, 'contact', c.id);
    expect(item).toMatchObject({ state: 'unknown', attemptId: step.attemptId, failures: 1 });
    expect(Date.parse(item!.nextTryAt!)).toBeGreaterThanOrEqual(sentAt + DEADLINE);
    expect((await changes(c.id)).map((ch) => ch.attemptId)).toEqual([step.attemptId]);
    expect(await remoteIdFor(rig.local.store.db, 'contact', c.id)).toBeNull();
  });

  it('refused by HQ (4xx): parked with HQ’s message, its changes pending again for after the fix', async () => {
    const c = await person('Ines', 'Muller');
    const body = JSON.stringify({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Validation failed',
      details: [{ field: 'lastName', issue: 'is too long' }],
    });
    const { r } = await pushOnce('contact', c.id, () => ({
      kind: 'respond',
      status: 400,
      body,
      headers: { 'content-type': 'application/json' },
    }));
    expect(r).toBe('parked');
    const item = await getItem(rig.local.store.db, 'contact', c.id);
    expect(item).toMatchObject({
      state: 'attention',
      attentionCode: 'remote_refused',
      attentionStatus: 400,
      attemptId: null,
    });
    expect(item!.attentionReason).toBe(
      'HQ refused the create (400): Validation failed (lastName is too long)',
    );
    expect(await changes(c.id)).toEqual([{ attemptId: null, syncedAt: null }]);
  });

  it('429: not applied, pending again at once (the pacer waits), not parked, no backoff', async () => {
    const c = await person('Jose', 'Nunez');
    const { r } = await pushOnce('contact', c.id, () => ({ kind: 'respond', status: 429, retryAfter: '0' }));
    expect(r).toBe('again');
    expect(await getItem(rig.local.store.db, 'contact', c.id)).toMatchObject({
      state: 'idle',
      attemptId: null,
      failures: 0,
      nextTryAt: null,
    });
    expect(await changes(c.id)).toEqual([{ attemptId: null, syncedAt: null }]);
  });

  it('401: the key is wrong; the pass stops with the reason, nothing parked', async () => {
    const c = await person('Ana', 'Lopez');
    const { r } = await pushOnce('contact', c.id, () => ({ kind: 'respond', status: 401 }));
    expect(r).toBe('auth');
    expect(cfg.lastError).toMatch(/^HQ refused the API key \(401\)/);
    expect(await getItem(rig.local.store.db, 'contact', c.id)).toMatchObject({
      state: 'idle',
      attentionCode: null,
    });
    cfg.lastError = null;
  });

  it('an edit of a contact HQ deleted (404): parked as deleted at HQ', async () => {
    const c = await person('Mary', 'Smith');
    expect((await pushOnce('contact', c.id)).r).toBe('again');
    const remoteId = await remoteIdFor(rig.local.store.db, 'contact', c.id);
    expect((await hq('DELETE', `/contacts/${remoteId}`)).status).toBe(200);
    await updateContact(rig.local.ctx, rig.local.accountId, c.id, { lastName: 'Smith-Jones' });
    const { r, step } = await pushOnce('contact', c.id);
    expect(step.method).toBe('PUT');
    expect(r).toBe('parked');
    expect(await getItem(rig.local.store.db, 'contact', c.id)).toMatchObject({
      state: 'attention',
      attentionCode: 'deleted_at_hq',
      attentionStatus: 404,
    });
  });

  it('a delete HQ answers 404 is done, and the contact’s gifts lose their HQ link with it', async () => {
    const c = await person('Robert', 'Brown');
    expect((await pushOnce('contact', c.id)).r).toBe('again');
    const gift = await createDonation(rig.local.ctx, {
      accountId: rig.local.accountId,
      contactId: c.id,
      donationAmount: 19.99,
      donationDate: '2026-11-24',
      paymentMethod: 'cash',
      campaignId: rig.local.campaignId,
    });
    expect((await pushOnce('donation', gift.id)).r).toBe('again');
    expect(await remoteIdFor(rig.local.store.db, 'donation', gift.id)).not.toBeNull();
    const remoteId = await remoteIdFor(rig.local.store.db, 'contact', c.id);
    expect((await hq('DELETE', `/contacts/${remoteId}`)).status).toBe(200);
    await rig.local.store.write((trx) =>
      trx
        .updateTable('syncItems')
        .set({ attentionCode: 'delete_confirmed' })
        .where('entityId', '=', c.id)
        .execute(),
    );
    await deleteContact(rig.local.ctx, rig.local.accountId, c.id);
    const { r, step } = await pushOnce('contact', c.id);
    expect(step.method).toBe('DELETE');
    expect(r).toBe('again');
    expect(await remoteIdFor(rig.local.store.db, 'contact', c.id)).toBeNull();
    expect(await remoteIdFor(rig.local.store.db, 'donation', gift.id)).toBeNull();
    expect((await changes(c.id)).every((ch) => ch.syncedAt !== null)).toBe(true);
  });
});

describe('backOff', () => {
  it('counts failures and backs off (full jitter), never before notBefore; only an unknown outcome changes the state', async () => {
    const c = await person('Lee', 'Wong');
    await rig.local.store.write((trx) =>
      linkRemote(trx, {
        accountId: rig.local.accountId,
        entityType: 'contact',
        localId: c.id,
        remoteId: 'cnt_x',
        source: 'pushed',
        at: new Date().toISOString(),
      }),
    );
    await rig.local.store.write((trx) =>
      trx
        .insertInto('syncItems')
        .values({
          entityType: 'contact',
          entityId: c.id,
          accountId: rig.local.accountId,
          laneId: c.id,
          state: 'idle',
          failures: 0,
          updatedAt: new Date().toISOString(),
        })
        .execute(),
    );
    const t = Date.now();
    const d = { store: rig.local.store, clock: () => t, random: () => 0 };
    await backOff(d, { entityType: 'contact', entityId: c.id }, 'HQ could not be reached');
    expect(await getItem(rig.local.store.db, 'contact', c.id)).toMatchObject({
      state: 'idle',
      failures: 1,
      lastError: 'HQ could not be reached',
      nextTryAt: new Date(t).toISOString(),
    });
    await backOff(d, { entityType: 'contact', entityId: c.id }, 'reset', {
      unknown: true,
      notBefore: t + 60_000,
    });
    expect(await getItem(rig.local.store.db, 'contact', c.id)).toMatchObject({
      state: 'unknown',
      failures: 2,
      nextTryAt: new Date(t + 60_000).toISOString(),
    });
  });
});

describe('recordAnswer at a station: every sentence names the event hub, not HQ', () => {
  it('a refusal, a refused key and a backoff are said of the event hub', async () => {
    const asHub = { ...cfg, kind: 'hub' as const };
    const c = await person('Lena', 'Brandt');
    const step = await prepare({
      store: rig.local.store,
      ctx: rig.local.ctx,
      holder: 'laptop-a',
      leaseMs: 30_000,
      clock: Date.now,
      cfg: asHub,
      record: { entityType: 'contact', entityId: c.id, firstSeq: 0 },
      emailMatch: false,
      progress: () => undefined,
    });
    if (step.kind !== 'send') throw new Error('expected a request');
    const answer = (status: number, message: string) => ({
      outcome: 'notApplied' as const,
      sent: true,
      status,
      error: { message },
      sentAt: Date.now(),
    });
    const hubDeps = { ...deps(), kind: 'hub' as const };
    const input = {
      cfg: asHub,
      record: { entityType: 'contact' as const, entityId: c.id, firstSeq: 0 },
      step,
    };
    const common = { deadlineMs: DEADLINE, progress: () => undefined };
    expect(await recordAnswer(hubDeps, { ...input, ...common, res: answer(401, 'no') })).toBe('auth');
    expect(asHub.lastError).toMatch(/^The event hub refused the API key \(401\)/);
    expect(await recordAnswer(hubDeps, { ...input, ...common, res: answer(400, 'Validation failed') })).toBe(
      'parked',
    );
    const item = await getItem(rig.local.store.db, 'contact', c.id);
    expect(item!.attentionReason).toBe('The event hub refused the create (400): Validation failed');
    await backOff(hubDeps, { entityType: 'contact', entityId: c.id }, 'HQ answered nothing');
    const after = await getItem(rig.local.store.db, 'contact', c.id);
    expect(after!.lastError).toBe('The event hub answered nothing');
    expect(`${after!.lastError} ${item!.attentionReason} ${asHub.lastError}`).not.toMatch(/\bHQ\b/);
  });
});
