/**
 * Balancing a batch at the end of the night, in real Chromium against a real server: a batch
 * of 40 gifts (cash, checks, cards; twin $19.99 cash gifts from one donor, two Robert Browns
 * each paying $100 by check) is opened from the batch panel; its deposit summary lists every
 * check once with the right total; the treasurer types the count by keyboard, the cash box
 * $20 short, sees the difference as it is typed, closes with a confirmation, and sees the count
 * record — on the page, in the batch panel, and through the API. The print page shows the
 * summary without the app around it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '#shared/money.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import {
  expectNoA11yViolations,
  cutFirstAnswer,
  launchChromium,
  openApp,
  screenshot,
  startAppServer,
  type AppServer,
} from './helpers.ts';

let server: AppServer;
let browser: Browser;
let galaId: string;
const donors: Record<string, string> = {};

const post = async (path: string, body: Record<string, unknown>) =>
  expectStatus(await server.request('POST', path, { accountId: server.accountId, ...body }), 201);
const get = async (path: string) =>
  expectStatus(await server.request('GET', `${path}?accountId=${server.accountId}`), 200);

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  galaId = (await post('/api/v1/campaigns', { name: 'Spring Gala' })).id;
  for (const [key, firstName, lastName, primaryEmail] of [
    ['rob1', 'Robert', 'Brown', 'rob.brown@example.org'],
    ['rob2', 'Robert', 'Brown', 'bob@brownfamily.example'],
    ['zoe', 'Zoë', 'Núñez', 'zoe@example.org'],
    ['jose', 'José', 'García', null],
    ['ann', 'Ann', 'Lee', 'ann@example.org'],
  ] as const)
    donors[key] = (await post('/api/v1/contacts', { firstName, lastName, primaryEmail })).id;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Method = 'cash' | 'check' | 'credit_card';
interface Gift {
  donor: string;
  cents: number;
  method: Method;
  notes?: string;
}

/** 12 cash (the twins among them), 16 checks (the namesakes; numbers in most notes), 12 cards. */
function night(): Gift[] {
  const gifts: Gift[] = [
    { donor: 'zoe', cents: 1999, method: 'cash', notes: 'table 4' },
    { donor: 'zoe', cents: 1999, method: 'cash', notes: 'table 4' },
    { donor: 'rob1', cents: 10000, method: 'check', notes: 'check 1021' },
    { donor: 'rob2', cents: 10000, method: 'check', notes: 'ck #388' },
    { donor: 'jose', cents: 25050, method: 'check', notes: 'Pledge card 114' },
  ];
  const keys = Object.keys(donors);
  const want: Record<Method, number> = { cash: 12, check: 16, credit_card: 12 };
  for (let i = 0; gifts.length < 40; i++) {
    const method = (['cash', 'check', 'credit_card'] as const)[i % 3]!;
    if (gifts.filter((g) => g.method === method).length >= want[method]) continue;
    gifts.push({
      donor: keys[i % keys.length]!,
      cents: [2500, 5000, 7525, 10000, 1001][i % 5]!,
      method,
      ...(method === 'check' && i % 2 === 0 ? { notes: `check no. ${3000 + i}` } : {}),
    });
  }
  return gifts;
}

const activeLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.getAttribute('aria-label') ?? el?.labels?.[0]?.textContent ?? el?.textContent ?? '';
  });

