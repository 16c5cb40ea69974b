/**
 * The whole event, end to end, every part its own process with its own data folder on
 * loopback (event-rig.ts): HQ (`giftdesk serve`), a hub (`giftdesk serve --hub`) pushing to HQ
 * through the fault proxy, and three stations paired by code (`giftdesk hub code`, `giftdesk
 * hub join`) and served (`giftdesk serve`).
 *
 * The venue has no internet while the gifts are entered: the proxy refuses every connection.
 * Three stations enter at once through their /api/v1 — twin $19.99 cash gifts of one donor,
 * three donors called Robert Brown, Łukasz Żółć, the same new donor (same name and email)
 * created at two stations at the same moment and another one seconds apart, a $3,000 +
 * $3,000 pair of one donor against a $3,300 limit split across two stations — and a volunteer
 * enters a gift through the app in Chromium at the second station, for a donor created a
 * moment before at the first, found in the donor box. Halfway the hub is killed with kill -9
 * and started again on the same port and data folder; the stations carry on by themselves.
 * Then the internet comes back, flaky: the proxy drops answers after HQ committed, resets
 * connections, answers 503 after HQ committed and 429, and everything drains.
 *
 * Then: HQ holds every gift exactly once under the reference of the station that typed it
 * (count and amount per reference, nothing else); the hub's close-out equals what each station
 * entered (count, total, by method) and the event's totals; the $3,000 pair is flagged at the
 * hub; the same new donor is one donor at the hub and at HQ; the namesakes stay three.
 *
 * Every wait is for a condition, with a generous safety timeout; the event's "within 5 s" and
 * "within 2 s" figures are measured by `npm run bench` part `hub`.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationReferenceOf, referenceFor } from '#shared/sync-reference.ts';
import { CHROMIUM_ARGS, resolveChromium } from '../browser/chromium.ts';
import { cliJson, isolatedEnv } from '../helpers/cli.ts';
import { type FaultKind, type FaultProxy, seededFaultDraws, startFaultProxy } from '../sync/fault-proxy.ts';
import {
  type HqSide,
  type HubSide,
  LIMIT_PER_YEAR,
  type StationSide,
  foundBy,
  joinStation,
  listOf,
  startHq,
  startHub,
  until,
} from './event-rig.ts';

const { env } = isolatedEnv();
const TODAY = new Date().toISOString().slice(0, 10);
/** Gifts each station enters besides the named cases. */
const FILLERS = Number(process.env.GIFTDESK_EVENT_FILLERS ?? 24);

let hq: HqSide;
let proxy: FaultProxy;
let hub: HubSide;
let stations: StationSide[] = [];
let browser: Browser | null = null;

interface Entered {
  station: StationSide;
  id: string;
  contactId: string;
  cents: number;
  method: string;
}
const entered: Entered[] = [];
const cents = (dollars: number) => Math.round(dollars * 100);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** No internet at the venue: every connection to HQ is reset before it reaches HQ. */
const offline = () => ({ kind: 'resetBeforeForward' as const });

