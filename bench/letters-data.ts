/**
 * Part `letters`' data (bench/letters.ts): 1,000 donors with the names staff really meet and
 * their gifts of this autumn, imported into an account through the bulk import (every row
 * passes the API's rules), the way the demo seeds its organisation.
 *
 * The names: the demo's first and last names (Latin Extended, Vietnamese, apostrophes), the
 * issue's four ("Łukasz Żółć", "Nguyễn Thị Minh Khai", "Zoë Núñez", "Siobhán O'Brien"), a few
 * more Vietnamese full names, three Robert Browns (namesakes at different addresses) and twins
 * (same name, same address, each their own donor). Each donor gives one to four completed
 * gifts between 1 September and 30 October of the bench year, over two campaigns; one gift is
 * anonymous. Deterministic: one seeded generator draws everything.
 */
import { createCampaign } from '../electron/domain/reference/index.ts';
import { csvRecordsOf, importRecords } from '../electron/domain/import-export/index.ts';
import type { DomainContext } from '../electron/domain/index.ts';
import { CITIES, FIRST, LAST, STREETS, generator } from '../electron/cli/demo/demo-data.ts';

export const LETTER_DONORS = 1000;
/** The period the bench's thank-you run covers: every bench gift is in it. */
export const LETTER_PERIOD = { from: '2026-09-01', to: '2026-10-31' } as const;

const CONTACT_HEADER = [
  'externalId',
  'firstName',
  'lastName',
  'primaryEmail',
  'address.street1',
  'address.city',
  'address.state',
  'address.postalCode',
  'address.country',
];
const DONATION_HEADER = [
  'externalId',
  'contactExternalId',
  'donationAmount',
  'donationDate',
  'paymentMethod',
  'campaignId',
  'isAnonymous',
];

/** [first, last]: the names, more Vietnamese, the Robert Browns, and twins (twice each). */
const MESSY: Array<[string, string]> = [
  ['Łukasz', 'Żółć'],
  ['Nguyễn Thị', 'Minh Khai'],
  ['Zoë', 'Núñez'],
  ['Siobhán', "O'Brien"],
  ['Trần Văn', 'Đức'],
  ['Phạm Thị', 'Hương'],
  ['Lê Quang', 'Vũ'],
  ['Đặng Thị', 'Ngọc Ánh'],
  ['Bùi', 'Xuân Trường'],
  ['Hồ', 'Thị Kỷ'],
  ['Robert', 'Brown'],
  ['Robert', 'Brown'],
  ['Robert', 'Brown'],
  ['Ágnes', 'Szőke-Győri'],
  ['Dvořák', 'Šťastný'],
  ['Çağrı', 'Ağaoğlu'],
];
/** Twins: same name and same address; the second of each pair copies the first's address. */
const TWINS: Array<[string, string]> = [
  ['Ana', 'García'],
  ['Søren', 'Øvergaard'],
  ['Ngọc', 'Nguyễn'],
];

export interface LetterData {
  accountId: string;
  campaignIds: string[];
  donors: number;
  gifts: number;
  totalCents: number;
  /** A few of the names, as written (the notes quote them). */
  sample: string[];
}

/** How many donors, and the fewest and most gifts each gives (default: part `letters`' 1,000 donors, one to four). */
export interface LetterDataSize {
  donors: number;
  gifts: [number, number];
}

function rows(
  campaignIds: string[],
  size: LetterDataSize,
): { contacts: string[][]; donations: string[][]; cents: number } {
  const rnd = generator(20_261_127);
  const contacts: string[][] = [];
  const donations: string[][] = [];
  let cents = 0;
  const names: Array<[string, string]> = [...MESSY, ...TWINS.flatMap((t) => [t, t])];
  while (names.length < size.donors) names.push([rnd.pick(FIRST), rnd.pick(LAST)]);
  names.forEach(([first, last], i) => {
    const [city, state, zip] = rnd.pick(CITIES);
    const ref = `letters-c${String(i + 1).padStart(size.donors > 9999 ? 6 : 4, '0')}`;
    const address = [
      `${rnd.int(1, 9999)} ${rnd.pick(STREETS)}`,
      city,
      state,
      `${zip}${String(rnd.int(0, 99)).padStart(2, '0')}`,
      'US',
    ];
    const twinOf = i > MESSY.length && (i - MESSY.length) % 2 === 1 && i < MESSY.length + TWINS.length * 2;
    if (twinOf) address.splice(0, address.length, ...contacts[i - 1]!.slice(4));
    contacts.push([ref, first, last, `donor${i + 1}@letters.example`, ...address]);
    const gifts = rnd.int(size.gifts[0], size.gifts[1]);
    for (let g = 0; g < gifts; g++) {
      const c = rnd.pick([2500, 5000, 5000, 10000, 10000, 25000, 50000, 100000]) + rnd.int(0, 99);
      cents += c;
      const dayOfPeriod = rnd.int(0, 59);
      const date = new Date(Date.UTC(2026, 8, 1) + dayOfPeriod * 86_400_000).toISOString().slice(0, 10);
      donations.push([
        `letters-d${donations.length + 1}`,
        ref,
        (c / 100).toFixed(2),
        date,
        rnd.pick(['check', 'cash', 'credit_card']),
        // Every fifth donor gives to both campaigns.
        campaignIds[i % 5 === 0 ? g % 2 : i % 2]!,
        donations.length === 100 ? 'true' : 'false',
      ]);
    }
  });
  return { contacts, donations, cents };
}

async function importRows(
  ctx: DomainContext,
  accountId: string,
  kind: 'contacts' | 'donations',
  header: string[],
  data: string[][],
): Promise<void> {
  const r = await importRecords(
    ctx,
    { kind, accountId, push: false, chunkRows: 2000 },
    csvRecordsOf(header, data),
  );
  if (r.rejectedCount > 0)
    throw new Error(
      `bench letters data: ${kind} row ${r.rejected[0]?.row} refused: ${r.rejected[0]?.reason}`,
    );
}

/** The donors (1,000 unless `size` says) and their gifts, into `accountId` (an account of a real data folder). */
export async function seedLetterData(
  ctx: DomainContext,
  accountId: string,
  size: LetterDataSize = { donors: LETTER_DONORS, gifts: [1, 4] },
): Promise<LetterData> {
  const campaignIds: string[] = [];
  for (const name of ['Autumn Appeal', 'Library Roof Fund'])
    campaignIds.push((await createCampaign(ctx, { accountId, name })).id);
  const { contacts, donations, cents } = rows(campaignIds, size);
  await importRows(ctx, accountId, 'contacts', CONTACT_HEADER, contacts);
  await importRows(ctx, accountId, 'donations', DONATION_HEADER, donations);
  return {
    accountId,
    campaignIds,
    donors: contacts.length,
    gifts: donations.length,
    totalCents: cents,
    sample: contacts.slice(0, 4).map((c) => `${c[1]} ${c[2]}`),
  };
}
