/**
 * A station moved to a replacement hub from the app, in real Chromium: three real GiftDesk
 * servers on their own data folders — hub A and hub B (each hosting, real TLS on loopback, each
 * with its own "Spring Gala" campaign) and a station. The station joins hub A in Settings →
 * Event, a gift typed at it reaches hub A, then hub A is lost (its server closed, its data
 * folder gone). Settings → Event on the station, under "The hub laptop is lost?", takes hub B's
 * join link; "Move to this hub" asks first, saying what happens, and Cancel changes nothing;
 * confirmed, the station is hub B's, and hub B receives the station's gift once, under the
 * station's reference and on hub B's own campaign.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationReferenceOf, referenceFor } from '#shared/sync-reference.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { localDate } from '../../renderer/screens/dashboard/dashboard-periods.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { testKeys } from '../sync/rig.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  openApp,
  startAppServer,
  type AppServer,
  type OpenedApp,
} from './helpers.ts';

let hubA: AppServer;
let hubB: AppServer;
let station: AppServer;
let browser: Browser;
let app: OpenedApp;

beforeAll(async () => {
  [hubA, hubB, station] = await Promise.all([
    startAppServer({ sync: { keys: testKeys, run: true }, hub: true }),
    startAppServer({ sync: { keys: testKeys, run: true }, hub: true }),
    startAppServer({ sync: { keys: testKeys, run: true }, hub: true }),
  ]);
  browser = await launchChromium();
  app = await openApp(browser, station);
});
afterAll(async () => {
  await browser?.close();
  await station?.close();
  await hubB?.close();
});

/** Hosts the event at a hub (its own campaign first); the join link of a fresh code. */
async function host(hub: AppServer): Promise<{ url: string; joinLink: string; campaignId: string }> {
  const campaign = expectStatus(
    await hub.request('POST', '/api/v1/campaigns', { accountId: hub.accountId, name: 'Spring Gala' }),
    201,
  );
  const info = expectStatus(
    await hub.request('POST', '/api/v1/hub/host', { accountId: hub.accountId, host: '127.0.0.1', port: 0 }),
    200,
  );
  expect(info.joinLink).toBeTruthy();
  return { url: String(info.url), joinLink: String(info.joinLink), campaignId: String(campaign.id) };
}

async function openEvent(page: Page): Promise<void> {
  await page.keyboard.press('Alt+5');
  await page
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('link', { name: 'Event' })
    .click();
  await page.getByRole('heading', { level: 2, name: 'Event' }).waitFor();
}

describe('Settings → Event at a station whose hub was lost', () => {
  let eventAccount = '';
  let auth: Record<string, string> = {};
  let giftId = '';
  let a: { url: string; joinLink: string; campaignId: string };

  it('joins hub A, and a gift typed there reaches it', async () => {
    a = await host(hubA);
    const page = app.page;
    await openEvent(page);
    await page.getByLabel('Hub address or join link').fill(a.joinLink);
    await page.getByLabel('Station name').fill('Table B');
    await page.getByRole('button', { name: 'Join the event' }).click();
    await page.getByTestId('station-name').waitFor();
    eventAccount = hubA.accountId;
    const key = await createApiKey(station.ctx, eventAccount, 'tests (event)');
    auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
    const donor = expectStatus(
      await station.request(
        'POST',
        '/api/v1/contacts',
        { accountId: eventAccount, firstName: 'Tom', lastName: 'Twin' },
        auth,
      ),
      201,
    );
    const gift = expectStatus(
      await station.request(
        'POST',
        '/api/v1/donations',
        {
          accountId: eventAccount,
          contactId: donor.id,
          donationAmount: 19.99,
          donationDate: localDate(new Date()),
          paymentMethod: 'cash',
          campaignId: a.campaignId,
        },
        auth,
      ),
      201,
    );
    giftId = String(gift.id);
    await expect
      .poll(
        async () =>
          (await station.request('GET', `/api/v1/event?accountId=${eventAccount}`, undefined, auth)).body
            .waiting,
        { timeout: 60_000 },
      )
      .toBe(0);
  }, 120_000);

  it('moves to hub B after asking, and hub B gets the gift once, on its own campaign', async () => {
    await hubA.close();
    const b = await host(hubB);
    const page = app.page;
    await page.getByText('The hub laptop is lost? Move this station to a replacement hub').click();
    const form = page.locator('form', {
      has: page.getByRole('heading', { name: 'Move to a replacement hub' }),
    });
    await form.getByLabel('Hub address or join link').fill(b.joinLink);
    await form.getByLabel('Station name').fill('Table B');
    await expectNoA11yViolations(page, 'Settings → Event: moving to a replacement hub');
    await form.getByRole('button', { name: 'Move to this hub' }).click();

    const dialog = page.getByRole('dialog', { name: 'Move this station to the replacement hub?' });
    await dialog.waitFor();
    const said = (await dialog.textContent()) ?? '';
    expect(said).toContain(a.url);
    expect(said).toContain(b.url);
    expect(said).toMatch(/sent to the new hub\s+again/);
    expect(said).toMatch(/keep each gift once/);
    await expectNoA11yViolations(page, 'Settings → Event: moving to a replacement hub, asked first');
    // Cancel: nothing changes.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('station-hub-url').textContent()).toBe(a.url);

    await form.getByRole('button', { name: 'Move to this hub' }).click();
    await dialog.getByRole('button', { name: 'Move and send everything again' }).click();
    await expect
      .poll(() => page.getByTestId('station-hub-url').textContent(), { timeout: 30_000 })
      .toBe(b.url);

    const atB = async () =>
      (await hubB.request('GET', `/api/v1/donations?accountId=${hubB.accountId}&limit=50`)).body
        .donations as Array<{ notes: string | null; campaignId: string | null; donationAmount: number }>;
    await expect.poll(async () => (await atB()).length, { timeout: 60_000 }).toBe(1);
    const [gift] = await atB();
    expect(donationReferenceOf(gift!.notes)).toBe(referenceFor(giftId));
    expect(gift!.campaignId, 'on hub B’s Spring Gala').toBe(b.campaignId);
    expect(gift!.donationAmount).toBe(19.99);
    await expect
      .poll(
        async () =>
          (await station.request('GET', `/api/v1/event?accountId=${eventAccount}`, undefined, auth)).body
            .waiting,
        { timeout: 60_000 },
      )
      .toBe(0);
    expect((await atB()).length, 'still once').toBe(1);
    expect(app.problems).toEqual([]);
  }, 180_000);
});