beforeAll(async () => {
  hq = await startHq(env);
  proxy = await startFaultProxy({ target: hq.url });
  hub = await startHub(env, { upstream: { url: proxy.url, hq } });
  proxy.setRule(offline);
  stations = await Promise.all([
    joinStation(env, hub, 'Table A', { rate: 200 }),
    joinStation(env, hub, 'Table B', { rate: 200, ui: true }),
    joinStation(env, hub, 'Table C', { rate: 200 }),
  ]);
  const c = resolveChromium();
  browser = await chromium.launch({
    executablePath: c.executablePath,
    args: CHROMIUM_ARGS,
    headless: true,
    ...(c.env ? { env: c.env } : {}),
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(stations.map((s) => s.close()));
  await hub?.close();
  await proxy?.close();
  await hq?.close();
});

async function newDonor(
  st: StationSide,
  firstName: string,
  lastName: string,
  primaryEmail?: string,
): Promise<string> {
  const r = await st.request('POST', '/api/v1/contacts', {
    accountId: st.accountId,
    firstName,
    lastName,
    ...(primaryEmail ? { primaryEmail } : {}),
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
  toDonationAccount = false,
): Promise<string> {
  const r = await st.request('POST', '/api/v1/donations', {
    accountId: st.accountId,
    contactId,
    donationAmount: dollars,
    donationDate: TODAY,
    paymentMethod: method,
    campaignId: st.campaignId,
    ...(toDonationAccount ? { donationAccountId: st.donationAccountId } : {}),
  });
  if (r.status !== 201) throw new Error(`${st.name}: gift of ${dollars}: ${r.status} ${r.text}`);
  const id = String(r.body.id);
  entered.push({ station: st, id, contactId, cents: cents(dollars), method });
  return id;
}

/** Resolves once `n` callers arrived: two stations press Enter at the same moment. */
function meetingPoint(n: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((r) => (open = r));
  return async () => {
    if (++arrived === n) open();
    await all;
  };
}

const AMOUNTS = [20, 35, 50, 75, 100, 125.5, 10, 5.25, 60, 15];
const METHODS = ['cash', 'check', 'credit_card'];

/** The station's other gifts: a new donor every third gift, else one it entered before. */
async function fillers(st: StationSide, offset: number): Promise<void> {
  const own: string[] = [];
  for (let i = 0; i < FILLERS; i++) {
    if (i % 3 === 0 || own.length === 0)
      own.push(
        await newDonor(st, 'Guest', `${st.name.slice(-1)}${offset + i}`, `guest.${offset + i}@table.example`),
      );
    const donor = own[(i * 7) % own.length]!;
    await gift(st, donor, AMOUNTS[(offset + i) % AMOUNTS.length]!, METHODS[(offset + i) % METHODS.length]!);
    await sleep((i * 37) % 120);
  }
}

describe('an event: HQ, a hub and three stations as separate processes', () => {
  it('every gift reaches HQ once, the close-out adds up, the split over-limit pair is flagged', async () => {
    const [a, b, c] = stations as [StationSide, StationSide, StationSide];
    const mariaAtOnce = meetingPoint(2);
    let enteredWhileDown = 0;
    let chenAtA = 0;
    const soft: string[] = [];

    const tableA = async () => {
      const tom = await newDonor(a, 'Tom', 'Twin', 'tom.twin@example.org');
      await gift(a, tom, 19.99, 'cash');
      await gift(a, tom, 19.99, 'cash');
      await gift(a, await newDonor(a, 'Robert', 'Brown', 'robert.brown@oak.example'), 100, 'check');
      await gift(a, await newDonor(a, 'Łukasz', 'Żółć', 'lukasz@zolc.example'), 250, 'credit_card');
      await mariaAtOnce();
      await gift(a, await newDonor(a, 'Maria', 'Lopez', 'maria.lopez@example.org'), 50, 'cash');
      await gift(a, await newDonor(a, 'Chen', 'Wei', 'chen.wei@example.org'), 30, 'check');
      chenAtA = Date.now();
      await gift(a, await newDonor(a, 'Olivia', 'Okonkwo', 'olivia@okonkwo.example'), 3000, 'check', true);
      await newDonor(a, 'Beatriz', 'Quintero', 'beatriz@quintero.example');
      await fillers(a, 0);
    };

    const tableB = async () => {
      await gift(b, await newDonor(b, 'Robert', 'Brown', 'rbrown@pine.example'), 75, 'cash');
      await mariaAtOnce();
      await gift(b, await newDonor(b, 'Maria', 'Lopez', 'maria.lopez@example.org'), 25, 'credit_card');
      // The same new donor seconds after table A created him.
      await until('table A to create Chen Wei', () => chenAtA > 0);
      await sleep(Math.max(0, chenAtA + 2000 - Date.now()));
      await gift(b, await newDonor(b, 'Chen', 'Wei', 'chen.wei@example.org'), 40, 'cash');
      // The donor who gave $3,000 at table A gives $3,000 more here: table B sees the event's
      // giving (the room under the limit is $300) before the gift is typed.
      const olivia = await until('Olivia Okonkwo (created at table A) in table B’s donor box', () =>
        foundBy(b, 'Olivia Okonkwo', 'olivia@okonkwo.example'),
      );
      const room = await until(
        'table B to see table A’s $3,000 in the limit check',
        async () => {
          const r = await b.watch(
            'GET',
            `/api/v1/contacts/${olivia}/gift-check?accountId=${b.accountId}&donationAccountId=${b.donationAccountId}&donationDate=${TODAY}`,
          );
          const limit = (r.body?.limits as Array<{ limitKind: string; room: number }> | undefined)?.find(
            (l) => l.limitKind === 'per_year',
          );
          return limit && limit.room < LIMIT_PER_YEAR ? limit.room : undefined;
        },
        { timeoutMs: 60_000 },
      ).catch((err: Error) => {
        soft.push(err.message);
        return null;
      });
      if (room !== null) expect.soft(room, 'room left under the per-year limit at table B').toBe(300);
      await gift(b, olivia, 3000, 'cash', true);
      await uiGift(b);
      await fillers(b, 100);
    };

    const tableC = async () => {
      await gift(c, await newDonor(c, 'Robert', 'Brown', 'bob.brown@elm.example'), 20, 'cash');
      await fillers(c, 200);
    };

    // Halfway through, the hub dies (kill -9) and comes back on the same port and folder.
    const half = Math.floor((3 * FILLERS + 12) / 2);
    const outage = async () => {
      await until(`${half} gifts entered`, () => entered.length >= half, { everyMs: 50 });
      const before = entered.length;
      await hub.kill9();
      await sleep(2000);
      await hub.restart();
      enteredWhileDown = entered.length - before;
    };

    await Promise.all([tableA(), tableB(), tableC(), outage()]);
    expect.soft(enteredWhileDown, 'gifts entered while the hub was down').toBeGreaterThan(0);

    // Every station gets everything it entered to the hub by itself, with no one touching it.
    // (A wait that gives up is written down and the test goes on, so that one run tells
    // everything that is wrong.)
    const softly = <T>(what: Promise<T>) =>
      what.catch((err: Error) => {
        soft.push(err.message);
        return null;
      });
    await Promise.all(
      stations.map((st) => {
        let last = '';
        return softly(
          until(
            `${st.name} to have nothing waiting for the hub`,
            async () => {
              const s = await st.watch('GET', `/api/v1/sync/status?accountId=${st.accountId}`);
              last = `waiting ${s.body?.waiting}, in flight ${s.body?.inFlight}, needing attention ${s.body?.needsAttention}, last error ${s.body?.lastError}`;
              return s.status === 200 && s.body.waiting === 0 && s.body.needsAttention === 0;
            },
            { timeoutMs: 180_000 },
          ).catch((err: Error) => {
            throw new Error(`${err.message}: ${last}`);
          }),
        );
      }),
    );
    await softly(
      until(
        'every station complete at the hub',
        async () => {
          const out = await hub.closeOut();
          const ids = new Set(stations.map((s) => s.stationId));
          const list = ((out.stations ?? []) as Array<{ id: string; complete: boolean }>).filter((s) =>
            ids.has(s.id),
          );
          return list.length === 3 && list.every((s) => s.complete);
        },
        { timeoutMs: 60_000 },
      ),
    );

    // Every station's own view holds the whole event: every gift of every station (what its
    // limit checks, donor totals and dashboard count).
    await Promise.all(
      stations.map((st) => {
        let last = 0;
        return softly(
          until(
            `${st.name} to hold all ${entered.length} gifts of the event`,
            async () => {
              const r = await st.watch('GET', `/api/v1/donations?accountId=${st.accountId}&limit=1`);
              last = Number(r.body?.total);
              return last === entered.length;
            },
            { timeoutMs: 60_000 },
          ).catch((err: Error) => {
            throw new Error(`${err.message}: it holds ${last}`);
          }),
        );
      }),
    );

    // The internet comes back, flaky: answers dropped after HQ committed, resets, 503s after
    // HQ committed, 429s; after 150 requests it is clean, and the hub drains.
    const hit = new Map<FaultKind, number>();
    const draw = seededFaultDraws(
      24,
      {
        forward: 40,
        dropAfterCommit: 15,
        resetBeforeForward: 10,
        forwardThen503: 12,
        status503: 5,
        status429: 10,
        status429NoHint: 5,
      },
      { retryAfterSeconds: 1 },
    );
    let faulty = 0;
    proxy.setRule(() => {
      if (faulty++ >= 150) return { kind: 'forward' };
      const d = draw();
      hit.set(d.kind, (hit.get(d.kind) ?? 0) + 1);
      return d.action;
    });
    await softly(
      until(
        'the hub to have pushed everything to HQ',
        async () => {
          const s = await hub.request('GET', `/api/v1/sync/status?accountId=${hub.accountId}`);
          return s.status === 200 && s.body.waiting === 0 && s.body.needsAttention === 0 && faulty > 0;
        },
        { timeoutMs: 600_000, everyMs: 1000 },
      ),
    );
    for (const k of ['dropAfterCommit', 'resetBeforeForward', 'forwardThen503', 'status429'] as const)
      expect.soft(hit.get(k) ?? 0, `fault ${k} happened`).toBeGreaterThan(0);

    process.stderr.write(
      `event: ${entered.length} gifts (${stations.map((st) => `${st.name} ${entered.filter((e) => e.station === st).length}`).join(', ')}), ${enteredWhileDown} entered while the hub was down; HQ's proxy: ${proxy.records.length} requests, faults ${JSON.stringify(Object.fromEntries(hit))}\n`,
    );
    await checkHq();
    await checkCloseOut();
    await checkHubDonors();
    expect(soft).toEqual([]);
  }, 1_200_000);
});

/** A volunteer at table B enters a gift in the app for a donor created at table A. */
async function uiGift(b: StationSide): Promise<void> {
  if (!browser || !b.appUrl) throw new Error('table B serves no app');
  const a = stations[0]!;
  await until('Beatriz Quintero created at table A', () => foundBy(a, 'Beatriz Quintero'));
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  try {
    await page.goto(b.appUrl);
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    await page.getByRole('button', { name: 'Start a batch' }).first().click();
    await page.getByLabel('Batch name').fill('Table B door');
    await page.getByLabel('Campaign').selectOption({ label: 'Spring Gala' });
    await page.getByLabel('Batch name').press('Enter');
    const donorBox = page.getByRole('combobox', { name: 'Donor' });
    await donorBox.waitFor();
    await donorBox.pressSequentially('beatriz quin');
    // The donor box finds her (she was created at table A): she is the option Enter takes.
    await expect
      .poll(
        async () => {
          const active = await donorBox.getAttribute('aria-activedescendant');
          return active ? page.locator(`[id="${active}"]`).textContent() : null;
        },
        { timeout: 120_000 },
      )
      .toContain('Beatriz Quintero');
    await page.keyboard.press('Enter');
    const amount = page.getByLabel(/^Amount/);
    await amount.fill('60');
    await amount.press('Enter');
    await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(/^1\b/);
  } finally {
    await context.close();
  }
  const beatriz = (await foundBy(b, 'Beatriz Quintero', 'beatriz@quintero.example'))!;
  const r = await b.watch('GET', `/api/v1/contacts/${beatriz}/donations?accountId=${b.accountId}`);
  const saved = (r.body?.donations ?? []) as Array<{
    id: string;
    donationAmount: number;
    paymentMethod: string;
  }>;
  expect(saved).toHaveLength(1);
  entered.push({
    station: b,
    id: saved[0]!.id,
    contactId: beatriz,
    cents: cents(saved[0]!.donationAmount),
    method: saved[0]!.paymentMethod,
  });
}

/** HQ holds every gift once, under the reference of the station that typed it, and nothing else. */
async function checkHq(): Promise<void> {
  const all: Array<{ id: string; donationAmount: number; notes: string | null; paymentMethod: string }> = [];
  for (let offset = 0; ; offset += 100) {
    const r = await hq.request(
      'GET',
      `/api/v1/donations?accountId=${hq.accountId}&limit=100&offset=${offset}`,
    );
    expect(r.status, r.text).toBe(200);
    all.push(...r.body.donations);
    if (all.length >= r.body.total || r.body.donations.length === 0) break;
  }
  const byRef = new Map<string, number[]>();
  for (const d of all) {
    const ref = donationReferenceOf(d.notes) ?? `(no reference) ${d.id}`;
    byRef.set(ref, [...(byRef.get(ref) ?? []), cents(d.donationAmount)]);
  }
  const wrong: string[] = [];
  for (const e of entered) {
    const got = byRef.get(referenceFor(e.id)) ?? [];
    if (got.length !== 1 || got[0] !== e.cents)
      wrong.push(`${e.station.name} ${e.id} ($${e.cents / 100}): at HQ ${JSON.stringify(got)}`);
  }
  const known = new Set(entered.map((e) => referenceFor(e.id)));
  const strays = [...byRef.keys()].filter((r) => !known.has(r));
  expect.soft(wrong, 'gifts not at HQ exactly once under their station’s reference').toEqual([]);
  expect.soft(strays, 'gifts at HQ that no station entered').toEqual([]);
  expect.soft(all.length, 'gifts at HQ').toBe(entered.length);
  expect
    .soft(
      all.reduce((s, d) => s + cents(d.donationAmount), 0),
      'total at HQ, cents',
    )
    .toBe(entered.reduce((s, e) => s + e.cents, 0));

  const hqContacts = async (search: string) => {
    const r = await hq.request(
      'GET',
      `/api/v1/contacts?accountId=${hq.accountId}&search=${encodeURIComponent(search)}&limit=100`,
    );
    return listOf(r.body) as unknown as Array<{ firstName: string; lastName: string; email: string | null }>;
  };
  expect.soft((await hqContacts('maria.lopez@example.org')).length, 'Maria Lopez at HQ').toBe(1);
  expect.soft((await hqContacts('chen.wei@example.org')).length, 'Chen Wei at HQ').toBe(1);
  const browns = (await hqContacts('robert brown')).filter(
    (x) => x.firstName === 'Robert' && x.lastName === 'Brown',
  );
  expect
    .soft(browns.map((x) => x.email).sort(), 'the three Robert Browns at HQ')
    .toEqual(['bob.brown@elm.example', 'rbrown@pine.example', 'robert.brown@oak.example']);
  const lukasz = await hqContacts('lukasz@zolc.example');
  expect
    .soft(
      lukasz.map((x) => `${x.firstName} ${x.lastName}`),
      'Łukasz at HQ',
    )
    .toEqual(['Łukasz Żółć']);
  const tom = await hqContacts('tom.twin@example.org');
  expect.soft(tom, 'Tom Twin at HQ').toHaveLength(1);
  if (tom.length === 1) {
    const id = (tom[0] as unknown as { id: string }).id;
    const gifts = await hq.request('GET', `/api/v1/contacts/${id}/donations?accountId=${hq.accountId}`);
    expect
      .soft(
        ((gifts.body?.donations ?? []) as Array<{ donationAmount: number; paymentMethod: string }>).map(
          (g) => `${g.donationAmount} ${g.paymentMethod}`,
        ),
        'the twin gifts at HQ',
      )
      .toEqual(['19.99 cash', '19.99 cash']);
  }
}

interface MethodTotals {
  [method: string]: { gifts: number; total: number };
}

function totalsOf(list: Entered[]): { gifts: number; total: number; byMethod: MethodTotals } {
  const byMethod: MethodTotals = {};
  for (const e of list) {
    const m = (byMethod[e.method] ??= { gifts: 0, total: 0 });
    m.gifts += 1;
    m.total = (cents(m.total) + e.cents) / 100;
  }
  return { gifts: list.length, total: list.reduce((s, e) => s + e.cents, 0) / 100, byMethod };
}

/** The hub's close-out equals what each station entered, and the event's totals their sum. */
async function checkCloseOut(): Promise<void> {
  const out = await hub.closeOut();
  const rows = (out.stations ?? []) as Array<{
    id: string;
    name: string;
    gifts: number;
    total: number;
    byMethod: MethodTotals;
    complete: boolean;
  }>;
  for (const st of stations) {
    const row = rows.find((r) => r.id === st.stationId);
    const want = totalsOf(entered.filter((e) => e.station === st));
    expect.soft(row, `${st.name} in the close-out`).toBeDefined();
    if (!row) continue;
    expect.soft(row.name).toBe(st.name);
    expect.soft(row.complete, `${st.name} complete`).toBe(true);
    expect.soft({ gifts: row.gifts, total: row.total, byMethod: row.byMethod }, st.name).toEqual(want);
  }
  const all = totalsOf(entered);
  expect.soft({ gifts: out.gifts, total: out.total, byMethod: out.byMethod }, 'the event').toEqual(all);

  const listed = (await hub.stations()).stations as Array<{
    id: string;
    received: number;
    waiting: number | null;
  }>;
  for (const st of stations) {
    const s = listed.find((x) => x.id === st.stationId);
    expect.soft(s?.received, `${st.name} received`).toBe(entered.filter((e) => e.station === st).length);
    expect.soft(s?.waiting, `${st.name} waiting`).toBe(0);
  }
}

/** At the hub: the split $3,000 pair flagged, the same new donor once, the namesakes three. */
async function checkHubDonors(): Promise<void> {
  const flags = (await cliJson(['flags', '--account', hub.accountId, '--data-dir', hub.dataDir], env))
    .flagged as Array<{
    contactName: string;
    donationAmount: number;
    limit: number;
    donorTotal: number;
  }>;
  expect
    .soft(
      flags.map((f) => [f.contactName, f.donationAmount, f.limit, f.donorTotal]),
      'flags at the hub',
    )
    .toEqual([['Olivia Okonkwo', 3000, LIMIT_PER_YEAR, 6000]]);
  const hubContacts = async (search: string) => {
    const r = await hub.request(
      'GET',
      `/api/v1/contacts?accountId=${hub.accountId}&search=${encodeURIComponent(search)}&limit=100`,
    );
    expect(r.status, r.text).toBe(200);
    return listOf(r.body) as unknown as Array<{ firstName: string; lastName: string; email: string | null }>;
  };
  expect.soft((await hubContacts('maria.lopez@example.org')).length, 'Maria Lopez at the hub').toBe(1);
  expect.soft((await hubContacts('chen.wei@example.org')).length, 'Chen Wei at the hub').toBe(1);
  const browns = (await hubContacts('robert brown')).filter(
    (x) => x.firstName === 'Robert' && x.lastName === 'Brown',
  );
  expect.soft(browns, 'the Robert Browns at the hub').toHaveLength(3);
  // Table B checked its $3,000 against the event's giving, not its own: flagged there too.
  const b = stations[1]!;
  const atB = (await cliJson(['flags', '--account', b.accountId, '--data-dir', b.dataDir], env))
    .flagged as Array<{
    contactName: string;
  }>;
  expect
    .soft(
      atB.map((f) => f.contactName),
      'flags at table B',
    )
    .toContain('Olivia Okonkwo');
}
