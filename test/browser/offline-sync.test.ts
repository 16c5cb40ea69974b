/**
 * Sync's end-to-end promise, in real Chromium: gifts entered while HQ cannot be reached
 * wait as "not yet sent" (one is voided before it ever leaves); when HQ answers again, sync
 * lands each remaining gift at HQ exactly once, and the gift-entry rows say "sent to HQ".
 * Two real GiftDesk servers: the app's own (running the sync scheduler) and HQ, reached at an
 * address where nothing listens at first and, later, a plain forwarding proxy to HQ.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { makeContact } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startFaultProxy, type FaultProxy } from '../sync/fault-proxy.ts';
import { testKeys } from '../sync/rig.ts';
import {
  expectNoA11yViolations,
  freePort,
  launchChromium,
  openApp,
  screenshot,
  startAppServer,
  type AppServer,
} from './helpers.ts';

let local: AppServer;
let hq: TestServer;
let hqKey: { accountId: string; keyId: string; secret: string };
let browser: Browser;
let proxy: FaultProxy | null = null;
let port: number;

const DONORS = [
  { firstName: 'Zoë', lastName: 'Núñez', type: 'zoe nu' },
  { firstName: 'Kwame', lastName: 'Mensah', type: 'mensah' },
];

/** A loopback port nothing listens on (HQ is "offline" there until the proxy starts on it). */
/** HQ's gifts in the synced account, with the local reference (gd:<id>) each carries. */
async function hqGifts(): Promise<Array<{ id: string; notes: string | null }>> {
  return hq.store.db
    .selectFrom('donations')
    .select(['id', 'notes'])
    .where('accountId', '=', hqKey.accountId)
    .execute();
}

beforeAll(async () => {
  hq = await startTestServer();
  hqKey = await hq.otherAccount();
  local = await startAppServer({ sync: { keys: testKeys, run: true } });
  const hqCampaign = await createCampaign(hq.ctx, { accountId: hqKey.accountId, name: 'Spring Gala' });
  const campaignId = (await createCampaign(local.ctx, { accountId: local.accountId, name: 'Spring Gala' }))
    .id;
  await local.store.write((trx) =>
    linkRemote(trx, {
      accountId: local.accountId,
      entityType: 'campaign',
      localId: campaignId,
      remoteId: hqCampaign.id,
      source: 'manual',
      at: new Date().toISOString(),
    }),
  );
  for (const d of DONORS) await makeContact(local, { firstName: d.firstName, lastName: d.lastName });
  port = await freePort();
  const saved = await local.request('PUT', '/api/v1/sync/settings', {
    accountId: local.accountId,
    baseUrl: `http://127.0.0.1:${port}`,
    keyId: hqKey.keyId,
    secret: hqKey.secret,
    remoteAccountId: hqKey.accountId,
    scheduleSeconds: 5,
  });
  expect(saved.status, saved.text).toBe(200);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await local?.close();
  await proxy?.close();
  await hq?.close();
});

describe('gifts entered offline', () => {
  it('wait as not yet sent, and land at HQ exactly once when HQ is back (a gift voided before that never does)', async () => {
    const { page, context } = await openApp(browser, local);
    const donorBox = page.getByRole('combobox', { name: 'Donor' });

    // A batch for the Spring Gala, then four gifts by keyboard.
    await page.getByRole('button', { name: 'Start a batch' }).click();
    await page.getByLabel('Batch name').fill('Door, no wifi');
    await page.getByLabel('Campaign').selectOption({ label: 'Spring Gala' });
    await page.getByLabel('Batch name').press('Enter');
    await donorBox.waitFor();
    const amounts = ['50', '125.25', '20', '75'];
    for (const [i, amount] of amounts.entries()) {
      const d = DONORS[i % DONORS.length]!;
      await donorBox.focus();
      await page.keyboard.type(d.type);
      await expect
        .poll(async () => {
          const active = await donorBox.getAttribute('aria-activedescendant');
          return active ? page.locator(`[id="${active}"]`).textContent() : null;
        })
        .toContain(`${d.firstName} ${d.lastName}`);
      await page.keyboard.press('Enter');
      await page.keyboard.type(amount);
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.getByTestId('batch-count').textContent())
        .toMatch(new RegExp(`^${i + 1}\\b`));
    }
    const rows = page.locator('table.gift-table tbody tr');
    await expect.poll(() => rows.count()).toBe(4);

    // HQ is unreachable: a pass is tried and nothing arrives; every row says "not yet sent".
    const tried = await local.request('POST', '/api/v1/sync/run', { accountId: local.accountId });
    expect(tried.status, tried.text).toBeLessThan(500);
    expect(await hqGifts()).toEqual([]);
    await expect.poll(() => page.locator('[data-sync-state="not_sent"]').count()).toBe(4);
    await screenshot(page, 'gift-entry-offline');

    // The $20 gift is voided before it was ever sent (after a confirmation).
    const twenty = rows.filter({ hasText: '$20.00' });
    await twenty.getByRole('button', { name: /^Void the gift of \$20\.00/ }).click();
    await page.getByRole('button', { name: 'Void gift' }).click();
    await expect.poll(() => page.locator('[data-sync-state="voided"]').count()).toBe(1);
    await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(/^3\b/);
    await expectNoA11yViolations(page, 'gift entry with sync states');

    // HQ is back at the same address: the scheduler (and "Sync now") bring the gifts over.
    proxy = await startFaultProxy({ target: hq.url, port });
    await expect.poll(async () => (await hqGifts()).length, { timeout: 90_000, interval: 500 }).toBe(3);
    await expect.poll(() => page.locator('[data-sync-state="sent"]').count(), { timeout: 30_000 }).toBe(3);
    await screenshot(page, 'gift-entry-synced');

    // Exactly once: each local gift's reference is at HQ once, and another pass sends nothing more.
    const again = await local.request('POST', '/api/v1/sync/run', { accountId: local.accountId });
    expect(again.status, again.text).toBe(200);
    const local3 = (await local.request('GET', `/api/v1/donations?accountId=${local.accountId}&limit=100`))
      .body.donations as Array<{ id: string; donationAmount: number }>;
    expect(local3.map((d) => d.donationAmount).sort((a, b) => a - b)).toEqual([50, 75, 125.25]);
    const atHq = await hqGifts();
    expect(atHq).toHaveLength(3);
    for (const d of local3)
      expect(atHq.filter((g) => (g.notes ?? '').includes(`gd:${d.id}`))).toHaveLength(1);
    expect(proxy.forwarded('POST', '/api/v1/donations')).toHaveLength(3);
    await context.close();
  }, 180_000);
});
