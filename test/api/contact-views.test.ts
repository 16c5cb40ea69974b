/**
 * The contact screen's extension routes: GET /contact-summaries (search, sort by name, last
 * gift, total given and creation, paging), GET /contacts/:id/donations (giving history and
 * totals) and GET /contacts/:id/delete-preview (what a delete takes with it). Real HTTP, on
 * both engines; 100,000 contacts are seeded through the store's bulk path.
 */
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactSummaryPageQuery } from '../../electron/domain/contacts/views.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import {
  asNewAccount,
  expectError,
  expectRejected,
  expectStatus,
  makeCampaign,
  makeCommittee,
  makeContact,
  makeDonation,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
import { expectedOrder, seedContacts, type SeededContact } from '../helpers/seed-contacts.ts';
import { TEST_ENGINE, startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let campaignId: string;

beforeAll(async () => {
  s = await startTestServer();
  campaignId = (await makeCampaign(s, 'Views Campaign')).id;
});
afterAll(async () => {
  await s?.close();
});

const summaries = async (
  t: TestServer,
  query = '',
): Promise<{ data: ContactSummary[]; total: number; limit: number; offset: number }> =>
  expectStatus(await t.request('GET', `/api/v1/contact-summaries?accountId=${t.accountId}${query}`), 200);
const names = (page: { data: ContactSummary[] }) => page.data.map((d) => `${d.firstName} ${d.lastName}`);

describe('GET /contact-summaries', () => {
  let t: TestServer;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await asNewAccount(s);
    const cmp = (await makeCampaign(t, 'Summaries')).id;
    const people = [
      {
        firstName: 'Zoë',
        lastName: 'Ångström-Núñez',
        primaryEmail: 'zoe@fjord.example',
        addresses: [
          { city: 'Oslo', isPrimary: false },
          { city: 'Bergen', isPrimary: true },
        ],
      },
      { firstName: 'amy', lastName: 'Baker', organization: 'Baker & Sons', tags: ['volunteer'] },
      { firstName: 'Brian', lastName: 'Baker', addresses: [{ city: 'Leeds' }] },
      { firstName: 'Chloe', lastName: 'Adams' },
    ];
    for (const p of people) ids[p.firstName] = (await makeContact(t, p)).id;
    // gifts: Brian 500 (2026-01-05), amy 20 + 30 (latest 2026-03-01), Chloe none, Zoë 100 (2025-12-24)
    await makeDonation(t, ids.Brian!, { campaignId: cmp, donationAmount: 500, donationDate: '2026-01-05' });
    await makeDonation(t, ids.amy!, { campaignId: cmp, donationAmount: 20, donationDate: '2026-02-01' });
    await makeDonation(t, ids.amy!, { campaignId: cmp, donationAmount: 30, donationDate: '2026-03-01' });
    await makeDonation(t, ids['Zoë']!, { campaignId: cmp, donationAmount: 100, donationDate: '2025-12-24' });
  });

  it('defaults to name A→Z (last name, then first; case-insensitively: amy before Brian) and carries the giving totals', async () => {
    const page = await summaries(t);
    expect(page).toMatchObject({ total: 4, limit: 20, offset: 0 });
    // "Ångström" sorts after the ASCII names on SQLite (nocase folds ASCII only) and among
    // them on PostgreSQL (ICU): the others' order is the same on both.
    expect(names(page).filter((n) => !n.startsWith('Zoë'))).toEqual([
      'Chloe Adams',
      'amy Baker',
      'Brian Baker',
    ]);
    const amy = page.data.find((d) => d.id === ids.amy)!;
    expect(amy).toEqual({
      id: ids.amy,
      contactType: 'INDIVIDUAL',
      status: 'ACTIVE',
      firstName: 'amy',
      lastName: 'Baker',
      organization: 'Baker & Sons',
      email: null,
      phone: null,
      city: null,
      tags: ['volunteer'],
      totalDonations: 50,
      lastDonationDate: '2026-03-01T00:00:00.000Z',
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    // the city of the primary address, else of the first
    expect(page.data.find((d) => d.id === ids['Zoë'])!.city).toBe('Bergen');
    expect(page.data.find((d) => d.id === ids.Brian)!.city).toBe('Leeds');
  });

  it.each([
    ['lastDonationDate', '', ['amy', 'Brian', 'Zoë', 'Chloe']], // newest first; never gave last
    ['lastDonationDate', 'asc', ['Chloe', 'Zoë', 'Brian', 'amy']], // never gave first
    ['totalDonations', '', ['Brian', 'Zoë', 'amy', 'Chloe']],
    ['totalDonations', 'asc', ['Chloe', 'amy', 'Zoë', 'Brian']],
    ['createdAt', '', ['Chloe', 'Brian', 'amy', 'Zoë']],
    ['createdAt', 'asc', ['Zoë', 'amy', 'Brian', 'Chloe']],
  ])('sortBy=%s sortOrder=%j', async (sortBy, order, expected) => {
    const page = await summaries(t, `&sortBy=${sortBy}${order ? `&sortOrder=${order}` : ''}`);
    expect(page.data.map((d) => d.firstName)).toEqual(expected);
  });

  it('sorts name Z→A with sortOrder=desc', async () => {
    const page = await summaries(t, '&sortBy=name&sortOrder=desc');
    expect(names(page).filter((n) => !n.startsWith('Zoë'))).toEqual([
      'Brian Baker',
      'amy Baker',
      'Chloe Adams',
    ]);
  });

  it.each([
    ['zoe', ['Zoë']],
    ['ZOË', ['Zoë']],
    ['angst', ['Zoë']], // an accented partial last name, typed without accents
    ['ÅNGSTRÖM', ['Zoë']],
    ['nun', ['Zoë']], // the second half of a hyphenated name
    ['fjord', ['Zoë']], // email
    ['bak', ['amy', 'Brian']],
    ['sons', ['amy']], // organization
    ['brian bak', ['Brian']], // every word must match
    ['xyz', []],
  ])('search %j finds %j, totals counted', async (text, expected) => {
    const page = await summaries(t, `&search=${encodeURIComponent(text)}`);
    expect(page.data.map((d) => d.firstName).sort()).toEqual([...expected].sort());
    expect(page.total).toBe(expected.length);
  });

  it("never shows another account's contacts", async () => {
    const page = await summaries(s, '&search=zoe');
    expect(page.data.map((d) => d.id)).not.toContain(ids['Zoë']);
  });

  it.each([
    ['sortBy', 'sortBy=firstName'],
    ['sortBy', 'sortBy='],
    ['sortOrder', 'sortOrder=DESC'],
    ['limit', 'limit=0'],
    ['limit', 'limit=101'],
    ['offset', 'offset=-1'],
    ['search', `search=${'x'.repeat(201)}`],
  ])('refuses a bad %s (%s) → 400 naming it, changing nothing', async (field, q) => {
    await expectRejected(
      s,
      () => s.request('GET', `/api/v1/contact-summaries?accountId=${s.accountId}&${q}`),
      400,
      { code: 'validation_failed', field },
    );
  });

  it('needs accountId (400) and refuses another account (403)', async () => {
    expectError(await s.request('GET', '/api/v1/contact-summaries'), 400, { field: 'accountId' });
    expectError(await s.request('GET', `/api/v1/contact-summaries?accountId=${t.accountId}`), 403, {
      code: 'account_forbidden',
    });
  });
});

describe('GET /contacts/:id/donations', () => {
  it("lists the contact's gifts newest first with names of what they credit, paged, with totals of the whole history", async () => {
    const donor = await makeContact(s, { firstName: 'Grace', lastName: 'Hopper' });
    const other = await makeContact(s, { firstName: 'Other', lastName: 'Donor' });
    const committee = await makeCommittee(s, 'History Committee');
    const acct = await makeDonationAccount(s, { perYear: 1000 }, 'History Account');
    const gifts = [
      await makeDonation(s, donor.id, { campaignId, donationAmount: 100.1, donationDate: '2024-05-01' }),
      await makeDonation(s, donor.id, {
        committeeId: committee.id,
        donationAmount: 250,
        donationDate: '2025-02-01',
        paymentMethod: 'cash',
        isAnonymous: true,
      }),
      await makeDonation(s, donor.id, {
        donationAccountId: acct.id,
        donationAmount: 900,
        donationDate: '2025-06-01',
      }),
      await makeDonation(s, donor.id, {
        donationAccountId: acct.id,
        donationAmount: 200.2,
        donationDate: '2025-07-01',
        notes: 'over the limit',
      }),
    ];
    await makeDonation(s, other.id, { campaignId, donationAmount: 5 });

    const page1 = expectStatus(
      await s.request('GET', `/api/v1/contacts/${donor.id}/donations?accountId=${s.accountId}&limit=3`),
      200,
    );
    expect(page1).toMatchObject({ total: 4, limit: 3, offset: 0 });
    expect(page1.donations.map((d: { id: string }) => d.id)).toEqual([
      gifts[3]!.id,
      gifts[2]!.id,
      gifts[1]!.id,
    ]);
    expect(page1.donations[0]).toEqual({
      id: gifts[3]!.id,
      donationAmount: 200.2,
      donationDate: '2025-07-01T00:00:00.000Z',
      paymentMethod: 'check',
      status: 'completed',
      campaignId: null,
      campaignName: null,
      committeeId: null,
      committeeName: null,
      donationAccountId: acct.id,
      donationAccountName: 'History Account',
      electionType: expect.any(String),
      electionYear: expect.any(Number),
      isAnonymous: false,
      isRecurring: false,
      thankYouSent: false,
      notes: 'over the limit',
      flagged: true, // 900 + 200.20 is over the 1,000 a year
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(page1.donations[2]).toMatchObject({
      committeeId: committee.id,
      committeeName: 'History Committee',
      paymentMethod: 'cash',
      isAnonymous: true,
      flagged: false,
    });
    const page2 = expectStatus(
      await s.request(
        'GET',
        `/api/v1/contacts/${donor.id}/donations?accountId=${s.accountId}&limit=3&offset=3`,
      ),
      200,
    );
    expect(page2.donations).toEqual([
      expect.objectContaining({
        id: gifts[0]!.id,
        campaignId,
        campaignName: 'Views Campaign',
        donationAmount: 100.1,
      }),
    ]);

    const totals = {
      donationCount: 4,
      completedCount: 4,
      totalDonations: 1450.3,
      refundedTotal: 0,
      disputedTotal: 0,
      averageGift: 362.58, // 1,450.30 / 4 = 362.575, rounded to the cent
      largestGift: 900,
      firstDonationDate: '2024-05-01T00:00:00.000Z',
      lastDonationDate: '2025-07-01T00:00:00.000Z',
      byYear: [
        { year: 2024, total: 100.1, count: 1 },
        { year: 2025, total: 1350.2, count: 3 },
      ],
    };
    expect(page1.totals).toEqual(totals);
    expect(page2.totals).toEqual(totals);

    // Refunding the flagged gift moves it out of the completed totals, but it stays listed.
    const flags = expectStatus(await s.request('GET', `/api/v1/flags?accountId=${s.accountId}`), 200);
    const flag = flags.flagged.find((f: { donationId: string }) => f.donationId === gifts[3]!.id);
    expectStatus(
      await s.request('POST', `/api/v1/flags/${flag.id}/actions`, {
        accountId: s.accountId,
        action: 'refund',
      }),
      200,
    );
    const after = expectStatus(
      await s.request('GET', `/api/v1/contacts/${donor.id}/donations?accountId=${s.accountId}`),
      200,
    );
    expect(after.total).toBe(4);
    expect(after.donations[0]).toMatchObject({ id: gifts[3]!.id, status: 'refunded', flagged: false });
    expect(after.totals).toMatchObject({
      donationCount: 4,
      completedCount: 3,
      totalDonations: 1250.1,
      refundedTotal: 200.2,
      averageGift: 416.7,
      largestGift: 900,
    });
    const contact = expectStatus(
      await s.request('GET', `/api/v1/contacts/${donor.id}?accountId=${s.accountId}`),
      200,
    );
    expect(contact.totalDonations).toBe(after.totals.totalDonations);
  });

  it('answers a contact who never gave with an empty list and zero totals', async () => {
    const c = await makeContact(s, { firstName: 'New', lastName: 'Friend' });
    const res = expectStatus(
      await s.request('GET', `/api/v1/contacts/${c.id}/donations?accountId=${s.accountId}`),
      200,
    );
    expect(res).toEqual({
      donations: [],
      total: 0,
      limit: 20,
      offset: 0,
      totals: {
        donationCount: 0,
        completedCount: 0,
        totalDonations: 0,
        refundedTotal: 0,
        disputedTotal: 0,
        averageGift: null,
        largestGift: null,
        firstDonationDate: null,
        lastDonationDate: null,
        byYear: [],
      },
    });
  });

  it("404s for an unknown contact or another account's, and 400s a bad limit", async () => {
    const t = await asNewAccount(s);
    const theirs = await makeContact(t, { firstName: 'Not', lastName: 'Yours' });
    for (const id of ['cnt_01JD000000000000000000000X', theirs.id]) {
      expectError(await s.request('GET', `/api/v1/contacts/${id}/donations?accountId=${s.accountId}`), 404, {
        code: 'contact_not_found',
      });
    }
    const mine = await makeContact(s, { firstName: 'Mine', lastName: 'Own' });
    expectError(
      await s.request('GET', `/api/v1/contacts/${mine.id}/donations?accountId=${s.accountId}&limit=500`),
      400,
      { field: 'limit' },
    );
  });
});

describe('GET /contacts/:id/delete-preview', () => {
  it('says how many gifts and how much a delete takes, which is what the delete then removes', async () => {
    const donor = await makeContact(s, { firstName: 'Leaving', lastName: 'Donor' });
    const other = await makeContact(s, { firstName: 'Staying', lastName: 'Donor' });
    const acct = await makeDonationAccount(s, { perDonor: 100 }, 'Preview Account');
    await makeDonation(s, donor.id, { campaignId, donationAmount: 40.05 });
    const over = await makeDonation(s, donor.id, { donationAccountId: acct.id, donationAmount: 150 });
    await makeDonation(s, donor.id, { campaignId, donationAmount: 9.95, donationDate: '2026-04-01' });
    // another donor's gift credited on behalf of the leaving donor: kept, the link cleared
    const linked = await makeDonation(s, other.id, {
      campaignId,
      donationAmount: 75,
      onBehalfOfContactId: donor.id,
    });
    const flags = expectStatus(await s.request('GET', `/api/v1/flags?accountId=${s.accountId}`), 200);
    const flag = flags.flagged.find((f: { donationId: string }) => f.donationId === over.id);
    expectStatus(
      await s.request('POST', `/api/v1/flags/${flag.id}/actions`, {
        accountId: s.accountId,
        action: 'refund',
      }),
      200,
    );

    const preview = expectStatus(
      await s.request('GET', `/api/v1/contacts/${donor.id}/delete-preview?accountId=${s.accountId}`),
      200,
    );
    expect(preview).toEqual({
      contactId: donor.id,
      contactName: 'Leaving Donor',
      donationCount: 3,
      donationTotal: 200,
      completedCount: 2,
      completedTotal: 50,
      linkedDonationCount: 1,
    });

    const before = expectStatus(
      await s.request('GET', `/api/v1/donations?accountId=${s.accountId}&limit=100`),
      200,
    );
    expectStatus(await s.request('DELETE', `/api/v1/contacts/${donor.id}?accountId=${s.accountId}`), 200);
    const afterList = expectStatus(
      await s.request('GET', `/api/v1/donations?accountId=${s.accountId}&limit=100`),
      200,
    );
    expect(before.total - afterList.total).toBe(preview.donationCount);
    const sum = (l: { donations: Array<{ contactId: string; donationAmount: number }> }) =>
      l.donations
        .filter((d) => d.contactId === donor.id)
        .reduce((a, d) => a + Math.round(d.donationAmount * 100), 0);
    expect(sum(before)).toBe(preview.donationTotal * 100);
    expect(sum(afterList)).toBe(0);
    const kept = expectStatus(
      await s.request('GET', `/api/v1/donations/${linked.id}?accountId=${s.accountId}`),
      200,
    );
    expect(kept.onBehalfOfContactId).toBeNull();
    expectError(
      await s.request('GET', `/api/v1/contacts/${donor.id}/delete-preview?accountId=${s.accountId}`),
      404,
      { code: 'contact_not_found' },
    );
  });

  it('shows nothing to lose for a contact without gifts', async () => {
    const c = await makeContact(s, { firstName: 'No', lastName: 'Gifts' });
    const preview = expectStatus(
      await s.request('GET', `/api/v1/contacts/${c.id}/delete-preview?accountId=${s.accountId}`),
      200,
    );
    expect(preview).toMatchObject({
      donationCount: 0,
      donationTotal: 0,
      completedCount: 0,
      completedTotal: 0,
      linkedDonationCount: 0,
    });
  });

  it("404s for another account's contact, changing nothing", async () => {
    const t = await asNewAccount(s);
    const theirs = await makeContact(t, { firstName: 'Theirs', lastName: 'Only' });
    await expectRejected(
      s,
      () => s.request('GET', `/api/v1/contacts/${theirs.id}/delete-preview?accountId=${s.accountId}`),
      404,
      { code: 'contact_not_found' },
    );
  });
});

describe('100,000 contacts', () => {
  let t: TestServer;
  let seeded: SeededContact[];
  const N = 100_000;
  beforeAll(async () => {
    t = await asNewAccount(s);
    seeded = await seedContacts(t.store, t.accountId, N);
  }, 600_000);

  it.each([
    ['name', 'asc'],
    ['name', 'desc'],
    ['lastDonationDate', 'asc'],
    ['lastDonationDate', 'desc'],
    ['totalDonations', 'asc'],
    ['totalDonations', 'desc'],
    ['createdAt', 'asc'],
    ['createdAt', 'desc'],
  ] as const)(
    'pages sorted by %s %s: the first, a middle and the last page are the right contacts',
    async (sortBy, dir) => {
      const expected = expectedOrder(seeded, sortBy, dir);
      for (const offset of [0, 49_950, N - 100]) {
        const page = await summaries(t, `&sortBy=${sortBy}&sortOrder=${dir}&limit=100&offset=${offset}`);
        expect(page.total).toBe(N);
        expect(page.data.map((d) => d.id)).toEqual(expected.slice(offset, offset + 100).map((c) => c.id));
      }
      const beyond = await summaries(t, `&sortBy=${sortBy}&sortOrder=${dir}&limit=100&offset=${N}`);
      expect(beyond).toMatchObject({ data: [], total: N });
    },
  );

  it('the rows carry what was stored: totals, last gift, city', async () => {
    const expected = expectedOrder(seeded, 'totalDonations', 'desc').slice(0, 100);
    const page = await summaries(t, '&sortBy=totalDonations&limit=100');
    page.data.forEach((d, i) => {
      const c = expected[i]!;
      expect(d).toMatchObject({
        id: c.id,
        firstName: c.firstName,
        lastName: c.lastName,
        email: c.email,
        organization: c.organization,
        city: c.city,
        totalDonations: c.totalCents / 100,
        lastDonationDate: c.lastDonationDate,
      });
    });
  });

  it('searches a partial name among them, counts every match and pages through them in order', async () => {
    const matches = expectedOrder(
      seeded.filter((c) => c.lastName === 'Quenneville'),
      'totalDonations',
      'desc',
    );
    expect(matches.length).toBeGreaterThan(100);
    const first = await summaries(t, '&search=QUENN&sortBy=totalDonations&limit=100');
    expect(first.total).toBe(matches.length);
    expect(first.data.map((d) => d.id)).toEqual(matches.slice(0, 100).map((c) => c.id));
    const rest = await summaries(t, '&search=quenn&sortBy=totalDonations&limit=100&offset=100');
    expect(rest.data.map((d) => d.id)).toEqual(matches.slice(100, 200).map((c) => c.id));
  });

  it.runIf(TEST_ENGINE === 'sqlite')(
    'on SQLite, reads every order off an index: no sort of 100,000 rows for a page',
    async () => {
      for (const sortBy of ['name', 'lastDonationDate', 'totalDonations', 'createdAt'] as const) {
        for (const sortOrder of ['asc', 'desc'] as const) {
          const c = contactSummaryPageQuery(t.ctx, {
            accountId: t.accountId,
            sortBy,
            sortOrder,
            limit: 100,
            offset: 50_000,
          }).compile();
          const plan = await t.store.db.executeQuery(
            CompiledQuery.raw(`explain query plan ${c.sql}`, [...c.parameters]),
          );
          const text = plan.rows.map((r) => (r as { detail: string }).detail).join(' | ');
          expect(text, `${sortBy} ${sortOrder}`).toMatch(/USING COVERING INDEX/);
          expect(text, `${sortBy} ${sortOrder}`).not.toMatch(/TEMP B-TREE/);
        }
      }
    },
  );

  it.runIf(TEST_ENGINE === 'sqlite')(
    'on SQLite, a search is driven by the full-text match, not by walking the account index',
    async () => {
      const explain = async (c: CompiledQuery) => {
        const plan = await t.store.db.executeQuery(
          CompiledQuery.raw(`explain query plan ${c.sql}`, [...c.parameters]),
        );
        return plan.rows.map((r) => (r as { detail: string }).detail).join(' | ');
      };
      const cond = t.store.search.condition('quenn', t.accountId);
      expect(cond).not.toBeNull();
      const count = t.store.db
        .selectFrom('contacts')
        .where(cond!)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .compile();
      const pages = (['name', 'createdAt'] as const).map((sortBy) =>
        contactSummaryPageQuery(t.ctx, { accountId: t.accountId, search: 'quenn', sortBy }).compile(),
      );
      for (const q of [count, ...pages]) {
        const text = await explain(q);
        // One rowid lookup per match; never the whole account's (account_id, …) index entry by
        // entry (probing it for one entry below or above the account is a seek, not a walk).
        expect(text, q.sql).toMatch(/SEARCH contacts USING INTEGER PRIMARY KEY/);
        expect(text, q.sql).toMatch(/contacts_fts/);
        expect(text, q.sql).not.toMatch(/contacts_account_\w+ \(account_id=\?/);
      }
    },
  );
});
