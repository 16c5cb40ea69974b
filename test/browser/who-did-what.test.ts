/**
 * Who did what, in real Chromium against a real server hosting its event over TLS: the app is
 * opened at the hub's address (as from another machine's browser on the venue's network). A
 * volunteer signs in, sees gift entry and contacts only (no export, keys, sync or station
 * controls), and types twin $19.99 cash gifts for one of three Robert Browns by keyboard. A
 * treasurer signs in, balances the batch, exports the gifts, corrects one twin on the donor's
 * page, and the gift's History panel names both: the volunteer who entered it and the
 * treasurer who corrected it, with the amount before and after.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addUser } from '../../electron/domain/accounts/index.ts';
import { expectStatus, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import { rawRequest } from '../helpers/server.ts';
import { freePort, launchChromium, startAppServer, type AppServer } from './helpers.ts';

let server: AppServer;
let browser: Browser;
let hubUrl: string;
const contexts: BrowserContext[] = [];
const roberts: string[] = [];
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  server = await startAppServer({ hub: true });
  browser = await launchChromium();
  const campaign = await makeCampaign(server, 'Spring Gala');
  for (let i = 0; i < 3; i++)
    roberts.push(
      (
        await makeContact(server, {
          firstName: 'Robert',
          lastName: 'Brown',
          primaryEmail: `rb${i}@example.org`,
        })
      ).id,
    );
  await addUser(server.ctx, {
    accountId: server.accountId,
    email: 'vera@example.org',
    name: 'Vera Volunteer',
    role: 'volunteer',
    password: PASSWORD,
  });
  await addUser(server.ctx, {
    accountId: server.accountId,
    email: 'tess@example.org',
    name: 'Tess Treasurer',
    role: 'treasurer',
    password: PASSWORD,
  });
  const port = await freePort();
  hubUrl = expectStatus(
    await server.request('POST', '/api/v1/hub/host', {
      accountId: server.accountId,
      host: '127.0.0.1',
      port,
    }),
    200,
  ).url as string;
  expect(hubUrl).toBe(`https://127.0.0.1:${port}`);
  // The volunteer's batch, started in her name (a volunteer types into her own batch).
  const signedIn = expectStatus(
    await rawRequest(`${server.url}/api/v1/sign-in`, 'POST', {
      email: 'vera@example.org',
      password: PASSWORD,
    }),
    201,
  );
  batchId = expectStatus(
    await rawRequest(
      `${server.url}/api/v1/batches`,
      'POST',
      { accountId: server.accountId, name: 'Door', campaignId: campaign.id, paymentMethod: 'cash' },
      { 'x-api-key': signedIn.keyId, authorization: `Bearer ${signedIn.secret}` },
    ),
    201,
  ).id as string;
});
let batchId = '';
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.close();
});

/** A browser on another machine: the hub's address, its own certificate accepted, signed in. */
async function signIn(email: string): Promise<Page> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, reducedMotion: 'reduce' });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(hubUrl);
  await page.getByRole('form', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  await page.evaluate(
    ([key, id]) => localStorage.setItem(key!, id!),
    [`giftdesk.batch.${server.accountId}`, batchId],
  );
  await page.reload();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  return page;
}

const screenLinks = (page: Page) =>
  page.getByRole('navigation', { name: 'Screens' }).getByRole('link').allTextContents();

