/**
 * Part `hub-join`'s hub (bench/hub-join.ts): an event's data folder holding 100,000 donors and
 * 300,000 gifts, made through the bulk import the way the demo and the letters bench seed theirs
 * (every row passes the API's rules, the change log has a line per record for the feed), and
 * kept between runs: building it takes minutes, joining it is what is timed.
 *
 * The donors are the demo's names (accents, Vietnamese full names, apostrophes) with an
 * address each, most with a phone and an email, some with tags and custom values; over them
 * the mess of a real event: three Robert Browns (one without an email), "Łukasz Żółć", twins
 * (same name, same address, each their own donor). The gifts go to the event's campaign and
 * donation account over three years; every 50th pair is two identical $19.99 cash gifts from
 * one donor on one day. Deterministic: one seeded generator draws everything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openStore } from '../electron/db/open.ts';
import { createAccount, createApiKey } from '../electron/domain/accounts/index.ts';
import { createCustomField } from '../electron/domain/contacts/index.ts';
import { createContext } from '../electron/domain/context.ts';
import { csvRecordsOf, importRecords } from '../electron/domain/import-export/index.ts';
import type { DomainContext } from '../electron/domain/index.ts';
import { createCampaign, createDonationAccount } from '../electron/domain/reference/index.ts';
import { CITIES, DOMAINS, FIRST, LAST, STREETS, ascii, generator } from '../electron/cli/demo/demo-data.ts';
import { CAMPAIGN, DONATION_ACCOUNT, LIMIT_PER_YEAR } from '../test/hub/event-rig.ts';
import type { Log } from './sync-common.ts';

export interface JoinHub {
  /** The cached data folder (copied before each run: a hub writes into its folder). */
  dir: string;
  accountId: string;
  donors: number;
  gifts: number;
  /** Seconds the import took when the folder was built. */
  builtSeconds: number;
}

const CONTACT_HEADER = [
  'externalId',
  'firstName',
  'lastName',
  'primaryEmail',
  'primaryPhone',
  'address.street1',
  'address.city',
  'address.state',
  'address.postalCode',
  'address.country',
  'tags',
  'customFields.Table',
  'customFields.Wealth Score',
];
const DONATION_HEADER = [
  'externalId',
  'contactExternalId',
  'donationAmount',
  'donationDate',
  'paymentMethod',
  'campaignId',
  'donationAccountId',
];

/** [first, last], written over generated donors spread through the directory. */
const MESSY: Array<[string, string]> = [
  ['Robert', 'Brown'],
  ['Robert', 'Brown'],
  ['Robert', 'Brown'],
  ['Łukasz', 'Żółć'],
  ['Nguyễn Thị', 'Minh Khai'],
  ['Zoë', 'Núñez'],
  ['Siobhán', "O'Brien"],
  ['José', 'Núñez'],
  ['José', 'Nunes'],
];
const TWINS: Array<[string, string]> = [
  ['Ana', 'García'],
  ['Søren', 'Øvergaard'],
  ['Ngọc', 'Nguyễn'],
];

const donorRef = (i: number) => `join-c${i}`;

function donorRows(count: number): string[][] {
  const rnd = generator(20_261_201);
  const rows: string[][] = [];
  for (let i = 0; i < count; i++) {
    const first = rnd.pick(FIRST);
    const last = rnd.pick(LAST);
    const [city, state, zip] = rnd.pick(CITIES);
    rows.push([
      donorRef(i),
      first,
      last,
      rnd.chance(0.9) ? `${ascii(first)}.${ascii(last)}${i}@${rnd.pick(DOMAINS)}` : '',
      rnd.chance(0.7) ? `(555) ${rnd.int(200, 999)}-${String(rnd.int(0, 9999)).padStart(4, '0')}` : '',
      `${rnd.int(1, 9999)} ${rnd.pick(STREETS)}`,
      city,
      state,
      `${zip}${String(rnd.int(0, 99)).padStart(2, '0')}`,
      'US',
      [rnd.chance(0.2) ? 'volunteer' : '', rnd.chance(0.05) ? 'major donor' : ''].filter(Boolean).join(';'),
      rnd.chance(0.3) ? `Table ${rnd.int(1, 60)}` : '',
      rnd.chance(0.4) ? String(rnd.int(1, 100)) : '',
    ]);
  }
  // The namesakes, spread through the directory (early, middle, late pages of the feed).
  const spot = (k: number, of: number) => Math.min(count - 1, Math.floor(((k + 0.5) * count) / of));
  MESSY.forEach(([first, last], k) => {
    const row = rows[spot(k, MESSY.length)]!;
    row[1] = first;
    row[2] = last;
    if (k === 2) row[3] = ''; // the third Robert Brown has no email
  });
  TWINS.forEach(([first, last], k) => {
    const at = spot(k, TWINS.length) + 1;
    const a = rows[at]!;
    const b = rows[at + 1]!;
    for (const r of [a, b]) {
      r[1] = first;
      r[2] = last;
    }
    for (let c = 5; c <= 9; c++) b[c] = a[c]!; // the same address
  });
  return rows;
}

