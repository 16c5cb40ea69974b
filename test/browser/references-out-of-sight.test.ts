/**
 * What people read, in real Chromium against a real server: the sync's own references
 * (`gd:cnt_…` tags, `gd:don_…` note lines) never show on the contacts list, a donor's page or
 * the correction form, and an edit made there keeps them stored (the gift and the donor stay
 * themselves at HQ); payment methods read as people say them ("ACH", "Credit card", "In kind"),
 * never "Ach" or "credit_card". Messy data: twin $19.99 cash gifts, a donor typed without
 * accents.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { launchChromium, openApp, startAppServer, type AppServer } from './helpers.ts';

let server: AppServer;
let browser: Browser;
let donorId: string;
let achGift: string;
const TAG_REF = 'gd:cnt_01HZX9ABCDEF';
const NOTE_REF = 'gd:don_01HZXAAAA1';

const post = async (path: string, body: Record<string, unknown>) =>
  expectStatus(await server.request('POST', path, { accountId: server.accountId, ...body }), 201);
const get = async (path: string) =>
  expectStatus(await server.request('GET', `${path}?accountId=${server.accountId}`), 200);

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  const gala = await post('/api/v1/campaigns', { name: 'Winter Gala' });
  // As a donor pulled from HQ or sent there: the sync's tag last, after the person's own.
  donorId = (
    await post('/api/v1/contacts', { firstName: 'lukasz', lastName: 'zolc', tags: ['Gala 2026', TAG_REF] })
  ).id as string;
  const give = async (amount: number, paymentMethod: string, notes?: string) =>
    (
      await post('/api/v1/donations', {
        contactId: donorId,
        donationAmount: amount,
        donationDate: '2026-11-30',
        paymentMethod,
        campaignId: gala.id,
        ...(notes ? { notes } : {}),
      })
    ).id as string;
  achGift = await give(250, 'ach', `Paid at the door\n${NOTE_REF}`);
  await give(19.99, 'cash');
  await give(19.99, 'cash');
  await give(75, 'credit_card', 'gd:don_01HZXAAAA2');
  await give(40, 'in_kind', 'Two bottles of wine');
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('what people read', () => {
  it('no gd: reference on the contacts list, the donor’s page or the correction form; methods as people say them; edits keep the references stored', async () => {
    const { page, context, problems } = await openApp(browser, server);
    try {
      // The contacts list.
      await page.keyboard.press('Alt+2');
      await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
      await page.getByText('zolc').first().waitFor();
      expect(await page.locator('main').textContent()).not.toContain('gd:');

      // The donor's page: the person's tag, the person's note, the methods by their names.
      await page.goto(`${server.url}/#/contacts/${donorId}`);
      await page.getByRole('list', { name: 'Tags' }).waitFor();
      await expect.poll(() => page.locator('main').textContent()).toContain('Paid at the door');
      const main = (await page.locator('main').textContent())!;
      expect(main).toContain('Gala 2026');
      expect(main).not.toContain('gd:');
      expect(main).toContain('ACH');
      expect(main).not.toContain('Ach');
      expect(main).toContain('Credit card');
      expect(main).toContain('In kind');
      expect(main).not.toMatch(/credit_card|in_kind/);

      // Correct the ACH gift: the form's notes are the person's; the saved gift keeps its reference.
      await page
        .getByRole('button', { name: /^Correct .*250/ })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: /^Correct the gift of \$250\.00/ });
      await dialog.waitFor();
      const notes = dialog.getByLabel('Notes');
      expect(await notes.inputValue()).toBe('Paid at the door');
      expect(await dialog.textContent()).not.toContain('gd:');
      await notes.fill('Paid at the door, receipt given');
      await dialog.getByRole('button', { name: /Save correction/ }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect
        .poll(async () => (await get(`/api/v1/donations/${achGift}`)).notes)
        .toBe(`Paid at the door, receipt given\n${NOTE_REF}`);

      // Edit the donor: the tags offered are the person's; saving keeps the sync's tag, last.
      await page.goto(`${server.url}/#/contacts/${donorId}/edit`);
      const tags = page.getByRole('list', { name: 'Tags on this contact' });
      await tags.waitFor();
      expect(await tags.textContent()).toContain('Gala 2026');
      expect(await page.locator('main').textContent()).not.toContain('gd:');
      await page.getByLabel('First name').fill('Łukasz');
      await page.getByLabel('Last name').fill('Żółć');
      await page.getByLabel('Last name').press('Enter');
      await expect.poll(async () => (await get(`/api/v1/contacts/${donorId}`)).firstName).toBe('Łukasz');
      expect((await get(`/api/v1/contacts/${donorId}`)).tags).toEqual(['Gala 2026', TAG_REF]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
