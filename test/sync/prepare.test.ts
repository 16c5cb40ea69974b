/**
 * prepare.ts through its inputs: a real local SQLite file written through the domain (namesake
 * donors sharing an email, identical twin gifts, a campaign not linked to HQ yet), the lease
 * row, and the remote settings it is given. What the next request of a record is, and that it
 * is marked in flight in the same transaction — or not at all when the lease is gone.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContact, deleteContact } from '../../electron/domain/contacts/index.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { acquireLease } from '../../electron/sync/outbox/lease.ts';
import type { PendingEntity } from '../../electron/sync/outbox/outbox.ts';
import { prepare, type PrepareInput } from '../../electron/sync/push/prepare.ts';
import type { Step } from '../../electron/sync/push/prepare-step.ts';
import { LostLease } from '../../electron/sync/push/under-lease.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { getItem, type PushEntity } from '../../electron/sync/outbox/items.ts';
import { tempDir } from '../helpers/server.ts';

const LEASE = 30_000;
let dataDir: string;
let store: Store;
let ctx: DomainContext;
let accountId: string;
let campaignId: string;
let settled = 0;

beforeAll(async () => {
  dataDir = tempDir('giftdesk-prepare-');
  store = await openStore({ dataDir });
  ctx = createContext(store);
  accountId = (await createAccount(ctx, 'Gala night')).id;
  campaignId = (await createCampaign(ctx, { accountId, name: 'Spring gala' })).id;
  await store.write((trx) =>
    linkRemote(trx, {
      accountId,
      entityType: 'campaign',
      localId: campaignId,
      remoteId: 'cmp_hq_spring',
      source: 'manual',
      at: new Date().toISOString(),
    }),
  );
});
afterAll(async () => {
  await store?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await store.write((trx) => trx.deleteFrom('syncLease').execute());
  expect(await acquireLease(store, 'laptop-a', Date.now(), LEASE)).not.toBeNull();
});

function input(entityType: PushEntity, entityId: string, extra: Partial<PrepareInput> = {}): PrepareInput {
  const record: PendingEntity = { entityType, entityId, firstSeq: 0 };
  return {
    store,
    ctx,
    holder: 'laptop-a',
    leaseMs: LEASE,
    clock: Date.now,
    cfg: { accountId, remoteAccountId: 'acc_hq', emailMatch: true },
    record,
    emailMatch: false,
    progress: (n) => (settled += n),
    ...extra,
  };
}

async function attemptsOf(entityId: string): Promise<Array<string | null>> {
  return (
    await store.db
      .selectFrom('changeLog')
      .select('attemptId')
      .where('entityId', '=', entityId)
      .orderBy('seq')
      .execute()
  ).map((r) => r.attemptId);
}

const twin = () => ({
  accountId,
  donationAmount: 19.99,
  donationDate: '2026-11-24T19:05:00Z',
  paymentMethod: 'cash' as const,
  campaignId,
});

describe('prepare', () => {
  it('a new contact: one POST, and in the same transaction the item in flight and its changes marked with the attempt', async () => {
    const c = await createContact(ctx, { accountId, firstName: 'Zoë', lastName: 'Adams', tags: ['vip'] });
    const step = await prepare(input('contact', c.id));
    expect(step).toMatchObject({ kind: 'send', op: 'create', method: 'POST', path: '/contacts' });
    const send = step as Extract<Step, { kind: 'send' }>;
    expect(send.body).toMatchObject({ accountId: 'acc_hq', firstName: 'Zoë', lastName: 'Adams' });
    expect((send.body as { tags: string[] }).tags).toContain(`gd:${c.id}`);
    const item = await getItem(store.db, 'contact', c.id);
    expect(item).toMatchObject({ state: 'in_flight', op: 'create', attemptId: send.attemptId });
    expect(JSON.parse(item!.attemptBody!)).toEqual(send.body);
    expect(await attemptsOf(c.id)).toEqual([send.attemptId]);
  });

  it('lease gone (another laptop took over): LostLease, nothing marked in flight', async () => {
    const c = await createContact(ctx, { accountId, firstName: 'Jose', lastName: 'Nunez' });
    await store.write((trx) => trx.updateTable('syncLease').set({ holder: 'laptop-b' }).execute());
    await expect(prepare(input('contact', c.id))).rejects.toBeInstanceOf(LostLease);
    expect((await getItem(store.db, 'contact', c.id))?.state ?? 'none').not.toBe('in_flight');
    expect(await attemptsOf(c.id)).toEqual([null]);
  });

  it('twin gifts wait for their donor, then each gets its own attempt with the donor’s HQ id', async () => {
    const donor = await createContact(ctx, { accountId, firstName: 'Robert', lastName: 'Brown' });
    const g1 = await createDonation(ctx, { ...twin(), contactId: donor.id });
    const g2 = await createDonation(ctx, { ...twin(), contactId: donor.id });
    expect(await prepare(input('donation', g1.id))).toEqual({
      kind: 'blocked',
      reason: `waiting for its donor ${donor.id} to reach HQ`,
    });
    expect(await attemptsOf(g1.id)).toEqual([null]);

    await store.write((trx) =>
      linkRemote(trx, {
        accountId,
        entityType: 'contact',
        localId: donor.id,
        remoteId: 'cnt_hq_rb',
        source: 'pushed',
        at: new Date().toISOString(),
      }),
    );
    const s1 = (await prepare(input('donation', g1.id))) as Extract<Step, { kind: 'send' }>;
    const s2 = (await prepare(input('donation', g2.id))) as Extract<Step, { kind: 'send' }>;
    for (const s of [s1, s2])
      expect(s).toMatchObject({
        kind: 'send',
        op: 'create',
        method: 'POST',
        path: '/donations',
        body: { contactId: 'cnt_hq_rb', campaignId: 'cmp_hq_spring', donationAmount: 19.99 },
      });
    expect(s1.attemptId).not.toBe(s2.attemptId);
    expect((s1.body as { notes: string }).notes).toContain(`gd:${g1.id}`);
    expect((s2.body as { notes: string }).notes).toContain(`gd:${g2.id}`);
    // Each gift's lane is its donor.
    expect((await getItem(store.db, 'donation', g2.id))?.laneId).toBe(donor.id);
  });

  it('a namesake with the same email: the email check waits for the other create to be confirmed', async () => {
    const first = await createContact(ctx, {
      accountId,
      firstName: 'Robert',
      lastName: 'Brown',
      primaryEmail: 'bob.brown@example.org',
    });
    const second = await createContact(ctx, {
      accountId,
      firstName: 'Roberta',
      lastName: 'Brown',
      primaryEmail: 'Bob.Brown@example.org ',
    });
    expect(await prepare(input('contact', first.id, { emailMatch: true }))).toEqual({
      kind: 'emailCheck',
      email: 'bob.brown@example.org',
    });
    // The first one's create goes out (its email check found nothing)…
    expect((await prepare(input('contact', first.id))).kind).toBe('send');
    // …so HQ's contact with that email may be the first one's: the second waits.
    expect(await prepare(input('contact', second.id, { emailMatch: true }))).toEqual({
      kind: 'blocked',
      reason: `waiting for contact ${first.id} (same email) to be confirmed at HQ`,
    });
    // With the settings' email match off, no check: the create goes.
    expect(
      (
        await prepare(
          input('contact', second.id, {
            emailMatch: true,
            cfg: { accountId, remoteAccountId: 'acc_hq', emailMatch: false },
          }),
        )
      ).kind,
    ).toBe('send');
  });

  it('a gift credited to a campaign HQ does not know is parked (once), and goes by itself once linked', async () => {
    const donor = await createContact(ctx, { accountId, firstName: 'Ines', lastName: 'Muller' });
    await store.write((trx) =>
      linkRemote(trx, {
        accountId,
        entityType: 'contact',
        localId: donor.id,
        remoteId: 'cnt_hq_im',
        source: 'pushed',
        at: new Date().toISOString(),
      }),
    );
    const fall = await createCampaign(ctx, { accountId, name: 'Fall appeal' });
    const g = await createDonation(ctx, { ...twin(), contactId: donor.id, campaignId: fall.id });
    expect(await prepare(input('donation', g.id))).toEqual({ kind: 'parked', again: false });
    const item = await getItem(store.db, 'donation', g.id);
    expect(item).toMatchObject({ state: 'attention', attentionCode: 'reference_not_linked' });
    expect(item!.attentionReason).toContain('campaign "Fall appeal"');
    // Checked again on the next pass: still not linked, the same parking (not a new one).
    expect(await prepare(input('donation', g.id))).toEqual({ kind: 'parked', again: true });

    await store.write((trx) =>
      linkRemote(trx, {
        accountId,
        entityType: 'campaign',
        localId: fall.id,
        remoteId: 'cmp_hq_fall',
        source: 'manual',
        at: new Date().toISOString(),
      }),
    );
    expect(await prepare(input('donation', g.id))).toMatchObject({
      kind: 'send',
      body: { campaignId: 'cmp_hq_fall' },
    });
    expect(await getItem(store.db, 'donation', g.id)).toMatchObject({
      state: 'in_flight',
      attentionCode: null,
    });
  });

  it('a contact created and deleted before it ever reached HQ: nothing to send, its changes settled', async () => {
    const c = await createContact(ctx, { accountId, firstName: 'Temp', lastName: 'Volunteer' });
    await deleteContact(ctx, accountId, c.id);
    const before = settled;
    expect(await prepare(input('contact', c.id))).toEqual({ kind: 'done' });
    expect(settled - before).toBe(2);
  });
});
