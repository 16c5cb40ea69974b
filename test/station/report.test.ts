/**
 * What a station reports to its hub, read from its own outbox on a real SQLite file: the gifts
 * it entered (not those the hub sent it, not one voided before it was sent), the sequence of
 * its last change, what the hub has not confirmed yet, and its batches' counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#shared/ids.ts';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import {
  countAndCloseBatch,
  createBatch,
  createDonation,
  voidDonation,
} from '../../electron/domain/donations/index.ts';
import { HubReportBody } from '#shared/schemas/hub.ts';
import { applyFeedPage } from '../../electron/sync/station/apply-feed.ts';
import { stationReport } from '../../electron/sync/station/report.ts';
import { tempDir } from '../helpers/server.ts';
import { FEED_GIFT_REST } from '../helpers/feed-gift.ts';
import { insertStationAccount } from '../helpers/station-account.ts';

let store: Store;
let ctx: DomainContext;
const accountId = newId('account');

beforeAll(async () => {
  store = await openStore({ dataDir: tempDir('giftdesk-station-') });
  ctx = createContext(store);
  const at = new Date().toISOString();
  await store.write(async (trx) => {
    await insertStationAccount(trx, accountId, at);
    await trx
      .insertInto('campaigns')
      .values({ id: 'cmp_HUBGALA', accountId, name: 'Gala', createdAt: at })
      .execute();
  });
});
afterAll(async () => {
  await store?.close();
});

describe('the station’s report', () => {
  it('counts its own gifts, not the hub’s nor one voided before it was sent', async () => {
    const donor = await createContact(ctx, { accountId, firstName: 'Maria', lastName: 'Lopez' });
    const body = {
      accountId,
      contactId: donor.id,
      donationAmount: 25,
      donationDate: '2026-11-27',
      paymentMethod: 'cash' as const,
      campaignId: 'cmp_HUBGALA',
    };
    await createDonation(ctx, body);
    const voided = await createDonation(ctx, body);
    await voidDonation(ctx, accountId, voided.id, 'typed twice');
    await applyFeedPage(
      store,
      accountId,
      {
        contacts: [],
        deletedContacts: [],
        reference: null,
        donations: [
          {
            id: 'don_HUBB1',
            contactId: donor.id,
            contactName: 'Maria Lopez',
            donationAmount: 50,
            donationDate: '2026-11-27T00:00:00.000Z',
            paymentMethod: 'check',
            campaignId: 'cmp_HUBGALA',
            campaignName: 'Gala',
            notes: 'gd:don_STATIONB1',
            createdAt: '2026-11-27T19:00:00.000Z',
            stationId: 'stn_B',
            reference: 'gd:don_STATIONB1',
            committeeId: null,
            donationAccountId: null,
            electionType: null,
            electionYear: null,
            status: 'completed',
            ...FEED_GIFT_REST,
          },
        ],
        cursor: '3',
        more: false,
      },
      new Date().toISOString(),
      new Date().toISOString(),
    );
    // Another station's gift is here now (in the donor's totals), and never counts as entered
    // here; the gifts typed here carry this station's id.
    const gifts = await store.db
      .selectFrom('donations')
      .select('stationId')
      .where('accountId', '=', accountId)
      .execute();
    expect(gifts.map((g) => g.stationId).sort()).toEqual(['stn_A', 'stn_A', 'stn_B']);
    const log = await store.db
      .selectFrom('changeLog')
      .select(['seq', 'push', 'syncedAt'])
      .where('accountId', '=', accountId)
      .execute();
    const pushed = log.filter((r) => r.push === 1);
    const report = await stationReport(store.db, accountId);
    expect(report).toEqual({
      entered: 1,
      lastSeq: Math.max(...pushed.map((r) => r.seq)),
      waiting: pushed.filter((r) => r.syncedAt === null).length,
      batches: [], // no batch counted here
    });
    expect(report.waiting).toBe(4); // the donor, two gifts, the void
  });

  it('carries the newest count of each counted batch, with the batch’s name and who counted', async () => {
    const donor = await createContact(ctx, { accountId, firstName: 'Robert', lastName: 'Brown' });
    const { batch: box } = await createBatch(ctx, { accountId, name: 'Cash box 1' });
    await createBatch(ctx, { accountId, name: 'Not counted yet' });
    const gift = (dollars: number, paymentMethod: 'cash' | 'check', notes?: string) =>
      createDonation(
        ctx,
        {
          accountId,
          contactId: donor.id,
          donationAmount: dollars,
          donationDate: '2026-11-27',
          paymentMethod,
          campaignId: 'cmp_HUBGALA',
          ...(notes ? { notes } : {}),
        },
        { batchId: box.id },
      );
    await gift(19.99, 'cash');
    await gift(19.99, 'cash');
    await gift(250, 'check', 'check 1021');
    await countAndCloseBatch(ctx, accountId, box.id, {
      countedBy: 'Dana',
      counted: [
        { paymentMethod: 'cash', total: 39.98 },
        { paymentMethod: 'check', count: 1, total: 240 },
      ],
      acceptDifference: true,
    });
    const report = await stationReport(store.db, accountId);
    expect(report.batches).toEqual([
      {
        batchId: box.id,
        batchName: 'Cash box 1',
        countedBy: 'Dana',
        countedAt: expect.any(String),
        note: null,
        enteredCount: 3,
        enteredTotal: 289.98,
        countedTotal: 279.98,
        difference: -10,
        lines: [
          {
            paymentMethod: 'cash',
            enteredCount: 2,
            enteredTotal: 39.98,
            countedCount: null,
            countedTotal: 39.98,
            difference: 0,
          },
          {
            paymentMethod: 'check',
            enteredCount: 1,
            enteredTotal: 250,
            countedCount: 1,
            countedTotal: 240,
            difference: -10,
          },
        ],
      },
    ]);
    // The hub takes it as it is (the report's schema).
    expect(HubReportBody.parse(report)).toEqual(report);
  });
});
