/**
 * The sync extension routes on their own, over real HTTP on whichever engine the suite runs on
 * (SQLite, or PostgreSQL through test/run-postgres.mjs): /api/v1/sync/settings, status,
 * attention, records, retry, discard, run, pull, links — and PATCH / void of a gift before and
 * after it was sent to HQ (docs/design.md: a pushed gift is read-only; before, it can be corrected or
 * voided). HQ is a second real GiftDesk server; pushes are made by the real engine.
 * Every success is checked against the shared zod schema, every refusal names its field and
 * changes nothing, and the HQ secret never comes back and is stored sealed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { queueCounts } from '../../electron/sync/outbox/outbox.ts';
import { openSecret } from '../../electron/sync/remote/secret-box.ts';
import { DonationDetail } from '#shared/schemas/donations.ts';
import { LinkResult, PullRun, PullStatus, ReferenceLinkList } from '#shared/schemas/sync-pull.ts';
import {
  SyncAttentionList,
  SyncRecordState,
  SyncRunResult,
  SyncSettings,
  SyncStatus,
} from '#shared/schemas/sync.ts';
import {
  asNewAccount,
  expectError,
  expectRejected,
  expectStatus,
  getDonation,
  makeCampaign,
  makeContact,
  makeDonation,
} from '../helpers/api-fixtures.ts';
import { freePort } from '../helpers/free-port.ts';
import { startTestServer, TEST_ENGINE, type TestServer } from '../helpers/server.ts';
import { testKeys } from '../sync/rig.ts';

let hq: TestServer;
let s: TestServer;

beforeAll(async () => {
  hq = await startTestServer();
  // The sync routes with a key source; the scheduler off, so a test decides when a push happens.
  s = await startTestServer({ sync: { keys: testKeys, run: false } });
});
afterAll(async () => {
  await s?.close();
  await hq?.close();
});

interface Hq {
  accountId: string;
  keyId: string;
  secret: string;
}

/**
 * A fresh local account (its own key) configured to sync to a fresh HQ account, with a local
 * campaign linked to HQ's (POST /sync/links, checked at HQ): gifts need a designation.
 */
async function configured(server: TestServer = s): Promise<{ t: TestServer; h: Hq; campaignId: string }> {
  const t = await asNewAccount(server);
  const h = await hq.otherAccount();
  expectStatus(
    await t.request('PUT', '/api/v1/sync/settings', {
      baseUrl: hq.url,
      keyId: h.keyId,
      secret: h.secret,
      remoteAccountId: h.accountId,
      ratePerSecond: 200,
    }),
    200,
  );
  const local = await makeCampaign(t, 'Annual Fund');
  const remote = await createCampaign(hq.ctx, { accountId: h.accountId, name: 'Annual Fund' });
  const link = LinkResult.parse(
    expectStatus(
      await t.request('POST', '/api/v1/sync/links', {
        accountId: t.accountId,
        kind: 'campaign',
        localId: local.id,
        remoteId: remote.id,
      }),
      200,
    ),
  );
  expect(link).toMatchObject({ kind: 'campaign', localId: local.id, remoteId: remote.id, checked: true });
  return { t, h, campaignId: local.id };
}

/** Pushes with the real engine until nothing is left to go for the account. */
async function push(t: TestServer): Promise<void> {
  const engine = createSyncEngine({ store: t.store, keys: testKeys, random: () => 0 });
  try {
    for (let i = 0; i < 20; i++) {
      await engine.runPass({ accountId: t.accountId });
      const c = await queueCounts(t.store.db, t.accountId);
      const open = await t.store.db
        .selectFrom('syncItems')
        .select('entityId')
        .where('accountId', '=', t.accountId)
        .where('state', 'in', ['unknown', 'in_flight'])
        .executeTakeFirst();
      if (c.pending === 0 && c.inFlight === 0 && !open) return;
      if (c.needsAttention > 0 && c.pending <= c.needsAttention && c.inFlight === 0 && !open) return;
    }
    throw new Error(`push did not finish: ${JSON.stringify(await queueCounts(t.store.db, t.accountId))}`);
  } finally {
    await engine.stop();
  }
}

/** HQ's gifts that carry the local gift's `gd:` reference. */
async function atHq(h: Hq, localId: string) {
  return hq.store.db
    .selectFrom('donations')
    .select(['id', 'amountCents', 'notes'])
    .where('accountId', '=', h.accountId)
    .where('notes', 'like', `%gd:${localId}%`)
    .execute();
}

