/**
 * Many contacts at once for list tests (100,000 in seconds, not 100,000 HTTP calls): built by
 * the domain's own `prepareContact` (the rules the API's create and the bulk import share)
 * and written through the store in bulk transactions, with the account's counters bumped.
 *
 * Deterministic, and plain on purpose: names are ASCII letters only, so a test can compute
 * the expected order in JavaScript and it agrees with both engines' collations. Giving
 * history is set on the rows (total and last gift) as if the contacts had given; tests of
 * the totals themselves post real donations.
 */
import type { Store } from '../../electron/db/store.ts';
import { bumpCounters } from '../../electron/domain/counters.ts';
import {
  insertContactRecords,
  prepareContact,
  type NewContactRecord,
} from '../../electron/domain/contacts/index.ts';
import { newId } from '#shared/ids.ts';

const FIRST = [
  'Ada',
  'Ben',
  'Cora',
  'Dev',
  'Eli',
  'Faye',
  'Gus',
  'Hana',
  'Ivan',
  'Jo',
  'Kai',
  'Lena',
  'Milo',
  'Nia',
  'Omar',
  'Pia',
  'Quinn',
  'Rosa',
  'Sam',
  'Tess',
  'Uma',
  'Vic',
  'Wren',
  'Xia',
  'Yara',
  'Zane',
  'Abel',
  'Bea',
  'Cyd',
  'Dora',
  'Emil',
  'Finn',
  'Gwen',
  'Hugo',
  'Iris',
  'Jude',
  'Kira',
  'Leo',
  'Mae',
  'Ned',
  'Opal',
  'Paz',
  'Rex',
  'Sage',
  'Theo',
  'Ula',
  'Vera',
  'Will',
  'Yves',
  'Zoe',
] as const;
const LAST = [
  'Abbott',
  'Barker',
  'Carver',
  'Dalton',
  'Easton',
  'Fowler',
  'Garner',
  'Hollis',
  'Ingram',
  'Jarvis',
  'Keller',
  'Lawson',
  'Mercer',
  'Norris',
  'Oakley',
  'Porter',
  'Ramsey',
  'Sawyer',
  'Tanner',
  'Upton',
  'Vance',
  'Walton',
  'Yates',
  'Ziegler',
  'Ashby',
  'Bishop',
  'Colby',
  'Draper',
  'Ellison',
  'Fletcher',
  'Goddard',
  'Hardy',
  'Irwin',
  'Judd',
  'Kimball',
  'Lowell',
  'Marsh',
  'Nash',
  'Osborne',
  'Pruitt',
  'Radley',
  'Shelby',
  'Thorne',
  'Underhill',
  'Voss',
  'Whitaker',
  'Yardley',
  'Zimmerman',
  'Ainsley',
  'Brock',
  'Crane',
  'Dunn',
  'Emery',
  'Frost',
  'Gale',
  'Hale',
  'Ives',
  'Joyce',
  'Kerr',
  'Lyle',
  'Moss',
  'Noble',
  'Orr',
  'Pike',
  'Reed',
  'Stone',
  'Tate',
  'Vail',
  'Wade',
  'York',
  'Ames',
  'Bell',
  'Cole',
  'Dean',
  'Eads',
  'Finch',
  'Gray',
  'Hunt',
  'Judge',
  'Knox',
  'Lane',
  'Mays',
  'Neal',
  'Olds',
  'Page',
  'Rowe',
  'Sims',
  'Todd',
  'Vick',
  'Ward',
  'Young',
  'Quenneville',
  'Winterbottom',
  'Fairweather',
  'Blackwood',
  'Greenhalgh',
  'Hargreaves',
] as const;
const ORGS = [
  'Acme Logistics',
  'Bluebird Software',
  'Harbor Legal',
  'Summit Engineering',
  'Greenleaf Bank',
  null,
  null,
] as const;
const CITIES = ['Springfield', 'Riverside', 'Franklin', 'Greenville', 'Madison', 'Salem'] as const;

/** What a seeded contact looks like, for computing expected orders and counts. */
export interface SeededContact {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  organization: string | null;
  city: string | null;
  totalCents: number;
  lastDonationDate: string | null;
  createdAt: string;
}

/** mulberry32: the same sequence everywhere for a seed. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Seeds `count` contacts into `accountId`: about a third never gave (total 0, no last gift),
 * a third have a city, most have an email. Created one minute apart, oldest first.
 */
