/**
 * The Dashboard in real Chromium against a real server: the large figures (entered today,
 * the batch against what it expects) equal the API's own statistics and refresh on their
 * own when a gift arrives from elsewhere; totals by campaign and the chart's table equal
 * the API's; the chart is described for screen readers; axe; screenshots.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '#shared/money.ts';
import { localDate, periodQuery } from '../../renderer/screens/dashboard/dashboard-periods.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  openApp,
  screenshot,
  startAppServer,
  type AppServer,
} from './helpers.ts';

let server: AppServer;
let browser: Browser;

const post = async (path: string, body: Record<string, unknown>) =>
  expectStatus(await server.request('POST', path, { accountId: server.accountId, ...body }), 201);
const get = async (path: string, query: Record<string, string> = {}) =>
  expectStatus(
    await server.request(
      'GET',
      `${path}?${new URLSearchParams({ accountId: server.accountId, ...query }).toString()}`,
    ),
    200,
  );
const money = (dollars: number) => formatCents(Math.round(dollars * 100));

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Dashboard', () => {
  it('says plainly when there is nothing yet', async () => {
    const { page, context, problems } = await openApp(browser, server);
    await page.keyboard.press('Alt+4');
    await page.getByTestId('today-total').waitFor();
    expect(await page.getByTestId('today-total').textContent()).toBe('$0.00');
    await page.getByText('No batch yet').waitFor();
    await page.getByText('No gifts in this period').first().waitFor();
    await expectNoA11yViolations(page, 'Dashboard (empty)');
    await screenshot(page, 'dashboard-empty');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows today's and the batch's totals as the API counts them, by campaign and over time, refreshing on its own", async () => {
    const gala = await post('/api/v1/campaigns', { name: 'Spring Gala' });
    const annual = await post('/api/v1/campaigns', { name: 'Annual Fund' });
    const committee = await post('/api/v1/committees', { name: 'Friends' });
    const batch = await post('/api/v1/batches', {
      name: 'Table 4 checks',
      campaignId: gala.id,
      expectedCount: 5,
      expectedTotal: 900,
    });
    const donors: Array<{ id: string }> = [];
    for (const [first, last] of [
      ['Ada', 'Lovelace'],
      ['Grace', 'Hopper'],
      ['Alan', 'Turing'],
    ])
      donors.push(await post('/api/v1/contacts', { firstName: first, lastName: last }));
    const today = localDate(new Date());
    const gift = (i: number, fields: Record<string, unknown>) =>
      post('/api/v1/donations', {
        contactId: donors[i % 3]!.id,
        donationDate: today,
        paymentMethod: 'check',
        ...fields,
      });
    await gift(0, { donationAmount: 250, campaignId: gala.id, batchId: batch.id });
    await gift(1, { donationAmount: 100.5, campaignId: gala.id, batchId: batch.id });
    await gift(2, { donationAmount: 75, campaignId: annual.id, batchId: batch.id });
    await gift(0, { donationAmount: 40, committeeId: committee.id });
    // an old gift typed today counts as entered today; its date is 2019
    await gift(1, { donationAmount: 1000, campaignId: annual.id, donationDate: '2019-05-01' });

    const { page, context, problems } = await openApp(browser, server);
    await page.keyboard.press('Alt+4');
    const api = await get('/api/v1/stats/donations', { ...periodQuery('today') });
    expect(api.count).toBe(5);
    await expect.poll(() => page.getByTestId('today-total').textContent()).toBe(money(api.total));
    expect(await page.getByTestId('today-count').textContent()).toBe(`${api.count} gifts`);

    const b = await get(`/api/v1/batches/${batch.id}`);
    await expect.poll(() => page.getByTestId('batch-total').textContent()).toBe(money(b.total));
    expect(await page.getByTestId('batch-count').textContent()).toBe(
      `${b.count} gifts of 5 expected · $900.00 expected`,
    );
    expect(await page.getByText('Does not match yet').textContent()).toContain('2 more gifts expected');

    // totals by campaign: the table's rows are the API's
    const rows = await page.locator('.campaign-table tbody tr').evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from(tr.children)
          .slice(0, 3)
          .map((c) => c.textContent),
      ),
    );
    expect(rows).toEqual(
      api.byCampaign.map((c: { campaignName: string | null; count: number; total: number }) => [
        c.campaignName ?? 'No campaign',
        String(c.count),
        money(c.total),
      ]),
    );

    // the chart: an image with a title and a description, and the same figures as a table
    const chart = page.getByRole('img', { name: /Amount raised per hour/ });
    await chart.waitFor();
    expect(await chart.getAttribute('aria-labelledby')).toMatch(/ /);
    await page.getByText('Show these figures as a table').click();
    const cells = await page
      .locator('.chart-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.children[1]!.textContent, tr.children[2]!.textContent]));
    expect(cells).toEqual(
      api.overTime.points.map((p: { count: number; total: number }) => [String(p.count), money(p.total)]),
    );
    expect(cells.length).toBe(24);

    await expectNoA11yViolations(page, 'Dashboard');
    await screenshot(page, 'dashboard');

    // a gift saved elsewhere (a script, another window) shows up without touching the page
    await gift(2, { donationAmount: 9.99, campaignId: gala.id, batchId: batch.id });
    const after = await get('/api/v1/stats/donations', { ...periodQuery('today') });
    expect(Math.round(after.total * 100)).toBe(Math.round(api.total * 100) + 999);
    await expect
      .poll(() => page.getByTestId('today-total').textContent(), { timeout: 30_000, interval: 500 })
      .toBe(money(after.total));
    await expect
      .poll(() => page.getByTestId('batch-count').textContent(), { timeout: 30_000, interval: 500 })
      .toMatch(/^4 gifts of 5/);

    // longer periods count gifts by their date, by day
    await page.getByRole('button', { name: 'Last 30 days' }).click();
    const month = await get('/api/v1/stats/donations', { ...periodQuery('30d') });
    await page.getByRole('img', { name: /Amount raised per day/ }).waitFor();
    await expect
      .poll(() => page.locator('.campaign-table tfoot td').nth(1).textContent())
      .toBe(money(month.total));
    expect(month.count).toBe(5); // the 2019 gift is not in the last 30 days
    await screenshot(page, 'dashboard-30-days');
    expect(problems).toEqual([]);
    await context.close();
  });
});