describe('GET/PUT /api/v1/sync/settings', () => {
  it('before any settings: GET is a 404 naming accountId; a first PUT without the secret is refused and stores nothing', async () => {
    const t = await asNewAccount(s);
    expectError(await t.request('GET', `/api/v1/sync/settings?accountId=${t.accountId}`), 404, {
      code: 'sync_not_configured',
      field: 'accountId',
    });
    await expectRejected(
      t,
      () =>
        t.request('PUT', '/api/v1/sync/settings', {
          baseUrl: hq.url,
          keyId: 'gdk_x',
          remoteAccountId: 'acct_x',
        }),
      400,
      { field: 'secret' },
    );
  });

  it.each([
    ['baseUrl', { baseUrl: 'ftp://hq.example.org' }],
    ['baseUrl', { baseUrl: 'not a url' }],
    ['baseUrl', { baseUrl: 'https://user:pw@hq.example.org' }],
    ['baseUrl', { baseUrl: undefined }],
    ['keyId', { keyId: '   ' }],
    ['remoteAccountId', { remoteAccountId: undefined }],
    ['secret', { secret: '' }],
    ['ratePerSecond', { ratePerSecond: 0 }],
    ['ratePerSecond', { ratePerSecond: 'fast' }],
    ['ratePerSecond', { ratePerSecond: 5000 }],
    ['scheduleSeconds', { scheduleSeconds: 2 }],
    ['scheduleSeconds', { scheduleSeconds: 7.5 }],
    ['emailMatch', { emailMatch: 'yes' }],
  ])('a bad %s (%j) is a 400 naming it, and the stored settings stay as they were', async (field, patch) => {
    const { t } = await configured();
    const before = expectStatus(
      await t.request('GET', `/api/v1/sync/settings?accountId=${t.accountId}`),
      200,
    );
    const body: Record<string, unknown> = {
      baseUrl: 'https://hq.example.org',
      keyId: 'gdk_other',
      secret: 'gds_other',
      remoteAccountId: 'acct_other',
      ...patch,
    };
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
    await expectRejected(t, () => t.request('PUT', '/api/v1/sync/settings', body), 400, { field });
    expect(
      expectStatus(await t.request('GET', `/api/v1/sync/settings?accountId=${t.accountId}`), 200),
    ).toEqual(before);
  });

  it('testConnection: HQ is tried first — a closed port, a wrong secret, a key of another HQ account are 400s naming the field to check, nothing stored; right settings are saved; without it the settings are saved as typed', async () => {
    const t = await asNewAccount(s);
    const h = await hq.otherAccount();
    const other = await hq.otherAccount();
    const closed = `http://127.0.0.1:${await freePort()}`;
    const body = { keyId: h.keyId, secret: h.secret, remoteAccountId: h.accountId, testConnection: true };
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [
        { baseUrl: closed },
        'baseUrl',
        /^GiftDesk cannot reach HQ at http:\/\/127\.0\.0\.1:\d+: nothing answers at that address and port/,
      ],
      [
        { baseUrl: 'http://127.0.0.1:6000' },
        'baseUrl',
        /^GiftDesk cannot reach HQ at http:\/\/127\.0\.0\.1:6000: the address's port \(6000\) is not valid/,
      ],
      [{ baseUrl: hq.url, secret: 'gds_not_the_secret' }, 'secret', /^HQ refused the API key \(401\)/],
      [
        { baseUrl: hq.url, remoteAccountId: other.accountId },
        'remoteAccountId',
        /^HQ refused the API key \(403\): the key is not for this HQ account/,
      ],
    ];
    for (const [patch, field, issue] of cases) {
      const res = await t.request('PUT', '/api/v1/sync/settings', { ...body, ...patch });
      expectError(res, 400, { code: 'hq_connection_failed', field });
      expect((res.body as { details: Array<{ issue: string }> }).details[0]?.issue).toMatch(issue);
      expect(res.text).not.toContain(h.secret);
      expectError(await t.request('GET', `/api/v1/sync/settings?accountId=${t.accountId}`), 404, {
        code: 'sync_not_configured',
      });
    }
    // Saved as typed without the test (set up before the venue has internet).
    expectStatus(
      await t.request('PUT', '/api/v1/sync/settings', { ...body, baseUrl: closed, testConnection: false }),
      200,
    );
    // The stored secret is the one tried when none is sent; the right address is saved.
    const saved = SyncSettings.parse(
      expectStatus(
        await t.request('PUT', '/api/v1/sync/settings', {
          baseUrl: hq.url,
          keyId: h.keyId,
          remoteAccountId: h.accountId,
          testConnection: true,
        }),
        200,
      ),
    );
    expect(saved).toMatchObject({ baseUrl: hq.url, hasSecret: true });
  });

  it('saves and shows the settings, never the secret; the secret is stored sealed, and kept when a PUT leaves it out', async () => {
    const t = await asNewAccount(s);
    const secret = `gds_${'S3cr3t'.repeat(6)}`;
    const put = await t.request('PUT', '/api/v1/sync/settings', {
      baseUrl: 'https://hq.example.org/api/v1/',
      keyId: 'gdk_abc',
      secret,
      remoteAccountId: 'acct_hq',
      ratePerSecond: 4,
      scheduleSeconds: 30,
      emailMatch: false,
    });
    const shown = SyncSettings.strict().parse(expectStatus(put, 200));
    expect(shown).toEqual({
      accountId: t.accountId,
      baseUrl: 'https://hq.example.org',
      keyId: 'gdk_abc',
      remoteAccountId: 'acct_hq',
      ratePerSecond: 4,
      scheduleSeconds: 30,
      emailMatch: false,
      hasSecret: true,
    });
    expect(put.text).not.toContain(secret);
    const got = await t.request('GET', `/api/v1/sync/settings?accountId=${t.accountId}`);
    expect(SyncSettings.strict().parse(expectStatus(got, 200))).toEqual(shown);
    expect(got.text).not.toContain(secret);
    const status = await t.request('GET', `/api/v1/sync/status?accountId=${t.accountId}`);
    expect(status.text).not.toContain(secret);

    // At rest: no column holds the plain secret; the sealed one opens to it with the key.
    const row = await t.store.db
      .selectFrom('syncRemotes')
      .selectAll()
      .where('accountId', '=', t.accountId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.secretSealed).toMatch(/^v1\./);
    expect(await openSecret(testKeys, row.secretSealed)).toBe(secret);
    if (TEST_ENGINE === 'sqlite') {
      // The database file itself (and its write-ahead log) never holds the plain text.
      for (const f of ['giftdesk.sqlite', 'giftdesk.sqlite-wal']) {
        const file = path.join(t.dataDir, f);
        if (fs.existsSync(file))
          expect(fs.readFileSync(file).includes(Buffer.from(secret)), `${f} holds the secret`).toBe(false);
      }
    }

    // A PUT without the secret keeps the sealed one; a new secret replaces it.
    expectStatus(
      await t.request('PUT', '/api/v1/sync/settings', {
        baseUrl: 'https://hq.example.org',
        keyId: 'gdk_abc',
        remoteAccountId: 'acct_hq',
        ratePerSecond: 6,
      }),
      200,
    );
    const kept = await t.store.db
      .selectFrom('syncRemotes')
      .select(['secretSealed', 'ratePerSecond'])
      .where('accountId', '=', t.accountId)
      .executeTakeFirstOrThrow();
    expect(kept.secretSealed).toBe(row.secretSealed);
    expect(Number(kept.ratePerSecond)).toBe(6);
    expectStatus(
      await t.request('PUT', '/api/v1/sync/settings', {
        baseUrl: 'https://hq.example.org',
        keyId: 'gdk_abc',
        remoteAccountId: 'acct_hq',
        secret: 'gds_new_one',
      }),
      200,
    );
    const replaced = await t.store.db
      .selectFrom('syncRemotes')
      .select('secretSealed')
      .where('accountId', '=', t.accountId)
      .executeTakeFirstOrThrow();
    expect(await openSecret(testKeys, replaced.secretSealed)).toBe('gds_new_one');
  });
});

