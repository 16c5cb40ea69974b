/**
 * A demo organisation to explore GiftDesk with: a congressional campaign with several
 * fundraising campaigns, a committee, donation accounts with contribution limits, an
 * election calendar, custom fields of every type (one pick-list option retired, one field
 * archived), ~3,000 donors and ~6,000 gifts over the last two years — today's event
 * included — a few of them over a limit, so the review queue has work in it. Each gift counts
 * as entered when it was given (the dashboard's "entered today" is today's event).
 *
 * Deterministic: one seeded generator draws every name, amount and date (dates count back
 * from now). It goes in through the bulk import, so every row passes the API's rules, and
 * it is local data: nothing of it is queued for HQ. The generator and the names it draws
 * from are in demo-data.ts.
 */
import { createAccount, createApiKey } from '../../domain/accounts/index.ts';
import {
  archiveCustomField,
  createCustomField,
  retireCustomFieldOption,
} from '../../domain/contacts/index.ts';
import type { CsvRecord } from '../../domain/import-export/index.ts';
import { importRecords } from '../../domain/import-export/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { DomainError } from '../../domain/index.ts';
import { createElection, federalGeneralElectionDay } from '../../domain/limits/index.ts';
import { createCampaign, createCommittee, createDonationAccount } from '../../domain/reference/index.ts';
import {
  ascii,
  CITIES,
  DOMAINS,
  EMPLOYERS,
  FIRST,
  generator,
  INTERESTS,
  LAST,
  LEVELS,
  OCCUPATIONS,
  STREETS,
} from './demo-data.ts';

export interface DemoCredentials {
  accountId: string;
  keyId: string;
  secret: string;
}

