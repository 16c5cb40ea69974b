/**
 * A station's gift changed at the hub, in real Chromium: two real GiftDesk servers on their own
 * data folders, the hub serving real TLS on loopback. The station joins by the join link and
 * types a gift in a batch; at the hub, the donor's page offers Correct and Void on that gift
 * (it sits in none of the hub's batches) and the hub's person voids it; the station's batch then
 * says "Voided at the hub" under the gift.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { testKeys } from '../sync/rig.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  openApp,
  screenshot,
  startAppServer,
  type AppServer,
  type OpenedApp,
} from './helpers.ts';

let hub: AppServer;
let station: AppServer;
let browser: Browser;
let hubApp: OpenedApp;
let stationApp: OpenedApp;
let donorId = '';

beforeAll(async () => {
  [hub, station] = await Promise.all([
    startAppServer({ sync: { keys: testKeys, run: true }, hub: true }),
    startAppServer({ sync: { keys: testKeys, run: true }, hub: true }),
  ]);
  expectStatus(
    await hub.request('POST', '/api/v1/campaigns', { accountId: hub.accountId, name: 'Spring Gala' }),
    201,
  );
  // The donor as the hub has him; a namesake beside him.
  donorId = String(
    expectStatus(
      await hub.request('POST', '/api/v1/contacts', {
        accountId: hub.accountId,
        firstName: 'Łukasz',
        lastName: 'Żółć',
        primaryEmail: 'lukasz@example.org',
      }),
      201,
    ).id,
  );
  expectStatus(
    await hub.request('POST', '/api/v1/contacts', {
      accountId: hub.accountId,
      firstName: 'Łukasz',
      lastName: 'Żółć',
    }),
    201,
  );
  browser = await launchChromium();
  [hubApp, stationApp] = await Promise.all([openApp(browser, hub), openApp(browser, station)]);
});
afterAll(async () => {
  await browser?.close();
  await station?.close();
  await hub?.close();
});

describe('a station’s gift, changed at the hub', () => {
  it('the hub’s donor page voids it, and the station’s batch says so', async () => {
    const info = expectStatus(
      await hub.request('POST', '/api/v1/hub/host', { accountId: hub.accountId, host: '127.0.0.1', port: 0 }),
      200,
    );
    const page = stationApp.page;
    await page.keyboard.press('Alt+5');
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Event' })
      .click();
    await page.getByLabel('Hub address or join link').fill(String(info.joinLink));
    await page.getByLabel('Station name').fill('Table A');
    await page.getByRole('button', { name: 'Join the event' }).click();
    await page.getByTestId('station-name').waitFor();

    // The gift, typed at the station by keyboard in a batch: $500 by check from the first Łukasz.
    await page.keyboard.press('Alt+1');
    const donorBox = page.getByRole('combobox', { name: 'Donor' });
    await page.getByRole('button', { name: 'Start a batch' }).click();
    await page.getByLabel('Batch name').fill('Table A');
    await page.getByLabel('Campaign').selectOption({ label: 'Spring Gala' });
    await page.getByLabel('Batch name').press('Enter');
    await donorBox.waitFor();
    await donorBox.focus();
    await page.keyboard.type('lukasz zolc');
    const activeText = async () => {
      const active = await donorBox.getAttribute('aria-activedescendant');
      return active ? page.locator(`[id="${active}"]`).textContent() : null;
    };
    await expect.poll(activeText).toContain('Łukasz Żółć');
    // Two namesakes: the one with the email, by the arrow keys.
    for (let i = 0; i < 3 && !(await activeText())?.includes('lukasz@example.org'); i++)
      await page.keyboard.press('ArrowDown');
    expect(await activeText()).toContain('lukasz@example.org');
    await page.keyboard.press('Enter');
    await page.keyboard.type('500');
    await page.getByLabel('Amount ($)').press('Enter');
    const row = page.locator('tr[data-donation-id]').first();
    await row.waitFor();
    // At the hub, and said so: never "sent to HQ".
    await expect.poll(() => row.locator('[data-sync-state]').textContent()).toBe('at the event hub');

    // At the hub: the donor's page offers Correct and Void on the station's gift.
    const hp = hubApp.page;
    await hp.evaluate((id) => {
      window.location.hash = `#/contacts/${id}`;
    }, donorId);
    const voidButton = hp.getByRole('button', { name: 'Void the gift of $500.00 from Łukasz Żółć' });
    await voidButton.waitFor();
    await hp.getByRole('button', { name: 'Correct the gift of $500.00 from Łukasz Żółć' }).waitFor();
    await expectNoA11yViolations(hp, 'the hub’s donor page with a station’s gift');
    await screenshot(hp, 'hub-contact-station-gift');
    await voidButton.click();
    await hp.getByRole('button', { name: 'Void gift' }).click();
    await hp.getByText('Voided the gift of $500.00 from Łukasz Żółć.').waitFor();
    const atHub = expectStatus(
      await hub.request('GET', `/api/v1/donations?accountId=${hub.accountId}&limit=10`),
      200,
    ).donations as unknown[];
    expect(atHub).toHaveLength(0);

    // The station's batch says who changed what.
    await expect.poll(() => row.locator('[data-gift-changes]').textContent()).toBe('Voided at the hub');
    await expectNoA11yViolations(page, 'the station’s batch with a gift voided at the hub');
    await screenshot(page, 'station-batch-voided-at-hub');
  });
});
