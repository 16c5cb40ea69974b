/**
 * The first hour at the gift table, in real Chromium against a real server, with an evening's
 * messy data (three Robert Browns, twin $19.99 cash gifts from one donor in one minute, names
 * typed without their accents): a payment method changed for one gift is plain to see where
 * the amount is typed and one press from undone; the notices never cover a saved gift's
 * Correct or Void button, and "Saved" offers an Undo (which voids the gift: the app's own
 * correction for a gift HQ does not have yet); Escape out of the Correct dialog gives the focus
 * back to the row's Correct button; the open-batch picker waits for Enter or a click.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../helpers/api-fixtures.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  openApp,
  screenshot,
  startAppServer,
  type AppServer,
} from './helpers.ts';

let server: AppServer;
let browser: Browser;
let galaId: string;
const donors: Record<string, string> = {};

const post = async (path: string, body: Record<string, unknown>) =>
  expectStatus(await server.request('POST', path, { accountId: server.accountId, ...body }), 201);
const get = async (path: string) =>
  expectStatus(
    await server.request('GET', `${path}${path.includes('?') ? '&' : '?'}accountId=${server.accountId}`),
    200,
  );

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  galaId = (await post('/api/v1/campaigns', { name: 'Spring Gala' })).id;
  for (const [key, first, last, email] of [
    ['rob1', 'Robert', 'Brown', 'rob.brown@example.org'],
    ['rob2', 'Robert', 'Brown', 'bob@brownfamily.example'],
    ['rob3', 'Robert', 'Brown', null],
    ['jose', 'José', 'García', 'jose@example.org'],
    ['zoe', 'Zoë', 'Núñez', 'zoe.nunez@example.org'],
  ] as const) {
    donors[key] = (
      await post('/api/v1/contacts', { firstName: first, lastName: last, primaryEmail: email })
    ).id;
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const donorBox = (page: Page) => page.getByRole('combobox', { name: 'Donor' });
const activeLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.getAttribute('aria-label') ?? el?.labels?.[0]?.textContent ?? el?.textContent ?? '';
  });

/** A batch of checks for Spring Gala with `n` gifts already in it, made over the API. */
async function batchWith(name: string, n: number, fields: Record<string, unknown> = {}): Promise<string> {
  const batch = await post('/api/v1/batches', {
    name,
    campaignId: galaId,
    paymentMethod: 'check',
    ...fields,
  });
  const keys = Object.keys(donors);
  for (let i = 0; i < n; i++)
    await post('/api/v1/donations', {
      contactId: donors[keys[i % keys.length]!]!,
      donationAmount: [19.99, 19.99, 50, 250.5, 100][i % 5]!,
      donationDate: '2026-11-25',
      paymentMethod: i < 2 ? 'cash' : 'check',
      campaignId: galaId,
      batchId: batch.id,
      notes: i === 2 ? 'Pledge card 114, matching gift letter to follow' : null,
    });
  return batch.id;
}

/** Opens the app with `batchId` as the window's batch, the donor box focused. */
async function openWithBatch(batchId: string, viewport?: { width: number; height: number }) {
  const opened = await openApp(browser, server, viewport ? { viewport } : {});
  await opened.page.evaluate(
    ([key, id]) => localStorage.setItem(key!, id!),
    [`giftdesk.batch.${server.accountId}`, batchId],
  );
  await opened.page.reload();
  await donorBox(opened.page).waitFor();
  await expect.poll(() => activeLabel(opened.page)).toBe('Donor');
  return opened;
}

/** Types part of a name, takes the highlighted match (which must be `expect`) with Enter. */
async function pickDonor(page: Page, typed: string, expectLine: string): Promise<void> {
  await page.keyboard.type(typed);
  await expect
    .poll(async () => {
      const active = await donorBox(page).getAttribute('aria-activedescendant');
      return active ? page.locator(`[id="${active}"]`).textContent() : null;
    })
    .toContain(expectLine);
  await page.keyboard.press('Enter');
  await expect.poll(() => activeLabel(page)).toMatch(/^Amount/);
}