export const DEMO_CONTACTS = 3000;
export const DEMO_DONATIONS = 6000;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Seeds a new demo organisation and returns its API key (the secret, shown this once). */
export async function seedDemo(ctx: DomainContext): Promise<DemoCredentials> {
  const rnd = generator(20_261_122);
  const now = Date.parse(ctx.now());
  const today = day(now);
  const { id: accountId } = await createAccount(ctx, 'Maria Okafor for Congress');
  const key = await createApiKey(ctx, accountId, 'demo');

  /* reference data */
  const federal = await createDonationAccount(ctx, {
    accountId,
    name: 'Federal campaign account',
    perElection: 3300,
  });
  const pac = await createDonationAccount(ctx, {
    accountId,
    name: 'Riverbend Leadership PAC',
    perYear: 5000,
  });
  const community = await createDonationAccount(ctx, { accountId, name: 'Community organizing fund' });
  const campaigns = {
    annual: await createCampaign(ctx, { accountId, name: 'Annual Fund', donationAccountIds: [federal.id] }),
    gala: await createCampaign(ctx, {
      accountId,
      name: 'Spring Gala',
      donationAccountIds: [federal.id, pac.id],
    }),
    givingTuesday: await createCampaign(ctx, {
      accountId,
      name: 'Giving Tuesday',
      donationAccountIds: [community.id],
    }),
    doors: await createCampaign(ctx, {
      accountId,
      name: 'Door-to-Door Drive',
      donationAccountIds: [federal.id],
    }),
    tonight: await createCampaign(ctx, {
      accountId,
      name: 'Harvest Dinner (event day)',
      donationAccountIds: [federal.id],
    }),
  };
  const committee = await createCommittee(ctx, { accountId, name: 'Okafor Victory Committee' });

  // The calendar around the last two years: primaries in June, generals in November.
  const thisYear = Number(today.slice(0, 4));
  const lastEven = thisYear % 2 === 0 ? thisYear : thisYear - 1;
  const elections: Array<{ type: 'primary' | 'general'; year: number; date: string }> = [];
  for (const year of [lastEven - 2, lastEven, lastEven + 2]) {
    elections.push(
      { type: 'primary', year, date: `${year}-06-02` },
      { type: 'general', year, date: federalGeneralElectionDay(year) },
    );
  }
  const upcoming = elections.find((e) => e.date >= today)!;
  for (const e of elections) {
    await createElection(ctx, {
      accountId,
      electionType: e.type,
      electionYear: e.year,
      electionDate: e.date,
      isDefault: e === upcoming,
    });
  }
  const electionOf = (date: string) => elections.find((e) => e.date >= date)!;

  /* custom fields of every type */
  await createCustomField(ctx, { accountId, name: 'Volunteer Interests', type: 'text' });
  await createCustomField(ctx, { accountId, name: 'Wealth Score', type: 'number' });
  await createCustomField(ctx, { accountId, name: 'Last Contacted', type: 'date' });
  await createCustomField(ctx, {
    accountId,
    name: 'Membership Level',
    type: 'picklist',
    options: [...LEVELS],
  });
  await createCustomField(ctx, { accountId, name: 'Legacy Donor ID', type: 'text' });

  /* donors */
  const contactHeader = [
    'externalId',
    'firstName',
    'lastName',
    'contactType',
    'organization',
    'primaryEmail',
    'primaryPhone',
    'employer',
    'occupation',
    'address.street1',
    'address.city',
    'address.state',
    'address.postalCode',
    'address.country',
    'tags',
    'source',
    'customFields.Volunteer Interests',
    'customFields.Wealth Score',
    'customFields.Last Contacted',
    'customFields.Membership Level',
    'customFields.Legacy Donor ID',
  ];
  const contacts: string[][] = [];
  for (let i = 0; i < DEMO_CONTACTS; i++) {
    const first = rnd.pick(FIRST);
    const last = rnd.pick(LAST);
    const isOrg = rnd.chance(0.04);
    const [city, state, zip] = rnd.pick(CITIES);
    const tags = [
      rnd.chance(0.3) ? 'volunteer' : '',
      rnd.chance(0.15) ? 'major donor' : '',
      rnd.chance(0.2) ? 'monthly' : '',
      rnd.chance(0.1) ? 'event host' : '',
    ].filter(Boolean);
    contacts.push([
      `demo-c${String(i + 1).padStart(4, '0')}`,
      first,
      last,
      isOrg ? 'ORGANIZATION' : 'INDIVIDUAL',
      isOrg ? `${last} ${rnd.pick(['Family Foundation', 'Hardware', '& Sons', 'Dental Group'])}` : '',
      rnd.chance(0.9) ? `${ascii(first)}.${ascii(last)}${i + 1}@${rnd.pick(DOMAINS)}` : '',
      rnd.chance(0.7)
        ? `(555) ${String(rnd.int(200, 999))}-${String(rnd.int(0, 9999)).padStart(4, '0')}`
        : '',
      rnd.pick(EMPLOYERS),
      rnd.pick(OCCUPATIONS),
      `${rnd.int(1, 9999)} ${rnd.pick(STREETS)}`,
      city,
      state,
      `${zip}${String(rnd.int(0, 99)).padStart(2, '0')}`,
      'US',
      tags.join(';'),
      rnd.pick(['Website', 'Event', 'Referral', 'Mailing list', 'Canvass']),
      rnd.chance(0.2) ? rnd.pick(INTERESTS) : '',
      rnd.chance(0.5) ? String(rnd.int(1, 100)) : '',
      rnd.chance(0.4) ? day(now - rnd.int(0, 400) * 86_400_000) : '',
      rnd.chance(0.35) ? rnd.pick(LEVELS) : '',
      rnd.chance(0.25) ? `L-${rnd.int(10000, 99999)}` : '',
    ]);
  }

  // The namesake mess of a real event, over generated donors (so the totals stay the same):
  // a William Williams among Williamsons who give more often (low numbers get more gifts),
  // three Robert Browns (one without an email), a José Núñez beside a Josefina
  // Núñez-Ortiz and a José Nunes (volunteers type "jose nunez"), a couple sharing an email.
  const mess: Array<[number, string, string, string]> = [
    [0, 'William', 'Williamson', 'bill.williamson@example.org'],
    [1, 'Williams', 'Williamson', 'w.williamson@example.net'],
    [2, 'William', 'Williamsen', 'will.williamsen@example.com'],
    [3, 'Willa', 'Williamson', 'willa.w@example.org'],
    [4, 'William', 'Williamson', 'william.williamson2@example.com'],
    [2_950, 'William', 'Williams', 'bill.williams@example.org'],
    [5, 'Robert', 'Brown', 'robert.brown@example.org'],
    [1_500, 'Robert', 'Brown', 'rbrown@example.net'],
    [2_900, 'Robert', 'Brown', ''],
    [6, 'Roberta', 'Browning', 'roberta.browning@example.com'],
    [2_850, 'José', 'Núñez', 'jose.nunez@example.org'],
    [7, 'Josefina', 'Núñez-Ortiz', 'josefina.nunez@example.net'],
    [8, 'José', 'Nunes', 'jnunes@example.com'],
    [9, 'Pat', 'Kim', 'kim.family@example.org'],
    [10, 'Patricia', 'Kim', 'kim.family@example.org'],
  ];
  for (const [i, first, last, email] of mess)
    Object.assign(contacts[i]!, { 1: first, 2: last, 3: 'INDIVIDUAL', 4: '', 5: email });

  /* gifts */
  const donationHeader = [
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
  const donations: string[][] = [];
  const perElection = new Map<string, number>(); // federal: donor + election → cents
  const perYear = new Map<string, number>(); // PAC: donor + year → cents
  const donorRef = (i: number) => `demo-c${String(i + 1).padStart(4, '0')}`;
  const addGift = (g: {
    contact: number;
    cents: number;
    at: number;
    campaign: string;
    dac: string | null;
    forceOver?: boolean;
  }) => {
    const date = new Date(g.at).toISOString();
    const e = electionOf(date.slice(0, 10));
    let dac = g.dac;
    if (dac === federal.id) {
      const k = `${g.contact}|${e.type}${e.year}`;
      const total = (perElection.get(k) ?? 0) + g.cents;
      if (total > 330_000 && !g.forceOver)
        dac = null; // stays within the limit: credited to the campaign only
      else perElection.set(k, total);
    } else if (dac === pac.id) {
      const k = `${g.contact}|${date.slice(0, 4)}`;
      const total = (perYear.get(k) ?? 0) + g.cents;
      if (total > 500_000 && !g.forceOver) dac = null;
      else perYear.set(k, total);
    }
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
    donations.push([
      `demo-d${String(donations.length + 1).padStart(5, '0')}`,
      donorRef(g.contact),
      `${Math.floor(g.cents / 100)}.${String(g.cents % 100).padStart(2, '0')}`,
      date,
      method,
      g.campaign,
      rnd.chance(0.05) ? committee.id : '',
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
    ]);
  };
  const amount = () =>
    rnd.weighted([
      [2500, 20],
      [5000, 25],
      [10000, 22],
      [25000, 15],
      [50000, 9],
      [100000, 6],
      [250000, 3],
    ] as const);
  const twoYears = 730 * 86_400_000;
  const eventDay = Math.floor(DEMO_DONATIONS * 0.02);
  const overLimit = 6;
  for (let n = 0; n < DEMO_DONATIONS - eventDay - overLimit * 2; n++) {
    const at = now - Math.floor(rnd.next() * twoYears);
    const which = rnd.weighted([
      ['annual', 40],
      ['gala', 20],
      ['givingTuesday', 15],
      ['doors', 25],
    ] as const);
    const campaign = campaigns[which];
    const dac =
      which === 'givingTuesday'
        ? community.id
        : which === 'gala' && rnd.chance(0.3)
          ? pac.id
          : rnd.chance(0.8)
            ? federal.id
            : null;
    addGift({
      contact: Math.floor(rnd.next() ** 1.6 * DEMO_CONTACTS),
      cents: amount(),
      at,
      campaign: campaign.id,
      dac,
    });
  }
  // Tonight's event: gifts entered during the last few hours.
  const midnight = Date.parse(`${today}T00:00:00.000Z`);
  for (let n = 0; n < eventDay; n++) {
    const at = Math.min(now, midnight + Math.floor(rnd.next() * Math.max(1, now - midnight)));
    addGift({
      contact: rnd.int(0, DEMO_CONTACTS - 1),
      cents: amount(),
      at,
      campaign: campaigns.tonight.id,
      dac: federal.id,
    });
  }
  // A few donors over the federal per-election limit ($3,300): the treasurer's review queue.
  for (let n = 0; n < overLimit; n++) {
    const contact = DEMO_CONTACTS - 1 - n;
    const at = now - rnd.int(5, 60) * 86_400_000;
    addGift({ contact, cents: 200_000, at, campaign: campaigns.annual.id, dac: federal.id, forceOver: true });
    addGift({
      contact,
      cents: 250_000,
      at: at + 3_600_000,
      campaign: campaigns.gala.id,
      dac: federal.id,
      forceOver: true,
    });
  }
  donations.sort((a, b) => (a[3]! < b[3]! ? -1 : a[3]! > b[3]! ? 1 : 0));

  const asRecords = (header: string[], rows: string[][]): AsyncIterable<CsvRecord[]> => ({
    async *[Symbol.asyncIterator]() {
      yield [{ cells: header, line: 1 }];
      for (let i = 0; i < rows.length; i += 1000)
        yield rows.slice(i, i + 1000).map((cells, k) => ({ cells, line: i + k + 2 }));
    },
  });
  for (const [kind, header, rows] of [
    ['contacts', contactHeader, contacts],
    ['donations', donationHeader, donations],
  ] as const) {
    const r = await importRecords(
      ctx,
      { kind, accountId, push: false, chunkRows: 2000 },
      asRecords(header, rows),
    );
    if (r.rejectedCount > 0)
      throw new DomainError(
        'conflict',
        'demo_failed',
        `The demo data has ${r.rejectedCount} rows GiftDesk refuses: row ${r.rejected[0]?.row}: ${r.rejected[0]?.reason}`,
      );
  }

  // Definitions change over time: an option retired, a field archived (their values stay).
  await retireCustomFieldOption(ctx, accountId, 'Membership Level', 'Founding Member');
  await archiveCustomField(ctx, accountId, 'Legacy Donor ID');
  await ctx.store.write(async (trx) => {
    // History is entered when it happened: the dashboard's "entered today" is tonight's event,
    // not the whole two years imported a moment ago.
    await trx
      .updateTable('donations')
      .set((eb) => ({ createdAt: eb.ref('donationDate'), updatedAt: eb.ref('donationDate') }))
      .where('accountId', '=', accountId)
      .execute();
    // Demo data is local: nothing of it (reference data included) is queued for HQ.
    await trx.updateTable('changeLog').set({ push: 0 }).where('accountId', '=', accountId).execute();
  });
  return { accountId, keyId: key.keyId, secret: key.secret };
}

/** Seeds the demo organisation only into a database without accounts; null otherwise. */
export async function seedDemoIfEmpty(ctx: DomainContext): Promise<DemoCredentials | null> {
  const any = await ctx.store.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  return seedDemo(ctx);
}
