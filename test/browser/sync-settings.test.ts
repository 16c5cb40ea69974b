/**
 * Settings → Sync in real Chromium, with two real GiftDesk servers: the app's own (the
 * harness's server, running the sync scheduler) and a second one as HQ. The remote is set up
 * through the form, which tries HQ first (a closed port and a wrong secret are refused with
 * the reason, nothing saved; the secret never comes back, in the API or the page), "Sync now" pushes
 * a gift that HQ then holds exactly once, the badge and status say so; a contact HQ refuses
 * (a custom field HQ lacks) shows HQ's message and is retried after the fix; a gift whose
 * campaign is not linked shows that reason and is discarded after a confirmation. axe and
 * screenshots on the way.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomField } from '../../electron/domain/contacts/custom-fields.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
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

let local: AppServer;
let hq: TestServer;
let hqKey: { accountId: string; keyId: string; secret: string };
let browser: Browser;
let app: OpenedApp;
let page: Page;
/** A local campaign linked to its namesake at HQ (every gift needs a designation). */
let campaignId: string;

beforeAll(async () => {
  hq = await startTestServer();
  hqKey = await hq.otherAccount();
  local = await startAppServer({ sync: { keys: testKeys, run: true } });
  const hqCampaign = await createCampaign(hq.ctx, { accountId: hqKey.accountId, name: 'Spring gala' });
  campaignId = (await createCampaign(local.ctx, { accountId: local.accountId, name: 'Spring gala' })).id;
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
  browser = await launchChromium();
  app = await openApp(browser, local);
  page = app.page;
});
afterAll(async () => {
  await app?.context.close();
  await browser?.close();
  await local?.close();
  await hq?.close();
});

const localApi = async (method: string, path: string, body?: Record<string, unknown>) => {
  const withAccount =
    method === 'GET' ? `${path}${path.includes('?') ? '&' : '?'}accountId=${local.accountId}` : path;
  const r = await local.request(
    method,
    `/api/v1${withAccount}`,
    body ? { accountId: local.accountId, ...body } : undefined,
  );
  expect(r.status, r.text).toBeLessThan(300);
  return r;
};

/** HQ's gifts carrying this local gift's reference (gd:<id>) in their notes. */
async function hqGiftsFor(localGiftId: string): Promise<unknown[]> {
  const rows = await hq.store.db
    .selectFrom('donations')
    .select(['id', 'notes'])
    .where('accountId', '=', hqKey.accountId)
    .execute();
  return rows.filter((r) => (r.notes ?? '').includes(`gd:${localGiftId}`));
}

async function openSyncSettings(): Promise<void> {
  await page.goto(`${local.url}/#/settings/sync`);
  await page.getByRole('heading', { level: 2, name: 'Sync' }).waitFor();
}

/**
 * Clicks "Sync now" and waits for that pass to end (the server answers /sync/run when it does),
 * then for the Status panel's outcome to say `expected`. The previous pass's outcome may still
 * be on screen right after the click (the page is not reloaded between tests), so the outcome
 * alone cannot tell this pass from the last one.
 */
async function syncNow(expected: RegExp): Promise<void> {
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/sync/run',
  );
  await page.getByRole('button', { name: 'Sync now' }).click();
  expect((await answered).status()).toBe(200);
  const outcome = page
    .locator(
      '[aria-labelledby="sync-status-title"] .notice[role="status"], [aria-labelledby="sync-status-title"] .notice[role="alert"]',
    )
    .last();
  await expect
    .poll(async () => ((await outcome.count()) > 0 ? outcome.textContent() : null))
    .toMatch(expected);
}

