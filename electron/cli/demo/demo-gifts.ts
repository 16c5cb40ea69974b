/**
 * The demo's gifts as import rows (demo.ts imports them): two years of history across the
 * campaigns, tonight's event, and a few donors over the federal per-election limit for the
 * review queue. Every other gift stays within its account's limit (the ledger below credits
 * the campaign only when it would not). Drawn from the seeded generator after the donors: the
 * order of the draws here is what makes the demo the same every time.
 */
import type { DemoRandom } from './demo-data.ts';
import { donorRef } from './demo-donors.ts';
import type { DemoElection, DemoReference } from './demo-reference.ts';

export const DONATION_HEADER = [
  'externalId',
  'contactExternalId',
  'donationAmount',
  'donationDate',
  'paymentMethod',
  'campaignId',
  'committeeId',
  'donationAccountId',
  'electionType',
  'electionYear',
  'notes',
  'isAnonymous',
  'isRecurring',
  'thankYouSent',
];

interface Gift {
  /** The donor, by number (from 0). */
  contact: number;
  cents: number;
  at: number;
  campaign: string;
  dac: string | null;
  /** Credit the account even over its limit (the review queue's gifts). */
  forceOver?: boolean;
}

type AddGift = (g: Gift) => void;

const DAY_MS = 86_400_000;

/** `counts.donations` gifts' rows, in DONATION_HEADER's columns, oldest first. */
export function giftRows(
  rnd: DemoRandom,
  now: number,
  today: string,
  ref: DemoReference,
  counts: { contacts: number; donations: number },
): string[][] {
  const { add, rows } = giftLedger(rnd, ref);
  const eventDay = Math.floor(counts.donations * 0.02);
  const overLimit = 6;
  historyGifts(rnd, now, ref, add, counts.donations - eventDay - overLimit * 2, counts.contacts);
  eventGifts(rnd, now, today, ref, add, eventDay, counts.contacts);
  overLimitGifts(rnd, now, ref, add, overLimit, counts.contacts);
  rows.sort((a, b) => (a[3]! < b[3]! ? -1 : a[3]! > b[3]! ? 1 : 0));
  return rows;
}

/** A gift's amount in cents, weighted toward the small ones. */
const amount = (rnd: DemoRandom) =>
  rnd.weighted([
    [2500, 20],
    [5000, 25],
    [10000, 22],
    [25000, 15],
    [50000, 9],
    [100000, 6],
    [250000, 3],
  ] as const);

/** Two years of gifts across the four standing campaigns; low-numbered donors give more often. */
function historyGifts(
  rnd: DemoRandom,
  now: number,
  ref: DemoReference,
  add: AddGift,
  count: number,
  contacts: number,
): void {
  const twoYears = 730 * DAY_MS;
  for (let n = 0; n < count; n++) {
    const at = now - Math.floor(rnd.next() * twoYears);
    const which = rnd.weighted([
      ['annual', 40],
      ['gala', 20],
      ['givingTuesday', 15],
      ['doors', 25],
    ] as const);
    const campaign = ref.campaigns[which];
    const dac =
      which === 'givingTuesday'
        ? ref.accounts.community
        : which === 'gala' && rnd.chance(0.3)
          ? ref.accounts.pac
          : rnd.chance(0.8)
            ? ref.accounts.federal
            : null;
    add({
      contact: Math.floor(rnd.next() ** 1.6 * contacts),
      cents: amount(rnd),
      at,
      campaign,
      dac,
    });
  }
}

/** Tonight's event: gifts entered during the last few hours. */
function eventGifts(
  rnd: DemoRandom,
  now: number,
  today: string,
  ref: DemoReference,
  add: AddGift,
  count: number,
  contacts: number,
): void {
  const midnight = Date.parse(`${today}T00:00:00.000Z`);
  for (let n = 0; n < count; n++) {
    const at = Math.min(now, midnight + Math.floor(rnd.next() * Math.max(1, now - midnight)));
    add({
      contact: rnd.int(0, contacts - 1),
      cents: amount(rnd),
      at,
      campaign: ref.campaigns.tonight,
      dac: ref.accounts.federal,
    });
  }
}

