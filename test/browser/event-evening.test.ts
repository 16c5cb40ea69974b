/**
 * An event evening as people run it, in real Chromium: the demo organisation's records (a
 * congressional campaign, Maria Okafor for Congress: the federal account's $3,300 per election,
 * its election calendar, the Harvest Dinner) on a hub that is the real `giftdesk serve --ui`
 * in a child process, and two stations (Table A, Table B), each a real GiftDesk on its own data
 * folder. One browser, a page per laptop. The hub is hosted and the stations join in Settings →
 * Event; gifts are typed in Gift entry at all three. Then the hub is killed (SIGKILL) and
 * started again, Table B is revoked while it keeps typing and is paired again.
 *
 * Each test is one thing a person at the event would notice, read off the screens: the limit
 * warning and the flag for a donor who gave at the hub and at a table; a correction or a void
 * made at the hub as the station then shows it; a station correcting its own gift through the
 * hub; the thank-you letters the hub marked sent; the board; what a station prints; what the
 * close-out calls complete; a revoked station's gift entry; serving the event again after a
 * restart. The tests run in order on one evening: each leaves the evening as the next expects.
 * Pictures for docs/event-day.md.
 */
import https from 'node:https';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCustomFields, seedReference } from '../../electron/cli/demo/demo-reference.ts';
import { openStore } from '../../electron/db/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createContext } from '../../electron/domain/context.ts';
import { createDonation } from '../../electron/domain/donations/index.ts';
import { localDate } from '../../renderer/screens/dashboard/dashboard-periods.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { isolatedEnv, startServe, type ServeChild } from '../helpers/cli.ts';
import { rawRequest, tempDir } from '../helpers/server.ts';
import { pdfPages } from '../letters/pdf-text.ts';
import { testKeys } from '../sync/rig.ts';
import {
  freePort,
  launchChromium,
  openApp,
  screenshot,
  startAppServer,
  type AppServer,
  type OpenedApp,
} from './helpers.ts';

/** How long a change may take to travel hub ↔ station (the feed and the outbox on their loops). */
const TRAVEL = { timeout: 30_000, interval: 250 };
/** How long a station may take to find the hub back after it was away. */
const AWAY = { timeout: 75_000, interval: 500 };
/** How long a finding is given to show once what it follows has travelled (it fails after this). */
const SHOWN = { timeout: 15_000, interval: 250 };
const ORG = 'Maria Okafor for Congress';

const hubDir = tempDir('giftdesk-evening-hub-');
const { env: hubEnv } = isolatedEnv();
let appPort: number;
let eventPort: number;
let hubProc: ServeChild | null = null;
let hubKey: { accountId: string; keyId: string; secret: string };
let browser: Browser;
let hubContext: BrowserContext;
let hubPage: Page;
/** The event's address as the hub shows it (what the stations joined). */
let eventUrl = '';

interface Station {
  name: 'Table A' | 'Table B';
  server: AppServer;
  app: OpenedApp;
  auth: Record<string, string>;
}
const stations: Partial<Record<'A' | 'B', Station>> = {};
const A = () => stations.A!;
const B = () => stations.B!;

/** The hub's API, as a script with the organisation's key. */
const hubApi = (method: string, p: string, body?: unknown) =>
  rawRequest(`${hubProc!.url}${p}`, method, body, {
    'x-api-key': hubKey.keyId,
    authorization: `Bearer ${hubKey.secret}`,
  });
const hubGet = async (p: string) =>
  expectStatus(await hubApi('GET', `${p}${p.includes('?') ? '&' : '?'}accountId=${hubKey.accountId}`), 200);
const hubPost = async (p: string, body: Record<string, unknown>) =>
  expectStatus(await hubApi('POST', p, { accountId: hubKey.accountId, ...body }), 201);
/** A station's API, in the event's account. */
const stationGet = async (s: Station, p: string) =>
  expectStatus(
    await s.server.request(
      'GET',
      `${p}${p.includes('?') ? '&' : '?'}accountId=${hubKey.accountId}`,
      undefined,
      s.auth,
    ),
    200,
  );

/** `giftdesk serve --ui` on the hub's data folder and port, as `npm start` runs it. */
async function startHub(): Promise<void> {
  hubProc = await startServe(['--ui', '--port', String(appPort), '--data-dir', hubDir], hubEnv);
}

/** The power cord: SIGKILL, nothing finishes. */
async function killHub(): Promise<void> {
  const p = hubProc!;
  hubProc = null;
  p.child.kill('SIGKILL');
  await p.exited;
}

