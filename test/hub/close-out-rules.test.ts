/**
 * When the close-out may say "complete", every part its own process (event-rig.ts): a hub
 * (`giftdesk serve --hub`) and two tables paired by code and served, the close-out read with
 * `giftdesk hub close --json` as the coordinator reads it.
 *
 * - Table A types in a batch (twin $19.99 cash gifts of one Robert Brown, a $250 check "check
 *   1021" of another) and the treasurer counts the box two cents over: the hub's deposit shows
 *   the count beside what it holds, and the check's number.
 * - The hub corrects one of Table A's gifts: it is still Table A's, counted there.
 * - The hub is killed; Table A types five more gifts while it is away and is shut; the hub comes
 *   back. Until Table A reports again it is not complete (its last report is from before the
 *   hub's restart); served again, it sends them and is complete.
 * - Table B is removed and keeps typing (two gifts): "revoked", never complete. It pairs again
 *   with a fresh code (`giftdesk hub join` without --replace): the hub takes it back as the same
 *   station — one row, its waiting gifts arrive once, the close-out counts it once, complete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationReferenceOf, referenceFor } from '#shared/sync-reference.ts';
import { cliJson, isolatedEnv } from '../helpers/cli.ts';
import { rawRequest } from '../helpers/server.ts';
import {
  type GiftdeskChild,
  type HubSide,
  type StationSide,
  joinStation,
  spawnGiftdesk,
  startHub,
  stopChild,
  until,
} from './event-rig.ts';

const { env } = isolatedEnv();
const TODAY = new Date().toISOString().slice(0, 10);

let hub: HubSide;
let tableA: StationSide;
let tableB: StationSide;
/** Each table's serve process after it was served again (the rig's own is stopped by then). */
const served = new Map<StationSide, GiftdeskChild>();
/** The local ids of the gifts each table typed. */
const typed = new Map<StationSide, string[]>();

interface Row {
  id: string;
  name: string;
  gifts: number;
  total: number;
  complete: boolean;
  state: string;
  reportedEntered: number | null;
  revokedAt: string | null;
  batches: Array<Record<string, unknown>>;
}
interface Close {
  stations: Row[];
  checks: Array<{ donor: string; amount: number; stationId: string | null; checkNumber: string | null }>;
  cashTotal: number;
}

beforeAll(async () => {
  hub = await startHub(env);
  [tableA, tableB] = await Promise.all([
    joinStation(env, hub, 'Table A', { rate: 200 }),
    joinStation(env, hub, 'Table B', { rate: 200 }),
  ]);
}, 300_000);

afterAll(async () => {
  for (const p of served.values()) await stopChild(p);
  await Promise.all([tableA?.close(), tableB?.close()]);
  await hub?.close();
});

/** The table's API through its current process (served again after a stop, or the rig's). */
function at(st: StationSide) {
  return (method: string, p: string, body?: unknown) =>
    served.has(st) ? rawRequest(`${st.url}${p}`, method, body, auth(st)) : st.request(method, p, body);
}
const auth = (st: StationSide) => ({ 'x-api-key': st.keyId, authorization: `Bearer ${st.secret}` });

async function donor(st: StationSide, firstName: string, lastName: string, email?: string): Promise<string> {
  const r = await at(st)('POST', '/api/v1/contacts', {
    accountId: st.accountId,
    firstName,
    lastName,
    ...(email ? { primaryEmail: email } : {}),
  });
  if (r.status !== 201)
    throw new Error(`${st.name}: contact ${firstName} ${lastName}: ${r.status} ${r.text}`);
  return String(r.body.id);
}

async function gift(
  st: StationSide,
  contactId: string,
  dollars: number,
  method: string,
  extra: { batchId?: string; notes?: string } = {},
): Promise<string> {
  const body = {
    accountId: st.accountId,
    contactId,
    donationAmount: dollars,
    donationDate: TODAY,
    paymentMethod: method,
    campaignId: st.campaignId,
    donationAccountId: st.donationAccountId,
    ...(extra.notes ? { notes: extra.notes } : {}),
  };
  const r = extra.batchId
    ? await at(st)('POST', `/api/v1/batches/${extra.batchId}/donations`, body)
    : await at(st)('POST', '/api/v1/donations', body);
  if (r.status !== 201) throw new Error(`${st.name}: gift of ${dollars}: ${r.status} ${r.text}`);
  const id = String(extra.batchId ? r.body.donation.id : r.body.id);
  typed.set(st, [...(typed.get(st) ?? []), id]);
  return id;
}