const focusedLabel = (page: Page) =>
  page.evaluate(
    () =>
      document.activeElement?.getAttribute('aria-label') ??
      (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ??
      '',
  );

async function typeGift(page: Page, email: string, amount: string, count: number): Promise<void> {
  await expect.poll(() => focusedLabel(page)).toBe('Donor');
  await page.keyboard.type('robert brown');
  const box = page.getByRole('combobox', { name: 'Donor' });
  const active = async () => {
    const id = await box.getAttribute('aria-activedescendant');
    return id ? ((await page.locator(`[id="${id}"]`).textContent()) ?? '') : '';
  };
  // Three Robert Browns: down the list to the one with this email.
  await expect.poll(active).toContain('Robert Brown');
  for (let i = 0; i < 5 && !(await active()).includes(email); i++) await page.keyboard.press('ArrowDown');
  expect(
    await active(),
    await page
      .getByRole('option')
      .allTextContents()
      .then((t) => t.join(' | ')),
  ).toContain(email);
  await page.keyboard.press('Enter');
  await expect.poll(() => focusedLabel(page)).toMatch(/^Amount/);
  await page.keyboard.type(amount);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(new RegExp(`^${count}\\b`));
}

it('a volunteer enters twin gifts; a treasurer balances, exports and corrects one; the History panel names both', async () => {
  // The volunteer, at the hub's address: gift entry and contacts, nothing else.
  const vera = await signIn('vera@example.org');
  await expect.poll(() => screenLinks(vera)).toEqual(['Gift entry', 'Contacts']);
  expect(await vera.getByRole('button', { name: 'Balance and close…' }).count()).toBe(0);
  await typeGift(vera, 'rb1@example.org', '19.99', 1);
  await typeGift(vera, 'rb1@example.org', '19.99', 2);
  for (const hash of ['#/settings/export', '#/settings/keys', '#/settings/sync', '#/settings/event']) {
    await vera.evaluate((h) => (window.location.hash = h), hash);
    await vera.getByText('This screen is not open to your role.').waitFor();
    expect(await vera.getByRole('button', { name: /export|key|sync|host|pair|station/i }).count()).toBe(0);
  }
  const gifts = expectStatus(
    await server.request('GET', `/api/v1/contacts/${roberts[1]}/donations?accountId=${server.accountId}`),
    200,
  ).donations as Array<{ id: string; donationAmount: number }>;
  expect(gifts.map((g) => g.donationAmount)).toEqual([19.99, 19.99]);

  // The treasurer balances the batch by keyboard: $39.98 in the cash box, as entered.
  const tess = await signIn('tess@example.org');
  const balance = tess.getByRole('button', { name: 'Balance and close…' });
  await balance.waitFor();
  await balance.click();
  await tess.getByRole('heading', { name: 'Deposit summary: Door' }).waitFor();
  await expect.poll(() => focusedLabel(tess)).toBe('Cash: total counted ($)');
  await tess.keyboard.type('39.98');
  await tess.getByLabel('Counted by').fill('Tess Treasurer');
  await tess.getByLabel('Counted by').press('Enter');
  await tess.getByTestId('count-record').waitFor();
  const deposit = expectStatus(
    await server.request('GET', `/api/v1/batches/${batchId}/deposit?accountId=${server.accountId}`),
    200,
  );
  expect(deposit.lastCount).toMatchObject({ difference: 0, savedBy: 'Tess Treasurer' });

  // And exports the gifts.
  await tess.evaluate(() => (window.location.hash = '#/settings/export'));
  const exportGifts = tess.getByRole('button', { name: /Export (gifts|donations) \(CSV\)/ });
  await exportGifts.waitFor();
  const [download] = await Promise.all([tess.waitForEvent('download'), exportGifts.click()]);
  const file = await download.path();
  expect(file).toBeTruthy();
  const { readFile } = await import('node:fs/promises');
  const csv = await readFile(file, 'utf8');
  expect(csv.split('19.99').length - 1).toBeGreaterThanOrEqual(2);

  // On the donor's page the treasurer corrects one twin to $9.99.
  await tess.evaluate((id) => (window.location.hash = `#/contacts/${id}`), roberts[1]!);
  const correct = tess.getByRole('button', { name: 'Correct the gift of $19.99 from Robert Brown' });
  await expect.poll(() => correct.count()).toBe(2);
  await correct.first().click();
  const dialog = tess.getByRole('dialog', { name: /^Correct the gift of \$19\.99/ });
  await dialog.waitFor();
  await dialog.getByLabel('Amount ($)').fill('9.99');
  await dialog.getByRole('button', { name: /Save correction/ }).click();
  await dialog.waitFor({ state: 'hidden' });
  await tess.getByRole('button', { name: 'History of the gift of $9.99 from Robert Brown' }).click();
  const history = tess.getByRole('list', { name: 'Who did what' });
  await history.waitFor();
  const lines = history.locator('[data-history-line]');
  await expect.poll(() => lines.count()).toBe(2);
  expect(await lines.nth(0).locator('[data-history-who]').textContent()).toBe('Vera Volunteer');
  expect(await lines.nth(0).textContent()).toContain('Entered');
  expect(await lines.nth(1).locator('[data-history-who]').textContent()).toBe('Tess Treasurer');
  expect(await lines.nth(1).textContent()).toContain('Corrected: amount $19.99 → $9.99');
});
