/**
 * Correcting a gift not yet sent to HQ, by keyboard, in real Chromium: the batch total and the
 * donor's total follow the corrected amount, and HQ (a second real GiftDesk server) only ever
 * receives the corrected gift. Once sent, the row is read-only and says where a correction is
 * made instead. The app's scheduler is off (it would send the gift before it is corrected): the
 * test sends with a sync engine of its own, as `giftdesk sync run` does.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { defaultClient } from '../../electron/sync/push/default-client.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { makeContact } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testKeys } from '../sync/rig.ts';
import {
  expectNoA11yViolations,
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

beforeAll(async () => {
  hq = await startTestServer();
  hqKey = await hq.otherAccount();
  local = await startAppServer({ sync: { keys: testKeys, run: false } });
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
  const saved = await local.request('PUT', '/api/v1/sync/settings', {
    accountId: local.accountId,
    baseUrl: hq.url,
    keyId: hqKey.keyId,
    secret: hqKey.secret,
    remoteAccountId: hqKey.accountId,
  });
  expect(saved.status, saved.text).toBe(200);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await local?.close();
  await hq?.close();
});

describe('correcting an unsent gift', () => {
  it('changes the amount by keyboard; the batch and donor totals follow, and HQ receives only the corrected gift', async () => {
    const { page, context, problems } = await openApp(browser, local);
    try {
      const donorBox = page.getByRole('combobox', { name: 'Donor' });
      await page.getByRole('button', { name: 'Start a batch' }).click();
      await page.getByLabel('Batch name').fill('Front desk');
      await page.getByLabel('Campaign').selectOption({ label: 'Spring Gala' });
      await page.getByLabel('Batch name').press('Enter');
      await donorBox.waitFor();

      // The gift as it was typed: $250 (it should have been $25).
      await donorBox.focus();
      await page.keyboard.type('okafor');
      await expect
        .poll(async () => {
          const active = await donorBox.getAttribute('aria-activedescendant');
          return active ? page.locator(`[id="${active}"]`).textContent() : null;
        })
        .toContain('Amara Okafor');
      await page.keyboard.press('Enter');
      await page.keyboard.type('250');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('batch-total').textContent()).toContain('$250.00');

      // Correct it by keyboard: focus the row's Correct button, Enter, the amount is focused and selected.
      const row = page.locator('table.gift-table tbody tr').filter({ hasText: 'Amara Okafor' });
      await row.getByRole('button', { name: 'Correct the gift of $250.00 from Amara Okafor' }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: /Correct the gift of \$250\.00/ });
      await dialog.waitFor();
      await expect
        .poll(() =>
          page.evaluate(
            () => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? null,
          ),
        )
        .toContain('Amount');

      // Escape cancels: nothing changes.
      await page.keyboard.type('999');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByTestId('batch-total').textContent()).toContain('$250.00');

      // Again, and this time a refused value first: the message is at the field and the text stays.
      await row.getByRole('button', { name: 'Correct the gift of $250.00 from Amara Okafor' }).focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await expect
        .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value ?? null))
        .toBe('250.00');
      await page.keyboard.type('abc');
      await page.keyboard.press('Enter');
      await expect.poll(() => dialog.getByLabel('Amount ($)').getAttribute('aria-invalid')).toBe('true');
      expect(await dialog.getByLabel('Amount ($)').inputValue()).toBe('abc');
      await dialog.getByLabel('Amount ($)').focus();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('25');
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });

      // The batch total and the row follow; the toast offers an undo.
      await expect.poll(() => page.getByTestId('batch-total').textContent()).toContain('$25.00');
      await expect.poll(() => row.locator('td.num').nth(1).textContent()).toBe('$25.00');
      await page
        .getByRole('status')
        .filter({ hasText: 'Corrected: $25.00 from Amara Okafor (was $250.00)' })
        .waitFor();
      await expectNoA11yViolations(page, 'gift entry after a correction');

      // The donor's total on the contacts screen follows too.
      await page.keyboard.press('Alt+2');
      await page.getByRole('heading', { name: 'Contacts' }).waitFor();
      const contactRow = page.locator('#contact-rows [role="row"]').filter({ hasText: 'Amara Okafor' });
      await expect.poll(() => contactRow.locator('[role="cell"]').last().textContent()).toBe('$25.00');

      // A sync pass (as `giftdesk sync run` makes it): HQ receives the corrected gift, once.
      const engine = createSyncEngine({ store: local.store, keys: testKeys, makeClient: defaultClient });
      try {
        await engine.runPass({});
      } finally {
        await engine.stop();
      }
      const atHq = await hq.store.db
        .selectFrom('donations')
        .select(['amountCents'])
        .where('accountId', '=', hqKey.accountId)
        .execute();
      expect(atHq.map((d) => Number(d.amountCents))).toEqual([2500]);

      // Back on gift entry, the row is sent and read-only, and says where a correction is made.
      await page.keyboard.press('Alt+1');
      await page.getByRole('heading', { name: 'Gift entry' }).waitFor();
      await expect.poll(() => row.locator('[data-sync-state]').getAttribute('data-sync-state')).toBe('sent');
      expect(await row.getByRole('button', { name: /^Correct the gift/ }).count()).toBe(0);
      expect(await row.locator('[data-read-only]').textContent()).toContain('To correct it, change it at HQ');
      await screenshot(page, 'gift-entry-corrected-and-sent');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
