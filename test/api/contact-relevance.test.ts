/**
 * Relevance-ranked contact search (sortBy=relevance; the default with search on
 * GET /contact-summaries, asked for explicitly on the spec's GET /contacts): the exact match
 * of the whole typed text — full name in either order, email, phone digits, organisation,
 * accents and case ignored — comes first, then contacts with every word as a whole word,
 * then prefix matches; the most recent last gift only breaks ties within a tier. Seeded with
 * the namesake mess of a real event: a William Williams among Williamsons who all gave more
 * recently, three Robert Browns, a José Núñez typed without accents, decoys whose words
 * start with the target's, and a second account holding the same names with newer gifts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asNewAccount,
  expectRejected,
  expectStatus,
  makeCampaign,
  makeContact,
  makeDonation,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Row {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
}
interface Page {
  data: Row[];
  total: number;
}

let s: TestServer;
let other: TestServer;
const ids = new Map<string, string>();
const campaigns = new Map<TestServer, string>();

async function contact(
  t: TestServer,
  key: string,
  fields: Record<string, unknown>,
  lastGift?: string,
): Promise<void> {
  const c = await makeContact(t, fields);
  if (lastGift)
    await makeDonation(t, c.id, {
      donationDate: lastGift,
      donationAmount: 19.99,
      paymentMethod: 'cash',
      campaignId: campaigns.get(t),
    });
  if (t === s) ids.set(key, c.id);
}

/** The same people in both accounts; the other account's gave later still. */
async function seed(t: TestServer, later: boolean): Promise<void> {
  campaigns.set(t, (await makeCampaign(t)).id);
  const d = (day: string) => (later ? day.replace('2025', '2026') : day);
  await contact(
    t,
    'william',
    { firstName: 'William', lastName: 'Williams', primaryEmail: 'bill@williams-family.example' },
    d('2025-01-10'),
  );
  for (let i = 0; i < 9; i++) {
    await contact(
      t,
      `williamson${i}`,
      {
        firstName: i % 2 ? 'William' : 'Williams',
        lastName: `Williamson`,
        primaryEmail: `w${i}@williamson.example`,
      },
      d(`2025-06-${String(10 + i).padStart(2, '0')}`),
    );
  }
  await contact(t, 'willa', { firstName: 'Willa', lastName: 'Williamsburg' }, d('2025-07-01'));
  // A whole-word match that is not exact: every word whole, one more word besides.
  await contact(
    t,
    'william-jr',
    { firstName: 'William', middleName: 'Henry', lastName: 'Williams' },
    d('2025-02-01'),
  );
  // Three Robert Browns, told apart by email; Browning and Roberta decoys gave later.
  await contact(
    t,
    'brown-a',
    {
      firstName: 'Robert',
      lastName: 'Brown',
      primaryEmail: 'robert.brown@oak.example',
      addresses: [{ city: 'Dayton' }],
    },
    d('2025-03-01'),
  );
  await contact(
    t,
    'brown-b',
    {
      firstName: 'Robert',
      lastName: 'Brown',
      primaryEmail: 'rbrown@pine.example',
      addresses: [{ city: 'Akron' }],
    },
    d('2025-05-01'),
  );
  await contact(t, 'brown-c', {
    firstName: 'Robert',
    lastName: 'Brown',
    primaryEmail: 'bob.brown@elm.example',
  });
  await contact(
    t,
    'roberta',
    { firstName: 'Roberta', lastName: 'Browning', primaryEmail: 'roberta@browning.example' },
    d('2025-08-01'),
  );
  await contact(t, 'robertson', { firstName: 'Robertson', lastName: 'Browne' }, d('2025-08-02'));
  // Accents typed without accents; the decoy shares the first word and gave later.
  await contact(
    t,
    'jose',
    {
      firstName: 'José',
      lastName: 'Núñez',
      phoneNumbers: [{ phoneNumber: '(555) 010-2233', isPrimary: true }],
    },
    d('2025-01-02'),
  );
  await contact(t, 'josefina', { firstName: 'Josefina', lastName: 'Nuñezca' }, d('2025-09-01'));
  await contact(t, 'jose-other', { firstName: 'José', lastName: 'Nunes' }, d('2025-09-02'));
  // Typed without its letters' marks ("lukasz zolc"); the decoy's surname starts with his.
  await contact(t, 'lukasz', { firstName: 'Łukasz', lastName: 'Żółć' }, d('2025-03-15'));
  await contact(t, 'lukasz-zolcik', { firstName: 'Łukasz', lastName: 'Żółcik' }, d('2025-04-01'));
  // An organisation typed whole, among organisations whose names start with it.
  await contact(t, 'acme', { firstName: 'Ann', lastName: 'Lee', organization: 'Acme' });
  await contact(
    t,
    'acme-widgets',
    { firstName: 'Pat', lastName: 'Acmeson', organization: 'Acme Widgets' },
    d('2025-10-01'),
  );
  await contact(
    t,
    'acmes',
    { firstName: 'Sam', lastName: 'Stone', organization: 'Acmes Holdings' },
    d('2025-10-02'),
  );
}