/** A few donors over the federal per-election limit ($3,300): the treasurer's review queue. */
function overLimitGifts(
  rnd: DemoRandom,
  now: number,
  ref: DemoReference,
  add: AddGift,
  donors: number,
  contacts: number,
): void {
  const federal = ref.accounts.federal;
  for (let n = 0; n < donors; n++) {
    const contact = contacts - 1 - n;
    const at = now - rnd.int(5, 60) * DAY_MS;
    add({ contact, cents: 200_000, at, campaign: ref.campaigns.annual, dac: federal, forceOver: true });
    add({
      contact,
      cents: 250_000,
      at: at + 3_600_000,
      campaign: ref.campaigns.gala,
      dac: federal,
      forceOver: true,
    });
  }
}

/**
 * The gifts written so far, and what each donor has given to the limited accounts: a gift that
 * would take a donor over the federal per-election or the PAC's per-year limit is credited to
 * its campaign only, unless it is meant to be over.
 */
function giftLedger(rnd: DemoRandom, ref: DemoReference): { add: AddGift; rows: string[][] } {
  const rows: string[][] = [];
  const perElection = new Map<string, number>(); // federal: donor + election → cents
  const perYear = new Map<string, number>(); // PAC: donor + year → cents
  const add = (g: Gift) => {
    const date = new Date(g.at).toISOString();
    const e = ref.electionOf(date.slice(0, 10));
    let dac = g.dac;
    if (dac === ref.accounts.federal) {
      const k = `${g.contact}|${e.type}${e.year}`;
      const total = (perElection.get(k) ?? 0) + g.cents;
      if (total > 330_000 && !g.forceOver)
        dac = null; // stays within the limit: credited to the campaign only
      else perElection.set(k, total);
    } else if (dac === ref.accounts.pac) {
      const k = `${g.contact}|${date.slice(0, 4)}`;
      const total = (perYear.get(k) ?? 0) + g.cents;
      if (total > 500_000 && !g.forceOver) dac = null;
      else perYear.set(k, total);
    }
    rows.push(giftRow(rnd, ref.committeeId, { ...g, n: rows.length + 1, date, election: e, dac }));
  };
  return { add, rows };
}

/** The n-th gift's row, as credited: its method, committee, note and flags drawn here. */
function giftRow(
  rnd: DemoRandom,
  committeeId: string,
  g: Gift & { n: number; date: string; election: DemoElection },
): string[] {
  const { n, date, dac, election: e } = g;
  const method = rnd.weighted([
    ['credit_card', 45],
    ['check', 25],
    ['cash', 8],
    ['ach', 8],
    ['paypal', 6],
    ['venmo', 4],
    ['zelle', 2],
    ['wire', 1],
    ['in_kind', 1],
  ] as const);
  return [
    `demo-d${String(n).padStart(5, '0')}`,
    donorRef(g.contact),
    `${Math.floor(g.cents / 100)}.${String(g.cents % 100).padStart(2, '0')}`,
    date,
    method,
    g.campaign,
    rnd.chance(0.05) ? committeeId : '',
    dac ?? '',
    e.type, // each gift counts toward the election after it (the account's default is for new gifts)
    String(e.year),
    rnd.chance(0.08)
      ? rnd.pick([
          'In honor of her mother',
          'Matching gift pending',
          'Pledge payment',
          'Met at the town hall',
          'Check #' + rnd.int(1000, 9999),
        ])
      : '',
    rnd.chance(0.03) ? 'true' : 'false',
    rnd.chance(0.1) ? 'true' : 'false',
    rnd.chance(0.7) ? 'true' : 'false',
  ];
}