describe('a gift before and after it was sent to HQ', () => {
  it('before: status, record state, PATCH and void work; after: the gift is read-only (409 naming id, nothing changed) and at HQ exactly once', async () => {
    const { t, h, campaignId } = await configured();
    const donor = await makeContact(t);
    const gift = await makeDonation(t, donor.id, { donationAmount: 40, campaignId });
    const other = await makeDonation(t, donor.id, { donationAmount: 15, campaignId });

    const status = SyncStatus.parse(
      expectStatus(await t.request('GET', `/api/v1/sync/status?accountId=${t.accountId}`), 200),
    );
    expect(status).toMatchObject({
      configured: true,
      pending: 3,
      inFlight: 0,
      needsAttention: 0,
      done: 0,
      lastSuccessAt: null,
    });
    const before = SyncRecordState.parse(
      expectStatus(
        await t.request('GET', `/api/v1/sync/records/donation/${gift.id}?accountId=${t.accountId}`),
        200,
      ),
    );
    expect(before).toMatchObject({
      entityType: 'donation',
      entityId: gift.id,
      phase: 'not_sent',
      readOnly: false,
      remoteId: null,
    });

    // Not yet sent: a bad correction names its field and changes nothing; a good one is applied.
    await expectRejected(
      t,
      () => t.request('PATCH', `/api/v1/donations/${gift.id}`, { donationAmount: -5 }),
      400,
      { field: 'donationAmount' },
    );
    await expectRejected(
      t,
      () => t.request('PATCH', `/api/v1/donations/${gift.id}`, { paymentMethod: 'gold bars' }),
      400,
      { field: 'paymentMethod' },
    );
    const corrected = DonationDetail.parse(
      expectStatus(await t.request('PATCH', `/api/v1/donations/${gift.id}`, { donationAmount: 45.5 }), 200),
    );
    expect(corrected.donationAmount).toBe(45.5);
    expect((await getDonation(t, gift.id)).donationAmount).toBe(45.5);
    // … and the other is voided: it stays on record and is never sent.
    const voided = DonationDetail.parse(
      expectStatus(
        await t.request('POST', `/api/v1/donations/${other.id}/void`, { reason: 'entered twice' }),
        200,
      ),
    );
    expect(voided.status).toBe('voided');
    await expectRejected(
      t,
      () => t.request('PATCH', `/api/v1/donations/${other.id}`, { donationAmount: 20 }),
      409,
      { code: 'donation_voided', field: 'id' },
    );

    await push(t);

    const after = SyncRecordState.parse(
      expectStatus(
        await t.request('GET', `/api/v1/sync/records/donation/${gift.id}?accountId=${t.accountId}`),
        200,
      ),
    );
    expect(after).toMatchObject({ phase: 'sent', readOnly: true, pendingChanges: 0 });
    const sent = await atHq(h, gift.id);
    expect(sent).toHaveLength(1);
    expect(after.remoteId).toBe(sent[0]!.id);
    expect(Number(sent[0]!.amountCents)).toBe(4550);
    expect(await atHq(h, other.id)).toHaveLength(0);
    const done = SyncStatus.parse(
      expectStatus(await t.request('GET', `/api/v1/sync/status?accountId=${t.accountId}`), 200),
    );
    expect(done).toMatchObject({ pending: 0, inFlight: 0, needsAttention: 0 });
    expect(done.lastSuccessAt).not.toBeNull();

    // Sent: HQ's API cannot change a gift, so neither can we.
    await expectRejected(
      t,
      () => t.request('PATCH', `/api/v1/donations/${gift.id}`, { donationAmount: 99 }),
      409,
      { code: 'donation_sent', field: 'id' },
    );
    await expectRejected(t, () => t.request('POST', `/api/v1/donations/${gift.id}/void`, {}), 409, {
      code: 'donation_sent',
      field: 'id',
    });
    expect((await getDonation(t, gift.id)).donationAmount).toBe(45.5);
    await push(t);
    expect(await atHq(h, gift.id)).toHaveLength(1);
  });

  it('PATCH, void and the record route on a gift of no such id: 404 naming id, nothing changed', async () => {
    const { t } = await configured();
    await expectRejected(
      t,
      () => t.request('PATCH', '/api/v1/donations/don_nosuchgift0000', { donationAmount: 5 }),
      404,
      { field: 'id' },
    );
    await expectRejected(t, () => t.request('POST', '/api/v1/donations/don_nosuchgift0000/void', {}), 404, {
      field: 'id',
    });
    expectError(
      await t.request('GET', `/api/v1/sync/records/donation/don_nosuchgift0000?accountId=${t.accountId}`),
      404,
      { field: 'id' },
    );
    expectError(await t.request('GET', `/api/v1/sync/records/gift/don_x?accountId=${t.accountId}`), 400, {
      field: 'entityType',
    });
  });
});

