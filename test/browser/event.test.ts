/**
 * One event, two laptops, in real Chromium: two real GiftDesk servers on their own data
 * folders, the hub serving real TLS on loopback. Settings → Event on the first hosts the
 * event (the address, the certificate's fingerprint as the API says it, a pairing code and the
 * QR code of the join link); the second joins by pasting that link (a wrong fingerprint, a
 * wrong code and an address where no hub answers are refused first, each at its field); the hub lists the station; gifts entered
 * at both are on both Dashboards by station; the hub's close-out counts them by station and
 * payment method, with the deposit summary as printed; Revoke asks first, and the station then
 * says it was removed. A hub started again offers to serve the event again at its last
 * address. Screenshots for the guide (docs/event-day.md).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { localDate } from '../../renderer/screens/dashboard/dashboard-periods.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { testKeys } from '../sync/rig.ts';
import {
  expectNoA11yViolations,
  freePort,
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
/** What the hub's QR code carries. */
let joinLink = '';
/** The event's account at the station: the hub's, made there by the join. */
let stationAccount = '';

/** A key of the event's account at the station (its own test key is the first account's). */
let stationAuth: Record<string, string> = {};
const headersFor = (s: AppServer, accountId: string) =>
  s === station && accountId !== s.accountId ? stationAuth : {};
const get = async (s: AppServer, path: string, accountId = s.accountId) =>
  expectStatus(
    await s.request(
      'GET',
      `${path}${path.includes('?') ? '&' : '?'}accountId=${accountId}`,
      undefined,
      headersFor(s, accountId),
    ),
    200,
  );
const post = async (s: AppServer, path: string, body: Record<string, unknown>, accountId = s.accountId) =>
  expectStatus(await s.request('POST', path, { accountId, ...body }, headersFor(s, accountId)), 201);

beforeAll(async () => {
  hub = await startAppServer({ sync: { keys: testKeys, run: true }, hub: true });
  station = await startAppServer({ sync: { keys: testKeys, run: true }, hub: true });
  // The event's campaign, made at the hub: the station gets it by joining.
  await post(hub, '/api/v1/campaigns', { name: 'Spring Gala' });
  browser = await launchChromium();
  hubApp = await openApp(browser, hub);
  stationApp = await openApp(browser, station);
});
afterAll(async () => {
  await browser?.close();
  await station?.close();
  await hub?.close();
});

/** Settings → Event, by keyboard. */
async function openEvent(page: Page): Promise<void> {
  await page.keyboard.press('Alt+5');
  await page
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('link', { name: 'Event' })
    .click();
  await page.getByRole('heading', { level: 2, name: 'Event' }).waitFor();
}

/** Closes the toasts, so that a picture shows the screen. */
async function quiet(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate(() =>
    document.querySelectorAll<HTMLButtonElement>('.toasts .toast-close').forEach((b) => b.click()),
  );
  await page.locator('.toasts .toast').first().waitFor({ state: 'detached' });
}

