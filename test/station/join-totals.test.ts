/**
 * A join's catch-up leaves the new gifts' donor totals for its end (feed.ts catchUp, deferTotals)
 * and moves them once: over real HTTP on 127.0.0.1 from a hub answering a few changes a page,
 * every donor's lifetime total and last gift date at the station are the hub's once the join
 * returns. A join stopped half-way (its store closed with totals still pending, as a kill leaves
 * it) moves them when the folder is next opened, and reading on from its cursor brings the rest:
 * every gift once, every total the hub's. Messy data: three Robert Browns, "Łukasz Żółć", two
 * identical $19.99 cash gifts of one donor on one day.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/index.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { createCampaign, createDonationAccount } from '../../electron/domain/reference/index.ts';
import { readChanges } from '../../electron/hub/index.ts';
import { createRemoteClient } from '../../electron/sync/net/http-client.ts';
import { createPacer } from '../../electron/sync/net/pacer.ts';
import { applyFeedPage } from '../../electron/sync/station/apply-feed.ts';
import { catchUp } from '../../electron/sync/station/feed.ts';
import { tempDir } from '../helpers/server.ts';
import { insertStationAccount } from '../helpers/station-account.ts';

/** Changes the hub answers a page: a small event makes many pages, several gifts in each. */
const PAGE = 4;

let hub: Store;
let hubCtx: DomainContext;
let server: http.Server;
let accountId: string;
const opened: Store[] = [];

async function stationStore(dir: string): Promise<Store> {
  const s = await openStore({ dataDir: dir });
  opened.push(s);
  return s;
}

async function newStation(): Promise<{ dir: string; store: Store }> {
  const dir = tempDir('giftdesk-station-');
  const store = await stationStore(dir);
  await store.write(async (trx) => insertStationAccount(trx, accountId, new Date().toISOString()));
  return { dir, store };
}

function client() {
  return createRemoteClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keyId: 'gdk_STATION',
    secret: 'not checked here',
    pacer: createPacer({ ratePerSecond: 1000, burst: 100 }),
  });
}

/** Every donor's name, lifetime total and last gift date, by id. */
async function totals(store: Store): Promise<Record<string, string>> {
  const rows = await store.db
    .selectFrom('contacts')
    .select(['id', 'firstName', 'lastName', 'totalCents', 'lastDonationDate'])
    .where('accountId', '=', accountId)
    .execute();
  return Object.fromEntries(
    rows.map((r) => [r.id, `${r.firstName} ${r.lastName}: ${Number(r.totalCents)} ${r.lastDonationDate}`]),
  );
}

beforeAll(async () => {
  hub = await openStore({ dataDir: tempDir('giftdesk-hub-') });
  hubCtx = createContext(hub);
  accountId = (await createAccount(hubCtx, 'Spring Gala')).id;
  const da = await createDonationAccount(hubCtx, { accountId, name: 'General' });
  const campaign = await createCampaign(hubCtx, { accountId, name: 'Gala', donationAccountIds: [da.id] });
  const names: Array<[string, string]> = [
    ['Robert', 'Brown'],
    ['Robert', 'Brown'],
    ['Robert', 'Brown'],
    ['Łukasz', 'Żółć'],
    ['Ana', 'Lima'],
  ];
  const donors = [];
  for (const [firstName, lastName] of names)
    donors.push(await createContact(hubCtx, { accountId, firstName, lastName }));
  const gift = (contactId: string, donationAmount: number, donationDate: string) =>
    createDonation(hubCtx, {
      accountId,
      contactId,
      donationAmount,
      donationDate,
      paymentMethod: 'cash',
      campaignId: campaign.id,
    });
  // Gifts of several donors in each page, a donor's gifts spread over pages.
  for (const [k, date] of ['2026-04-01', '2026-05-01', '2026-03-01'].entries())
    for (const [i, d] of donors.entries()) await gift(d.id, 10 + i * 5 + k, date);
  // The first Robert Brown's two identical $19.99 cash gifts on one day.
  await gift(donors[0]!.id, 19.99, '2026-05-02');
  await gift(donors[0]!.id, 19.99, '2026-05-02');

  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname !== '/api/v1/hub/changes') return send(404, { message: 'no such route' });
    readChanges(hubCtx, accountId, url.searchParams.get('after') ?? undefined, PAGE).then(
      (page) => send(200, page),
      (err: Error) => send(500, { message: err.message }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  for (const s of opened) await s.close().catch(() => undefined);
  await hub?.close();
});

describe('the donors’ totals of a join', () => {
  it('are the hub’s when the join’s catch-up returns', async () => {
    const { store } = await newStation();
    const read = await catchUp(store, accountId, client(), { deferTotals: true });
    expect(read.ok).toBe(true);
    const atHub = await totals(hub);
    expect(Object.values(atHub).filter((t) => t.startsWith('Robert Brown'))).toHaveLength(3);
    expect(Object.values(atHub)).toContain('Robert Brown: 7298 2026-05-02T00:00:00.000Z');
    expect(await totals(store)).toEqual(atHub);
    const pending = await store.db.selectFrom('donorTotalDeltas').select('contactId').execute();
    expect(pending).toEqual([]);
  });

  it('stopped half-way: moved when the folder is opened again; reading on brings the rest once', async () => {
    const { dir, store } = await newStation();
    // The join's first pages, as its catch-up applies them, then the process goes.
    let cursor: string | undefined;
    for (let i = 0; i < 4; i++) {
      const page = await readChanges(hubCtx, accountId, cursor, PAGE);
      const at = new Date().toISOString();
      await applyFeedPage(store, accountId, page, at, at, 'gdk_STATION', {
        unsynced: true,
        deferTotals: true,
      });
      cursor = page.cursor;
    }
    const gifts = await store.db.selectFrom('donations').select('id').execute();
    expect(gifts.length).toBeGreaterThan(1);
    await store.close();
    const raw = new BetterSqlite3(path.join(dir, 'giftdesk.sqlite'), { readonly: true });
    const left = (raw.prepare('select count(*) as n from donor_total_deltas').get() as { n: number }).n;
    raw.close();
    expect(left).toBeGreaterThan(0);

    // Opened again (the station's `serve`): each donor's total counts the gifts here.
    const again = await stationStore(dir);
    const sums = await again.db
      .selectFrom('donations')
      .select(['contactId', (eb) => eb.fn.sum<number>('amountCents').as('cents')])
      .groupBy('contactId')
      .execute();
    const here = await again.db.selectFrom('contacts').select(['id', 'totalCents']).execute();
    for (const c of here)
      expect(Number(c.totalCents)).toBe(Number(sums.find((s) => s.contactId === c.id)?.cents ?? 0));

    // Reading on from the cursor the last page moved: the rest, each gift once.
    expect((await catchUp(again, accountId, client())).ok).toBe(true);
    const all = await again.db.selectFrom('donations').select('id').execute();
    const atHub = await hub.db.selectFrom('donations').select('id').execute();
    expect(all.map((g) => g.id).sort()).toEqual(atHub.map((g) => g.id).sort());
    expect(await totals(again)).toEqual(await totals(hub));
  });
});
