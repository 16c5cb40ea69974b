/**
 * One event, two laptops, in real Chromium: two real GiftDesk servers on their own data
 * folders, the hub serving real TLS on loopback. Settings → Event on the first hosts the
 * event (the address, the certificate's fingerprint as the API says it, a pairing code and the
 * QR code of the join link); the second joins by pasting that link (a wrong fingerprint, a
 * wrong code and an address where no hub answers are refused first, each at its field); the hub lists the station; gifts entered
 * at both are on both Dashboards by station; the hub's close-out counts them by station and
 * payment method, with the deposit summary as printed; Revoke asks first, and the station then
 * says it was removed — in gift entry at once, in a banner — and pairs again as the same
 * station. A hub started again says so in the header and offers to serve the event again where
 * it served (0.0.0.0 stays 0.0.0.0). Screenshots for the guide (docs/event-day.md).
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

  it('joins from a second GiftDesk by pasting the link (or a scanner typing it); a wrong fingerprint, a wrong code and no hub at the address are refused at their fields', async () => {
    const page = stationApp.page;
    await openEvent(page);
    const url = page.getByLabel('Hub address or join link');
    const code = page.getByLabel('Pairing code');
    const fingerprint = page.getByLabel('Certificate fingerprint');
    const info = await get(hub, '/api/v1/hub');
    // A QR scanner types the link key by key: it fills the three as a paste does, and nothing
    // of it lands in the station's name.
    await url.focus();
    await page.keyboard.type(joinLink);
    await expect.poll(() => url.inputValue()).toBe(info.url);
    expect(await fingerprint.inputValue()).toBe(info.fingerprint);
    expect(await code.inputValue()).toBe(await hubApp.page.getByTestId('hub-code').textContent());
    expect(await page.getByLabel('Station name').inputValue()).toBe('');
    await code.fill('');
    await fingerprint.fill('');
    await url.fill(joinLink);
    // The link filled the three: the address, the code, the fingerprint.
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
    expect(await page.getByTestId('deposit-check').allTextContents()).toEqual(['—Maria Lopez$250.00Table B']);
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

  it('a removed station says so in gift entry at once, and pairs again as the same station', async () => {
    const page = stationApp.page;
    // The join's refusals before (wrong fingerprint, code, address) are in the page's log already.
    const problemsBefore = stationApp.problems.length;
    // Gift entry says it at once: what is typed stays here, and how to pair again.
    await page.keyboard.press('Alt+1');
    const banner = page.getByTestId('station-removed-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('role')).toBe('alert');
    expect(await banner.textContent()).toMatch(
      /^This station was removed from the event at \d\d:\d\d\. Gifts typed now stay on this laptop: the hub does not get them until this station pairs again\..*ask the coordinator for a new pairing code, then go to Settings → Event → “Pair this station again”/,
    );
    await expectNoA11yViolations(page, 'Gift entry at a removed station');
    await screenshot(page, 'event-station-removed');
    // A gift typed now stays here.
    const contacts = await get(station, '/api/v1/contacts', stationAccount);
    const maria = contacts.data.find((c: { firstName: string }) => c.firstName === 'Maria');
    const campaigns = await get(station, '/api/v1/campaigns', stationAccount);
    await post(
      station,
      '/api/v1/donations',
      {
        contactId: maria.id,
        donationAmount: 19.99,
        donationDate: localDate(new Date()),
        paymentMethod: 'cash',
        campaignId: campaigns.data[0].id,
      },
      stationAccount,
    );
    // Settings → Event says the same, never "as soon as the hub answers", and offers to pair again.
    await openEvent(page);
    const removed = page.getByTestId('station-removed');
    await removed.waitFor();
    expect(await removed.textContent()).toContain('stay on this laptop');
    expect(await page.getByText('as soon as the hub answers').count()).toBe(0);
    const form = page.locator('form', {
      has: page.getByRole('heading', { name: 'Pair this station again' }),
    });
    expect(await form.getByLabel('Station name').inputValue()).toBe('Table B');
    const code = expectStatus(
      await hub.request('POST', '/api/v1/hub/codes', { accountId: hub.accountId }),
      200,
    ).code;
    await form.getByLabel('Pairing code').fill(code);
    await form.getByRole('button', { name: 'Pair again' }).click();
    await expect
      .poll(() => page.getByTestId('station-connection').textContent())
      .toBe('Connected to the event hub');
    await page.keyboard.press('Alt+1');
    await page.getByRole('heading', { name: 'Gift entry' }).waitFor();
    expect(await page.getByTestId('station-removed-banner').count()).toBe(0);
    // One Table B at the hub, not removed, with its three gifts once; the close-out counts it once.
    await expect
      .poll(async () => {
        const list = (await get(hub, '/api/v1/hub/stations')).stations;
        return list.map((s: { name: string; revokedAt: string | null; received: number }) => [
          s.name,
          s.revokedAt,
          s.received,
        ]);
      })
      .toEqual([['Table B', null, 3]]);
    await expect
      .poll(async () => {
        const c = await get(hub, '/api/v1/hub/close-out');
        return c.stations.map((s: { name: string; state: string; gifts: number }) => [
          s.name,
          s.state,
          s.gifts,
        ]);
      })
      .toContainEqual(['Table B', 'complete', 3]);
    expect(stationApp.problems.slice(problemsBefore)).toEqual([]);
  });

  it('a hub that was started again says so in the header and serves again where it served: 0.0.0.0 stays 0.0.0.0', async () => {
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
            // It listened on every network, and showed the stations its address on one of them.
            url: `https://127.0.0.1:${port}`,
            bindHost: '0.0.0.0',
            createdAt: at,
            updatedAt: at,
          })
          .execute(),
      );
      const { page, context, problems } = await openApp(browser, again);
      // The header says it on every screen: the stations cannot reach this hub.
      const header = page.getByTestId('hub-not-served');
      await header.waitFor();
      expect(await header.textContent()).toBe('Event not served: stations cannot reach this hub');
      await openEvent(page);
      await page.getByText('does not serve it right now').waitFor();
      expect(await page.getByLabel('Address', { exact: true }).inputValue()).toBe('0.0.0.0');
      expect(await page.getByLabel('Port', { exact: true }).inputValue()).toBe(String(port));
      await expectNoA11yViolations(page, 'Settings → Event: a hub not serving');
      await page.getByRole('button', { name: 'Serve the event again' }).click();
      await page.getByTestId('hub-url').waitFor();
      const info = await get(again, '/api/v1/hub');
      expect(info).toMatchObject({ hosting: true, bindHost: '0.0.0.0' });
      expect(info.url.endsWith(`:${port}`)).toBe(true);
      expect(await page.getByTestId('hub-url').textContent()).toBe(info.url);
      await header.waitFor({ state: 'detached' });
      expect(await page.getByTestId('hub-fingerprint').textContent()).toBe(info.fingerprint);
      await page.getByTestId('hub-code').waitFor();
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await again.close();
    }
  });

  it('a hub on every network offers the machine’s addresses: the one picked is in the link and the QR code, and remembered', async () => {
    // A laptop on the venue's Wi-Fi and on a wired network: the stations are on the second.
    const wired = '198.51.100.7';
    const multi = await startAppServer({ hub: true, hubMachineAddresses: ['192.0.2.2', wired] });
    try {
      const hosted = expectStatus(
        await multi.request('POST', '/api/v1/hub/host', {
          accountId: multi.accountId,
          host: '0.0.0.0',
          port: 0,
        }),
        200,
      );
      const port = new URL(hosted.url as string).port;
      const info = await get(multi, '/api/v1/hub');
      expect(info.addresses).toContain(`https://${wired}:${port}`);
      expect(info.addresses[0]).toBe(info.url);
      const { page, context, problems } = await openApp(browser, multi);
      await openEvent(page);
      const choice = page.getByLabel('Address the stations use');
      await choice.waitFor();
      expect(await choice.inputValue()).toBe(info.url);
      // By keyboard: the select takes the typed address.
      await choice.focus();
      await choice.selectOption(`https://${wired}:${port}`);
      await expect.poll(() => page.getByTestId('hub-url').textContent()).toBe(`https://${wired}:${port}`);
      const link = await page.getByTestId('hub-join-link').inputValue();
      expect(link.startsWith(`https://${wired}:${port}/join#code=`)).toBe(true);
      expect(await page.getByTestId('event-qr').getAttribute('data-text')).toBe(link);
      await expectNoA11yViolations(page, 'Settings → Event: a hub on two networks');
      await screenshot(page, 'event-host-addresses');
      // Settings → Event again later (a reload): the stations' address is still the one picked.
      await page.reload();
      await openEvent(page);
      await expect.poll(() => page.getByTestId('hub-url').textContent()).toBe(`https://${wired}:${port}`);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await multi.close();
    }
  });
});
