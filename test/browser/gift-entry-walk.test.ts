/**
 * Gift entry as a new volunteer walks it, in real Chromium against a real server: nothing puts
 * a gift on another donor or campaign than the one the screen shows.
 * - A mouse pointer resting over the donor list never chooses the donor Enter takes.
 * - The values kept "until changed" survive a screen switch and a reload.
 * - A batch cannot start without what its first gift needs; each "back to" button says which
 *   field it resets.
 * - After every dialog (void, correction saved or cancelled) and after Alt+1, the keys land in
 *   the donor box again.
 * - Namesakes in the saved list can be told apart; Tab from the amount goes to the payment
 *   method, where typing a method's name chooses it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch } from '#shared/schemas/batches.ts';
import type { DonationDetail } from '#shared/schemas/donations.ts';
import {
  expectStatus,
  makeCampaign,
  makeCommittee,
  makeContact,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
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
let annualFund: string;
let springGala: string;
const soren: Record<string, string> = {};
let walkers: { emailed: string; inPortland: string };

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  annualFund = (await makeCampaign(server, 'Annual Fund')).id;
  springGala = (await makeCampaign(server, 'Spring Gala')).id;
  await makeCommittee(server, 'Host Committee');
  await makeDonationAccount(server, {}, 'Federal');
  for (const last of ['Lewis', 'Madsen', 'Rodríguez'])
    soren[last] = (await makeContact(server, { firstName: 'Søren', lastName: last })).id;
  await makeContact(server, { firstName: 'Amara', lastName: 'Okafor', primaryEmail: 'amara@example.org' });
  // Two namesakes with neither organisation: one has an email, the other only a city.
  walkers = {
    emailed: (
      await makeContact(server, { firstName: 'Zoë', lastName: 'Walker', primaryEmail: 'zw@example.org' })
    ).id,
    inPortland: (
      await makeContact(server, {
        firstName: 'Zoë',
        lastName: 'Walker',
        addresses: [{ city: 'Portland', isPrimary: true }],
      })
    ).id,
  };
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A batch made over the API (as another volunteer's or a script's would be). */
async function makeBatch(name: string, campaignId: string | null = annualFund): Promise<Batch> {
  return expectStatus(
    await server.request('POST', '/api/v1/batches', { accountId: server.accountId, name, campaignId }),
    201,
  ) as Batch;
}

async function giftsOf(batchId: string): Promise<DonationDetail[]> {
  const res = await server.request(
    'GET',
    `/api/v1/batches/${batchId}/donations?accountId=${server.accountId}&limit=100`,
  );
  return (expectStatus(res, 200) as { data: DonationDetail[] }).data;
}

const donorBox = (page: Page) => page.getByRole('combobox', { name: 'Donor' });
const entryRow = (page: Page) => page.getByRole('form', { name: 'New gift' });