const closeOut = async () => (await hub.closeOut()) as unknown as Close;
const rowOf = (c: Close, st: StationSide) => c.stations.find((s) => s.id === st.stationId)!;

/** Waits until the close-out's row of the table is complete with `gifts` gifts. */
function completeWith(st: StationSide, gifts: number): Promise<Row> {
  return until(`${st.name} complete with ${gifts} gifts`, async () => {
    const row = rowOf(await closeOut(), st);
    return row.complete && row.gifts === gifts ? row : undefined;
  });
}

/** Serves a table's data folder again on its own port (after it was stopped). */
async function serveAgain(st: StationSide): Promise<void> {
  const port = new URL(st.url).port;
  const p = await spawnGiftdesk(
    ['serve', '--port', port, '--json', '--rate', '200', '--burst', '400', '--data-dir', st.dataDir],
    env,
  );
  served.set(st, p);
}

async function stopTable(st: StationSide): Promise<void> {
  await stopChild(served.get(st) ?? st.proc);
}

/** The hub's gifts (all of them, with their notes). */
async function hubGifts(): Promise<Array<{ id: string; donationAmount: number; notes: string | null }>> {
  const all: Array<{ id: string; donationAmount: number; notes: string | null }> = [];
  for (let offset = 0; ; offset += 100) {
    const r = await hub.request(
      'GET',
      `/api/v1/donations?accountId=${hub.accountId}&limit=100&offset=${offset}`,
    );
    if (r.status !== 200) throw new Error(`the hub's gifts: ${r.status} ${r.text}`);
    all.push(...r.body.donations);
    if (all.length >= r.body.total || r.body.donations.length === 0) return all;
  }
}