function* donationRows(
  count: number,
  donors: number,
  campaignId: string,
  accountId: string,
): Generator<string[]> {
  const rnd = generator(20_261_202);
  const methods = ['cash', 'check', 'credit_card', 'cash'];
  const start = Date.UTC(2024, 0, 1);
  const span = Date.UTC(2026, 10, 30) - start;
  let previous: string[] | null = null;
  for (let i = 0; i < count; i++) {
    let row = [
      `join-d${i}`,
      donorRef(rnd.int(0, donors - 1)),
      (rnd.int(500, 50_000) / 100).toFixed(2),
      new Date(start + rnd.int(0, span)).toISOString().slice(0, 10),
      methods[i % methods.length]!,
      campaignId,
      accountId,
    ];
    // Twin gifts: every 50th pair is the same donor's two $19.99 cash gifts on the same day.
    if (i % 50 === 48) row = [...row.slice(0, 2), '19.99', row[3]!, 'cash', campaignId, accountId];
    if (i % 50 === 49 && previous) row = [`join-d${i}`, ...previous.slice(1)];
    previous = row;
    yield row;
  }
}

async function importRows(
  ctx: DomainContext,
  accountId: string,
  kind: 'contacts' | 'donations',
  header: string[],
  data: Iterable<string[]>,
): Promise<void> {
  const r = await importRecords(
    ctx,
    { kind, accountId, push: false, chunkRows: 2000 },
    csvRecordsOf(header, data, 2000),
  );
  if (r.rejectedCount > 0)
    throw new Error(
      `bench hub-join data: ${kind} row ${r.rejected[0]?.row} refused: ${r.rejected[0]?.reason}`,
    );
}

/**
 * The hub's folder for `donors` and `gifts`, from `cacheDir` when an earlier run built it
 * (its join-hub.json says so), else built there now.
 */
export async function joinHubFolder(
  cacheDir: string,
  donors: number,
  gifts: number,
  log: Log,
): Promise<JoinHub> {
  const saved = path.join(cacheDir, 'join-hub.json');
  if (fs.existsSync(saved)) {
    const hub = JSON.parse(fs.readFileSync(saved, 'utf8')) as JoinHub;
    if (hub.donors === donors && hub.gifts === gifts) {
      log(`hub-join: reusing the hub folder in ${cacheDir}`);
      return { ...hub, dir: cacheDir };
    }
  }
  fs.rmSync(cacheDir, { recursive: true, force: true });
  fs.mkdirSync(cacheDir, { recursive: true });
  log(`hub-join: building a hub of ${donors} donors and ${gifts} gifts in ${cacheDir} (kept for later runs)`);
  const t0 = performance.now();
  const store = await openStore({ dataDir: cacheDir });
  let accountId: string;
  try {
    const ctx = createContext(store);
    accountId = (await createAccount(ctx, 'Riverside Food Bank — Spring Gala')).id;
    await createApiKey(ctx, accountId, 'event coordinator');
    const da = await createDonationAccount(ctx, {
      accountId,
      name: DONATION_ACCOUNT,
      perYear: LIMIT_PER_YEAR,
    });
    const campaign = await createCampaign(ctx, { accountId, name: CAMPAIGN, donationAccountIds: [da.id] });
    await createCustomField(ctx, { accountId, name: 'Table', type: 'text' });
    await createCustomField(ctx, { accountId, name: 'Wealth Score', type: 'number' });
    await importRows(ctx, accountId, 'contacts', CONTACT_HEADER, donorRows(donors));
    log(`hub-join: ${donors} donors in (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    await importRows(
      ctx,
      accountId,
      'donations',
      DONATION_HEADER,
      donationRows(gifts, donors, campaign.id, da.id),
    );
  } finally {
    await store.close();
  }
  const hub: JoinHub = {
    dir: cacheDir,
    accountId,
    donors,
    gifts,
    builtSeconds: (performance.now() - t0) / 1000,
  };
  fs.writeFileSync(saved, JSON.stringify(hub));
  log(`hub-join: the hub folder is built (${hub.builtSeconds.toFixed(1)} s)`);
  return hub;
}