/** The newest one-time link the hub printed. */
const hubLink = () =>
  hubProc!
    .stderr()
    .match(/http:\/\/127\.0\.0\.1:\d+\/#token=gdt_[\w-]+/g)
    ?.at(-1) ?? hubProc!.appUrl!;

const today = localDate(new Date());

/** Donors of the evening: namesakes, accents, a host, a donor with a street address. */
const DONORS = [
  {
    firstName: 'Dana',
    lastName: 'Whitfield',
    primaryEmail: 'dana@whitfield.example',
    street1: '12 Orchard Lane',
  },
  { firstName: 'Robert', lastName: 'Brown', primaryEmail: 'rbrown@example.org' },
  { firstName: 'Robert', lastName: 'Brown', primaryEmail: 'bob.brown@example.com' },
  { firstName: 'Robert', lastName: 'Brown', primaryEmail: null },
  { firstName: 'Łukasz', lastName: 'Żółć', primaryEmail: 'lukasz@example.pl' },
  { firstName: 'Zoe', lastName: 'Kim', primaryEmail: 'zoe.kim@example.org' },
  { firstName: 'Helen', lastName: 'Park', primaryEmail: 'helen.park@example.org' },
] as const;
const contactIds: Record<string, string> = {};

beforeAll(async () => {
  [appPort, eventPort] = [await freePort(), await freePort()];
  // The organisation, as the demo seeds it, before the hub laptop first starts GiftDesk.
  const store = await openStore({ dataDir: hubDir });
  const ctx = createContext(store);
  const { id: accountId } = await createAccount(ctx, ORG);
  hubKey = await createApiKey(ctx, accountId, 'evening setup');
  const ref = await seedReference(ctx, accountId, today);
  await seedCustomFields(ctx, accountId);
  // Gloria gave last spring, entered then: not tonight's, at any laptop.
  const gloria = await createContact(ctx, {
    accountId,
    firstName: 'Gloria',
    lastName: 'Evans',
    primaryEmail: 'gloria@example.net',
    addresses: [
      { street1: '9 Mill Road', city: 'Riverbend', state: 'OH', postalCode: '45601', isPrimary: true },
    ],
  });
  const spring = `${Number(today.slice(0, 4))}-04-15`;
  await createDonation(ctx, {
    accountId,
    contactId: gloria.id,
    donationAmount: 75,
    donationDate: spring,
    paymentMethod: 'check',
    campaignId: ref.campaigns.annual,
  });
  await store.write((trx) =>
    trx
      .updateTable('donations')
      .set({ createdAt: `${spring}T19:00:00.000Z`, updatedAt: `${spring}T19:00:00.000Z` })
      .where('accountId', '=', accountId)
      .execute(),
  );
  contactIds['gloria@example.net'] = gloria.id;
  await store.close();
  const serving = startHub();
  const [a, b] = await Promise.all([
    startAppServer({ sync: { keys: testKeys, run: true }, hub: true }),
    startAppServer({ sync: { keys: testKeys, run: true }, hub: true }),
  ]);
  await serving;
  for (const d of DONORS) {
    const c = await hubPost('/api/v1/contacts', {
      firstName: d.firstName,
      lastName: d.lastName,
      primaryEmail: d.primaryEmail,
      employer: 'Riverbend Mills',
      occupation: 'Engineer',
      addresses: [
        {
          street1: 'street1' in d ? d.street1 : '1 Main Street',
          city: 'Riverbend',
          state: 'OH',
          postalCode: '45601',
          isPrimary: true,
        },
      ],
    });
    contactIds[d.primaryEmail ?? `${d.firstName} ${d.lastName}`] = c.id;
  }
  // The letters speak for a political committee, by name.
  expectStatus(
    await hubApi('PUT', '/api/v1/letters/settings', {
      accountId,
      orgKind: 'political',
      organizationName: ORG,
      signerName: 'Maria Okafor',
    }),
    200,
  );
  browser = await launchChromium();
  hubContext = await browser.newContext({ viewport: { width: 1366, height: 900 }, reducedMotion: 'reduce' });
  hubPage = await hubContext.newPage();
  await hubPage.goto(hubLink());
  await hubPage.getByRole('navigation', { name: 'Screens' }).waitFor();
  stations.A = { name: 'Table A', server: a, app: await openApp(browser, a), auth: {} };
  stations.B = { name: 'Table B', server: b, app: await openApp(browser, b), auth: {} };
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([stations.A?.server.close(), stations.B?.server.close()]);
  if (hubProc) await killHub();
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
}

const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.getAttribute('aria-label') ?? el?.labels?.[0]?.textContent ?? el?.textContent ?? '';
  });
const donorBox = (page: Page) => page.getByRole('combobox', { name: 'Donor' });
const activeOption = (page: Page) =>
  page.evaluate(() => {
    const id = document.activeElement?.getAttribute('aria-activedescendant');
    return id ? (document.getElementById(id)?.textContent ?? null) : null;
  });

