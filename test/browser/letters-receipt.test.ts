/**
 * A receipt printed at the gift table by keyboard alone, in real Chromium against a real
 * server: a gift typed and saved, Ctrl+P from the entry row makes a receipt run for exactly that
 * gift and sends its PDF to print; Tab to an older saved gift's row and Ctrl+P there makes one
 * for that gift. Each run's PDF, read back with a PDF text extractor, names its donor exactly.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { pdfPages } from '../letters/pdf-text.ts';
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
let batchId: string;
let olderGiftId: string;

interface RunJson {
  id: string;
  kind: string;
  choice: { donationId?: string };
  status: string;
  documents: number;
  gifts: number;
}

const post = async (path: string, body: Record<string, unknown>) =>
  expectStatus(await server.request('POST', path, { accountId: server.accountId, ...body }), 201);
const get = async (path: string) =>
  expectStatus(
    await server.request('GET', `${path}${path.includes('?') ? '&' : '?'}accountId=${server.accountId}`),
    200,
  );
const receiptRuns = async (): Promise<RunJson[]> =>
  ((await get('/api/v1/letters/runs')) as { runs: RunJson[] }).runs.filter((r) => r.kind === 'receipt');

/** A run's PDF as the API gives it, read back page by page. */
async function runText(runId: string): Promise<string> {
  const res = await fetch(`${server.url}/api/v1/letters/runs/${runId}/pdf?accountId=${server.accountId}`, {
    headers: { 'X-API-Key': server.keyId, Authorization: `Bearer ${server.secret}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/pdf');
  return (await pdfPages(new Uint8Array(await res.arrayBuffer()))).flat().join('\n');
}

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  const gala = await post('/api/v1/campaigns', { name: 'Spring Gala' });
  const siobhan = await post('/api/v1/contacts', { firstName: 'Siobhán', lastName: "O'Brien" });
  await post('/api/v1/contacts', { firstName: 'Zoë', lastName: 'Núñez' });
  batchId = (await post('/api/v1/batches', { name: 'Table 1', campaignId: gala.id, paymentMethod: 'check' }))
    .id;
  olderGiftId = (
    await post('/api/v1/donations', {
      contactId: siobhan.id,
      donationAmount: 40,
      donationDate: '2026-11-25',
      paymentMethod: 'check',
      campaignId: gala.id,
      batchId,
    })
  ).id;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const donorBox = (page: Page) => page.getByRole('combobox', { name: 'Donor' });
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.getAttribute('aria-label') ?? el?.labels?.[0]?.textContent ?? el?.textContent ?? '';
  });

describe('a receipt at the gift table', () => {
  it('prints the receipt of the gift just saved, then of an older row, by keyboard alone', async () => {
    const { page, context, problems } = await openApp(browser, server);
    try {
      await page.evaluate(
        ([key, id]) => localStorage.setItem(key!, id!),
        [`giftdesk.batch.${server.accountId}`, batchId],
      );
      await page.reload();
      await donorBox(page).waitFor();
      await expect.poll(() => focusedLabel(page)).toBe('Donor');
      // The key is said where the saved gifts are, and on each row's Receipt button.
      await expect
        .poll(() => page.locator('#receipt-key-hint').textContent())
        .toContain('Ctrl+P prints a receipt');

      // A gift typed at the table: donor, amount, Enter.
      await page.keyboard.type('nunez');
      await expect
        .poll(async () => {
          const active = await donorBox(page).getAttribute('aria-activedescendant');
          return active ? page.locator(`[id="${active}"]`).textContent() : null;
        })
        .toContain('Zoë Núñez');
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedLabel(page)).toMatch(/^Amount/);
      await page.keyboard.type('25');
      await page.keyboard.press('Enter');
      const zoeRow = page.locator('table.gift-table tbody tr').filter({ hasText: 'Zoë Núñez' });
      await zoeRow.waitFor();
      const zoeGiftId = await zoeRow.getAttribute('data-donation-id');
      expect(zoeGiftId).toBeTruthy();
      await expect.poll(() => focusedLabel(page)).toBe('Donor');
      expect(await receiptRuns()).toEqual([]);

      // Ctrl+P from the entry row: the receipt of the gift just saved, sent to print.
      await page.keyboard.press('Control+p');
      await page.getByRole('status').filter({ hasText: 'Receipt for Zoë Núñez: sent to print.' }).waitFor();
      await expect.poll(() => page.locator('iframe[title="Receipt for Zoë Núñez"]').count()).toBe(1);
      const [first] = await receiptRuns();
      expect(first).toMatchObject({
        choice: { donationId: zoeGiftId },
        status: 'done',
        documents: 1,
        gifts: 1,
      });
      const firstText = await runText(first!.id);
      expect(firstText).toContain('Zoë Núñez');
      expect(firstText).toContain('$25.00');
      expect(firstText).not.toContain("Siobhán O'Brien");
      await screenshot(page, 'gift-entry-receipt');

      // Tab to the older gift's row (its Receipt button), then Ctrl+P there: that gift's receipt.
      const olderLabel = "Receipt for the gift of $40.00 from Siobhán O'Brien";
      for (let i = 0; i < 60 && (await focusedLabel(page)) !== olderLabel; i++)
        await page.keyboard.press('Tab');
      expect(await focusedLabel(page)).toBe(olderLabel);
      await page.keyboard.press('Control+p');
      await page
        .getByRole('status')
        .filter({ hasText: "Receipt for Siobhán O'Brien: sent to print." })
        .waitFor();
      await expect.poll(async () => (await receiptRuns()).length).toBe(2);
      const second = (await receiptRuns()).find((r) => r.id !== first!.id)!;
      expect(second).toMatchObject({ choice: { donationId: olderGiftId }, documents: 1, gifts: 1 });
      const secondText = await runText(second.id);
      expect(secondText).toContain("Siobhán O'Brien");
      expect(secondText).toContain('$40.00');
      expect(secondText).not.toContain('Zoë Núñez');
      // The browser's own print of the screen never opened instead, and nothing else was printed.
      expect((await receiptRuns()).length).toBe(2);

      await expectNoA11yViolations(page, 'gift entry with receipts printed');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
