/**
 * Layout on the two screens events actually use, a 1024×700 laptop and a 1280×800 one, with
 * an evening's messy data (a long organisation name, three Robert Browns, twin $19.99 cash
 * gifts, a seven-figure pledge, HQ linked but unreachable): the navigation's labels stay on
 * one line, the organisation's name stays readable, nothing in the header overlaps; the saved
 * gifts start above the fold on Gift entry; the Dashboard's two big totals neither overlap nor
 * get cut off (also in "Show on a big screen"). Every screen and dialog passes axe with no
 * violation of any impact and is photographed at both sizes (test-artifacts/screenshots/).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '../../renderer/screens/dashboard/dashboard-periods.ts';
import { testKeys } from '../sync/rig.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import {
  expectNoA11yViolations,
  freePort,
  launchChromium,
  openApp,
  screenshot,
  startAppServer,
  type AppServer,
} from './helpers.ts';

const ORG = 'Riverside Community Food Bank';
const SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
];

let server: AppServer;
let browser: Browser;
let batchId: string;

const post = async (path: string, body: Record<string, unknown>) =>
  expectStatus(await server.request('POST', path, { accountId: server.accountId, ...body }), 201);

beforeAll(async () => {
  server = await startAppServer({ sync: { keys: testKeys, run: false } });
  await server.store.db
    .updateTable('accounts')
    .set({ name: ORG })
    .where('id', '=', server.accountId)
    .execute();
  // Linked to an HQ that is not there: the badge says so, as on a real evening with bad Wi-Fi.
  const hqPort = await freePort();
  const linked = await server.request('PUT', '/api/v1/sync/settings', {
    accountId: server.accountId,
    baseUrl: `http://127.0.0.1:${hqPort}`,
    keyId: 'key_hq',
    secret: 'a'.repeat(40),
    remoteAccountId: 'acct_hq',
  });
  expect(linked.status, linked.text).toBe(200);
  const gala = await post('/api/v1/campaigns', { name: 'Spring Gala 2026 — Riverside Community Food Bank' });
  const annual = await post('/api/v1/campaigns', { name: 'Annual Fund' });
  const donors: Array<{ id: string }> = [];
  for (const [first, last, email] of [
    ['Robert', 'Brown', 'rob.brown@example.org'],
    ['Robert', 'Brown', 'bob@brownfamily.example'],
    ['Robert', 'Brown', null],
    ['José', 'García', 'jose@example.org'],
    ['Zoë', 'Núñez', 'zoe.nunez@example.org'],
    ['Siobhán', "O'Brien", 'rob.brown@example.org'], // same email as a Robert Brown: a shared family inbox
  ] as const) {
    donors.push(await post('/api/v1/contacts', { firstName: first, lastName: last, primaryEmail: email }));
  }
  const batch = await post('/api/v1/batches', {
    name: 'Table 4 — checks and cash at the door',
    campaignId: gala.id,
    paymentMethod: 'check',
    expectedCount: 14,
    expectedTotal: 1_300_000,
  });
  batchId = batch.id;
  const today = localDate(new Date());
  const gift = (i: number, amount: number, fields: Record<string, unknown> = {}) =>
    post('/api/v1/donations', {
      contactId: donors[i % donors.length]!.id,
      donationAmount: amount,
      donationDate: today,
      paymentMethod: 'check',
      campaignId: gala.id,
      batchId: batch.id,
      ...fields,
    });
  // Twins: same donor, $19.99 cash, the same minute.
  await gift(3, 19.99, { paymentMethod: 'cash' });
  await gift(3, 19.99, { paymentMethod: 'cash' });
  await gift(0, 1_250_000, { notes: 'Pledge paid in full — matching gift letter attached' });
  for (let i = 0; i < 9; i++)
    await gift(
      i,
      [50, 25, 100, 250.5, 75, 20, 35, 500, 10][i]!,
      i === 4 ? { campaignId: annual.id, isAnonymous: true } : {},
    );
  await post('/api/v1/donations', {
    contactId: donors[4]!.id,
    donationAmount: 40_000,
    donationDate: today,
    paymentMethod: 'wire',
    campaignId: annual.id,
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Rect = { left: number; top: number; right: number; bottom: number; width: number; height: number };
const overlaps = (a: Rect, b: Rect) =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
const rect = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
    });

/** The header's parts: each nav label's line count, the organisation's text as shown, and every pair that overlaps. */
async function headerFacts(page: Page) {
  return page.evaluate(() => {
    const box = (el: Element) => el.getBoundingClientRect();
    const lines = (el: Element) => {
      const r = document.createRange();
      r.selectNodeContents(el);
      return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
    };
    const org = document.querySelector<HTMLElement>('.brand-org');
    const parts = [
      ...document.querySelectorAll('.brand-name, .brand-org, .nav a, [data-testid="sync-badge"]'),
    ];
    const clashes: string[] = [];
    for (let i = 0; i < parts.length; i++)
      for (let j = i + 1; j < parts.length; j++) {
        const a = box(parts[i]!);
        const b = box(parts[j]!);
        if (
          a.left < b.right - 0.5 &&
          b.left < a.right - 0.5 &&
          a.top < b.bottom - 0.5 &&
          b.top < a.bottom - 0.5
        )
          clashes.push(`${parts[i]!.textContent} × ${parts[j]!.textContent}`);
      }
    const header = box(document.querySelector('.app-header')!);
    return {
      navLines: [...document.querySelectorAll('.nav a')].map((a) => ({
        label: a.textContent,
        lines: lines(a),
      })),
      org: org
        ? { text: org.textContent, shownWhole: org.scrollWidth <= org.clientWidth + 1, width: box(org).width }
        : null,
      clashes,
      outside: parts
        .filter((p) => box(p).right > header.right + 0.5 || box(p).left < header.left - 0.5)
        .map((p) => p.textContent),
      // The sync badge whole on screen: its pill (the link inside it) inside the window, and
      // nothing of its text hidden by the box around it.
      badgeCut: [...document.querySelectorAll('[data-testid="sync-badge"], [data-testid="sync-badge"] a')]
        .filter(
          (el) =>
            box(el).right > window.innerWidth + 0.5 ||
            box(el).left < -0.5 ||
            el.scrollWidth > el.clientWidth + 1,
        )
        .map(
          (el) =>
            `${el.textContent} (${Math.round(box(el).left)}–${Math.round(box(el).right)} of ${window.innerWidth}, text ${el.scrollWidth} in ${el.clientWidth})`,
        ),
    };
  });
}

