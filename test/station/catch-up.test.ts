/**
 * A station catching up with a hub of an earlier version, over real HTTP on 127.0.0.1: that hub
 * refuses a page larger than 500 (400 naming `limit`), and answers a few changes a page (here 3,
 * so a small event makes many pages). The station asks for its largest page, is refused, asks
 * for 500 and reads the feed to its end, each page asked for while the one before is applied:
 * every donor and gift is here (three Robert Browns, two identical $19.99 cash gifts, "Łukasz
 * Żółć"), and every page was asked for once, after the cursor of the page before.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
import { catchUp } from '../../electron/sync/station/feed.ts';
import { tempDir } from '../helpers/server.ts';
import { insertStationAccount } from '../helpers/station-account.ts';

let hub: Store;
let hubCtx: DomainContext;
let station: Store;
let server: http.Server;
let accountId: string;
/** What the station asked for, in order: the `after` and `limit` of each request. */
const asked: Array<{ after: string | null; limit: string | null }> = [];
/** The cursor of each page the hub answered, in order. */
const answered: string[] = [];

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
  for (const [firstName, lastName] of names) {
    const c = await createContact(hubCtx, { accountId, firstName, lastName });
    for (let i = 0; i < 2; i++)
      await createDonation(hubCtx, {
        accountId,
        contactId: c.id,
        donationAmount: 19.99,
        donationDate: '2026-05-01',
        paymentMethod: 'cash',
        campaignId: campaign.id,
      });
  }
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const limit = url.searchParams.get('limit');
    asked.push({ after: url.searchParams.get('after'), limit });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname !== '/api/v1/hub/changes') return send(404, { message: 'no such route' });
    if (limit !== null && Number(limit) > 500)
      return send(400, {
        statusCode: 400,
        error: 'Bad Request',
        code: 'validation_failed',
        message: 'limit: Too big: expected number to be <=500',
        details: [{ field: 'limit', issue: 'Too big: expected number to be <=500' }],
      });
    readChanges(hubCtx, accountId, url.searchParams.get('after') ?? undefined, 3).then(
      (page) => {
        answered.push(page.cursor);
        send(200, page);
      },
      (err: Error) => send(500, { message: err.message }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  station = await openStore({ dataDir: tempDir('giftdesk-station-') });
  await station.write(async (trx) => {
    await insertStationAccount(trx, accountId, new Date().toISOString());
  });
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await station?.close();
  await hub?.close();
});

describe('a station catching up with a hub of an earlier version', () => {
  it('asks again for pages of 500 when refused more, and reads every page once, in order', async () => {
    const client = createRemoteClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      keyId: 'gdk_STATION',
      secret: 'not checked here',
      pacer: createPacer({ ratePerSecond: 1000, burst: 100 }),
    });
    const read = await catchUp(station, accountId, client);
    expect(read.ok).toBe(true);

    const contacts = await station.db
      .selectFrom('contacts')
      .select(['firstName', 'lastName'])
      .where('accountId', '=', accountId)
      .execute();
    expect(contacts.map((c) => `${c.firstName} ${c.lastName}`).sort()).toEqual([
      'Ana Lima',
      'Robert Brown',
      'Robert Brown',
      'Robert Brown',
      'Łukasz Żółć',
    ]);
    const gifts = await station.db
      .selectFrom('donations')
      .select(['amountCents', 'paymentMethod'])
      .where('accountId', '=', accountId)
      .execute();
    expect(gifts).toHaveLength(10);
    expect(gifts.every((g) => Number(g.amountCents) === 1999 && g.paymentMethod === 'cash')).toBe(true);

    // The largest page first, refused; then 500 a page, each after the cursor the page before carried.
    expect(asked[0]).toEqual({ after: null, limit: '2000' });
    expect(asked.slice(1).every((a) => a.limit === '500')).toBe(true);
    expect(asked.slice(1).map((a) => a.after)).toEqual([null, ...answered.slice(0, -1)]);
    expect(answered.length).toBeGreaterThan(3);
  });
});
