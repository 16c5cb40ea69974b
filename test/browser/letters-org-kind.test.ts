/**
 * Letters that fit the organisation, in real Chromium against a real server: an account with
 * an election on its calendar is asked once, on the Letters screen, which kind of organisation
 * it is, with the political committee's wording suggested and why; choosing a charity's
 * wording anyway makes "Make letters" ask before printing "keep this letter for your tax
 * records" to political donors — Enter on the question keeps nothing printed, and only the
 * confirming button prints. By keyboard, as a coordinator would.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { launchChromium, openApp, screenshot, startAppServer, type AppServer } from './helpers.ts';

let server: AppServer;
let browser: Browser;

const post = async (path: string, body: Record<string, unknown>) =>
  expectStatus(await server.request('POST', path, { accountId: server.accountId, ...body }), 201);
const get = async (path: string) =>
  expectStatus(await server.request('GET', `${path}?accountId=${server.accountId}`), 200);

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  await post('/api/v1/elections', {
    electionType: 'primary',
    electionYear: 2028,
    electionDate: '2028-03-07',
  });
  const gala = await post('/api/v1/campaigns', { name: 'Primary push' });
  // Three Robert Browns, one of them with twin $19.99 cash gifts.
  for (const street of ['1 Elm St', '2 Oak Ave', '3 Pine Rd']) {
    const brown = await post('/api/v1/contacts', {
      firstName: 'Robert',
      lastName: 'Brown',
      addresses: [{ street1: street }],
    });
    const gifts = street === '1 Elm St' ? 2 : 1;
    for (let i = 0; i < gifts; i++)
      await post('/api/v1/donations', {
        contactId: brown.id,
        donationAmount: 19.99,
        donationDate: '2026-11-30',
        paymentMethod: 'cash',
        campaignId: gala.id,
      });
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('letters that fit the organisation', () => {
  it('asks the kind once, political suggested from the election, and prints a charity’s wording only after a confirmation', async () => {
    const { page, context } = await openApp(browser, server);
    try {
      await page.keyboard.press('Alt+6');
      await page.getByRole('heading', { level: 1, name: 'Letters' }).waitFor();
      const question = page.getByRole('form', { name: 'Which kind of organisation sends these letters?' });
      await question.waitFor();
      expect(await question.textContent()).toContain('an election (Primary 2028)');
      const political = question.getByRole('radio', { name: /Political committee/ });
      expect(await political.isChecked()).toBe(true);
      expect(await political.evaluate((el) => el.parentElement?.textContent)).toContain('suggested');
      await screenshot(page, 'letters-org-kind-question');

      // The coordinator picks the charity's wording anyway: arrow to it, Enter saves.
      await political.focus();
      await page.keyboard.press('ArrowUp');
      expect(await question.getByRole('radio', { name: /Charity/ }).isChecked()).toBe(true);
      await page.keyboard.press('Enter');
      await question.waitFor({ state: 'detached' });
      expect(await get('/api/v1/letters/settings')).toMatchObject({
        orgKind: 'charity',
        orgKindChosen: true,
      });

      // Make letters: asked first, the safe choice focused; Enter prints nothing.
      await page.getByRole('button', { name: 'Make letters' }).focus();
      await page.keyboard.press('Enter');
      const ask = page.getByRole('dialog', { name: 'Print a charity’s tax wording?' });
      await ask.waitFor();
      expect(await ask.textContent()).toContain('Primary 2028');
      await screenshot(page, 'letters-org-kind-confirm');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Don’t print');
      await page.keyboard.press('Enter');
      await ask.waitFor({ state: 'hidden' });
      expect((await get('/api/v1/letters/runs')).runs).toEqual([]);

      // Asked again, and confirmed: one run, the three Robert Browns, their four gifts.
      await page.getByRole('button', { name: 'Make letters' }).focus();
      await page.keyboard.press('Enter');
      await ask.waitFor();
      await ask.getByRole('button', { name: 'Print the charity’s wording' }).click();
      await page.getByRole('heading', { name: 'Ready: 3 letters' }).waitFor();
      const runs = (await get('/api/v1/letters/runs')).runs as Array<{ documents: number; gifts: number }>;
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ documents: 3, gifts: 4 });
    } finally {
      await context.close();
    }
  });
});