describe('needs attention: list, retry, discard, links', () => {
  it('a gift whose campaign is not linked waits with that reason; linking (checked at HQ) and retry send it; discard drops a record’s changes', async () => {
    const { t, h } = await configured();
    const gala = await makeCampaign(t, 'Gala');
    const donor = await makeContact(t);
    const gift = await makeDonation(t, donor.id, { campaignId: gala.id, donationAmount: 70 });
    const stray = await makeDonation(t, donor.id, {
      campaignId: (await makeCampaign(t, 'Stray')).id,
      donationAmount: 5,
    });
    await push(t);

    const list = SyncAttentionList.parse(
      expectStatus(await t.request('GET', `/api/v1/sync/attention?accountId=${t.accountId}`), 200),
    );
    expect(list.data.map((a) => [a.entityId, a.code]).sort()).toEqual(
      [
        [gift.id, 'reference_not_linked'],
        [stray.id, 'reference_not_linked'],
      ].sort(),
    );
    expect(await atHq(h, gift.id)).toHaveLength(0);

    // Bad actions: named field, nothing changed.
    await expectRejected(t, () => t.request('POST', `/api/v1/sync/items/gift/${gift.id}/retry`, {}), 400, {
      field: 'entityType',
    });
    await expectRejected(
      t,
      () => t.request('POST', `/api/v1/sync/items/donation/don_nosuchgift0000/retry`, {}),
      404,
      { code: 'sync_item_not_found', field: 'id' },
    );
    await expectRejected(
      t,
      () => t.request('POST', `/api/v1/sync/items/contact/${donor.id}/discard`, {}),
      404,
      { code: 'sync_item_not_found', field: 'id' },
    );

    // Links: a bad kind and an id HQ does not have are refused; HQ's real id is linked.
    await expectRejected(
      t,
      () =>
        t.request('POST', '/api/v1/sync/links', {
          accountId: t.accountId,
          kind: 'gala',
          localId: gala.id,
          remoteId: 'cmp_x',
        }),
      400,
      { field: 'kind' },
    );
    await expectRejected(
      t,
      () =>
        t.request('POST', '/api/v1/sync/links', {
          accountId: t.accountId,
          kind: 'campaign',
          localId: gala.id,
          remoteId: 'cmp_nosuchcampaign00',
        }),
      400,
      { field: 'remoteId' },
    );
    const hqGala = await createCampaign(hq.ctx, { accountId: h.accountId, name: 'Gala' });
    LinkResult.parse(
      expectStatus(
        await t.request('POST', '/api/v1/sync/links', {
          accountId: t.accountId,
          kind: 'campaign',
          localId: gala.id,
          remoteId: hqGala.id,
        }),
        200,
      ),
    );
    const links = ReferenceLinkList.parse(
      expectStatus(await t.request('GET', `/api/v1/sync/links?accountId=${t.accountId}`), 200),
    );
    expect(links.data.find((l) => l.localId === gala.id)?.remoteId).toBe(hqGala.id);

    const retried = SyncRecordState.parse(
      expectStatus(await t.request('POST', `/api/v1/sync/items/donation/${gift.id}/retry`, {}), 200),
    );
    expect(retried.phase).not.toBe('needs_attention');
    const discarded = SyncRecordState.parse(
      expectStatus(await t.request('POST', `/api/v1/sync/items/donation/${stray.id}/discard`, {}), 200),
    );
    expect(discarded).toMatchObject({
      phase: expect.not.stringMatching(/needs_attention/),
      pendingChanges: 0,
    });
    await push(t);
    expect(await atHq(h, gift.id)).toHaveLength(1);
    expect(await atHq(h, stray.id)).toHaveLength(0);
    const after = SyncAttentionList.parse(
      expectStatus(await t.request('GET', `/api/v1/sync/attention?accountId=${t.accountId}`), 200),
    );
    expect(after.data).toEqual([]);
  });
});

