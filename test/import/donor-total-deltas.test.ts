/**
 * The pass that adds a CLI import's pending donor totals (SQLite): in many small windows, each
 * donor's rows land exactly once, whichever window holds them, and none is left behind —
 * namesake donors (three Robert Browns) kept apart, twin gifts both counted.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyDonorTotalDeltas } from '../../electron/db/donor-total-deltas.ts';
import { TEST_ENGINE, type TestServer, startTestServer } from '../helpers/server.ts';
import { contactIdOf, csvFile, importFile } from './fixtures.ts';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(async () => {
  await s.close();
});

describe.skipIf(TEST_ENGINE === 'postgres')('pending donor totals', () => {
  it('adds every row once across many windows, and leaves none', async () => {
    const DONORS = 300;
    const rows: Array<Array<string>> = [['externalId', 'firstName', 'lastName', 'primaryEmail']];
    for (let i = 0; i < DONORS; i++)
      rows.push([
        `r${i}`,
        i < 3 ? 'Robert' : ['Zoë', 'Zoe', 'José', 'Jose'][i % 4]!,
        i < 3 ? 'Brown' : ['García', 'Garcia', 'Núñez'][i % 3]!,
        i % 7 === 0 ? 'shared@example.org' : '',
      ]);
    expect(await importFile(s, csvFile(rows), { kind: 'contacts' })).toMatchObject({ imported: DONORS });
    const ids: string[] = [];
    for (let i = 0; i < DONORS; i++) ids.push(await contactIdOf(s, `r${i}`));

    // 3,000 pending rows: donor i gets rows of $19.99 (twins: same donor, same minute) and more
    const expected = new Map<string, { cents: number; latest: string }>();
    const deltas: Array<{ contactId: string; cents: number; latestDate: string }> = [];
    for (let k = 0; k < 3000; k++) {
      const contactId = ids[(k * 7919) % DONORS]!;
      const cents = k % 2 === 0 ? 1999 : 100 + (k % 97);
      const latestDate = `2025-0${(k % 9) + 1}-1${k % 10}T10:15:00.000Z`;
      deltas.push({ contactId, cents, latestDate });
      const e = expected.get(contactId) ?? { cents: 0, latest: '' };
      e.cents += cents;
      if (latestDate > e.latest) e.latest = latestDate;
      expected.set(contactId, e);
    }
    await s.ctx.store.write((trx) => trx.insertInto('donorTotalDeltas').values(deltas).execute());

    // a window per sampled bound: hundreds of windows
    const donors = await applyDonorTotalDeltas(s.ctx.store, 0.001, 1);
    expect(donors).toBe(expected.size);
    const left = await s.ctx.store.db
      .selectFrom('donorTotalDeltas')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    const got = await s.ctx.store.db
      .selectFrom('contacts')
      .select(['id', 'totalCents', 'lastDonationDate'])
      .execute();
    for (const c of got) {
      const e = expected.get(c.id);
      expect({ id: c.id, cents: Number(c.totalCents), latest: c.lastDonationDate }).toEqual({
        id: c.id,
        cents: e?.cents ?? 0,
        latest: e?.latest ?? null,
      });
    }
    // nothing left to add: a second pass changes nothing
    expect(await applyDonorTotalDeltas(s.ctx.store)).toBe(0);
  });
});