describe('balancing a batch', () => {
  it('a batch of 40 gifts: every check once, the count typed by keyboard, a $20 difference shown, confirmed and recorded', async () => {
    const gifts = night();
    const batch = await post('/api/v1/batches', {
      name: 'Gala night',
      campaignId: galaId,
      paymentMethod: 'check',
    });
    for (const g of gifts)
      await post(`/api/v1/batches/${batch.id}/donations`, {
        contactId: donors[g.donor],
        donationAmount: g.cents / 100,
        donationDate: '2026-11-27',
        paymentMethod: g.method,
        campaignId: galaId,
        notes: g.notes ?? null,
      });
    const sum = (m: Method) => gifts.filter((g) => g.method === m).reduce((a, g) => a + g.cents, 0);
    const all = sum('cash') + sum('check') + sum('credit_card');

    const { page, context, problems } = await openApp(browser, server);
    try {
      await page.evaluate(
        ([key, id]) => localStorage.setItem(key!, id!),
        [`giftdesk.batch.${server.accountId}`, batch.id as string],
      );
      await page.reload();
      const balance = page.getByRole('button', { name: 'Balance and close…' });
      await balance.waitFor();
      await balance.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Deposit summary: Gala night' }).waitFor();
      await expect.poll(() => activeLabel(page)).toBe('Cash: total counted ($)');

      // The figures: 40 gifts, the cash total, and every check once with the right total.
      expect(await page.getByTestId('deposit-count').textContent()).toBe('40');
      expect(await page.getByTestId('deposit-total').textContent()).toBe(formatCents(all));
      expect(await page.getByTestId('deposit-cash').textContent()).toBe(formatCents(sum('cash')));
      const checkRows = page.locator('.deposit-checks tbody tr:not(.deposit-total-row)');
      expect(await checkRows.count()).toBe(16);
      const rows = await checkRows.evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      );
      expect(rows.map((r) => r[0])).toEqual(Array.from({ length: 16 }, (_, i) => String(i + 1)));
      expect(rows[0]).toEqual(['1', 'Robert Brown · rob.brown@example.org', '1021', '$100.00']);
      expect(rows[1]).toEqual(['2', 'Robert Brown · bob@brownfamily.example', '388', '$100.00']);
      expect(rows[2]).toEqual(['3', 'José García', 'not written', '$250.50']);
      const listed = rows.reduce((a, r) => a + Math.round(Number(r[3]!.replace(/[$,]/g, '')) * 100), 0);
      expect(listed).toBe(sum('check'));
      expect(await page.getByTestId('checks-total').textContent()).toBe(formatCents(sum('check')));

      // Enter before anything is counted: each method with gifts asks for its total, and the
      // cursor stays in the first; nothing is sent.
      const difference = page.getByTestId('count-difference');
      expect(await difference.textContent()).toBe('Type what was counted for each payment method.');
      await page.keyboard.press('Enter');
      await page.getByText('Type what was counted for cash (0 if none).').waitFor();
      await page.getByText('Type what was counted for credit card (0 if none).').waitFor();
      await expect.poll(() => activeLabel(page)).toBe('Cash: total counted ($)');
      expect((await get(`/api/v1/batches/${batch.id}/deposit`)).closedAt).toBeNull();

      // The count, by keyboard: the cash box is $20 short; checks and cards as entered.
      await page.keyboard.type(((sum('cash') - 2000) / 100).toFixed(2));
      await expect.poll(() => page.locator('tr[data-method="cash"]').textContent()).toContain('$20.00 short');
      await page.keyboard.press('Tab');
      expect(await activeLabel(page)).toBe('Check: number counted');
      await page.keyboard.type('16');
      await page.keyboard.press('Tab');
      await page.keyboard.type((sum('check') / 100).toFixed(2));
      await page.keyboard.press('Tab');
      expect(await activeLabel(page)).toBe('Credit card: number counted');
      await page.keyboard.type('12');
      await page.keyboard.press('Tab');
      await page.keyboard.type((sum('credit_card') / 100).toFixed(2));
      await expect
        .poll(() => difference.textContent())
        .toBe(
          `Counted ${formatCents(all - 2000)} against ${formatCents(all)} entered: $20.00 short (cash $20.00 short).`,
        );
      await page.keyboard.press('Tab');
      expect(await activeLabel(page)).toBe('Counted by');
      await page.keyboard.type('Pat Treasurer');
      await page.keyboard.press('Tab');
      await page.keyboard.type('recounted twice');
      await screenshot(page, 'deposit-summary-counting');
      await page.keyboard.press('Enter');

      // Closing with a difference asks first; Cancel has the focus, the confirm is one Tab away.
      const confirm = page.getByRole('dialog', { name: 'Close with a difference?' });
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain('$20.00 short');
      await expect.poll(() => activeLabel(page)).toBe('Cancel');
      await expectNoA11yViolations(page, 'the confirmation of a count with a difference');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');

      // The record: on the page, and recorded on the server.
      const record = page.getByTestId('count-record');
      await record.waitFor();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe('Count record');
      expect(await record.textContent()).toContain('Counted by Pat Treasurer');
      expect(await record.textContent()).toContain('difference $20.00 short');
      expect(await record.textContent()).toContain('Note: recounted twice');
      expect(await page.locator('.deposit-count').count()).toBe(0);
      const summary = await get(`/api/v1/batches/${batch.id}/deposit`);
      expect(summary.closedAt).not.toBeNull();
      expect(summary.lastCount).toMatchObject({
        countedBy: 'Pat Treasurer',
        note: 'recounted twice',
        enteredCount: 40,
        difference: -20,
      });
      expect(summary.lastCount.lines.map((l: { difference: number }) => l.difference)).toEqual([-20, 0, 0]);
      await expectNoA11yViolations(page, 'the deposit summary with its count record');
      await screenshot(page, 'deposit-summary-counted');

      // Printed, the summary stands alone: no app header, no buttons.
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('.app-header').isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
      expect(await record.isVisible()).toBe(true);
      expect(await page.locator('.deposit-checks').isVisible()).toBe(true);
      await page.emulateMedia({ media: 'screen' });

      // Back in gift entry, the closed batch says what its count found.
      await page.getByRole('button', { name: 'Back to gift entry' }).click();
      const line = page.getByTestId('batch-count-line');
      await line.waitFor();
      expect(await line.textContent()).toBe('Closed with a count by Pat Treasurer: difference $20.00 short.');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a count whose answer was lost shows itself: the screen learns of it from the server, and nothing is left to press again', async () => {
    const batch = await post('/api/v1/batches', {
      name: 'Coat check',
      campaignId: galaId,
      paymentMethod: 'cash',
    });
    // The twins: two identical $19.99 cash gifts from Zoë.
    for (let i = 0; i < 2; i++)
      await post(`/api/v1/batches/${batch.id}/donations`, {
        contactId: donors.zoe,
        donationAmount: 19.99,
        donationDate: '2026-11-27',
        paymentMethod: 'cash',
        campaignId: galaId,
        notes: 'table 4',
      });
    const { page, context } = await openApp(browser, server);
    try {
      await page.evaluate(
        ([key, id]) => localStorage.setItem(key!, id!),
        [`giftdesk.batch.${server.accountId}`, batch.id as string],
      );
      await page.reload();
      await page.getByRole('button', { name: 'Balance and close…' }).click();
      await page.getByRole('heading', { name: 'Deposit summary: Coat check' }).waitFor();
      // The count reaches GiftDesk and closes the batch; its answer never comes back.
      const counts = await cutFirstAnswer(page, `**/api/v1/batches/${batch.id as string}/count`);
      await page.getByLabel('Cash: total counted ($)').fill('39.98');
      await page.getByLabel('Counted by').fill('Pat Treasurer');
      await page.getByLabel('Counted by').press('Enter');
      await page
        .getByText(/not answering/)
        .first()
        .waitFor();
      expect((await get(`/api/v1/batches/${batch.id}/deposit`)).closedAt).not.toBeNull();
      // The screen learns of the count from the server by itself: the count that closed the
      // batch is shown, and there is no form left to press again.
      const record = page.getByTestId('count-record');
      await record.waitFor();
      expect(await record.textContent()).toContain('Counted by Pat Treasurer');
      expect(await page.locator('.deposit-count').count()).toBe(0);
      expect(counts.count).toBe(1);
      const summary = await get(`/api/v1/batches/${batch.id}/deposit`);
      expect(summary.lastCount).toMatchObject({ countedBy: 'Pat Treasurer', difference: 0, enteredCount: 2 });
    } finally {
      await context.close();
    }
  });
});