/** Gift entry (Alt+1) in a batch of the event's Harvest Dinner made for this laptop. */
async function openBatch(page: Page, name: string, make: (campaignId: string) => Promise<string>) {
  await page.keyboard.press('Alt+1');
  const batchId = await make('');
  await page.evaluate(
    ([key, id]) => localStorage.setItem(key!, id!),
    [`giftdesk.batch.${hubKey.accountId}`, batchId],
  );
  await page.reload();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  await page.keyboard.press('Alt+1');
  await donorBox(page).waitFor();
  await expect.poll(() => focusedLabel(page)).toBe('Donor');
  await expect.poll(() => textOf(page)).toContain(name);
}

const harvestAt = async (get: (p: string) => Promise<Record<string, unknown>>) =>
  ((await get('/api/v1/campaigns')).data as Array<{ id: string; name: string }>).find(
    (c) => c.name === 'Harvest Dinner (event day)',
  )!.id;

/**
 * One gift, typed: part of the donor's name, Enter on the top match (the one meant), the
 * amount, what else (`then`), Enter; waits for the batch's count to grow.
 */
async function typeGift(
  page: Page,
  typed: string,
  meant: RegExp,
  amount: string,
  then: (page: Page) => Promise<void> = async () => {},
): Promise<void> {
  await page.keyboard.press('Alt+1');
  await expect.poll(() => focusedLabel(page)).toBe('Donor');
  const before = Number(/^\d+/.exec((await page.getByTestId('batch-count').textContent()) ?? '0')?.[0] ?? 0);
  await page.keyboard.type(typed);
  await expect.poll(() => activeOption(page)).toMatch(meant);
  await page.keyboard.press('Enter');
  await expect.poll(() => focusedLabel(page)).toMatch(/^Amount/);
  await page.keyboard.type(amount);
  await then(page);
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => Number(/^\d+/.exec((await page.getByTestId('batch-count').textContent()) ?? '')?.[0]))
    .toBe(before + 1);
  await expect.poll(() => focusedLabel(page)).toBe('Donor');
}

/** A saved gift's row in the batch: the donor's name and the amount as shown. */
const giftRow = (page: Page, donor: string, amount: string) =>
  page.locator('table.gift-table tbody tr').filter({ hasText: donor }).filter({ hasText: amount });

/**
 * Until the station has sent everything it holds to the hub. `after`: the hub was away, and
 * the station's next try may be up to 30 s off (it waits longer between tries while it fails).
 */
async function untilSent(s: Station, after: 'hub away' | null = null): Promise<void> {
  await expect
    .poll(async () => (await stationGet(s, '/api/v1/event')).waiting, after ? AWAY : TRAVEL)
    .toBe(0);
}

/**
 * A finding checked and reported, pass or fail, while the evening goes on (a later finding is
 * still seen when an earlier one fails). False when it failed.
 */
async function finding(what: string, check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch (err) {
    expect.soft(false, `${what} — ${(err as Error).message.split('\n')[0]}`).toBe(true);
    return false;
  }
}

/** The page's whole text. */
const textOf = async (page: Page) => (await page.locator('body').textContent()) ?? '';

