/**
 * bench/renderer.ts's gift-entry figure: Enter → the saved row on screen, over gifts typed by
 * keyboard, against a bare fetch baseline in the same page.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openApp, type AppServer, type OpenedApp } from '../test/browser/helpers.ts';
import { CONTACTS, ENTRIES, WARMUP_ENTRIES, log, fmt, type UiRow, percentiles } from './renderer-common.ts';
import { prepare, arm, measured, waitForFocus, type ProbeResult } from './renderer-probe.ts';

/** What the harness needs of the server: its account and key, requests, a link to open the app. */
export type EntryServer = Pick<AppServer, 'accountId' | 'keyId' | 'secret' | 'request' | 'appLink'>;

interface Donor {
  id: string;
  name: string;
  type: string;
}

/** What the run enters gifts into: the app's batch, the baseline's batch, their campaign, the donors typed. */
export interface GiftEntrySetup {
  campaignId: string;
  batchId: string;
  baseBatchId: string;
  donors: Donor[];
}

/** The counted gifts' figures, in ms (requestCount: requests between Enter and the row). */
export interface Samples {
  ours: number[];
  base: number[];
  keystroke: number[];
  keystrokeBase: number[];
  postEnd: number[];
  requestCount: number[];
}

/** The donors' last names (Zed + the word), each typed in full in the donor box. */
const DONOR_WORDS = [
  'alder',
  'birch',
  'cedar',
  'dogwood',
  'elm',
  'fir',
  'ginkgo',
  'hazel',
  'juniper',
  'larch',
  'maple',
  'nutmeg',
  'olive',
  'poplar',
  'rowan',
  'spruce',
  'tamarack',
  'umbra',
  'willow',
  'yew',
];

async function post(server: EntryServer, p: string, body: unknown): Promise<{ id: string }> {
  const res = await server.request('POST', p, body);
  if (res.status >= 300) throw new Error(`POST ${p}: ${res.status} ${res.text}`);
  return res.body as { id: string };
}

/** A campaign, the app's batch, the baseline's batch and the donors, through the API. */
export async function seed(server: EntryServer): Promise<GiftEntrySetup> {
  const { id: campaignId } = await post(server, '/api/v1/campaigns', {
    accountId: server.accountId,
    name: 'Spring Gala',
  });
  const batch = await post(server, '/api/v1/batches', {
    accountId: server.accountId,
    name: 'Gala door',
    campaignId,
    paymentMethod: 'check',
  });
  // The baseline's gifts go to a second batch with the same defaults: same server work, not in the app's list.
  const baseBatch = await post(server, '/api/v1/batches', {
    accountId: server.accountId,
    name: 'Baseline',
    campaignId,
    paymentMethod: 'check',
  });
  const donors: Donor[] = [];
  for (const w of DONOR_WORDS) {
    const lastName = `Zed${w}`;
    const c = await post(server, '/api/v1/contacts', {
      accountId: server.accountId,
      firstName: 'Bench',
      lastName,
      primaryEmail: `${w}@bench.example`,
      employer: 'Acme',
      occupation: 'Engineer',
    });
    donors.push({ id: c.id, name: `Bench ${lastName}`, type: lastName.toLowerCase() });
  }
  return { campaignId, batchId: batch.id, baseBatchId: baseBatch.id, donors };
}

/** The app with the batch open on the gift-entry screen, the donor box focused. */
export async function openGiftEntry(
  browser: Browser,
  server: EntryServer,
  batchId: string,
): Promise<OpenedApp> {
  const app = await openApp(browser, server);
  const { page } = app;
  await prepare(page);
  await page.evaluate(
    ([k, id]) => localStorage.setItem(k!, id!),
    [`giftdesk.batch.${server.accountId}`, batchId],
  );
  await page.reload();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  await waitForFocus(page, /^Donor$/);
  return app;
}

interface Profiler {
  start(): Promise<void>;
  finish(): Promise<void>;
}

/** BENCH_UI_PROFILE=dir: a Chromium trace (timeline) and a CPU profile of the counted gifts, into dir. */
async function uiProfiler(page: Page): Promise<Profiler | null> {
  const profileDir = process.env.BENCH_UI_PROFILE;
  if (!profileDir) return null;
  const cdp = await page.context().newCDPSession(page);
  const traceEvents: unknown[] = [];
  cdp.on('Tracing.dataCollected', (e) => traceEvents.push(...(e.value as unknown[])));
  return {
    async start() {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
      await cdp.send('Tracing.start', {
        categories: 'devtools.timeline,blink.user_timing,v8.execute',
        transferMode: 'ReportEvents',
      });
    },
    async finish() {
      const { profile } = await cdp.send('Profiler.stop');
      const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
      await cdp.send('Tracing.end');
      await done;
      fs.mkdirSync(profileDir, { recursive: true });
      fs.writeFileSync(path.join(profileDir, 'gift.cpuprofile'), JSON.stringify(profile));
      fs.writeFileSync(path.join(profileDir, 'gift.trace.json'), JSON.stringify({ traceEvents }));
      log(`profile and trace in ${profileDir}`);
    },
  };
}