describe('a code this version does not know', () => {
  it('a record parked by another version of GiftDesk, under a code not in the set, is listed as unknown with its reason; the list, the status and the record state still validate', async () => {
    const { t } = await configured();
    const donor = await makeContact(t);
    await push(t);
    // As another version would leave it: the column holds text, whatever it was written with.
    await sql`update sync_items set state = 'attention', attention_code = 'parked_by_a_later_version', attention_reason = 'Something only that version knows' where entity_type = 'contact' and entity_id = ${donor.id}`.execute(
      t.store.db,
    );

    const list = SyncAttentionList.parse(
      expectStatus(await t.request('GET', `/api/v1/sync/attention?accountId=${t.accountId}`), 200),
    );
    expect(list.data).toEqual([
      expect.objectContaining({
        entityId: donor.id,
        code: 'unknown',
        reason: 'Something only that version knows',
      }),
    ]);
    const status = SyncStatus.parse(
      expectStatus(await t.request('GET', `/api/v1/sync/status?accountId=${t.accountId}`), 200),
    );
    expect(status.attention.map((a) => [a.entityId, a.code])).toEqual([[donor.id, 'unknown']]);
    const state = SyncRecordState.parse(
      expectStatus(
        await t.request('GET', `/api/v1/sync/records/contact/${donor.id}?accountId=${t.accountId}`),
        200,
      ),
    );
    expect(state).toMatchObject({ phase: 'needs_attention', attentionCode: 'unknown' });
  });
});