describe('an event evening: a hub and two tables', () => {
  it('hosts the event on every network of the hub, and both tables join it', async () => {
    await openEvent(hubPage);
    await hubPage.getByLabel('Address', { exact: true }).fill('0.0.0.0');
    await hubPage.getByLabel('Port', { exact: true }).fill(String(eventPort));
    await hubPage.getByRole('button', { name: 'Host this event' }).click();
    await hubPage.getByTestId('hub-fingerprint').waitFor();
    eventUrl = (await hubPage.getByTestId('hub-url').textContent()) ?? '';
    expect(eventUrl).toMatch(new RegExp(`^https://[^/]+:${eventPort}$`));
    for (const s of [A(), B()]) {
      const link = await hubPage.getByTestId('hub-join-link').inputValue();
      const page = s.app.page;
      await openEvent(page);
      await page.getByLabel('Hub address or join link').fill(link);
      await page.getByLabel('Station name').fill(s.name);
      await page.getByRole('button', { name: 'Join the event' }).click();
      await expect.poll(() => page.getByTestId('station-name').textContent(), TRAVEL).toBe(s.name);
      const key = await createApiKey(s.server.ctx, hubKey.accountId, 'tests (evening)');
      s.auth = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };
      await expect
        .poll(() => page.getByTestId('station-connection').textContent(), TRAVEL)
        .toBe('Connected to the event hub');
      await hubPage.locator(`[data-testid="hub-station"][data-station="${s.name}"]`).waitFor();
      await expect.poll(() => hubPage.getByTestId('hub-join-link').inputValue()).not.toBe(link);
    }
    // A batch at each laptop, on the evening's campaign (each laptop's own record of it).
    const hubCampaign = await harvestAt(hubGet);
    await openBatch(hubPage, 'Front table', async () =>
      String(
        (
          await hubPost('/api/v1/batches', {
            name: 'Front table',
            campaignId: hubCampaign,
            paymentMethod: 'check',
            batchDate: today,
          })
        ).id,
      ),
    );
    for (const s of [A(), B()]) {
      const campaignId = await harvestAt((p) => stationGet(s, p));
      await openBatch(s.app.page, s.name, async () =>
        String(
          expectStatus(
            await s.server.request(
              'POST',
              '/api/v1/batches',
              {
                accountId: hubKey.accountId,
                name: s.name,
                campaignId,
                paymentMethod: 'check',
                batchDate: today,
              },
              s.auth,
            ),
            201,
          ).id,
        ),
      );
    }
  }, 240_000);

  it('money on one election: $2,000 at the hub and $1,500 at Table A is over the $3,300 limit, warned in the row and flagged', async () => {
    // At the hub: Dana's $2,000, raised by Helen Park (a host).
    await typeGift(hubPage, 'dana whit', /Dana Whitfield/, '2000', async (page) => {
      await page.keyboard.press('Alt+R');
      await expect.poll(() => focusedLabel(page)).toMatch(/^Raised by/);
      await page.keyboard.type('helen');
      await expect.poll(() => activeOption(page)).toMatch(/Helen Park/);
      await page.keyboard.press('Enter');
    });
    // Table A knows it: Dana's page there lists the gift.
    await expect
      .poll(
        async () =>
          (await stationGet(A(), `/api/v1/contacts/${contactIds['dana@whitfield.example']}/donations`))
            .donations.length,
        TRAVEL,
      )
      .toBe(1);
    const page = A().app.page;
    await page.keyboard.press('Alt+1');
    await expect.poll(() => focusedLabel(page)).toBe('Donor');
    await page.keyboard.type('dana whit');
    await expect.poll(() => activeOption(page)).toMatch(/Dana Whitfield/);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(page)).toMatch(/^Amount/);
    await page.keyboard.type('1500');
    const warning = page.locator('[data-warning="limit"]');
    const warned = await expect
      .poll(() => warning.textContent(), { timeout: 10_000 })
      .toContain('Federal campaign account')
      .then(
        () => true,
        () => false,
      );
    expect.soft(warned, 'the row warns: over the $3,300 limit').toBe(true);
    if (warned) expect.soft(await warning.textContent()).toContain('$1,300.00 of room left');
    await screenshot(page, 'event-evening-limit-at-station');
    await page.keyboard.press('Enter');
    const row = giftRow(page, 'Dana Whitfield', '$1,500.00');
    await row.waitFor();
    await finding('the row at Table A says the gift is flagged', () =>
      expect.poll(() => row.textContent(), SHOWN).toContain('over a limit: in Review'),
    );
    // Review, at the table and at the hub: Dana's $1,500 is there, over the limit.
    for (const p of [page, hubPage]) {
      await p.keyboard.press('Alt+3');
      await finding(
        `Review at ${p === page ? 'Table A' : 'the hub'} lists Dana’s $1,500 over the limit`,
        () => expect.poll(() => textOf(p), SHOWN).toMatch(/Dana Whitfield[\s\S]*\$1,500\.00/),
      );
    }
  }, 240_000);

  it('a correction and a void made at the hub are what Table A shows', async () => {
    const page = A().app.page;
    // Two identical $19.99 cash gifts from one Robert Brown, and Zoe's $250 check.
    const cash = async (p: Page) => {
      await p.keyboard.press('Tab');
      await p.keyboard.type('cash');
    };
    await typeGift(page, 'bob.brown', /Robert Brown.*bob\.brown@example\.com/, '19.99', cash);
    await typeGift(page, 'bob.brown', /Robert Brown.*bob\.brown@example\.com/, '19.99', cash);
    await typeGift(page, 'zoe kim', /Zoe Kim/, '250');
    await untilSent(A());

    // At the hub, Zoe's page: Table A's gift can be corrected there.
    const zoe = contactIds['zoe.kim@example.org']!;
    await hubPage.goto(`${new URL(hubProc!.url).origin}/#/contacts/${zoe}`);
    await hubPage.getByRole('heading', { name: 'Zoe Kim' }).first().waitFor();
    const correct = hubPage
      .locator('section[aria-labelledby="contact-giving"]')
      .locator('tr', { hasText: '$250.00' })
      .getByRole('button', { name: /correct/i });
    const offered = await correct
      .waitFor({ timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    expect.soft(offered, 'the hub’s contact page offers Correct for a station’s gift').toBe(true);
    const zoeGift = (await hubGet(`/api/v1/contacts/${zoe}/donations`)).donations[0] as { id: string };
    if (offered) {
      await correct.click();
      const dialog = hubPage.getByRole('dialog');
      await dialog.getByLabel(/^Amount/).fill('25');
      await dialog.getByLabel(/^Amount/).press('Enter');
      await dialog.waitFor({ state: 'detached' });
    } else {
      // Not offered on the screen: as a script would, so the station's side is seen either way.
      expectStatus(
        await hubApi('PATCH', `/api/v1/donations/${zoeGift.id}`, {
          accountId: hubKey.accountId,
          donationAmount: 25,
        }),
        200,
      );
    }
    // And one of Robert Brown's two $19.99 voided at the hub, on his page.
    const bob = contactIds['bob.brown@example.com']!;
    await hubPage.goto(`${new URL(hubProc!.url).origin}/#/contacts/${bob}`);
    await hubPage.getByRole('heading', { name: 'Robert Brown' }).first().waitFor();
    const voidButton = hubPage
      .locator('section[aria-labelledby="contact-giving"]')
      .locator('tr', { hasText: '$19.99' })
      .first()
      .getByRole('button', { name: /void/i });
    const voidOffered = await voidButton
      .waitFor({ timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    expect.soft(voidOffered, 'the hub’s contact page offers Void for a station’s gift').toBe(true);
    if (voidOffered) {
      await voidButton.click();
      const confirm = hubPage.getByRole('dialog');
      await confirm.getByRole('button', { name: /^Void/ }).click();
      await confirm.waitFor({ state: 'detached' });
    } else {
      const bobGifts = (await hubGet(`/api/v1/contacts/${bob}/donations`)).donations as Array<{ id: string }>;
      expect(bobGifts).toHaveLength(2);
      expectStatus(
        await hubApi('POST', `/api/v1/donations/${bobGifts[0]!.id}/void`, { accountId: hubKey.accountId }),
        200,
      );
    }

    // Table A's batch: Zoe's gift is $25.00, one $19.99 is voided.
    await page.keyboard.press('Alt+1');
    await finding('Table A’s batch shows Zoe’s gift as corrected at the hub ($25.00)', () =>
      expect.poll(() => giftRow(page, 'Zoe Kim', '$25.00').count(), TRAVEL).toBe(1),
    );
    await finding('Table A’s batch shows one $19.99 voided', () =>
      expect
        .poll(
          () =>
            page
              .locator('table.gift-table tbody tr')
              .filter({ hasText: 'Robert Brown' })
              .filter({ hasText: /voided/ })
              .count(),
          TRAVEL,
        )
        .toBe(1),
    );
    // Robert Brown's page at Table A: his giving as the hub's page shows it (one gift of $19.99).
    const giving = async (p: Page, origin: string) => {
      await p.goto(`${origin}/#/contacts/${bob}`);
      await p.reload(); // read afresh, as a person opening the page
      await p.getByRole('heading', { name: 'Robert Brown' }).first().waitFor();
      const section = p.locator('section[aria-labelledby="contact-giving"]');
      await section.getByText('Total given').waitFor();
      return (await section.textContent()) ?? '';
    };
    const atHub = await giving(hubPage, new URL(hubProc!.url).origin);
    await finding('Robert Brown’s giving at Table A is the hub’s', () =>
      expect.poll(() => giving(page, A().server.url), TRAVEL).toBe(atHub),
    );
    await page.keyboard.press('Alt+1');
  }, 240_000);

  it('a station corrects its own gift through the hub: a $500 typed for $50 is fixed, and its batch says who changed what', async () => {
    const page = A().app.page;
    await page.keyboard.press('Alt+1');
    await typeGift(page, 'lukasz zolc', /Łukasz Żółć/, '500');
    await untilSent(A());
    const row = giftRow(page, 'Łukasz Żółć', '$500.00');
    // At the hub only, not at HQ: never called "sent to HQ".
    await finding('a gift that only reached the hub is not called “sent to HQ”', () =>
      expect.poll(() => row.textContent(), { timeout: 5_000 }).not.toContain('sent to HQ'),
    );
    const correct = row.getByRole('button', { name: /^Correct the gift of \$500\.00/ });
    const offered = await finding('Table A can still correct its gift at the hub', () =>
      correct.waitFor({ timeout: 10_000 }),
    );
    if (offered) {
      await correct.click();
      const dialog = page.getByRole('dialog', { name: /Correct the gift of \$500\.00/ });
      await dialog.getByLabel('Amount ($)').fill('50');
      await dialog.getByLabel('Amount ($)').press('Enter');
      const saved = await finding('the correction is taken (the dialog closes)', () =>
        dialog.waitFor({ state: 'detached', timeout: 15_000 }),
      );
      if (!saved) {
        await screenshot(page, 'event-evening-station-correct-refused');
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
      const fixed = giftRow(page, 'Łukasz Żółć', '$50.00');
      await finding('Table A’s batch shows $50.00', () => expect.poll(() => fixed.count(), TRAVEL).toBe(1));
      // The batch's line says who changed what (the amount, and that it went through the hub).
      await finding('the line in the batch says the gift was corrected', () =>
        expect.poll(() => fixed.textContent(), SHOWN).toMatch(/correct|changed/i),
      );
      await quiet(page);
      await screenshot(page, 'event-evening-station-corrects');
    }
    // The hub holds $50.00 for Łukasz.
    const lukasz = contactIds['lukasz@example.pl']!;
    await finding('the hub holds the corrected $50.00', () =>
      expect.poll(async () => (await hubGet(`/api/v1/contacts/${lukasz}`)).totalDonated, SHOWN).toBe(50),
    );
  }, 240_000);

  it('the thank-you letters the hub marked sent are not offered again at a station', async () => {
    await hubPage.keyboard.press('Alt+6');
    await hubPage.getByRole('heading', { level: 1, name: 'Letters' }).waitFor();
    await hubPage.getByRole('button', { name: 'Make letters' }).click();
    await hubPage.getByRole('heading', { name: /^Ready: \d+ letters?$/ }).waitFor();
    await hubPage.locator('.letters-run').getByRole('button', { name: 'Mark as sent…' }).click();
    const dialog = hubPage.getByRole('dialog', { name: /^Mark \d+ gifts? as thanked\?$/ });
    await dialog.getByRole('button', { name: /^Mark \d+ gifts? as sent$/ }).click();
    await hubPage.getByRole('status').filter({ hasText: 'Marked as sent:' }).waitFor();
    // At the hub, nothing waits for a letter now (the screen opened afresh).
    await hubPage.reload();
    await hubPage.getByRole('navigation', { name: 'Screens' }).waitFor();
    await hubPage.keyboard.press('Alt+6');
    const nothing = (p: Page) =>
      p.locator('.letters-viewer').getByText('No gifts waiting for a thank-you letter');
    await finding('the hub’s Letters screen has no gift waiting after marking them sent', () =>
      nothing(hubPage).waitFor(SHOWN),
    );
    await screenshot(hubPage, 'event-evening-letters-hub');
    // Nor at Table A.
    const page = A().app.page;
    await page.keyboard.press('Alt+6');
    await page.getByRole('heading', { level: 1, name: 'Letters' }).waitFor();
    await finding('Table A’s Letters screen has no gift waiting for a thank-you letter', () =>
      nothing(page).waitFor(TRAVEL),
    );
    await screenshot(page, 'event-evening-letters-station');
  }, 240_000);

  it('what a station prints is what the hub would: the donor’s address, the committee’s name and wording', async () => {
    const page = A().app.page;
    await page.keyboard.press('Alt+1');
    await typeGift(page, 'gloria', /Gloria Evans/, '40');
    await page.keyboard.press('Control+p');
    await page.getByRole('status').filter({ hasText: 'Receipt for Gloria Evans: sent to print.' }).waitFor();
    const runs = (await stationGet(A(), '/api/v1/letters/runs')).runs as Array<{ id: string; kind: string }>;
    const run = runs.find((r) => r.kind === 'receipt')!;
    const res = await fetch(
      `${A().server.url}/api/v1/letters/runs/${run.id}/pdf?accountId=${hubKey.accountId}`,
      {
        headers: A().auth,
      },
    );
    expect(res.status).toBe(200);
    const text = (await pdfPages(new Uint8Array(await res.arrayBuffer()))).flat().join('\n');
    expect(text).toContain('Gloria Evans');
    expect(text).toContain('$40.00');
    await finding('the receipt at Table A has the donor’s address', async () =>
      expect(text).toContain('9 Mill Road'),
    );
    await finding('the receipt at Table A speaks for the hub’s committee, by its name', async () => {
      expect(text).toContain(ORG);
      expect(text).toContain('not tax deductible');
      expect(text).not.toContain('No goods or services');
    });
  }, 240_000);

  it('the board: every laptop shows the same evening, by station, and the hosts', async () => {
    type Board = { total: string; count: string; rows: Record<string, string>; hosts: string };
    /** The board as shown at `me` ("the hub", or a station's name), each row named the same everywhere. */
    const board = async (page: Page, me: string): Promise<Board> => {
      await page.keyboard.press('Alt+4');
      await page.getByTestId('today-total').waitFor();
      const rows: Record<string, string> = {};
      for (const r of await page.locator('[data-testid="board-station"]').all()) {
        const cells = await r.locator('td').allTextContents();
        const where = (await r.getAttribute('data-where')) ?? '';
        const label = (await r.locator('th').first().textContent()) ?? '';
        rows[where === 'here' ? me : where === 'hub' ? 'the hub' : label] = cells.join(' | ');
      }
      const hosts = (await page.locator('[data-testid="host-board"]').count())
        ? ((await page.getByTestId('host-board').textContent()) ?? '')
        : '';
      return {
        total: (await page.getByTestId('today-total').textContent()) ?? '',
        count: (await page.getByTestId('today-count').textContent()) ?? '',
        rows,
        hosts,
      };
    };
    await untilSent(A());
    await untilSent(B());
    const atHub = await board(hubPage, 'the hub');
    await quiet(hubPage);
    await screenshot(hubPage, 'event-evening-board');
    expect(atHub.hosts).toContain('Helen Park');
    for (const s of [A(), B()]) {
      const page = s.app.page;
      await finding(`${s.name}’s board: the evening’s total and count are the hub’s`, async () => {
        await expect.poll(async () => (await board(page, s.name)).total, SHOWN).toBe(atHub.total);
        expect((await board(page, s.name)).count).toBe(atHub.count);
      });
      await finding(`${s.name}’s board: each station’s gifts and total as at the hub`, async () => {
        expect((await board(page, s.name)).rows).toEqual(atHub.rows);
      });
      await finding(`${s.name}’s board: the hosts as at the hub`, async () => {
        expect((await board(page, s.name)).hosts).toBe(atHub.hosts);
      });
    }
  }, 240_000);

  /** The close-out's row of a station at the hub: its cells. */
  const closeOutRow = (name: string) =>
    hubPage.locator(`[data-testid="close-out-station"][data-station="${name}"]`);
  const completeCell = (name: string) => closeOutRow(name).locator('td').nth(3);

  it('the close-out counts each table’s gifts where they were typed, a correction at the hub included', async () => {
    await untilSent(A());
    await openEvent(hubPage);
    // Typed at the hub: Dana's $2,000 only; everything else was typed at Table A, Zoe's gift
    // (corrected at the hub) and the $19.99 voided there included.
    await finding('Table A, all sent, one gift corrected and one voided at the hub, is complete', () =>
      expect.poll(() => completeCell('Table A').textContent(), TRAVEL).toMatch(/Complete\.$/),
    );
    await finding('the close-out counts at the hub the one gift typed there', async () =>
      expect(await closeOutRow('the hub').locator('td').nth(0).textContent()).toBe('1'),
    );
  }, 240_000);

  it('the hub killed and started again: not served, said outside Settings; not complete until Table A reported again; served again on every network', async () => {
    await killHub();
    // Table A keeps typing: two gifts wait.
    const page = A().app.page;
    await page.keyboard.press('Alt+1');
    await typeGift(page, 'rbrown@', /Robert Brown.*rbrown@example\.org/, '19.99');
    await typeGift(page, 'rbrown@', /Robert Brown.*rbrown@example\.org/, '19.99');
    await expect
      .poll(async () => (await stationGet(A(), '/api/v1/event')).waiting, TRAVEL)
      .toBeGreaterThan(0);
    await startHub();
    // The hub's window carries on by itself (its session belongs to the data folder).
    await hubPage.keyboard.press('Alt+1');
    await donorBox(hubPage).waitFor({ timeout: 60_000 });
    await finding('outside Settings → Event, the hub says the event is not served', () =>
      expect
        .poll(() => textOf(hubPage), { timeout: 10_000 })
        .toMatch(/not serv|isn’t serv|no longer serv|stations cannot reach/i),
    );
    await quiet(hubPage);
    await screenshot(hubPage, 'event-evening-not-served');
    await openEvent(hubPage);
    await hubPage.getByText('does not serve it right now').waitFor();
    // Table A cannot reach it: its report is from before the restart.
    await finding('before Table A reported again, its row is not complete', () =>
      expect
        .poll(() => completeCell('Table A').textContent(), { timeout: 10_000 })
        .not.toMatch(/Complete\.$/),
    );
    await finding('before Table A reported again, the close-out does not say every gift is here', async () =>
      expect(await hubPage.getByTestId('close-out-state').textContent()).not.toBe(
        'Every station’s gifts are at the hub.',
      ),
    );
    await quiet(hubPage);
    await hubPage.getByRole('heading', { name: 'Closing the night' }).scrollIntoViewIfNeeded();
    await screenshot(hubPage, 'event-evening-close-out-after-restart');
    await finding('Serve the event again offers the address it was hosted on (every network)', async () =>
      expect(await hubPage.getByLabel('Address', { exact: true }).inputValue()).toBe('0.0.0.0'),
    );
    await hubPage.getByRole('button', { name: 'Serve the event again' }).click();
    await hubPage.getByTestId('hub-fingerprint').waitFor();
    expect(await hubPage.getByTestId('hub-url').textContent()).toBe(eventUrl);
    // Served on every network again: this laptop's loopback answers as the venue's address does.
    await finding('served again on every network (127.0.0.1 answers too)', async () =>
      expect(await answersTls(`https://127.0.0.1:${eventPort}/api/v1/hub/ping`)).toBe(true),
    );
    // Table A carries on by itself: its two gifts arrive, and then it is complete.
    await untilSent(A(), 'hub away');
    await finding('once Table A reported again, its row is complete', () =>
      expect.poll(() => completeCell('Table A').textContent(), TRAVEL).toMatch(/Complete\.$/),
    );
  }, 240_000);

  it('a revoked table is told in gift entry; its gifts typed after are never “complete”; paired again it is one row', async () => {
    await openEvent(hubPage);
    await hubPage.getByRole('button', { name: 'Revoke Table B' }).click();
    await hubPage
      .getByRole('dialog', { name: 'Remove Table B from the event?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await hubPage
      .locator('[data-testid="hub-station"][data-station="Table B"]')
      .getByText(/^Removed at/)
      .waitFor();
    const page = B().app.page;
    await openEvent(page);
    await expect
      .poll(() => page.getByTestId('station-connection').textContent(), TRAVEL)
      .toMatch(/^This station was removed from the event/);
    await finding('Settings → Event on a revoked table does not promise its gifts will go', async () =>
      expect(await textOf(page)).not.toContain('as soon as the hub answers'),
    );
    // Table B keeps typing.
    await page.keyboard.press('Alt+1');
    await donorBox(page).waitFor();
    await finding('gift entry on a revoked table says it was removed from the event', () =>
      expect.poll(() => textOf(page), { timeout: 15_000 }).toMatch(/removed from the event/i),
    );
    await typeGift(page, 'zoe kim', /Zoe Kim/, '60');
    await quiet(page);
    await screenshot(page, 'event-evening-revoked-entry');
    await finding('gift entry on a revoked table says its new gift will not reach the hub', () =>
      expect.poll(() => textOf(page), { timeout: 15_000 }).toMatch(/removed from the event/i),
    );
    // The close-out: Table B is never complete once revoked.
    await openEvent(hubPage);
    await finding('a revoked table is not complete in the close-out', () =>
      expect
        .poll(() => completeCell('Table B').textContent(), { timeout: 15_000 })
        .not.toMatch(/Complete\.$/),
    );
    await finding(
      'the close-out does not say every gift is here while a revoked table holds gifts',
      async () =>
        expect(await hubPage.getByTestId('close-out-state').textContent()).not.toBe(
          'Every station’s gifts are at the hub.',
        ),
    );

    // Paired again with a new code: one Table B, on the hub's list and in the close-out.
    const link = await hubPage.getByTestId('hub-join-link').inputValue();
    await openEvent(page);
    // The way offered to a removed table: "Pair this station again", filled with its hub and name.
    const form = page.locator('form', {
      has: page.getByRole('heading', { name: 'Pair this station again' }),
    });
    await form.getByLabel('Hub address or join link').fill(link);
    await form.getByLabel('Station name').fill('Table B');
    await form.getByRole('button', { name: 'Pair again' }).click();
    await expect
      .poll(() => page.getByTestId('station-connection').textContent(), TRAVEL)
      .toBe('Connected to the event hub');
    await untilSent(B());
    await openEvent(hubPage);
    await finding('paired again, Table B is complete once it sent everything', () =>
      expect
        .poll(
          () =>
            closeOutRow('Table B')
              .filter({ hasText: /Complete\.$/ })
              .count(),
          TRAVEL,
        )
        .toBe(1),
    );
    await finding('paired again, Table B is one row of the close-out', async () =>
      expect(await closeOutRow('Table B').count()).toBe(1),
    );
    await finding('paired again, Table B is one row of the hub’s stations', async () =>
      expect(
        (await hubPage
          .locator('[data-testid="hub-station"][data-station="Table B"]')
          .filter({ hasNotText: /Removed at/ })
          .count()) +
          (await hubPage
            .locator('[data-testid="hub-station"][data-station="Table B"]')
            .filter({ hasText: /Removed at/ })
            .count()),
      ).toBe(1),
    );
    await quiet(hubPage);
    await hubPage.getByRole('heading', { name: 'Closing the night' }).scrollIntoViewIfNeeded();
    await screenshot(hubPage, 'event-evening-close-out');
    expect(hubPage.isClosed()).toBe(false);
  }, 240_000);
});

/** Whether a TLS server answers at `url` (any HTTP answer; the hub's certificate is its own). */
function answersTls(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = https.get(url, { rejectUnauthorized: false, timeout: 5_000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });
}