export async function seedContacts(
  store: Store,
  accountId: string,
  count: number,
  opts: { seed?: number; chunk?: number } = {},
): Promise<SeededContact[]> {
  const rnd = generator(opts.seed ?? 424242);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const start = Date.parse('2024-01-01T00:00:00.000Z');
  const out: SeededContact[] = [];
  const chunk = opts.chunk ?? 5000;
  for (let from = 0; from < count; from += chunk) {
    const records: NewContactRecord[] = [];
    for (let i = from; i < Math.min(count, from + chunk); i++) {
      const firstName = pick(FIRST);
      const lastName = pick(LAST);
      const organization = pick(ORGS);
      const email =
        rnd() < 0.85 ? `${firstName.toLowerCase()}.${lastName.toLowerCase()}${i}@mail.example` : null;
      const city = i % 3 === 0 ? pick(CITIES) : null;
      const gave = rnd() < 0.66;
      const totalCents = gave ? 500 + Math.floor(rnd() * 500_000) : 0;
      const lastDonationDate = gave
        ? new Date(
            Date.parse('2024-06-01T00:00:00.000Z') + Math.floor(rnd() * 800) * 86_400_000,
          ).toISOString()
        : null;
      const createdAt = new Date(start + i * 60_000).toISOString();
      const id = newId('contact');
      const rec = prepareContact(
        {
          accountId,
          firstName,
          lastName,
          organization,
          primaryEmail: email,
          addresses: city
            ? [
                {
                  street1: `${1 + (i % 999)} Main St`,
                  city,
                  state: 'IL',
                  postalCode: '62701',
                  isPrimary: true,
                },
              ]
            : undefined,
        },
        [],
        id,
        createdAt,
      );
      rec.row.totalCents = totalCents;
      rec.row.lastDonationDate = lastDonationDate;
      records.push(rec);
      out.push({
        id,
        firstName,
        lastName,
        email,
        organization,
        city,
        totalCents,
        lastDonationDate,
        createdAt,
      });
    }
    await store.write(
      async (trx) => {
        await insertContactRecords(trx, records);
        await bumpCounters(trx, accountId, { contacts: records.length });
      },
      { bulk: true },
    );
  }
  return out;
}

type Dir = 'asc' | 'desc';
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order GET /contact-summaries promises, computed here: name = last then first name
 * (case-insensitive), a missing last gift first ascending and last descending, ties by id.
 */
export function expectedOrder(
  contacts: readonly SeededContact[],
  sortBy: 'name' | 'lastDonationDate' | 'totalDonations' | 'createdAt',
  dir: Dir,
): SeededContact[] {
  const sign = dir === 'asc' ? 1 : -1;
  const key = (c: SeededContact, d: SeededContact): number => {
    switch (sortBy) {
      case 'name':
        return (
          byText(c.lastName.toLowerCase(), d.lastName.toLowerCase()) ||
          byText(c.firstName.toLowerCase(), d.firstName.toLowerCase())
        );
      case 'lastDonationDate':
        return byText(c.lastDonationDate ?? '', d.lastDonationDate ?? '');
      case 'totalDonations':
        return c.totalCents - d.totalCents;
      case 'createdAt':
        return byText(c.createdAt, d.createdAt);
    }
  };
  return [...contacts].sort((c, d) => sign * (key(c, d) || byText(c.id, d.id)));
}

/** A contact as a test states it: creation time given, giving where given. */
export interface StatedContact {
  firstName: string;
  lastName: string;
  email: string;
  organization?: string | null;
  createdAt: string;
  lastDonationDate?: string | null;
  totalCents?: number;
}

/**
 * Writes `people` into `accountId` as stated, in order, in one transaction (for search tests that
 * shape the seqs themselves: contacts written late with old dates, and the like); their new ids,
 * in the same order.
 */
export async function storeContacts(
  store: Store,
  accountId: string,
  people: readonly StatedContact[],
): Promise<string[]> {
  const records = people.map((p) => {
    const rec = prepareContact(
      {
        accountId,
        firstName: p.firstName,
        lastName: p.lastName,
        organization: p.organization ?? null,
        primaryEmail: p.email,
      },
      [],
      newId('contact'),
      p.createdAt,
    );
    if (p.totalCents !== undefined) rec.row.totalCents = p.totalCents;
    if (p.lastDonationDate !== undefined) rec.row.lastDonationDate = p.lastDonationDate;
    return rec;
  });
  await store.write(async (trx) => {
    await insertContactRecords(trx, records);
    await bumpCounters(trx, accountId, { contacts: records.length });
  });
  return records.map((r) => r.row.id);
}