/** The donor's name as typed, all but its last key; then the last key → the donor on top. */
async function typeDonor(page: Page, d: Donor): Promise<ProbeResult> {
  await waitForFocus(page, /^Donor$/);
  await page.keyboard.type(d.type.slice(0, -1));
  await arm(page, 'input', `donorTop:${d.name}`);
  await page.keyboard.type(d.type.slice(-1));
  return measured(page);
}

/** The donor box's baseline: its request alone, with fetch from the same page. */
function donorSearchBaseline(page: Page, server: EntryServer, q: string): Promise<number> {
  return page.evaluate(
    async ({ q, headers, accountId }) => {
      const t0 = performance.now();
      const res = await fetch(
        `/api/v1/contact-summaries?accountId=${accountId}&search=${encodeURIComponent(q)}&limit=8&sortBy=relevance`,
        { headers, cache: 'no-store' },
      );
      await res.json();
      return performance.now() - t0;
    },
    {
      q,
      headers: {
        'x-api-key': server.keyId,
        authorization: `Bearer ${server.secret}`,
        accept: 'application/json',
      },
      accountId: server.accountId,
    },
  );
}

/** The amount typed in the focused amount field, then Enter → the saved row on screen. */
async function typeAmountAndSave(page: Page, amount: string): Promise<ProbeResult> {
  await waitForFocus(page, /^Amount/);
  await page.keyboard.type(amount);
  const before = await page.evaluate(() =>
    [...document.querySelectorAll('table.gift-table tr[data-donation-id]')]
      .map((tr) => tr.getAttribute('data-donation-id'))
      .join(','),
  );
  await arm(page, 'enter', `newGiftRow:${before}`);
  await page.keyboard.press('Enter');
  return measured(page);
}

