/**
 * Gift entry typed at a volunteer's speed, in real Chromium against a real server, at 1280×800:
 * - Enter on a name and the amount typed at once, before the matches arrived: the digits land in
 *   the amount and the gift goes to the donor the list then offers first; a save asked for
 *   meanwhile waits for that donor. A name no one on file matches opens nothing unseen.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch } from '#shared/schemas/batches.ts';
import type { DonationDetail } from '#shared/schemas/donations.ts';
import { expectStatus, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { launchChromium, openApp, requestGate, startAppServer, type AppServer } from './helpers.ts';

let server: AppServer;
let browser: Browser;
let annualFund: string;
const people: Record<string, string> = {};

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  annualFund = (await makeCampaign(server, 'Annual Fund')).id;
  for (const [key, firstName, lastName, primaryEmail] of [
    ['david', 'David', 'Smith', 'david@example.org'],
    ['davidson', 'Davida', 'Smithson', 'davida@example.org'],
    ['amara', 'Amara', 'Okafor', 'amara@example.org'],
  ] as const)
    people[key] = (await makeContact(server, { firstName, lastName, primaryEmail })).id;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function makeBatch(name: string): Promise<Batch> {
  return expectStatus(
    await server.request('POST', '/api/v1/batches', {
      accountId: server.accountId,
      name,
      campaignId: annualFund,
    }),
    201,
  ) as Batch;
}

async function giftsOf(batchId: string): Promise<DonationDetail[]> {
  const res = await server.request(
    'GET',
    `/api/v1/batches/${batchId}/donations?accountId=${server.accountId}&limit=100`,
  );
  return (expectStatus(res, 200) as { data: DonationDetail[] }).data;
}

const focusedLabel = (page: Page) =>
  page.evaluate(
    () =>
      document.activeElement?.getAttribute('aria-label') ??
      (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ??
      '',
  );
const donorBox = (page: Page) => page.getByRole('combobox', { name: 'Donor' });
const amountBox = (page: Page) => page.getByRole('form', { name: 'New gift' }).getByLabel(/^Amount/);
const count = (page: Page) => page.getByTestId('batch-count').textContent();

async function openBatch(batch: Batch) {
  const opened = await openApp(browser, server, { viewport: { width: 1280, height: 800 } });
  await opened.page.getByRole('button', { name: new RegExp(`^${batch.name}`) }).click();
  await expect.poll(() => focusedLabel(opened.page)).toBe('Donor');
  return opened;
}

describe('typing ahead of the donor search', () => {
  it('puts the amount typed right after Enter in the amount, and saves to the donor the late matches put first', async () => {
    const batch = await makeBatch('Typing ahead');
    const { page, context, problems } = await openBatch(batch);
    try {
      const searches = await requestGate(page, '**/api/v1/contact-summaries?**');
      // The first search after opening, slow: the volunteer does not wait for it.
      searches.hold();
      await page.keyboard.type('david smith');
      await page.keyboard.press('Enter');
      await page.keyboard.type('50');
      await page.keyboard.press('Enter');
      expect(await donorBox(page).inputValue()).toBe('david smith');
      expect(await amountBox(page).inputValue()).toBe('50');
      expect(await count(page)).toMatch(/^0\b/);
      await searches.release();
      await expect.poll(() => count(page)).toMatch(/^1\b/);
      await expect.poll(() => focusedLabel(page)).toBe('Donor');

      // Again, the answer now quick: the same keys, no waits.
      await page.keyboard.type('amara');
      await page.keyboard.press('Enter');
      await page.keyboard.type('20');
      await page.keyboard.press('Enter');
      await expect.poll(() => count(page)).toMatch(/^2\b/);

      // A name no one on file matches: nothing is chosen or created behind the volunteer's back;
      // the save is refused at the donor box, with what was typed kept.
      await expect.poll(() => focusedLabel(page)).toBe('Donor');
      searches.hold();
      await page.keyboard.type('zzyzx');
      await page.keyboard.press('Enter');
      await page.keyboard.type('5');
      await page.keyboard.press('Enter');
      await searches.release();
      await expect.poll(() => focusedLabel(page)).toBe('Donor');
      expect(await page.getByRole('form', { name: 'New gift' }).textContent()).toContain(
        'No donor on file matches “zzyzx”',
      );
      expect(await donorBox(page).inputValue()).toBe('zzyzx');
      expect(await amountBox(page).inputValue()).toBe('5');
      expect(await page.getByRole('group', { name: 'New donor' }).count()).toBe(0);

      const gifts = await giftsOf(batch.id);
      expect(gifts.map((g) => [g.contactId, g.donationAmount]).sort()).toEqual(
        [
          [people.david, 50],
          [people.amara, 20],
        ].sort(),
      );
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