beforeAll(async () => {
  s = await startTestServer();
  other = await asNewAccount(s);
  await seed(s, false);
  await seed(other, true);
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const name = (id: string) => [...ids].find(([, v]) => v === id)?.[0] ?? `(not in this account: ${id})`;

async function ranked(route: string, text: string, extra = ''): Promise<{ keys: string[]; total: number }> {
  const page = expectStatus(
    await s.request(
      'GET',
      `${route}?accountId=${s.accountId}&search=${encodeURIComponent(text)}&limit=100${extra}`,
    ),
    200,
  ) as Page;
  return { keys: page.data.map((r) => name(r.id)), total: page.total };
}

const ROUTES = [
  ['/api/v1/contact-summaries', ''],
  ['/api/v1/contact-summaries', '&sortBy=relevance'],
  ['/api/v1/contacts', '&sortBy=relevance'],
] as const;

describe('relevance order', () => {
  it('puts the exact full name, email, phone or organisation first, then whole words, then prefixes; recency only within a tier', async () => {
    const cases: Array<[string, string[]]> = [
      // exact name first though ten namesakes-by-prefix gave later; then the whole-word match
      // (a middle name besides); then prefixes by last gift.
      [
        'william williams',
        [
          'william',
          'william-jr',
          'willa',
          'williamson8',
          'williamson7',
          'williamson6',
          'williamson5',
          'williamson4',
          'williamson3',
          'williamson2',
          'williamson1',
          'williamson0',
        ],
      ],
      [
        'Williams, William',
        [
          'william',
          'william-jr',
          'willa',
          'williamson8',
          'williamson7',
          'williamson6',
          'williamson5',
          'williamson4',
          'williamson3',
          'williamson2',
          'williamson1',
          'williamson0',
        ],
      ],
      // every contact with the whole word (by last gift), then the Williamsons and -burg by last gift
      [
        'WILLIAMS',
        [
          'williamson8',
          'williamson6',
          'williamson4',
          'williamson2',
          'williamson0',
          'william-jr',
          'william',
          'willa',
          'williamson7',
          'williamson5',
          'williamson3',
          'williamson1',
        ],
      ],
      // three namesakes are all exact: last gift decides among them; never gave comes last
      ['robert brown', ['brown-b', 'brown-a', 'brown-c', 'robertson', 'roberta']],
      ['rbrown@pine.example', ['brown-b']],
      ['ROBERT.BROWN@OAK.EXAMPLE', ['brown-a']],
      ['jose nunez', ['jose', 'josefina']],
      ['Núñez José', ['jose', 'josefina']],
      ['555 010 2233', ['jose']],
      ['(555) 010-2233', ['jose']],
      // the organisation itself, then the whole word "acme", then "acmes"
      ['acme', ['acme', 'acme-widgets', 'acmes']],
    ];
    for (const [route, extra] of ROUTES) {
      for (const [text, expected] of cases) {
        const r = await ranked(route, text, extra);
        expect(r.keys, `${route}${extra} “${text}”`).toEqual(expected);
        expect(r.total, `${route}${extra} “${text}” total`).toBe(expected.length);
      }
    }
  });

  it('pages through the tiers without losing or repeating anyone, the total the same on every page', async () => {
    for (const [route, extra] of ROUTES) {
      const all = (await ranked(route, 'will', extra)).keys;
      expect(all.length).toBe(12);
      for (const size of [1, 2, 5]) {
        const seen: string[] = [];
        for (let offset = 0; offset < all.length + size; offset += size) {
          const page = expectStatus(
            await s.request(
              'GET',
              `${route}?accountId=${s.accountId}&search=will&limit=${size}&offset=${offset}${extra}`,
            ),
            200,
          ) as Page;
          expect(page.total, `${route} offset ${offset}`).toBe(12);
          seen.push(...page.data.map((r) => name(r.id)));
        }
        expect(seen, `${route} pages of ${size}`).toEqual(all);
      }
      // the typed whole name's page 2 starts after the exact and whole-word tiers
      const second = expectStatus(
        await s.request(
          'GET',
          `${route}?accountId=${s.accountId}&search=william%20williams&limit=2&offset=2${extra}`,
        ),
        200,
      ) as Page;
      expect(second.data.map((r) => name(r.id))).toEqual(['willa', 'williamson8']);
    }
  });

  it("keeps the spec's default order on GET /contacts unless relevance is asked for", async () => {
    const page = expectStatus(
      await s.request('GET', `/api/v1/contacts?accountId=${s.accountId}&search=robert%20brown`),
      200,
    ) as Page;
    // createdAt desc: the decoys were created after the three Robert Browns
    expect(page.data.map((r) => name(r.id))).toEqual([
      'robertson',
      'roberta',
      'brown-c',
      'brown-b',
      'brown-a',
    ]);
    await expectRejected(
      s,
      () => s.request('GET', `/api/v1/contacts?accountId=${s.accountId}&search=x&sortBy=best`),
      400,
      { field: 'sortBy' },
    );
  });

  it('without search words, relevance is last-gift order over the whole account', async () => {
    const page = expectStatus(
      await s.request('GET', `/api/v1/contacts?accountId=${s.accountId}&sortBy=relevance&limit=3`),
      200,
    ) as Page;
    expect(page.data.map((r) => name(r.id))).toEqual(['acmes', 'acme-widgets', 'jose-other']);
    expect(page.total).toBe(ids.size);
  });

  it("never ranks, returns or counts the other account's namesakes, who gave later", async () => {
    const mine = new Set(ids.values());
    for (const text of [
      'william williams',
      'robert brown',
      'jose nunez',
      'acme',
      'w',
      '555 010 2233',
      'lukasz zolc',
    ]) {
      const page = expectStatus(
        await other.request(
          'GET',
          `/api/v1/contact-summaries?accountId=${other.accountId}&search=${encodeURIComponent(text)}&limit=100`,
        ),
        200,
      ) as Page;
      expect(
        page.data.some((r) => mine.has(r.id)),
        text,
      ).toBe(false);
      const ours = await ranked('/api/v1/contact-summaries', text);
      expect(page.total, text).toBe(ours.total);
      expect(
        ours.keys.every((k) => ids.has(k)),
        text,
      ).toBe(true);
    }
  });
});

describe('without the total (total=false, as the donor box asks)', () => {
  it('answers the same page in the same order and leaves the total out; the default and total=true keep it', async () => {
    const texts = [
      'william williams',
      'will',
      'robert brown',
      'lukasz zolc',
      'Łukasz Żółć',
      'w',
      '555 010 2233',
      'nobody',
    ];
    for (const text of texts) {
      for (const [limit, offset] of [
        [8, 0],
        [1, 0],
        [2, 2],
        [5, 5],
        [100, 0],
      ] as const) {
        const q = `/api/v1/contact-summaries?accountId=${s.accountId}&search=${encodeURIComponent(text)}&limit=${limit}&offset=${offset}&sortBy=relevance`;
        const full = expectStatus(await s.request('GET', q), 200) as Page;
        const asked = expectStatus(await s.request('GET', `${q}&total=true`), 200) as Page;
        const box = expectStatus(await s.request('GET', `${q}&total=false`), 200) as { data: Row[] };
        const where = `“${text}” ${limit}/${offset}`;
        expect(
          box.data.map((r) => name(r.id)),
          where,
        ).toEqual(full.data.map((r) => name(r.id)));
        expect('total' in box, where).toBe(false);
        expect(typeof full.total, where).toBe('number');
        expect(asked, where).toEqual(full);
      }
    }
    // Typed without the marks: Łukasz Żółć exactly, then his namesake whose surname starts with his.
    const box = expectStatus(
      await s.request(
        'GET',
        `/api/v1/contact-summaries?accountId=${s.accountId}&search=lukasz%20zolc&limit=8&sortBy=relevance&total=false`,
      ),
      200,
    ) as { data: Row[] };
    expect(box.data.map((r) => name(r.id))).toEqual(['lukasz', 'lukasz-zolcik']);
    // The other orders leave it out too; without search words as well.
    for (const extra of ['&search=robert&sortBy=name', '&sortBy=createdAt', '']) {
      const page = expectStatus(
        await s.request('GET', `/api/v1/contact-summaries?accountId=${s.accountId}${extra}&total=false`),
        200,
      ) as { data: Row[] };
      expect(page.data.length, extra).toBeGreaterThan(0);
      expect('total' in page, extra).toBe(false);
    }
    await expectRejected(
      s,
      () => s.request('GET', `/api/v1/contact-summaries?accountId=${s.accountId}&search=x&total=no`),
      400,
      { field: 'total' },
    );
  });
});