describe('the close-out at the hub', () => {
  it('shows a table’s batch count beside what the hub holds, and the checks with their numbers', async () => {
    const batch = await at(tableA)('POST', '/api/v1/batches', {
      accountId: tableA.accountId,
      name: 'Table A — cash box 1',
    });
    expect(batch.status).toBe(201);
    const batchId = String(batch.body.id);
    const robert = await donor(tableA, 'Robert', 'Brown');
    const robert2 = await donor(tableA, 'Robert', 'Brown', 'robert.brown@example.org');
    // Twin gifts: one donor, the same amount, the same minute.
    await gift(tableA, robert, 19.99, 'cash', { batchId });
    await gift(tableA, robert, 19.99, 'cash', { batchId });
    await gift(tableA, robert2, 250, 'check', { batchId, notes: 'check 1021' });
    const count = await at(tableA)('POST', `/api/v1/batches/${batchId}/count`, {
      accountId: tableA.accountId,
      countedBy: 'Dana (treasurer)',
      counted: [
        { paymentMethod: 'cash', total: 40 },
        { paymentMethod: 'check', count: 1, total: 250 },
      ],
      acceptDifference: true,
    });
    expect(count.status).toBe(200);

    const row = await until('Table A’s count at the hub', async () => {
      const r = await completeWith(tableA, 3);
      return r.batches.length === 1 ? r : undefined;
    });
    expect(row.batches[0]).toMatchObject({
      batchId,
      batchName: 'Table A — cash box 1',
      countedBy: 'Dana (treasurer)',
      enteredCount: 3,
      enteredTotal: 289.98,
      countedTotal: 290,
      difference: 0.02,
    });
    const lines = row.batches[0]!.lines as Array<Record<string, unknown>>;
    expect(lines).toEqual([
      expect.objectContaining({
        paymentMethod: 'cash',
        enteredTotal: 39.98,
        countedTotal: 40,
        difference: 0.02,
      }),
      expect.objectContaining({ paymentMethod: 'check', enteredCount: 1, countedCount: 1, difference: 0 }),
    ]);
    const c = await closeOut();
    expect(c.cashTotal).toBe(39.98);
    expect(c.checks).toEqual([
      {
        donationId: expect.any(String),
        donor: 'Robert Brown',
        amount: 250,
        stationId: tableA.stationId,
        checkNumber: '1021',
      },
    ]);
  }, 240_000);

  it('counts a gift the hub corrected as its table’s still', async () => {
    const [localId] = typed.get(tableA)!.slice(-1);
    const atHub = await until('the check at the hub', async () =>
      (await hubGifts()).find((g) => donationReferenceOf(g.notes) === referenceFor(localId!)),
    );
    const fixed = await hub.request('PATCH', `/api/v1/donations/${atHub.id}`, {
      accountId: hub.accountId,
      donationAmount: 260,
    });
    expect(fixed.status).toBe(200);
    const row = rowOf(await closeOut(), tableA);
    expect(row).toMatchObject({ gifts: 3, total: 299.98, state: 'complete', complete: true });
  }, 120_000);

  it('is not complete right after the hub restarted, before a table that typed meanwhile reports', async () => {
    await completeWith(tableA, 3);
    await hub.kill9();
    // The hub is away: Table A goes on typing (five gifts wait there), then is shut.
    const lukasz = await donor(tableA, 'Łukasz', 'Żółć');
    for (const dollars of [5, 10, 10, 20, 19.99]) await gift(tableA, lukasz, dollars, 'cash');
    const status = await at(tableA)('GET', `/api/v1/event?accountId=${tableA.accountId}`);
    expect(status.body.waiting).toBeGreaterThanOrEqual(5);
    await stopTable(tableA);
    await hub.restart();

    // Table A's last report (everything sent, nothing waiting) was made before the restart.
    const row = rowOf(await closeOut(), tableA);
    expect(row).toMatchObject({ gifts: 3, complete: false, state: 'not_reported' });

    await serveAgain(tableA);
    const back = await completeWith(tableA, 8);
    expect(back).toMatchObject({ state: 'complete', reportedEntered: 8 });
  }, 300_000);

  it('says a removed table is revoked, never complete; paired again it is the same table, counted once', async () => {
    const wen = await donor(tableB, 'Wen', 'Li', 'wen.li@example.org');
    await gift(tableB, wen, 19.99, 'cash');
    await gift(tableB, wen, 19.99, 'cash');
    await completeWith(tableB, 2);

    const revoked = await hub.request('POST', `/api/v1/hub/stations/${tableB.stationId}/revoke`, {
      accountId: hub.accountId,
    });
    expect(revoked.status).toBe(200);
    // Table B keeps typing after it was removed: two gifts the hub never gets.
    await gift(tableB, wen, 50, 'cash');
    await gift(tableB, wen, 75, 'check');
    await until('Table B knows it was removed', async () => {
      const s = await at(tableB)('GET', `/api/v1/event?accountId=${tableB.accountId}`);
      return s.body.revokedAt ? s.body : undefined;
    });
    const row = rowOf(await closeOut(), tableB);
    expect(row).toMatchObject({
      gifts: 2,
      complete: false,
      state: 'revoked',
      revokedAt: revoked.body.revokedAt,
    });

    // Paired again with a fresh code, no --replace: the same station.
    await stopTable(tableB);
    const code = await hub.code();
    const joined = await cliJson(
      [
        'hub',
        'join',
        code.url,
        '--code',
        code.code,
        '--fingerprint',
        code.fingerprint,
        '--name',
        'Table B',
        '--data-dir',
        tableB.dataDir,
      ],
      env,
    );
    expect(joined).toMatchObject({ station: { id: tableB.stationId, name: 'Table B' }, again: true });
    await serveAgain(tableB);
    const back = await completeWith(tableB, 4);
    expect(back).toMatchObject({ state: 'complete', revokedAt: null, total: 164.98 });

    const stations = (await hub.stations()) as {
      stations: Array<{ id: string; name: string; revokedAt: string | null; received: number }>;
    };
    const rows = stations.stations.map((s) => [s.name, s.revokedAt, s.received]);
    expect(rows.sort((x, y) => String(x[0]).localeCompare(String(y[0])))).toEqual([
      ['Table A', null, 8],
      ['Table B', null, 4],
    ]);
    // Each of Table B's gifts is at the hub once, by its reference.
    const refs = (await hubGifts()).map((g) => donationReferenceOf(g.notes));
    for (const id of typed.get(tableB)!) expect(refs.filter((r) => r === referenceFor(id))).toHaveLength(1);
    const c = await closeOut();
    expect(c.stations.filter((s) => s.name === 'Table B')).toHaveLength(1);
  }, 300_000);
});