describe('pull and run', () => {
  it('pull: refused for an account without settings (naming accountId); else 202 with the run, which ends done with HQ’s contacts here', async () => {
    const bare = await asNewAccount(s);
    await expectRejected(
      bare,
      () => bare.request('POST', '/api/v1/sync/pull', { accountId: bare.accountId }),
      400,
      { code: 'sync_not_configured', field: 'accountId' },
    );
    expect(
      PullStatus.parse(
        expectStatus(await bare.request('GET', `/api/v1/sync/pull?accountId=${bare.accountId}`), 200),
      ),
    ).toEqual({ run: null });

    const { t, h } = await configured();
    for (let i = 0; i < 3; i++)
      expectStatus(
        await hq.request(
          'POST',
          '/api/v1/contacts',
          { accountId: h.accountId, firstName: 'Known', lastName: `Donor${i}` },
          { 'x-api-key': h.keyId, authorization: `Bearer ${h.secret}` },
        ),
        201,
      );
    const started = PullRun.parse(
      expectStatus(await t.request('POST', '/api/v1/sync/pull', { accountId: t.accountId }), 202),
    );
    expect(started.status).toBe('running');
    await expect
      .poll(
        async () =>
          PullStatus.parse(
            expectStatus(await t.request('GET', `/api/v1/sync/pull?accountId=${t.accountId}`), 200),
          ).run?.status,
        { timeout: 30_000 },
      )
      .toBe('done');
    const names = (
      await t.store.db
        .selectFrom('contacts')
        .select('lastName')
        .where('accountId', '=', t.accountId)
        .execute()
    )
      .map((c) => c.lastName)
      .sort();
    expect(names).toEqual(['Donor0', 'Donor1', 'Donor2']);
  });

  it('run: 409 naming why when the account has no settings or this server runs no sync', async () => {
    const bare = await asNewAccount(s);
    await expectRejected(bare, () => bare.request('POST', '/api/v1/sync/run', {}), 409, {
      code: 'sync_not_configured',
    });
    const { t, campaignId } = await configured();
    await makeDonation(t, (await makeContact(t)).id, { campaignId });
    await expectRejected(t, () => t.request('POST', '/api/v1/sync/run', {}), 409, {
      code: 'sync_not_running',
    });
  });

  it('run on a server with the scheduler: one pass, answered with the result, and the gift is at HQ exactly once', async () => {
    const withScheduler = await startTestServer({ sync: { keys: testKeys, run: true } });
    try {
      const { t, h, campaignId } = await configured(withScheduler);
      const gift = await makeDonation(t, (await makeContact(t)).id, { donationAmount: 12, campaignId });
      const res = SyncRunResult.parse(expectStatus(await t.request('POST', '/api/v1/sync/run', {}), 200));
      expect(res.status.configured).toBe(true);
      // The scheduler may have started a pass of its own on the settings' PUT: either way it ends drained.
      await expect
        .poll(
          async () =>
            SyncStatus.parse(
              expectStatus(await t.request('GET', `/api/v1/sync/status?accountId=${t.accountId}`), 200),
            ).pending,
          { timeout: 30_000 },
        )
        .toBe(0);
      await expect.poll(async () => (await atHq(h, gift.id)).length, { timeout: 30_000 }).toBe(1);
    } finally {
      await withScheduler.close();
    }
  });
});
