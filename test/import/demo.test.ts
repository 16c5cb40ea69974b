/**
 * The demo organisation: what `giftdesk demo` and `serve --demo` promise, checked through
 * the API with the demo's own key — reference data, a calendar with a default, custom fields
 * of every type (a retired option, an archived field), ~3,000 donors with accented names,
 * ~6,000 gifts over two years including today, a few flagged over a limit — all of it local
 * (nothing queued for HQ), and the same every time for the same clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '../../electron/domain/context.ts';
import { DEMO_CONTACTS, DEMO_DONATIONS, seedDemo, seedDemoIfEmpty } from '../../electron/cli/demo/demo.ts';
import { exportCsv } from '../../electron/domain/import-export/exports.ts';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { type TestServer, rawRequest, startTestServer, tempDir } from '../helpers/server.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function freshStore(): Promise<Store> {
  const store = await openStore({ dataDir: tempDir('giftdesk-demo-') });
  closers.push(() => store.close());
  return store;
}

async function exportText(
  store: Store,
  now: () => string,
  kind: 'contacts' | 'donations',
  accountId: string,
): Promise<string> {
  let text = '';
  for await (const page of exportCsv(createContext(store, now), kind, accountId)) text += page.text;
  return text;
}

describe('the demo organisation', () => {
  it('has what the demo promises, seen through the API with its own key', async () => {
    const s: TestServer = await startTestServer();
    closers.push(() => s.close());
    expect(await seedDemoIfEmpty(s.ctx)).toBeNull(); // the test server already has an account
    const demo = await seedDemo(s.ctx);
    const get = async (p: string) => {
      const r = await rawRequest(
        `${s.url}/api/v1${p}${p.includes('?') ? '&' : '?'}accountId=${demo.accountId}`,
        'GET',
        undefined,
        { 'x-api-key': demo.keyId, authorization: `Bearer ${demo.secret}` },
      );
      expect(r.status, `${p}: ${r.text}`).toBe(200);
      return r.body;
    };

    expect(await get('/account')).toMatchObject({ contacts: DEMO_CONTACTS, donations: DEMO_DONATIONS });
    expect(DEMO_CONTACTS).toBe(3000);
    expect(DEMO_DONATIONS).toBe(6000);

    // The namesake mess is there, and the donor box's search finds the one typed.
    const top = async (text: string) =>
      (await get(`/contact-summaries?search=${encodeURIComponent(text)}&limit=8`)).data as Array<{
        firstName: string;
        lastName: string;
        email: string | null;
      }>;
    const williams = await top('william williams');
    expect(williams.length).toBeGreaterThan(3);
    expect(`${williams[0]!.firstName} ${williams[0]!.lastName}`).toBe('William Williams');
    expect((await top('jose nunez'))[0]).toMatchObject({ firstName: 'José', lastName: 'Núñez' });
    const browns = (await top('robert brown')).slice(0, 3);
    expect(browns.map((c) => `${c.firstName} ${c.lastName}`)).toEqual([
      'Robert Brown',
      'Robert Brown',
      'Robert Brown',
    ]);
    expect(new Set(browns.map((c) => c.email)).size).toBe(3);
    expect((await top('kim.family@example.org')).map((c) => c.firstName).sort()).toEqual(['Pat', 'Patricia']);

    const campaigns = (await get('/campaigns')).data;
    expect(campaigns.length).toBeGreaterThanOrEqual(3);
    expect(
      campaigns.every(
        (c: { donationCount: number; totalRaised: number }) => c.donationCount > 0 && c.totalRaised > 0,
      ),
    ).toBe(true);
    expect((await get('/committees')).data.length).toBeGreaterThanOrEqual(1);
    const accounts = (await get('/donation-accounts')).data;
    expect(
      accounts.some((a: { limits: { perElection: number | null } }) => a.limits.perElection === 3300),
    ).toBe(true);

    const elections = (await get('/elections')).data;
    expect(elections.length).toBeGreaterThanOrEqual(2);
    expect(elections.filter((e: { isDefault: boolean }) => e.isDefault)).toHaveLength(1);

    const fields = (await get('/custom-fields')).data as Array<{
      type: string;
      archived: boolean;
      options: Array<{ retired: boolean }>;
    }>;
    expect(new Set(fields.map((f) => f.type))).toEqual(new Set(['text', 'number', 'date', 'picklist']));
    expect(fields.filter((f) => f.archived)).toHaveLength(1);
    expect(
      fields.some(
        (f) => f.type === 'picklist' && f.options.some((o) => o.retired) && f.options.some((o) => !o.retired),
      ),
    ).toBe(true);

    // accented names, found without the accents
    for (const [query, name] of [
      ['zoe', 'Zoë'],
      ['jose', 'José'],
      ['siobhan', 'Siobhán'],
    ]) {
      const found = await get(`/contacts?search=${query}&limit=100`);
      expect(
        found.data.map((c: { firstName: string }) => c.firstName),
        query,
      ).toContain(name);
    }
    const one = await get(`/contacts/${(await get('/contacts?search=zoe&limit=1')).data[0].id}`);
    expect(one).toMatchObject({
      email: expect.stringContaining('@'),
      address: { city: expect.any(String), state: expect.any(String) },
    });

    // gifts over the last two years, today's event included
    const today = new Date().toISOString().slice(0, 10);
    expect((await get(`/donations?startDate=${today}&endDate=${today}`)).total).toBeGreaterThan(10);
    const twoYearsAgo = new Date(Date.now() - 731 * 86_400_000).toISOString().slice(0, 10);
    expect((await get(`/donations?endDate=${twoYearsAgo}`)).total).toBe(0);
    expect(
      (await get(`/donations?endDate=${new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10)}`))
        .total,
    ).toBeGreaterThan(1000);
    // entered when given: "entered today" is today's event, not the two years just imported
    const enteredToday = await get(`/stats/donations?basis=entered&startDate=${today}&endDate=${today}`);
    expect(enteredToday.count).toBe((await get(`/donations?startDate=${today}&endDate=${today}`)).total);
    expect(enteredToday.count).toBeLessThan(DEMO_DONATIONS / 10);

    // the treasurer's review queue has a few gifts in it
    const flagged = (await get('/flags')).flagged;
    expect(flagged.length).toBeGreaterThanOrEqual(3);
    expect(flagged.every((f: { donorTotal: number; limit: number }) => f.donorTotal > f.limit)).toBe(true);

    // donor totals agree with their gifts; nothing of the demo is queued for HQ
    const mismatched = await s.store.db
      .selectFrom('contacts as c')
      .select('c.id')
      .where('c.accountId', '=', demo.accountId)
      .where((eb) =>
        eb(
          'c.totalCents',
          '!=',
          eb.fn.coalesce(
            eb
              .selectFrom('donations as d')
              .select((x) => x.fn.sum<number>('d.amountCents').as('s'))
              .whereRef('d.contactId', '=', 'c.id')
              .where('d.status', '=', 'completed'),
            eb.lit(0),
          ),
        ),
      )
      .execute();
    expect(mismatched).toEqual([]);
    const pushed = await s.store.db
      .selectFrom('changeLog')
      .select('seq')
      .where('accountId', '=', demo.accountId)
      .where('push', '=', 1)
      .execute();
    expect(pushed).toEqual([]);
  });

  it('seeds an empty database (serve --demo), and the same data again for the same clock', async () => {
    const now = () => '2026-03-15T18:30:00.000Z';
    const [a, b] = [await freshStore(), await freshStore()];
    const seededA = await seedDemoIfEmpty(createContext(a, now));
    const seededB = await seedDemoIfEmpty(createContext(b, now));
    expect(seededA).not.toBeNull();
    expect(seededB).not.toBeNull();
    expect(await exportText(a, now, 'contacts', seededA!.accountId)).toBe(
      await exportText(b, now, 'contacts', seededB!.accountId),
    );
    // gifts: the same, but for the ids of the campaigns and accounts they are credited to
    const withoutIds = (text: string) => text.replace(/\b(cmp|cmt|dac)_[0-9A-Z]{26}\b/g, '$1');
    const giftsA = withoutIds(await exportText(a, now, 'donations', seededA!.accountId));
    expect(giftsA.split('\r\n').length).toBe(DEMO_DONATIONS + 2);
    expect(withoutIds(await exportText(b, now, 'donations', seededB!.accountId))).toBe(giftsA);
    expect(await seedDemoIfEmpty(createContext(a, now))).toBeNull();
  });
});