describe('Settings → Event', () => {
  it('hosts the event: the address, the fingerprint, a pairing code and the QR code of the join link', async () => {
    const page = hubApp.page;
    await openEvent(page);
    await page.getByRole('heading', { name: 'Host this event' }).waitFor();
    await page.getByRole('heading', { name: 'Join an event' }).waitFor();
    await expectNoA11yViolations(page, 'Settings → Event (in no event)');
    const port = await freePort();
    await page.getByLabel('Address', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('Port', { exact: true }).fill(String(port));
    await page.getByRole('button', { name: 'Host this event' }).click();

    await page.getByTestId('hub-fingerprint').waitFor();
    const info = await get(hub, '/api/v1/hub');
    expect(info.url).toBe(`https://127.0.0.1:${port}`);
    expect(await page.getByTestId('hub-url').textContent()).toBe(info.url);
    expect(await page.getByTestId('hub-fingerprint').textContent()).toBe(info.fingerprint);
    expect(info.fingerprint).toMatch(/^sha256:([0-9a-f]{2}:){31}[0-9a-f]{2}$/);
    const code = await page.getByTestId('hub-code').textContent();
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    await expect
      .poll(() => page.getByTestId('hub-code-expiry').textContent())
      .toMatch(/expires at .* \(in (9|10):\d\d\)/);
    joinLink = await page.getByTestId('hub-join-link').inputValue();
    expect(joinLink.startsWith(`${info.url}/`)).toBe(true);
    expect(joinLink).toContain(encodeURIComponent(code!));
    // The QR code is an SVG of that very link, drawn here (no network).
    const qr = page.getByRole('img', { name: /QR code of the join link/ });
    expect(await qr.getAttribute('data-text')).toBe(joinLink);
    expect(
      Number(await qr.locator('path').evaluate((p) => (p.getAttribute('d') ?? '').length)),
    ).toBeGreaterThan(1000);
    await page.getByText('No station has joined yet').waitFor();
    // "New code": another code, and its link.
    await page.getByRole('button', { name: 'New code' }).click();
    await expect.poll(() => page.getByTestId('hub-code').textContent()).not.toBe(code);
    joinLink = await page.getByTestId('hub-join-link').inputValue();
    await expectNoA11yViolations(page, 'Settings → Event at the hub');
    await quiet(page);
    await screenshot(page, 'event-host');
    expect(hubApp.problems).toEqual([]);
  });

  it('joins from a second GiftDesk by pasting the link; a wrong fingerprint, a wrong code and no hub at the address are refused at their fields', async () => {
    const page = stationApp.page;
    await openEvent(page);
    const url = page.getByLabel('Hub address or join link');
    const code = page.getByLabel('Pairing code');
    const fingerprint = page.getByLabel('Certificate fingerprint');
    await url.fill(joinLink);
    // The link filled the three: the address, the code, the fingerprint.
    const info = await get(hub, '/api/v1/hub');
    await expect.poll(() => url.inputValue()).toBe(info.url);
    expect(await fingerprint.inputValue()).toBe(info.fingerprint);
    const goodCode = await code.inputValue();
    expect(goodCode).toBe(await hubApp.page.getByTestId('hub-code').textContent());
    await page.getByLabel('Station name').fill('Table B');
    await quiet(page).catch(() => undefined);
    await screenshot(page, 'event-join');

    // Another certificate's fingerprint: refused before anything is sent, at the fingerprint.
    const other = `sha256:${'ab:'.repeat(31)}ab`;
    await fingerprint.fill(other);
    await page.getByRole('button', { name: 'Join the event' }).click();
    await expect.poll(() => fingerprint.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-invalid')))
      .toBe('true');
    await fingerprint.fill(info.fingerprint);
    // A wrong code: at the code.
    await code.fill('ZZZZ-ZZZZ');
    await page.getByRole('button', { name: 'Join the event' }).click();
    await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');
    await expectNoA11yViolations(page, 'Settings → Event: a code refused');
    // No hub at that address: at the address, saying so.
    await code.fill(goodCode);
    await url.fill(`https://127.0.0.1:${await freePort()}`);
    await page.getByRole('button', { name: 'Join the event' }).click();
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    await url.fill(info.url);

    await page.getByRole('button', { name: 'Join the event' }).click();
    await page.getByTestId('station-name').waitFor();
    expect(await page.getByTestId('station-name').textContent()).toBe('Table B');
    expect(await page.getByTestId('station-hub-url').textContent()).toBe(info.url);
    // The station now holds the event's account (the hub's), and the window works in it.
    stationAccount = hub.accountId;
    const key = await createApiKey(station.ctx, stationAccount, 'tests (event)');
    stationAuth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
    const status = await get(station, '/api/v1/event', stationAccount);
    expect(status).toMatchObject({ role: 'station', accountId: hub.accountId, station: { name: 'Table B' } });
    await expect
      .poll(() => page.getByTestId('station-connection').textContent())
      .toBe('Connected to the event hub');
    await page.getByText('None', { exact: true }).waitFor(); // no notices
    await expectNoA11yViolations(page, 'Settings → Event at a station');
    await quiet(page).catch(() => undefined);
    await screenshot(page, 'event-station');

    // The hub lists it, and shows the next station's code at once (that one is used).
    await hubApp.page.locator('[data-testid="hub-station"][data-station="Table B"]').waitFor();
    await expect.poll(() => hubApp.page.getByTestId('hub-code').textContent()).not.toBe(goodCode);
  });

  it('the board: each Dashboard shows the whole event by station', async () => {
    const today = localDate(new Date());
    const campaigns = await get(hub, '/api/v1/campaigns');
    const gala = campaigns.data[0].id as string;
    const donor = await post(hub, '/api/v1/contacts', { firstName: 'Maria', lastName: 'Lopez' });
    const gift = (s: AppServer, accountId: string, body: Record<string, unknown>) =>
      post(s, '/api/v1/donations', { donationDate: today, ...body }, accountId);
    await gift(hub, hub.accountId, {
      contactId: donor.id,
      campaignId: gala,
      donationAmount: 100,
      paymentMethod: 'cash',
    });
    // At the station: the donor and the campaign came from the hub.
    await expect
      .poll(async () => (await get(station, '/api/v1/contacts', stationAccount)).data.length)
      .toBe(1);
    const here = await get(station, '/api/v1/contacts', stationAccount);
    const stationCampaigns = await get(station, '/api/v1/campaigns', stationAccount);
    const g = (amount: number, paymentMethod: string) =>
      gift(station, stationAccount, {
        contactId: here.data[0].id,
        campaignId: stationCampaigns.data[0].id,
        donationAmount: amount,
        paymentMethod,
      });
    await g(250, 'check');
    await g(40, 'cash');

    const hubPage = hubApp.page;
    await hubPage.keyboard.press('Alt+4');
    const row = (page: Page, where: string) =>
      page.locator(`[data-testid="board-station"][data-where="${where}"]`);
    await expect.poll(() => row(hubPage, 'here').textContent()).toBe('The hub (this laptop)1$100.00');
    await expect.poll(() => row(hubPage, 'station').textContent()).toBe('Table B2$290.00');
    await expect.poll(() => hubPage.getByTestId('today-total').textContent()).toBe('$390.00');
    await expectNoA11yViolations(hubPage, 'Dashboard at the hub');
    await screenshot(hubPage, 'event-board');

    const stationPage = stationApp.page;
    await stationPage.keyboard.press('Alt+4');
    await expect.poll(() => row(stationPage, 'here').textContent()).toBe('Table B (this station)2$290.00');
    await expect.poll(() => row(stationPage, 'hub').textContent()).toBe('The hub1$100.00');
    await expect.poll(() => stationPage.getByTestId('today-total').textContent()).toBe('$390.00');
    await expectNoA11yViolations(stationPage, 'Dashboard at a station');
  });

  it('closes the night: per station by payment method, complete, the event totals, the deposit summary', async () => {
    const page = hubApp.page;
    await openEvent(page);
    const tableB = page.locator('[data-testid="close-out-station"][data-station="Table B"]');
    await expect
      .poll(() => tableB.locator('td').nth(3).textContent())
      .toBe('Table B says it entered 2 gifts; the hub holds 2. Complete.');
    expect(await tableB.locator('td').nth(0).textContent()).toBe('2');
    expect(await tableB.locator('td').nth(1).textContent()).toBe('$290.00');
    expect(await tableB.locator('td').nth(2).textContent()).toBe('Check 1 · $250.00, Cash 1 · $40.00');
    const atHub = page.locator('[data-testid="close-out-station"][data-station="the hub"]');
    expect(await atHub.locator('td').nth(2).textContent()).toBe('Cash 1 · $100.00');
    expect(await page.getByTestId('close-out-total').textContent()).toBe('$390.00');
    expect(await page.getByTestId('close-out-cash').textContent()).toBe('$140.00');
    expect(await page.getByTestId('close-out-state').textContent()).toBe(
      'Every station’s gifts are at the hub.',
    );
    const api = await get(hub, '/api/v1/hub/close-out');
    expect(api).toMatchObject({ gifts: 3, total: 390, cashTotal: 140 });
    await expectNoA11yViolations(page, 'Settings → Event: closing the night');
    await page.getByRole('heading', { name: 'Closing the night' }).scrollIntoViewIfNeeded();
    await quiet(page).catch(() => undefined);
    await screenshot(page, 'event-close-out');

    // Printed, the deposit summary is all there is: the cash total and the checks.
    await page.emulateMedia({ media: 'print' });
    const summary = page.getByTestId('deposit-summary');
    expect(await summary.isVisible()).toBe(true);
    expect(await page.locator('.app').isVisible()).toBe(false);
    expect(await page.getByTestId('deposit-cash').textContent()).toBe('$140.00');
    expect(await page.getByTestId('deposit-check').allTextContents()).toEqual(['Maria Lopez$250.00Table B']);
    await screenshot(page, 'event-deposit-summary');
    await page.emulateMedia({ media: 'screen' });
    expect(await summary.isVisible()).toBe(false);
  });

  it('revokes a station only after a confirmation; the station then says it was removed', async () => {
    const page = hubApp.page;
    const revoke = page.getByRole('button', { name: 'Revoke Table B' });
    await revoke.click();
    const dialog = page.getByRole('dialog', { name: 'Remove Table B from the event?' });
    await dialog.waitFor();
    // Cancel has the focus: Enter keeps the station.
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    expect((await get(hub, '/api/v1/hub/stations')).stations[0].revokedAt).toBeNull();
    await revoke.click();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await page
      .locator('[data-testid="hub-station"][data-station="Table B"]')
      .getByText(/^Removed at/)
      .waitFor();
    expect((await get(hub, '/api/v1/hub/stations')).stations[0].revokedAt).not.toBeNull();

    await openEvent(stationApp.page);
    await expect
      .poll(() => stationApp.page.getByTestId('station-connection').textContent())
      .toMatch(/^This station was removed from the event/);
    expect(hubApp.problems).toEqual([]);
  });

  it('a hub that was started again offers to serve the event again, at its last address', async () => {
    const again = await startAppServer({ hub: true });
    try {
      // This GiftDesk hosted the event before it was started again: it is not serving it now.
      const port = await freePort();
      const at = new Date().toISOString();
      await again.store.write((trx) =>
        trx
          .insertInto('hubSettings')
          .values({
            accountId: again.accountId,
            fingerprint: `sha256:${'00:'.repeat(31)}00`,
            url: `https://127.0.0.1:${port}`,
            createdAt: at,
            updatedAt: at,
          })
          .execute(),
      );
      const { page, context, problems } = await openApp(browser, again);
      await openEvent(page);
      await page.getByText('does not serve it right now').waitFor();
      expect(await page.getByLabel('Address', { exact: true }).inputValue()).toBe('127.0.0.1');
      expect(await page.getByLabel('Port', { exact: true }).inputValue()).toBe(String(port));
      await expectNoA11yViolations(page, 'Settings → Event: a hub not serving');
      await page.getByRole('button', { name: 'Serve the event again' }).click();
      await expect.poll(() => page.getByTestId('hub-url').textContent()).toBe(`https://127.0.0.1:${port}`);
      const info = await get(again, '/api/v1/hub');
      expect(info).toMatchObject({ hosting: true, url: `https://127.0.0.1:${port}` });
      expect(await page.getByTestId('hub-fingerprint').textContent()).toBe(info.fingerprint);
      await page.getByTestId('hub-code').waitFor();
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await again.close();
    }
  });
});