/** The focused element's label (or aria-label), '' on the page's body. */
const focusedLabel = (page: Page) =>
  page.evaluate(
    () =>
      document.activeElement?.getAttribute('aria-label') ??
      (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ??
      '',
  );

/** The text of the option Enter would take now. */
async function activeOption(page: Page): Promise<string | null> {
  const id = await donorBox(page).getAttribute('aria-activedescendant');
  return id ? page.locator(`[id="${id}"]`).textContent() : null;
}

/** Opens the app at a size and continues an open batch from the start screen. */
async function openBatch(batch: Batch, viewport = { width: 1280, height: 800 }) {
  const opened = await openApp(browser, server, { viewport });
  await opened.page.getByRole('button', { name: new RegExp(`^${batch.name}`) }).click();
  await expect.poll(() => focusedLabel(opened.page)).toBe('Donor');
  return opened;
}

/** Types into the donor box, waits for the matches, takes the top one with Enter, saves `amount`. */
async function saveGift(page: Page, typed: string, name: string, amount: string, count: number) {
  await expect.poll(() => focusedLabel(page)).toBe('Donor');
  await page.keyboard.type(typed);
  await expect.poll(() => activeOption(page)).toContain(name);
  await page.keyboard.press('Enter');
  await expect.poll(() => focusedLabel(page)).toMatch(/^Amount/);
  await page.keyboard.type(amount);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(new RegExp(`^${count}\\b`));
}

describe.each([
  { width: 1280, height: 800 },
  { width: 1024, height: 700 },
])('a mouse pointer resting over the donor list at $width×$height', (viewport) => {
  it('never chooses: Enter takes the top match, or the row the arrow keys moved to', async () => {
    const batch = await makeBatch(`Pointer ${viewport.width}`);
    const { page, context, problems } = await openBatch(batch, viewport);
    try {
      const sorens = page
        .getByRole('listbox', { name: 'Matching donors' })
        .getByRole('option', { name: /Søren/ });
      await page.keyboard.type('soren');
      await expect.poll(() => sorens.count()).toBe(3);
      const names = (await sorens.locator('.donor-option-name').allTextContents()).map((n) => n.trim());
      const top = names[0]!;
      // The pointer moves onto the third row while the list is open (it then rests there).
      const third = (await sorens.nth(2).boundingBox())!;
      await page.mouse.move(third.x + third.width / 2, third.y + third.height / 2);
      await expect.poll(() => sorens.nth(2).evaluate((el) => el.matches(':hover'))).toBe(true);
      expect(await activeOption(page)).toContain(top);
      await page.keyboard.press('Enter');
      // An Enter pressed while the matches are read again takes the top one when they arrive.
      await expect.poll(() => donorBox(page).inputValue()).toBe(top);
      await page.keyboard.type('40');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(/^1\b/);

      // The pointer still rests there when the next list opens under it.
      await saveGift(page, 'soren', top, '15', 2);

      // The arrow keys still choose: one down is the second match, whatever the pointer is on.
      await page.keyboard.type('soren');
      await expect.poll(() => sorens.count()).toBe(3);
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => activeOption(page)).toContain(names[1]!);
      await page.keyboard.press('Enter');
      await page.keyboard.type('5');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(/^3\b/);

      const idOf = (name: string) => soren[name.replace('Søren ', '')]!;
      expect((await giftsOf(batch.id)).map((g) => g.contactId)).toEqual([
        idOf(top),
        idOf(top),
        idOf(names[1]!),
      ]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the values kept until changed', () => {
  it('stay what the sticky line says across a screen switch and a reload, and the gifts go there', async () => {
    const batch = await makeBatch('Sticky');
    const { page, context, problems } = await openBatch(batch);
    try {
      const sticky = page.getByTestId('gift-sticky');
      await entryRow(page).getByLabel('Campaign').selectOption({ label: 'Spring Gala' });
      await expect
        .poll(() => sticky.textContent())
        .toContain('Campaign Spring Gala (this batch: Annual Fund)');

      // Alt+2 to the contacts and Alt+1 back: still Spring Gala, and the next gift goes there.
      await page.keyboard.press('Alt+2');
      await page.getByRole('heading', { name: 'Contacts' }).waitFor();
      await page.keyboard.press('Alt+1');
      await page.getByRole('heading', { name: 'Gift entry' }).waitFor();
      await expect
        .poll(() => sticky.textContent())
        .toContain('Campaign Spring Gala (this batch: Annual Fund)');
      expect(await entryRow(page).getByLabel('Campaign').inputValue()).toBe(springGala);
      await saveGift(page, 'okafor', 'Amara Okafor', '20', 1);

      // A reload (F5) keeps it too.
      await page.reload();
      await expect.poll(() => focusedLabel(page)).toBe('Donor');
      await expect
        .poll(() => sticky.textContent())
        .toContain('Campaign Spring Gala (this batch: Annual Fund)');
      await saveGift(page, 'okafor', 'Amara Okafor', '20', 2);

      // Back to the batch's own, and that is kept as well.
      await page.getByRole('button', { name: /back to Annual Fund/i }).click();
      await page.reload();
      await expect.poll(() => focusedLabel(page)).toBe('Donor');
      await expect.poll(() => entryRow(page).getByLabel('Campaign').inputValue()).toBe(annualFund);
      expect(await sticky.textContent()).not.toContain('this batch');
      await saveGift(page, 'okafor', 'Amara Okafor', '20', 3);

      expect((await giftsOf(batch.id)).map((g) => g.campaignId)).toEqual([
        springGala,
        springGala,
        annualFund,
      ]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('starting a batch', () => {
  it('asks for a campaign, committee or donation account before the batch starts; each reset button names its field', async () => {
    const { page, context, problems } = await openApp(browser, server, {
      viewport: { width: 1280, height: 800 },
    });
    try {
      await page.getByRole('button', { name: 'Start a batch' }).click();
      const dialog = page.getByRole('dialog', { name: 'Start a batch' });
      await dialog.getByLabel('Batch name').fill('No designation yet');
      await page.keyboard.press('Enter');
      // Refused at the field, with the focus there; no batch was made.
      const campaign = dialog.getByLabel('Campaign');
      await expect.poll(() => campaign.getAttribute('aria-invalid')).toBe('true');
      expect(await dialog.textContent()).toContain('needs a campaign, committee or donation account');
      await expect.poll(() => focusedLabel(page)).toBe('Campaign');
      const listed = expectStatus(
        await server.request('GET', `/api/v1/batches?accountId=${server.accountId}&limit=100`),
        200,
      ) as { data: Batch[] };
      expect(listed.data.map((b) => b.name)).not.toContain('No designation yet');
      await expectNoA11yViolations(page, 'the new batch dialog refusing a batch with no designation');

      await campaign.selectOption({ label: 'Annual Fund' });
      await dialog.getByLabel('Batch name').press('Enter');
      await expect.poll(() => focusedLabel(page)).toBe('Donor');
      await saveGift(page, 'okafor', 'Amara Okafor', '10', 1);

      // Two fields the batch leaves empty, both changed: each button says which it resets.
      const row = entryRow(page);
      await row.getByLabel('Committee').selectOption({ label: 'Host Committee' });
      await row.getByLabel('Donation account').selectOption({ label: 'Federal' });
      const committeeBack = page.getByRole('button', { name: 'Committee: back to none', exact: true });
      const accountBack = page.getByRole('button', { name: 'Donation account: back to none', exact: true });
      expect(await committeeBack.textContent()).toBe('Committee: back to none');
      expect(await accountBack.textContent()).toBe('Donation account: back to none');
      await expectNoA11yViolations(page, 'gift entry with two fields changed from the batch');
      await accountBack.click();
      expect(await row.getByLabel('Donation account').inputValue()).toBe('');
      expect(await row.getByLabel('Committee').inputValue()).not.toBe('');
      expect(await accountBack.count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is filled by keyboard alone: typing replaces the suggested name, a choice takes its typed name, Enter on it starts the batch', async () => {
    const { page, context, problems } = await openApp(browser, server, {
      viewport: { width: 1280, height: 800 },
    });
    try {
      await page.getByRole('button', { name: 'Start a batch' }).click();
      const dialog = page.getByRole('dialog', { name: 'Start a batch' });
      const name = dialog.getByLabel('Batch name');
      await expect.poll(() => focusedLabel(page)).toBe('Batch name');
      await page.keyboard.type('Gala tables 1–4');
      expect(await name.inputValue()).toBe('Gala tables 1–4');
      await dialog.getByLabel('Campaign').focus();
      await page.keyboard.type('annual');
      await expect
        .poll(() =>
          dialog.getByLabel('Campaign').evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.text),
        )
        .toBe('Annual Fund');
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedLabel(page)).toBe('Donor');
      const listed = expectStatus(
        await server.request('GET', `/api/v1/batches?accountId=${server.accountId}&limit=100`),
        200,
      ) as { data: Batch[] };
      expect(listed.data.filter((b) => b.name === 'Gala tables 1–4')).toHaveLength(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the focus after a dialog', () => {
  it('is back in the donor box after a void, a correction saved or cancelled, and after Alt+1', async () => {
    const batch = await makeBatch('Focus');
    const { page, context, problems } = await openBatch(batch);
    try {
      await saveGift(page, 'okafor', 'Amara Okafor', '30', 1);
      await saveGift(page, 'okafor', 'Amara Okafor', '30', 2);
      const rows = page.locator('table.gift-table tbody tr');

      // Void (by mouse, as the volunteer did): then a name typed at once lands in the donor box.
      await rows
        .first()
        .getByRole('button', { name: /^Void the gift/ })
        .click();
      const voidDialog = page.getByRole('dialog', { name: 'Void this gift?' });
      await voidDialog.getByRole('button', { name: 'Void gift' }).click();
      await voidDialog.waitFor({ state: 'hidden' });
      await page.keyboard.type('okaf');
      expect(await donorBox(page).inputValue()).toBe('okaf');
      await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(/^1\b/);
      await donorBox(page).fill('');

      // A correction saved by Enter.
      const correct = rows.nth(1).getByRole('button', { name: /^Correct the gift/ });
      await correct.click();
      const correctDialog = page.getByRole('dialog', { name: /^Correct the gift/ });
      await expect.poll(() => focusedLabel(page)).toMatch(/^Amount/);
      await page.keyboard.type('35');
      await page.keyboard.press('Enter');
      await correctDialog.waitFor({ state: 'detached' });
      await page.keyboard.type('soren');
      expect(await donorBox(page).inputValue()).toBe('soren');
      await donorBox(page).fill('');

      // A correction cancelled with Escape.
      await rows
        .nth(1)
        .getByRole('button', { name: /^Correct the gift/ })
        .click();
      await expect.poll(() => focusedLabel(page)).toMatch(/^Amount/);
      await page.keyboard.press('Escape');
      await correctDialog.waitFor({ state: 'detached' });
      await page.keyboard.type('amara');
      expect(await donorBox(page).inputValue()).toBe('amara');
      await donorBox(page).fill('');

      // The focus elsewhere (a click on the page's text), then Alt+1 on this very screen.
      await page.getByRole('heading', { name: 'Saved in this batch' }).click();
      expect(await focusedLabel(page)).not.toBe('Donor');
      await page.keyboard.press('Alt+1');
      await page.keyboard.type('zoe');
      expect(await donorBox(page).inputValue()).toBe('zoe');

      expect((await giftsOf(batch.id)).map((g) => [g.status, g.donationAmount])).toEqual([
        ['completed', 35],
        ['voided', 30],
      ]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('saved in this batch', () => {
  it('tells two namesakes apart, and Tab from the amount reaches the method, where typing "cash" chooses Cash', async () => {
    const batch = await makeBatch('Walkers');
    const { page, context, problems } = await openBatch(batch);
    try {
      // Twin gifts of $25 from the two Zoë Walkers, each chosen by what the list shows of them.
      for (const [tell, count] of [
        ['zw@example.org', 1],
        ['Portland', 2],
      ] as const) {
        await page.keyboard.type('zoe walker');
        const options = page.getByRole('listbox', { name: 'Matching donors' }).getByRole('option');
        await expect.poll(() => options.filter({ hasText: 'Zoë Walker' }).count()).toBe(2);
        const texts = await options.allTextContents();
        const at = texts.findIndex((t) => t.includes(tell));
        for (let i = 0; i < at; i++) await page.keyboard.press('ArrowDown');
        await expect.poll(() => activeOption(page)).toContain(tell);
        await page.keyboard.press('Enter');
        await page.keyboard.type('25');
        // Tab from the amount: the method, and "cash" typed there is Cash.
        await page.keyboard.press('Tab');
        await expect.poll(() => focusedLabel(page)).toBe('Method');
        await page.keyboard.type(count === 1 ? 'cash' : 'check');
        await page.keyboard.press('Enter');
        await expect
          .poll(() => page.getByTestId('batch-count').textContent())
          .toMatch(new RegExp(`^${count}\\b`));
        await expect.poll(() => focusedLabel(page)).toBe('Donor');
      }
      const gifts = await giftsOf(batch.id);
      expect(gifts.map((g) => [g.contactId, g.paymentMethod])).toEqual([
        [walkers.emailed, 'cash'],
        [walkers.inPortland, 'check'],
      ]);

      // The saved list: each Zoë Walker with what tells her apart.
      const donorCell = (id: string) => page.locator(`tr[data-donation-id="${id}"] td`).nth(1);
      await expect.poll(() => donorCell(gifts[0]!.id).textContent()).toContain('zw@example.org');
      await expect.poll(() => donorCell(gifts[1]!.id).textContent()).toContain('Portland');
      expect(await donorCell(gifts[1]!.id).textContent()).not.toContain('zw@example.org');

      // The date is still reachable by keyboard: the next Tab after the method.
      await page.keyboard.type('okafor');
      await expect.poll(() => activeOption(page)).toContain('Amara Okafor');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect.poll(() => focusedLabel(page)).toBe('Date');
      await expectNoA11yViolations(page, 'gift entry with two namesakes saved');
      await screenshot(page, 'gift-entry-namesakes-saved');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