describe('Settings → Sync against a real HQ', () => {
  it('the badge says sync is not set up; the form refuses a missing secret at its field, then saves without ever showing the secret again', async () => {
    await expect.poll(() => page.getByTestId('sync-badge').textContent()).toBe('Sync not set up');
    await openSyncSettings();
    await expect.poll(() => page.getByRole('button', { name: 'Set up sync' }).isVisible()).toBe(true);
    await page.getByLabel('HQ address').fill(hq.url);
    await page.getByLabel('Key id').fill(hqKey.keyId);
    await page.getByLabel('HQ account id').fill(hqKey.accountId);
    await page.getByLabel('Requests per second').fill('0');
    await page.getByRole('button', { name: 'Set up sync' }).click();
    await expect.poll(() => page.locator('.field-error').allTextContents()).toEqual(['Must be above 0.']);
    await page.getByLabel('Requests per second').fill('5');
    await page.getByRole('button', { name: 'Set up sync' }).click();
    await expect
      .poll(() => page.locator('.field-error').allTextContents())
      .toEqual(['Is required the first time.']);
    expect((await localApi('GET', '/sync/status')).body.configured).toBe(false);
    await screenshot(page, 'sync-settings-errors');

    // HQ is tried before anything is saved: a wrong port, then a wrong secret, each refused
    // with the reason at the field to check; nothing is saved.
    const closed = await freePort();
    await page.getByLabel('HQ address').fill(`http://127.0.0.1:${closed}`);
    await page.getByLabel('Secret').fill(hqKey.secret);
    await page.getByRole('button', { name: 'Set up sync' }).click();
    await expect
      .poll(() => page.locator('.field-error').allTextContents())
      .toEqual([
        `GiftDesk cannot reach HQ at http://127.0.0.1:${closed}: nothing answers at that address and port (the connection was refused). Check the HQ address in the sync settings. If it is right, HQ may be down.`,
      ]);
    expect(await page.getByLabel('HQ address').getAttribute('aria-invalid')).toBe('true');
    expect((await localApi('GET', '/sync/status')).body.configured).toBe(false);
    await page.getByRole('button', { name: 'Save without testing' }).waitFor();
    await screenshot(page, 'sync-settings-unreachable');

    await page.getByLabel('HQ address').fill(hq.url);
    await page.getByLabel('Secret').fill('gds_not_the_secret');
    await page.getByRole('button', { name: 'Set up sync' }).click();
    await expect
      .poll(() => page.locator('.field-error').allTextContents())
      .toEqual([
        expect.stringMatching(
          /^HQ refused the API key \(401\): the key id or secret is wrong, or the key was revoked\./,
        ),
      ]);
    expect((await localApi('GET', '/sync/status')).body.configured).toBe(false);

    // The two refusals are the browser's only complaints (a 400 each); nothing else went wrong.
    expect(app.problems.filter((p) => !p.includes('status of 404'))).toEqual([
      'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
      'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    app.problems.length = 0;

    await page.getByLabel('Secret').fill(hqKey.secret);
    await page.getByRole('button', { name: 'Set up sync' }).click();
    await page.getByRole('button', { name: 'Save sync settings' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save without testing' }).count()).toBe(0);
    const settings = await localApi('GET', '/sync/settings');
    expect(settings.body).toMatchObject({
      baseUrl: hq.url,
      keyId: hqKey.keyId,
      remoteAccountId: hqKey.accountId,
      ratePerSecond: 5,
      hasSecret: true,
      emailMatch: true,
    });
    expect(settings.text).not.toContain(hqKey.secret);
    expect(await page.getByLabel('Secret').inputValue()).toBe('');
    expect(await page.getByLabel('Secret').getAttribute('placeholder')).toBe('saved — type to replace');
    expect(await page.content()).not.toContain(hqKey.secret);
    // Saving again without typing a secret keeps the stored one (the sync below still authenticates).
    await page.getByLabel('Sync every (seconds)').fill('3600');
    await page.getByRole('button', { name: 'Save sync settings' }).click();
    await expect.poll(async () => (await localApi('GET', '/sync/settings')).body.scheduleSeconds).toBe(3600);
    expect((await localApi('GET', '/sync/settings')).body.hasSecret).toBe(true);
  });

  it('Sync now sends a gift; HQ has it exactly once; status and badge say all sent', async () => {
    const contact = (await localApi('POST', '/contacts', { firstName: 'Grace', lastName: 'Hopper' })).body;
    const gift = (
      await localApi('POST', '/donations', {
        contactId: contact.id,
        donationAmount: 75,
        donationDate: '2026-03-01',
        paymentMethod: 'check',
        campaignId,
      })
    ).body;
    await openSyncSettings();
    // The scheduler may have sent it first: either way HQ is up to date.
    await syncNow(/HQ is up to date/);
    expect(await hqGiftsFor(gift.id)).toHaveLength(1);
    await expect.poll(() => page.getByTestId('sync-waiting').textContent()).toBe('0');
    expect(Number(await page.getByTestId('sync-sent').textContent())).toBeGreaterThanOrEqual(2);
    await expect.poll(() => page.getByTestId('sync-last-answer').textContent()).toBe('just now');
    await expect.poll(() => page.getByTestId('sync-badge').textContent()).toBe('Online · all sent');
    await page.getByText('Nothing needs attention.').waitFor();
    await expectNoA11yViolations(page, 'Settings → Sync (all sent)');
    await screenshot(page, 'sync-settings-sent');
    // A second pass sends nothing more.
    await syncNow(/^Nothing was waiting: HQ is up to date\.$/);
    expect(await hqGiftsFor(gift.id)).toHaveLength(1);
  });

  it('a contact HQ refuses shows HQ’s message and what it holds back; retry after the fix sends it and its gift once', async () => {
    await localApi('POST', '/custom-fields', { name: 'Shirt Size', type: 'text' });
    const contact = (
      await localApi('POST', '/contacts', {
        firstName: 'Cy',
        lastName: 'Dee',
        customFields: { 'Shirt Size': 'L' },
      })
    ).body;
    const gift = (
      await localApi('POST', '/donations', {
        contactId: contact.id,
        donationAmount: 20,
        donationDate: '2026-03-02',
        paymentMethod: 'cash',
        campaignId,
      })
    ).body;
    await openSyncSettings();
    await syncNow(/1 record needs attention/);
    const item = page.getByRole('listitem', { name: /^Cy Dee: HQ refused it/ });
    await item.waitFor();
    expect(await item.textContent()).toMatch(/Shirt Size/i);
    expect(await item.textContent()).toContain('This contact and the gifts that need it wait');
    await expect.poll(() => page.getByTestId('sync-badge').textContent()).toContain('1 needs attention');
    expect(await hqGiftsFor(gift.id)).toHaveLength(0);
    await expectNoA11yViolations(page, 'Settings → Sync (needs attention)');
    await screenshot(page, 'sync-settings-attention');

    // The fix is at HQ (the field made there); then Retry and sync.
    await createCustomField(hq.ctx, { accountId: hqKey.accountId, name: 'Shirt Size', type: 'text' });
    // Sync only once the app says the retry is queued (a pass started before that skips Cy Dee).
    await page.getByRole('button', { name: 'Retry Cy Dee' }).click();
    await page.getByText('“Cy Dee” goes to HQ again with the next pass.').waitFor();
    await syncNow(/HQ is up to date/);
    await page.getByText('Nothing needs attention.').waitFor();
    expect(await hqGiftsFor(gift.id)).toHaveLength(1);
  });

  it('a gift whose campaign is not linked waits with that reason; discard asks first, says what it means, and empties the list', async () => {
    const campaign = (await localApi('POST', '/campaigns', { name: 'Autumn Appeal' })).body;
    const contact = (await localApi('POST', '/contacts', { firstName: 'Un', lastName: 'Linked' })).body;
    const gift = (
      await localApi('POST', '/donations', {
        contactId: contact.id,
        donationAmount: 15,
        donationDate: '2026-03-03',
        paymentMethod: 'check',
        campaignId: campaign.id,
      })
    ).body;
    await openSyncSettings();
    await syncNow(/1 record needs attention/);
    const item = page.locator('.sync-attention-item').filter({ hasText: 'Autumn Appeal' });
    await item.waitFor();
    expect(await item.textContent()).toContain('Only this gift waits');
    expect(await hqGiftsFor(gift.id)).toHaveLength(0);

    await item.getByRole('button', { name: /^Discard/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('HQ will never have it');
    await screenshot(page, 'sync-settings-discard');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => item.isVisible()).toBe(true);

    await item.getByRole('button', { name: /^Discard/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard unsent changes' }).click();
    await page.getByText('Nothing needs attention.').waitFor();
    expect((await localApi('GET', '/sync/attention')).body.data).toEqual([]);
    await syncNow(/HQ is up to date/);
    expect(await hqGiftsFor(gift.id)).toHaveLength(0);
    // Only a server without the pull routes (GET /sync/pull, /sync/links: sync-pull's) logs 404s here.
    expect(app.problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
  });
});