/** Baseline, same page, right after: a bare fetch POST of the same gift + its row shown (in place of the last), to the next frame. */
function giftBaseline(
  page: Page,
  server: EntryServer,
  setup: GiftEntrySetup,
  d: Donor,
  amount: string,
): Promise<number> {
  return page.evaluate(
    async ({ body, headers }) => {
      let table = document.getElementById('bench-baseline') as HTMLTableElement | null;
      if (!table) {
        table = document.createElement('table');
        table.id = 'bench-baseline';
        document.body.append(table);
      }
      const t0 = performance.now();
      const res = await fetch('/api/v1/donations', {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        cache: 'no-store',
      });
      const saved = (await res.json()) as { id: string; donationAmount: number };
      if (res.status !== 201) throw new Error(`baseline POST answered ${res.status}`);
      const tr = document.createElement('tr');
      for (const text of [
        saved.id,
        body.contactName,
        `$${saved.donationAmount.toFixed(2)}`,
        body.donationDate,
        body.paymentMethod,
      ]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      // The baseline's one row replaces its last: a table that grew by a row a gift would be
      // laid out and painted with the app's screen on every frame, in the app's figure too.
      table.replaceChildren(tr);
      return new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now() - t0)));
    },
    {
      body: {
        accountId: server.accountId,
        batchId: setup.baseBatchId,
        contactId: d.id,
        contactName: d.name,
        donationAmount: Number(amount),
        donationDate: new Date().toISOString().slice(0, 10),
        paymentMethod: 'check',
        campaignId: setup.campaignId,
      },
      headers: {
        'x-api-key': server.keyId,
        authorization: `Bearer ${server.secret}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
    },
  );
}

/** Gift i as a user types it (donor, Enter, amount, Enter), then its baseline; past the warm-up, into `s`. */
async function enterGift(
  page: Page,
  server: EntryServer,
  setup: GiftEntrySetup,
  i: number,
  s: Samples,
): Promise<void> {
  const counted = i >= WARMUP_ENTRIES;
  const d = setup.donors[i % setup.donors.length]!;
  const amount = `${10 + (i % 90)}.${String(i % 100).padStart(2, '0')}`;
  const k = await typeDonor(page, d);
  if (counted) {
    s.keystroke.push(k.frame);
    s.keystrokeBase.push(await donorSearchBaseline(page, server, d.type));
  }
  await page.keyboard.press('Enter');
  const r = await typeAmountAndSave(page, amount);
  if (counted) {
    // The app saves through POST /batches/:id/donations (older builds: POST /donations).
    s.postEnd.push(
      r.requests.find((q) => /^\/api\/v1\/(batches\/[^/]+\/)?donations$/.test(q.path))?.end ?? NaN,
    );
    s.requestCount.push(r.requests.length);
  }
  const b = await giftBaseline(page, server, setup, d, amount);
  if (counted) {
    s.ours.push(r.frame);
    s.base.push(b);
  }
}

/** The warm-up gifts, then `count` counted ones (profiled when asked). */
export async function enterGifts(
  page: Page,
  server: EntryServer,
  setup: GiftEntrySetup,
  count = ENTRIES,
): Promise<Samples> {
  const s: Samples = { ours: [], base: [], keystroke: [], keystrokeBase: [], postEnd: [], requestCount: [] };
  const profiler = await uiProfiler(page);
  for (let i = 0; i < WARMUP_ENTRIES + count; i++) {
    if (i % 25 === 0) log(`gift entry ${i + 1}/${WARMUP_ENTRIES + count} (${WARMUP_ENTRIES} warm-up)`);
    if (profiler && i === WARMUP_ENTRIES) await profiler.start();
    await enterGift(page, server, setup, i, s);
  }
  await profiler?.finish();
  return s;
}

/** Closes the page once the batch counts every gift entered (`count` + the warm-up), and the page reported no problem. */
export async function closeChecked({ page, context, problems }: OpenedApp, count = ENTRIES): Promise<void> {
  const shown = await page.evaluate(
    () => document.querySelector('[data-testid="batch-count"]')?.textContent ?? '',
  );
  await context.close();
  if (!shown.startsWith(String(WARMUP_ENTRIES + count)))
    throw new Error(`the batch says “${shown}” after ${WARMUP_ENTRIES + count} gifts`);
  if (problems.length) throw new Error(`the page reported problems: ${problems.join('; ')}`);
}

function report({ ours, base, keystroke, keystrokeBase, postEnd, requestCount }: Samples): {
  rows: UiRow[];
  note: string;
} {
  const o = percentiles(ours);
  const b = percentiles(base);
  return {
    rows: [
      {
        name: `Gift entry: Enter → the saved row on screen, ${ENTRIES} gifts typed by keyboard`,
        figure: `p50 ${fmt(o.p50)} ms, p95 ${fmt(o.p95)} ms, max ${fmt(o.max)} ms`,
        baseline: `bare fetch POST of the same gift + its row shown, same page: p50 ${fmt(b.p50)} ms, p95 ${fmt(b.p95)} ms`,
        ratio: `${(o.p95 / b.p95).toFixed(2)}× the baseline p95`,
        goal: 'p95 under 50 ms',
        met: o.p95 < 50 ? 'yes' : 'no',
      },
      {
        name: `Gift entry, ${fmt(CONTACTS, 0)} contacts: donor box keystroke → the donor on top of the options on screen, ${ENTRIES} donors typed`,
        figure: `p50 ${fmt(percentiles(keystroke).p50)} ms, p95 ${fmt(percentiles(keystroke).p95)} ms, max ${fmt(percentiles(keystroke).max)} ms`,
        baseline: `bare GET /contact-summaries?search=&limit=8&sortBy=relevance of the typed text, same page: p50 ${fmt(percentiles(keystrokeBase).p50)} ms, p95 ${fmt(percentiles(keystrokeBase).p95)} ms`,
        ratio: `${(percentiles(keystroke).p95 / percentiles(keystrokeBase).p95).toFixed(2)}× the baseline p95`,
        goal: 'p95 under 100 ms',
        met: percentiles(keystroke).p95 < 100 ? 'yes' : 'no',
      },
    ],
    note: `Gift entry: the app's gift-entry screen with a batch open (campaign and method from the batch), in the server holding the ${fmt(CONTACTS, 0)} contacts below; each gift is typed as a user does it (donor's name, Enter on the top match, amount) and Enter saves. The time runs from the Enter key event's timestamp to the first animation frame after a MutationObserver sees a saved-gift row with a new id in the batch's table (the save's POST, whose answer carries the row, and React's render between). ${WARMUP_ENTRIES} warm-up gifts first, not counted. The baseline, right after each gift in the same page: fetch POST /api/v1/donations of the same gift (into a second batch with the same defaults) and its one <tr> put in a plain table in place of the previous gift's (so that the page does not grow by a foreign row a gift), to the next frame. Where the time goes (the page's resource timing): the app's POST answered at p50 ${fmt(percentiles(postEnd).p50)} ms after Enter, the row on screen at p50 ${fmt(o.p50)} ms; median ${percentiles(requestCount).p50}, max ${percentiles(requestCount).max} request(s) in between (the POST /batches/:id/donations, whose answer is the row, the batch's figures and the sync status; the rest of the app's data is only marked stale, no request). The app's save also reads the gift back and the batch's figures in the server; the baseline's POST does neither. Donor box: each donor's name is typed key by key, all but the last key first; the time runs from the last key's input event to the first frame after the highlighted option (the one Enter takes) names the donor (the box's 30 ms debounce and the GET /contact-summaries?search=&limit=8&sortBy=relevance included); its baseline is that request alone with fetch from the same page.`,
  };
}

export async function giftEntry(
  browser: Browser,
  server: AppServer,
): Promise<{ rows: UiRow[]; note: string }> {
  const setup = await seed(server);
  const app = await openGiftEntry(browser, server, setup.batchId);
  const samples = await enterGifts(app.page, server, setup);
  await closeChecked(app);
  return report(samples);
}
