/**
 * What the app says when it refuses something, in real Chromium against a real server: a $0
 * gift is "more than zero", not "an amount in dollars"; a huge one names the most in dollars
 * with separators; a gift credited to nothing says so once, not once per select; an HQ
 * address that is not a web address is refused at its field before anything is sent (and
 * by the server, naming baseUrl). axe on each state.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  openApp,
  screenshot,
  startAppServer,
  type AppServer,
  type OpenedApp,
} from './helpers.ts';

let server: AppServer;
let browser: Browser;
let app: OpenedApp;
let page: Page;

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  await makeCampaign(server, 'Spring Gala');
  // Namesakes, as at a real event: the one typed for is the Springfield one.
  await makeContact(server, {
    firstName: 'Robert',
    lastName: 'Brown',
    primaryEmail: 'rob.brown@example.org',
    addresses: [{ city: 'Springfield', isPrimary: true }],
  });
  await makeContact(server, {
    firstName: 'Robert',
    lastName: 'Brown',
    primaryEmail: 'bob@example.net',
    addresses: [{ city: 'Salem', isPrimary: true }],
  });
  app = await openApp(browser, server, { viewport: { width: 1280, height: 800 } });
  page = app.page;
});
afterAll(async () => {
  await app?.context.close();
  await browser?.close();
  await server?.close();
});

const giftForm = (p: Page) => p.getByRole('form', { name: 'New gift' });

/** The error text a control's aria-describedby points at ('' when none). */
async function errorOf(p: Page, label: string | RegExp): Promise<string> {
  return giftForm(p)
    .getByLabel(label, { exact: typeof label === 'string' })
    .evaluate((el) => {
      const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
      return ids
        .map((id) => document.getElementById(id))
        .filter((e): e is HTMLElement => e !== null && e.classList.contains('field-error'))
        .map((e) => e.textContent ?? '')
        .join(' | ');
    });
}

/**
 * A batch crediting gifts to nothing, as a script may make one over the API (the app's own
 * "Start a batch" asks for a designation first), continued from the start screen.
 */
async function startBatchWithoutDesignation(): Promise<void> {
  const made = await server.request('POST', '/api/v1/batches', {
    accountId: server.accountId,
    name: 'Door, no designation',
  });
  expect(made.status, made.text).toBe(201);
  await page.reload(); // the start screen lists the open batches as they were when it opened
  await page.getByRole('button', { name: /^Door, no designation/ }).click();
  await giftForm(page).waitFor();
}

async function pickDonor(typed: string, expectText: string): Promise<void> {
  const donor = page.getByRole('combobox', { name: 'Donor' });
  await donor.click();
  await donor.fill(typed);
  await expect
    .poll(async () => {
      const active = await donor.getAttribute('aria-activedescendant');
      return active ? page.locator(`[id="${active}"]`).textContent() : null;
    })
    .toContain(expectText);
  await page.keyboard.press('Enter');
}

describe('refusals say what is wrong, once, in words a volunteer reads', () => {
  it('amount 0 must be more than zero; 2,000,000,000 names the most as $1,000,000,000; no designation is said once', async () => {
    await startBatchWithoutDesignation();
    await pickDonor('rob.brown@', 'Springfield');
    const amount = giftForm(page).getByLabel(/^Amount/);

    await amount.fill('0');
    await page.keyboard.press('Enter');
    await expect.poll(() => errorOf(page, /^Amount/)).toBe('must be greater than zero');

    await amount.fill('2,000,000,000');
    await page.keyboard.press('Enter');
    await expect.poll(() => errorOf(page, /^Amount/)).toBe('must be at most $1,000,000,000');

    await amount.fill('fifty');
    await page.keyboard.press('Enter');
    await expect.poll(() => errorOf(page, /^Amount/)).toBe('must be an amount in dollars, like 50 or 49.99');

    // A real amount, but the batch credits the gift to nothing: the server refuses (D2).
    await amount.fill('19.99');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => errorOf(page, 'Campaign'))
      .toBe('needs a campaign, committee or donation account');
    expect(await errorOf(page, 'Committee')).toBe('');
    expect(await errorOf(page, 'Donation account')).toBe('');
    const shownErrors = await giftForm(page).locator('.field-error').allTextContents();
    expect(shownErrors).toEqual(['needs a campaign, committee or donation account']);
    expect(await page.getByText(/campaignId|committeeId|donationAccountId/).count()).toBe(0);
    await screenshot(page, 'messages-designation-once');
    await expectNoA11yViolations(page, 'Gift entry: a gift credited to nothing');

    // Crediting it clears the way: the same row saves.
    await giftForm(page).getByLabel('Campaign', { exact: true }).selectOption({ label: 'Spring Gala' });
    await page.getByLabel(/^Amount/).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(/^1\b/);
    expect(app.problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
  });

  it('Settings → Sync: "not a url" as the HQ address is refused at its field and nothing is sent; the server refuses it too, naming baseUrl', async () => {
    await page.goto(`${server.url}/#/settings/sync`);
    await page.getByRole('heading', { level: 2, name: 'Sync' }).waitFor();
    const sent: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/sync/settings' && r.method() === 'PUT') sent.push(r.url());
    });
    const form = page.getByRole('form', { name: 'HQ connection' });
    await form.getByLabel('HQ address').fill('not a url');
    await form.getByLabel('Key id').fill('gdk_hq1234567890');
    await form.getByLabel('Secret').fill('gds_secret_typed_by_hand');
    await form.getByLabel('HQ account id').fill('acct_hq');
    await form.getByRole('button', { name: 'Set up sync' }).click();
    const address = form.getByLabel('HQ address');
    await expect.poll(() => address.getAttribute('aria-invalid')).toBe('true');
    const message = await address.evaluate(
      (el) => document.getElementById(`${el.id}-error`)?.textContent ?? '',
    );
    expect(message).toBe(
      'Must be a web address starting with http:// or https://, like https://hq.example.org.',
    );
    expect(await address.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(sent).toEqual([]);
    await expectNoA11yViolations(page, 'Settings → Sync: an HQ address that is not one');

    for (const baseUrl of ['not a url', 'hq.example.org', 'ftp://hq.example.org']) {
      const r = await server.request('PUT', '/api/v1/sync/settings', {
        accountId: server.accountId,
        baseUrl,
        keyId: 'gdk_hq1234567890',
        secret: 's',
        remoteAccountId: 'acct_hq',
      });
      expectError(r, 400, { field: 'baseUrl' });
      expect(JSON.stringify(r.body)).toContain('must be a web address starting with http:// or https://');
    }
  });
});