describe('sticky values', () => {
  it('a method changed for one gift is plain to see under the amount, and one press puts the batch’s back', async () => {
    const batchId = await batchWith('Door — checks', 0);
    const { page, context, problems } = await openWithBatch(batchId);
    try {
      // The batch panel says the method every gift starts with.
      await expect.poll(() => page.locator('.batch-defaults').textContent()).toContain('MethodCheck');
      // The row says what stays for each gift, right under the amount, and the amount field's description says it too.
      const sticky = page.getByTestId('gift-sticky');
      // (the batch has no date of its own: each gift's is the day typed, today in the browser)
      await expect
        .poll(() => sticky.textContent())
        .toMatch(/Check · [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, \d{4} · Campaign Spring Gala/);
      const amountBox = await page.getByLabel('Amount ($)').boundingBox();
      const stickyBox = await sticky.boundingBox();
      const formBox = await page.locator('form.gift-row').boundingBox();
      expect(
        stickyBox!.y - (amountBox!.y + amountBox!.height),
        'the sticky values are right under the amount',
      ).toBeLessThan(40);
      expect(stickyBox!.y + stickyBox!.height).toBeLessThanOrEqual(formBox!.y + formBox!.height);
      const description = () =>
        page.getByLabel('Amount ($)').evaluate((el) =>
          (el.getAttribute('aria-describedby') ?? '')
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' '),
        );
      expect(await description()).toContain('Check');

      // José pays cash: the method is changed for this gift, by keyboard.
      await pickDonor(page, 'jose garc', 'José García');
      await page.keyboard.type('19.99');
      await page.getByLabel('Method', { exact: true }).focus();
      await page.getByLabel('Method', { exact: true }).selectOption('cash');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Saved $19.99 (Cash) from José García.' }).waitFor();
      await expect.poll(() => activeLabel(page)).toBe('Donor');

      // It stays cash for the next gift, and the row says so where the eye is, marked as not the batch's.
      expect(await page.getByLabel('Method', { exact: true }).inputValue()).toBe('cash');
      await expect
        .poll(() => sticky.locator('[data-sticky="method"]').textContent())
        .toBe('Cash (this batch: Check)');
      expect(await sticky.locator('.sticky-changed').count()).toBe(1);
      expect(await description()).toContain('Cash (this batch: Check)');
      const back = page.getByRole('button', { name: 'Method: back to Check' });
      expect(await back.isVisible()).toBe(true);
      await expectNoA11yViolations(page, 'gift entry with a changed method');
      await screenshot(page, 'gift-entry-method-changed');

      // The twin: same donor, same $19.99 cash, the same minute (meant: cash again).
      await pickDonor(page, 'jose', 'José García');
      await page.keyboard.type('19.99');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(/^2\b/);

      // One press (by keyboard) and the batch's method is back; the row says Check, unmarked.
      await back.focus();
      await page.keyboard.press('Enter');
      expect(await page.getByLabel('Method', { exact: true }).inputValue()).toBe('check');
      await expect.poll(() => activeLabel(page)).toBe('Method');
      await expect.poll(() => sticky.locator('[data-sticky="method"]').textContent()).toBe('Check');
      expect(await sticky.locator('.sticky-changed').count()).toBe(0);
      expect(await back.count()).toBe(0);

      await donorBox(page).focus();
      await pickDonor(page, 'bob@brown', 'Robert Brown');
      await page.keyboard.type('50');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(/^3\b/);

      const saved = (await get(`/api/v1/batches/${batchId}/donations?limit=10`)).data as Array<{
        contactName: string;
        donationAmount: number;
        paymentMethod: string;
      }>;
      expect(saved.map((d) => [d.contactName, d.donationAmount, d.paymentMethod])).toEqual([
        ['José García', 19.99, 'cash'],
        ['José García', 19.99, 'cash'],
        ['Robert Brown', 50, 'check'],
      ]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('notices', () => {
  for (const viewport of [
    { width: 1024, height: 700 },
    { width: 1280, height: 800 },
  ]) {
    it(`at ${viewport.width}×${viewport.height} no notice covers a Correct or Void button; "Saved" offers an Undo that voids the gift`, async () => {
      const batchId = await batchWith(`Table ${viewport.width}`, 14);
      const { page, context, problems } = await openWithBatch(batchId, viewport);
      try {
        await pickDonor(page, 'robert', 'Robert Brown');
        await page.keyboard.type('19.99');
        await page.keyboard.press('Enter');
        await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(/^15\b/);
        const toast = page.locator('.toast').filter({ hasText: /^Saved \$19\.99 .*Robert Brown/ });
        await toast.waitFor();

        const covered = () =>
          page.evaluate(() => {
            const notices = [...document.querySelectorAll('.toast')].map((t) => t.getBoundingClientRect());
            const hit: string[] = [];
            const inItsPath: string[] = [];
            for (const b of document.querySelectorAll<HTMLButtonElement>('table.gift-table button')) {
              const r = b.getBoundingClientRect();
              const name = b.getAttribute('aria-label') ?? b.textContent ?? '';
              for (const n of notices) {
                // Covered now; or in the notice's path: scrolled to the notice's height, the row's button would be under it.
                if (r.left < n.right && n.left < r.right && r.top < n.bottom && n.top < r.bottom)
                  hit.push(name);
                else if (r.left < n.right && n.left < r.right) inItsPath.push(name);
              }
            }
            return { notices: notices.length, hit, inItsPath: inItsPath.length };
          });
        expect(await covered()).toEqual({ notices: 1, hit: [], inItsPath: 0 });
        await screenshot(page, `gift-entry-saved-notice-${viewport.width}x${viewport.height}`);
        // Scrolled to the end, the oldest rows' buttons are clear of the notice too.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        expect(await covered()).toEqual({ notices: 1, hit: [], inItsPath: 0 });
        await page.evaluate(() => window.scrollTo(0, 0));
        await expectNoA11yViolations(
          page,
          `gift entry with the Saved notice at ${viewport.width}×${viewport.height}`,
        );

        // Undo: the gift is voided (on record, out of the totals, never sent), the batch is back to 14.
        const newest = (await get(`/api/v1/batches/${batchId}/donations?limit=1&offset=14`)).data[0] as {
          id: string;
          donationAmount: number;
        };
        expect(newest.donationAmount).toBe(19.99);
        await toast.getByRole('button', { name: 'Undo' }).click();
        await page
          .getByRole('status')
          .filter({
            hasText:
              'Undone: the gift of $19.99 (Check) from Robert Brown is voided and will not be sent to HQ.',
          })
          .waitFor();
        await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(/^14\b/);
        expect((await get(`/api/v1/donations/${newest.id}`)).status).toBe('voided');
        await expect
          .poll(() =>
            page
              .locator(`tr[data-donation-id="${newest.id}"] [data-sync-state]`)
              .getAttribute('data-sync-state'),
          )
          .toBe('voided');
        await expect.poll(() => activeLabel(page)).toBe('Donor');
        // An undo pressed twice (a second Undo from a stale notice) is refused, and says so.
        const again = await server.request('POST', `/api/v1/donations/${newest.id}/void`, {
          accountId: server.accountId,
        });
        expect(again.status).toBe(409);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});

describe('the Correct dialog', () => {
  it('Escape, or a saved correction, gives the focus to the entry row’s donor box, where the next gift is typed', async () => {
    const batchId = await batchWith('Focus', 3);
    const { page, context, problems } = await openWithBatch(batchId);
    try {
      const row = page.locator('table.gift-table tbody tr').first();
      const correct = row.getByRole('button', { name: /^Correct the gift of \$50\.00/ });
      await correct.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: /^Correct the gift of \$50\.00/ });
      await dialog.waitFor();
      await expect.poll(() => activeLabel(page)).toMatch(/^Amount/);
      await expectNoA11yViolations(page, 'the Correct dialog');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => activeLabel(page)).toBe('Donor');

      // Again: the dialog opens, a correction is saved, the focus is in the donor box again.
      await correct.focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await expect.poll(() => activeLabel(page)).toMatch(/^Amount/);
      await page.keyboard.type('55');
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => activeLabel(page)).toBe('Donor');
      await expect.poll(() => page.getByTestId('batch-total').textContent()).toContain('$94.98');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the open-batch picker', () => {
  it('arrow keys choose nothing; Enter or a click continues the batch the person chose', async () => {
    // The batches of the tests above are closed; two open ones to continue, and one more closed.
    const close = async (id: string) =>
      expectStatus(
        await server.request('PUT', `/api/v1/batches/${id}`, { accountId: server.accountId, closed: true }),
        200,
      );
    for (const b of (await get('/api/v1/batches?limit=100')).data as Array<{ id: string }>) await close(b.id);
    const first = await batchWith('Monday — mail checks', 2);
    const second = await batchWith('Tuesday — gala door', 1);
    await close(await batchWith('Last week — closed', 1));
    const { page, context, problems } = await openApp(browser, server);
    try {
      await page.getByText('Start a batch to enter gifts').waitFor();
      await expectNoA11yViolations(page, 'gift entry with open batches to continue');
      await screenshot(page, 'gift-entry-open-batches');
      // Tab from "Start a batch" to the picker, then ArrowDown, as a person looking at the list would.
      await expect.poll(() => activeLabel(page)).toBe('Start a batch');
      await page.keyboard.press('Tab');
      const on = await activeLabel(page);
      expect(on).toMatch(/continue an open batch|Monday|Tuesday/);
      await page.keyboard.press('ArrowDown');
      // Nothing chosen: no batch remembered (a choice is stored in the same handler that makes it),
      // and, two frames on, still the choice on screen and no batch open.
      expect(
        await page.evaluate((k) => localStorage.getItem(k), `giftdesk.batch.${server.accountId}`),
      ).toBeNull();
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      expect(await page.getByText('Start a batch to enter gifts').count()).toBe(1);
      expect(await donorBox(page).count()).toBe(0);

      // Enter chooses the one the focus is on.
      const chosenName = (await activeLabel(page)).match(/(Monday — mail checks|Tuesday — gala door)/)?.[1];
      expect(chosenName).toBeDefined();
      await page.keyboard.press('Enter');
      await donorBox(page).waitFor();
      await expect
        .poll(() =>
          page
            .getByRole('combobox', { name: 'Batch', exact: true })
            .evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent),
        )
        .toBe(chosenName);
      await expect.poll(() => activeLabel(page)).toBe('Donor');

      // A click chooses too (in a second window, where nothing is remembered yet).
      const other = await openApp(browser, server);
      await other.page.getByRole('button', { name: /^Monday — mail checks/ }).click();
      await donorBox(other.page).waitFor();
      expect(
        await other.page.evaluate((k) => localStorage.getItem(k), `giftdesk.batch.${server.accountId}`),
      ).toBe(first);
      expect(second).not.toBe(first);
      await other.context.close();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("the batch panel's Batch field", () => {
  it('arrow keys only mark another batch; Enter switches, Escape keeps the one being typed into', async () => {
    const close = async (id: string) =>
      expectStatus(
        await server.request('PUT', `/api/v1/batches/${id}`, { accountId: server.accountId, closed: true }),
        200,
      );
    for (const b of (await get('/api/v1/batches?limit=100')).data as Array<{ id: string }>) await close(b.id);
    await batchWith('Monday — mail checks', 1);
    await batchWith('Tuesday — gala door', 1);
    const { page, context, problems } = await openApp(browser, server);
    try {
      // Two open batches; continue Monday by click.
      await page.getByRole('button', { name: /^Monday — mail checks/ }).click();
      await donorBox(page).waitFor();
      const batchField = page.getByRole('combobox', { name: 'Batch', exact: true });
      const shown = () => batchField.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent);
      const remembered = () =>
        page.evaluate((k) => localStorage.getItem(k), `giftdesk.batch.${server.accountId}`);
      const monday = await remembered();
      expect(await shown()).toBe('Monday — mail checks');

      // The next batch in the list, whichever way it lies (the list is newest first).
      const key = await batchField.evaluate((s: HTMLSelectElement) =>
        s.selectedIndex < s.options.length - 1 ? 'ArrowDown' : 'ArrowUp',
      );
      await batchField.focus();
      await page.keyboard.press(key);
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      // Marked, said under the field, not switched: the same batch is still the one remembered.
      await page
        .getByText(/Enter switches to Tuesday — gala door; Escape keeps Monday — mail checks/)
        .waitFor();
      expect(await remembered()).toBe(monday);
      await expectNoA11yViolations(page, 'gift entry with another batch marked in the Batch field');
      await page.keyboard.press('Escape');
      await expect.poll(shown).toBe('Monday — mail checks');
      expect(await remembered()).toBe(monday);

      await page.keyboard.press(key);
      await page.keyboard.press('Enter');
      await expect.poll(remembered).not.toBe(monday);
      await expect.poll(shown).toBe('Tuesday — gala door');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
