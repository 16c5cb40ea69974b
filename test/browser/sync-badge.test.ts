/**
 * The sync badge follows what the app does: a saved gift shows up as waiting, and after
 * "Sync now" it says all sent — read from the badge a user sees, checked against the API's
 * own status. HQ is unreachable at first (nothing listens at its address), then a plain
 * forwarding proxy to a real HQ server starts there.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { makeContact } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startFaultProxy, type FaultProxy } from '../sync/fault-proxy.ts';
import { testKeys } from '../sync/rig.ts';
import { freePort, launchChromium, openApp, startAppServer, type AppServer } from './helpers.ts';

let local: AppServer;
let hq: TestServer;
let browser: Browser;
let proxy: FaultProxy | null = null;
let port: number;
const poll = { timeout: 60_000, interval: 100 };

beforeAll(async () => {
  hq = await startTestServer();
  const hqKey = await hq.otherAccount();
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
  await makeContact(local, { firstName: 'Amara', lastName: 'Okafor' });
  port = await freePort();
  const saved = await local.request('PUT', '/api/v1/sync/settings', {
    accountId: local.accountId,
    baseUrl: `http://127.0.0.1:${port}`,
    keyId: hqKey.keyId,
    secret: hqKey.secret,
    remoteAccountId: hqKey.accountId,
    scheduleSeconds: 86_400,
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

/** What the API says is waiting for HQ. */
async function waiting(): Promise<number> {
  const s = (await local.request('GET', `/api/v1/sync/status?accountId=${local.accountId}`)).body as {
    waiting: number;
  };
  return s.waiting;
}

describe('the sync badge', () => {
  it('counts a saved gift as waiting, and says all sent after Sync now', async () => {
    const { page, context } = await openApp(browser, local);
    try {
      const badge = page.getByTestId('sync-badge');
      const before = await waiting();
      await expect
        .poll(() => badge.textContent(), poll)
        .toContain(before > 0 ? `${before} waiting` : 'all sent');

      // A gift saved in gift entry: the badge counts it.
      const donorBox = page.getByRole('combobox', { name: 'Donor' });
      await page.getByRole('button', { name: 'Start a batch' }).click();
      await page.getByLabel('Batch name').fill('Badge');
      await page.getByLabel('Campaign').selectOption({ label: 'Spring Gala' });
      await page.getByLabel('Batch name').press('Enter');
      await donorBox.waitFor();
      await donorBox.focus();
      await page.keyboard.type('okafor');
      await expect
        .poll(async () => {
          const active = await donorBox.getAttribute('aria-activedescendant');
          return active ? page.locator(`[id="${active}"]`).textContent() : null;
        }, poll)
        .toContain('Amara Okafor');
      await page.keyboard.press('Enter');
      await page.keyboard.type('40');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('batch-count').textContent(), poll).toMatch(/^1\b/);
      const after = await waiting();
      expect(after).toBeGreaterThan(before);
      await expect.poll(() => badge.textContent(), poll).toContain(`${after} waiting`);

      // HQ is reachable now; "Sync now" in Settings → Sync: the badge says all sent.
      proxy = await startFaultProxy({ target: hq.url, port });
      await badge.getByRole('link').first().click();
      await page.getByRole('button', { name: /Sync now/ }).click();
      await expect.poll(() => waiting(), poll).toBe(0);
      await expect.poll(() => badge.textContent(), poll).toContain('all sent');
    } finally {
      await context.close();
    }
  }, 180_000);
});