describe.each(SIZES)('at $width×$height', (size) => {
  const tag = `${size.width}x${size.height}`;

  it('header: every nav label on one line, the organisation named in full, nothing overlapping', async () => {
    const { page, context, problems } = await openApp(browser, server, { viewport: size });
    try {
      await page.getByText(ORG).waitFor();
      await page.getByTestId('sync-badge').waitFor();
      const h = await headerFacts(page);
      expect(
        h.navLines.filter((n) => n.lines !== 1),
        'nav labels on more than one line',
      ).toEqual([]);
      expect(h.org, 'the organisation is named').toMatchObject({ text: ORG, shownWhole: true });
      expect(h.clashes, 'header parts overlapping').toEqual([]);
      expect(h.outside, 'header parts outside the header').toEqual([]);
      expect(h.badgeCut, 'the sync badge cut off').toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('header: the longest sync badge an evening can bring stays whole on screen', async () => {
    const { page, context, problems } = await openApp(browser, server, { viewport: size });
    try {
      // The status the server answers, as it reads after an hour of bad Wi-Fi: offline since a
      // time, four-figure waiting, backing off, and records that need a person.
      const real = expectStatus(
        await server.request('GET', `/api/v1/sync/status?accountId=${server.accountId}`),
        200,
      );
      const worst = {
        ...real,
        waiting: 1234,
        needsAttention: 12,
        connection: { ...real.connection, state: 'offline', lastAnsweredAt: '2026-11-27T21:47:00.000Z' },
        failing: [
          {
            entityType: 'donation',
            entityId: 'don_x',
            label: '$19.99 from Robert Brown',
            failures: 4,
            lastError: 'HQ did not answer',
            nextTryAt: null,
          },
        ],
      };
      await page.route('**/api/v1/sync/status?**', (route) => route.fulfill({ json: worst }));
      await page.reload();
      // The header as it stands once both its answers are in: the badge's status (answered
      // here, at the browser) and the organisation's name (the server's, which may come later).
      await page.getByTestId('sync-badge-attention').waitFor();
      await page.getByRole('banner').getByText(ORG, { exact: true }).waitFor();
      expect(await page.getByTestId('sync-badge').textContent()).toMatch(
        /Offline .*1234 waiting · backing off/,
      );
      const h = await headerFacts(page);
      expect(h.badgeCut, 'the sync badge cut off').toEqual([]);
      expect(h.clashes, 'header parts overlapping').toEqual([]);
      expect(h.org, 'the organisation is named').toMatchObject({ text: ORG, shownWhole: true });
      await screenshot(page, `layout-header-long-badge-${tag}`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('gift entry: the row to type in, and the saved gifts starting above the fold', async () => {
    const { page, context, problems } = await openApp(browser, server, { viewport: size });
    try {
      // The batch in use, as Gift entry remembers it for this window.
      await page.evaluate(
        ([key, id]) => localStorage.setItem(key!, id!),
        [`giftdesk.batch.${server.accountId}`, batchId],
      );
      await page.reload();
      await page.getByRole('combobox', { name: 'Donor' }).waitFor();
      const firstRow = page.locator('table.gift-table tbody tr').first();
      await firstRow.waitFor();
      await screenshot(page, `layout-gift-entry-${tag}`);
      const form = await rect(page, 'form.gift-row');
      const saved = await rect(page, 'table.gift-table tbody tr');
      const title = await rect(page, '#saved-gifts-title');
      expect(form.bottom, 'the whole entry row is on screen').toBeLessThanOrEqual(size.height);
      expect(title.top, 'the saved gifts’ heading is above the fold').toBeLessThan(size.height);
      expect(saved.bottom, 'the newest saved gift is wholly above the fold').toBeLessThanOrEqual(size.height);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        'no sideways scrolling',
      ).toBe(true);
      await expectNoA11yViolations(page, `Gift entry at ${tag}`);

      // The dialogs of this screen: start a batch, correct a gift, void a gift.
      await page.getByRole('button', { name: 'New batch…' }).click();
      await page.getByRole('dialog', { name: 'Start a batch' }).waitFor();
      await expectNoA11yViolations(page, `Start a batch at ${tag}`);
      await screenshot(page, `layout-new-batch-${tag}`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Start a batch' }).waitFor({ state: 'hidden' });

      await firstRow.getByRole('button', { name: /^Correct the gift/ }).click();
      const correct = page.getByRole('dialog', { name: /^Correct the gift/ });
      await correct.waitFor();
      await expectNoA11yViolations(page, `Correct a gift at ${tag}`);
      await screenshot(page, `layout-correct-gift-${tag}`);
      await page.keyboard.press('Escape');
      await correct.waitFor({ state: 'detached' });

      await firstRow.getByRole('button', { name: /^Void the gift/ }).click();
      const voiding = page.getByRole('dialog', { name: 'Void this gift?' });
      await voiding.waitFor();
      await expectNoA11yViolations(page, `Void a gift at ${tag}`);
      await screenshot(page, `layout-void-gift-${tag}`);
      await page.keyboard.press('Escape');
      await voiding.waitFor({ state: 'hidden' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Dashboard: the two big totals neither overlap nor get cut off, in the page and on a big screen', async () => {
    const { page, context, problems } = await openApp(browser, server, { viewport: size });
    try {
      await page.keyboard.press('Alt+4');
      await page.getByTestId('today-total').waitFor();
      await expect.poll(() => page.getByTestId('batch-total').textContent()).toBe('$1,251,105.48');
      expect(await page.getByTestId('today-total').textContent()).toBe('$1,291,105.48');
      const check = async (where: string) => {
        const facts = await page.evaluate(() => {
          const box = (el: Element | Range) => {
            const r = el.getBoundingClientRect();
            return {
              left: r.left,
              top: r.top,
              right: r.right,
              bottom: r.bottom,
              width: r.width,
              height: r.height,
            };
          };
          // The text's own extent (a Range), not its box: text spilling out of its box is what a reader sees cut or overlapping.
          const ink = (el: Element) => {
            const r = document.createRange();
            r.selectNodeContents(el);
            return box(r);
          };
          const today = document.querySelector('[data-testid="today-total"]')!;
          const batch = document.querySelector('[data-testid="batch-total"]')!;
          const section = document.querySelector('.big-figures')!;
          return {
            today: ink(today),
            batch: ink(batch),
            todayFigure: box(today.closest('.big-figure')!),
            batchFigure: box(batch.closest('.big-figure')!),
            section: box(section),
            lines: [today, batch].map((el) => {
              const r = document.createRange();
              r.selectNodeContents(el);
              return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
            }),
            viewport: { width: window.innerWidth, height: window.innerHeight },
          };
        });
        expect(overlaps(facts.today, facts.batch), `${where}: the totals overlap`).toBe(false);
        if (where === 'on a big screen') {
          // The screen is used: totals readable across a hall, growing with the screen.
          for (const ink of [facts.today, facts.batch]) {
            expect(ink.height, `${where}: a total's height`).toBeGreaterThanOrEqual(
              facts.viewport.width * 0.08,
            );
            expect(ink.bottom, `${where}: a total below the screen`).toBeLessThanOrEqual(
              facts.viewport.height,
            );
          }
        }
        expect(facts.lines, `${where}: each total on one line`).toEqual([1, 1]);
        for (const [name, ink, figure] of [
          ['today', facts.today, facts.todayFigure],
          ['batch', facts.batch, facts.batchFigure],
        ] as const) {
          expect(ink.right, `${where}: the ${name} total spills out of its figure`).toBeLessThanOrEqual(
            figure.right + 0.5,
          );
          expect(ink.left, `${where}: the ${name} total spills out of its figure`).toBeGreaterThanOrEqual(
            figure.left - 0.5,
          );
          expect(
            ink.right,
            `${where}: the ${name} total is cut off at the screen's edge`,
          ).toBeLessThanOrEqual(Math.min(facts.section.right, facts.viewport.width) + 0.5);
        }
      };
      await screenshot(page, `layout-dashboard-${tag}`);
      await check('in the page');
      await expectNoA11yViolations(page, `Dashboard at ${tag}`);

      await page.getByRole('button', { name: 'Show on a big screen' }).click();
      await expect
        .poll(() => page.evaluate(() => document.fullscreenElement?.className ?? null))
        .toBe('big-figures');
      await screenshot(page, `layout-dashboard-big-screen-${tag}`);
      await check('on a big screen');
      await page.evaluate(() => document.exitFullscreen());
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Contacts, Review and Settings: no sideways scrolling, photographed, no axe violation of any impact', async () => {
    const { page, context, problems } = await openApp(browser, server, { viewport: size });
    try {
      // The header's parts, whose overlaps are checked on each screen, are all there first.
      await page.getByRole('banner').getByText(ORG, { exact: true }).waitFor();
      await page.getByTestId('sync-badge').waitFor();
      for (const [key, name, file] of [
        ['2', 'Contacts', 'contacts'],
        ['3', 'Review', 'review'],
        ['5', 'Settings', 'settings'],
      ] as const) {
        await page.keyboard.press(`Alt+${key}`);
        await expect.poll(() => page.evaluate(() => document.querySelector('h1')?.textContent)).toBe(name);
        if (name === 'Contacts') await page.getByText('Robert Brown').first().waitFor();
        await page.waitForLoadState('networkidle').catch(() => undefined);
        if (name === 'Contacts') {
          // No amount is cut short: a donor's total given ($1,250,085.00 here) shows whole.
          const cut = await page.evaluate(() =>
            [...document.querySelectorAll<HTMLElement>('.ccell-money, .ccell-date')]
              .filter((c) => c.scrollWidth > c.clientWidth)
              .map((c) => c.textContent),
          );
          expect(cut, `Contacts at ${tag}: amounts or dates cut short`).toEqual([]);
        }
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          `${name}: no sideways scrolling`,
        ).toBe(true);
        const h = await headerFacts(page);
        expect(h.clashes, `${name}: header parts overlapping`).toEqual([]);
        await expectNoA11yViolations(page, `${name} at ${tag}`);
        await screenshot(page, `layout-${file}-${tag}`);
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
