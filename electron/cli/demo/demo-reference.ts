/**
 * The demo organisation's reference records, seeded before any donor (demo.ts): donation
 * accounts with contribution limits, the fundraising campaigns and a committee, the election
 * calendar around the last two years, and custom fields of every type. None of it draws from
 * the seeded generator, so the donors and gifts after it are the same whatever it holds.
 */
import type { DomainContext } from '../../domain/index.ts';
import { createCustomField } from '../../domain/contacts/index.ts';
import { createElection, federalGeneralElectionDay } from '../../domain/limits/index.ts';
import { createCampaign, createCommittee, createDonationAccount } from '../../domain/reference/index.ts';
import { LEVELS } from './demo-data.ts';

export interface DemoElection {
  type: 'primary' | 'general';
  year: number;
  date: string;
}

/** The ids the gifts are credited to, and the election each gift's date counts toward. */
export interface DemoReference {
  /** Federal: $3,300 per election. PAC: $5,000 per year. Community: no limit. */
  accounts: { federal: string; pac: string; community: string };
  campaigns: { annual: string; gala: string; givingTuesday: string; doors: string; tonight: string };
  committeeId: string;
  /** The first election on or after a day (each gift counts toward the election after it). */
  electionOf: (date: string) => DemoElection;
}

/** The donation accounts, campaigns, committee and election calendar. */
export async function seedReference(
  ctx: DomainContext,
  accountId: string,
  today: string,
): Promise<DemoReference> {
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
  const elections = await seedElections(ctx, accountId, today);
  return {
    accounts: { federal: federal.id, pac: pac.id, community: community.id },
    campaigns: {
      annual: campaigns.annual.id,
      gala: campaigns.gala.id,
      givingTuesday: campaigns.givingTuesday.id,
      doors: campaigns.doors.id,
      tonight: campaigns.tonight.id,
    },
    committeeId: committee.id,
    electionOf: (date: string) => elections.find((e) => e.date >= date)!,
  };
}

/** The calendar around the last two years: primaries in June, generals in November. */
async function seedElections(ctx: DomainContext, accountId: string, today: string): Promise<DemoElection[]> {
  const thisYear = Number(today.slice(0, 4));
  const lastEven = thisYear % 2 === 0 ? thisYear : thisYear - 1;
  const elections: DemoElection[] = [];
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
  return elections;
}

/** Custom fields of every type; demo.ts retires an option and archives a field after the import. */
export async function seedCustomFields(ctx: DomainContext, accountId: string): Promise<void> {
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
}
