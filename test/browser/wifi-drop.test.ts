/**
 * The venue's Wi-Fi drops in the middle of an event, in real Chromium against a real server:
 * the browser says it is offline (navigator.onLine false, the `offline` event), but GiftDesk's
 * server is on this machine and answers as before. Gift entry carries on: a donor on file is
 * offered when typed (not "New donor" alone, which would make a duplicate of a namesake) and
 * the gift is saved, not left waiting for a network the app does not need.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { launchChromium, openApp, startAppServer, type AppServer } from './helpers.ts';

let server: AppServer;
let browser: Browser;
let margit: string;

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  await makeCampaign(server, 'Harvest Dinner');
  margit = (
    await makeContact(server, {
      firstName: 'Margit',
      lastName: 'Olsen',
      primaryEmail: 'margit@fjord.example',
    })
  ).id;
  await makeContact(server, {
    firstName: 'Margit',
    lastName: 'Olsen',
    primaryEmail: 'm.olsen@harbor.example',
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const donorBox = (page: Page) => page.getByRole('combobox', { name: 'Donor' });
const focusedLabel = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? '');

/**
 * The Wi-Fi drops: the browser's `offline` event, with navigator.onLine false, as Chromium
 * gives them when the machine loses its network. Requests to the server on this machine still
 * go through, as they do at a venue.
 */
async function wifiDrops(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false });
    window.dispatchEvent(new Event('offline'));
  });
}

/** The gifts the API holds for a donor. */
async function giftsOf(contactId: string): Promise<Array<{ donationAmount: number }>> {
  const list = expectStatus(
    await server.request('GET', `/api/v1/contacts/${contactId}/donations?accountId=${server.accountId}`),
    200,
  );
  return list.donations as Array<{ donationAmount: number }>;
}

describe('gift entry when the Wi-Fi drops', () => {
  it('offers the donor on file and saves the gift while the browser says it is offline', async () => {
    const { page, context, problems } = await openApp(browser, server);
    await page.getByRole('button', { name: 'Start a batch' }).first().click();
    await page.getByLabel('Batch name').fill('Dinner door');
    await page.getByLabel('Campaign').selectOption({ label: 'Harvest Dinner' });
    await page.getByLabel('Batch name').press('Enter');
    await donorBox(page).waitFor();

    await wifiDrops(page);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);

    // The donor typed is offered, and is the option Enter takes.
    await donorBox(page).pressSequentially('margit@fjord');
    await expect
      .poll(
        async () => {
          const active = await donorBox(page).getAttribute('aria-activedescendant');
          return active ? page.locator(`[id="${active}"]`).textContent() : null;
        },
        { message: 'the option Enter takes' },
      )
      .toMatch(/Margit Olsen.*margit@fjord\.example/);
    await page.keyboard.press('Enter');
    await expect.poll(() => donorBox(page).inputValue()).toBe('Margit Olsen');
    await expect.poll(() => focusedLabel(page)).toMatch(/^Amount/);
    await page.keyboard.type('75');
    await page.keyboard.press('Enter');

    // Saved: at the server, and in the batch's table.
    await expect
      .poll(async () => (await giftsOf(margit)).map((g) => g.donationAmount), {
        message: 'saved at the server',
      })
      .toEqual([75]);
    await expect
      .poll(() => page.locator('table.gift-table tbody tr').first().textContent())
      .toContain('$75.00');
    expect(problems).toEqual([]);
    await context.close();
  });
});
