/**
 * Gift entry typed at a volunteer's speed, in real Chromium against a real server, at 1280×800:
 * - Enter on a name and the amount typed at once, before the matches arrived: the digits land in
 *   the amount and the gift goes to the donor the list then offers first; a save asked for
 *   meanwhile waits for that donor. A name no one on file matches opens nothing unseen.
 * - A batch started by typing, Tab and Enter: the date is one stop (today's, or typed either
 *   way), and no payment method or expected total the volunteer did not give.
 * - A new donor typed family name first: the split as it will be saved is shown before and
 *   after "New donor", one key swaps it, and the greeting the letters will use is shown.
 * - The saved gifts say who each is credited to and who raised it, under the campaign.
 * - The host ("raised by") is the batch's: opened again in a new window, the batch has it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch } from '#shared/schemas/batches.ts';
import type { DonationDetail } from '#shared/schemas/donations.ts';
import { expectStatus, makeCampaign, makeContact } from '../helpers/api-fixtures.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  openApp,
  requestGate,
  screenshot,
  startAppServer,
  type AppServer,
} from './helpers.ts';

let server: AppServer;
let browser: Browser;
let annualFund: string;
const people: Record<string, string> = {};

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  annualFund = (await makeCampaign(server, 'Annual Fund')).id;
  for (const [key, firstName, lastName, primaryEmail] of [
    ['david', 'David', 'Smith', 'david@example.org'],
    ['davidson', 'Davida', 'Smithson', 'davida@example.org'],
    ['amara', 'Amara', 'Okafor', 'amara@example.org'],
  ] as const)
    people[key] = (await makeContact(server, { firstName, lastName, primaryEmail })).id;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function makeBatch(name: string): Promise<Batch> {
  return expectStatus(
    await server.request('POST', '/api/v1/batches', {
      accountId: server.accountId,
      name,
      campaignId: annualFund,
    }),
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

const focusedLabel = (page: Page) =>
  page.evaluate(
    () =>
      document.activeElement?.getAttribute('aria-label') ??
      (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ??
      '',
  );
const donorBox = (page: Page) => page.getByRole('combobox', { name: 'Donor' });
const amountBox = (page: Page) => page.getByRole('form', { name: 'New gift' }).getByLabel(/^Amount/);
const count = (page: Page) => page.getByTestId('batch-count').textContent();

async function openBatch(batch: Batch) {
  const opened = await openApp(browser, server, { viewport: { width: 1280, height: 800 } });
  await opened.page.getByRole('button', { name: new RegExp(`^${batch.name}`) }).click();
  await expect.poll(() => focusedLabel(opened.page)).toBe('Donor');
  return opened;
}

async function batchesNamed(name: string): Promise<Batch[]> {
  const listed = expectStatus(
    await server.request('GET', `/api/v1/batches?accountId=${server.accountId}&limit=100`),
    200,
  ) as { data: Batch[] };
  return listed.data.filter((b) => b.name === name);
}

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

describe('starting a batch by keyboard', () => {
  it('takes the date in one stop, typed either way or today’s, and nothing the volunteer did not give', async () => {
    const { page, context, problems } = await openApp(browser, server, {
      viewport: { width: 1280, height: 800 },
    });
    try {
      const start = async (name: string) => {
        await page
          .getByRole('button', { name: /^(Start a batch|New batch…)$/ })
          .first()
          .click();
        await expect.poll(() => focusedLabel(page)).toBe('Batch name');
        await page.keyboard.type(name);
        await page.keyboard.press('Tab');
        await expect.poll(() => focusedLabel(page)).toBe('Gift date');
      };
      /** Tab through every field left, typing the campaign (and a total if given); Enter on the last. */
      const finish = async (total = '') => {
        await page.keyboard.press('Tab');
        await expect.poll(() => focusedLabel(page)).toBe('Payment method');
        await page.keyboard.press('Tab');
        await page.keyboard.type('annual');
        for (const label of [
          'Committee',
          'Donation account',
          'Expected number of gifts',
          'Expected total ($)',
        ]) {
          await page.keyboard.press('Tab');
          await expect.poll(() => focusedLabel(page)).toBe(label);
        }
        await page.keyboard.type(total);
        await page.keyboard.press('Enter');
        await expect.poll(() => focusedLabel(page)).toBe('Donor');
      };

      // Typed as the calendar on the wall says it.
      await start('Door table');
      expect(await page.getByLabel('Gift date').inputValue()).toBe(
        `${today.slice(5, 7)}/${today.slice(8, 10)}/${today.slice(0, 4)}`,
      );
      await page.keyboard.type('12/01/2026');
      await finish('22');
      // Typed as ISO, over today's date shown; the last batch's total is not this one's.
      await start('Coat check');
      await page.keyboard.type('2026-11-28');
      await finish();
      // Left as it was: today's.
      await start('Bar');
      await finish();
      // Not a date: said at the field, which keeps the focus; no batch.
      await start('Stage');
      await page.keyboard.type('02/30/2026');
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedLabel(page)).toBe('Gift date');
      expect(await page.getByRole('dialog', { name: 'Start a batch' }).textContent()).toContain(
        'must be a date, like 12/01/2026 or 2026-12-01',
      );
      expect(await batchesNamed('Stage')).toEqual([]);

      const made = [
        ...(await batchesNamed('Door table')),
        ...(await batchesNamed('Coat check')),
        ...(await batchesNamed('Bar')),
      ];
      expect(
        made.map((b) => [b.name, b.batchDate, b.paymentMethod, b.expectedTotal, b.expectedCount]),
      ).toEqual([
        ['Door table', '2026-12-01', null, 22, null],
        ['Coat check', '2026-11-28', null, null, null],
        ['Bar', today, null, null, null],
      ]);
      expect(made.every((b) => b.campaignId === annualFund)).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('typing ahead of the donor search', () => {
  it('puts the amount typed right after Enter in the amount, and saves to the donor the late matches put first', async () => {
    const batch = await makeBatch('Typing ahead');
    const { page, context, problems } = await openBatch(batch);
    try {
      const searches = await requestGate(page, '**/api/v1/contact-summaries?**');
      // The first search after opening, slow: the volunteer does not wait for it.
      searches.hold();
      await page.keyboard.type('david smith');
      await page.keyboard.press('Enter');
      await page.keyboard.type('50');
      await page.keyboard.press('Enter');
      expect(await donorBox(page).inputValue()).toBe('david smith');
      expect(await amountBox(page).inputValue()).toBe('50');
      expect(await count(page)).toMatch(/^0\b/);
      await searches.release();
      await expect.poll(() => count(page)).toMatch(/^1\b/);
      await expect.poll(() => focusedLabel(page)).toBe('Donor');

      // Again, the answer now quick: the same keys, no waits.
      await page.keyboard.type('amara');
      await page.keyboard.press('Enter');
      await page.keyboard.type('20');
      await page.keyboard.press('Enter');
      await expect.poll(() => count(page)).toMatch(/^2\b/);

      // A name no one on file matches: nothing is chosen or created behind the volunteer's back;
      // the save is refused at the donor box, with what was typed kept.
      await expect.poll(() => focusedLabel(page)).toBe('Donor');
      searches.hold();
      await page.keyboard.type('zzyzx');
      await page.keyboard.press('Enter');
      await page.keyboard.type('5');
      await page.keyboard.press('Enter');
      await searches.release();
      await expect.poll(() => focusedLabel(page)).toBe('Donor');
      expect(await page.getByRole('form', { name: 'New gift' }).textContent()).toContain(
        'No donor on file matches “zzyzx”',
      );
      expect(await donorBox(page).inputValue()).toBe('zzyzx');
      expect(await amountBox(page).inputValue()).toBe('5');
      expect(await page.getByRole('group', { name: 'New donor' }).count()).toBe(0);

      const gifts = await giftsOf(batch.id);
      expect(gifts.map((g) => [g.contactId, g.donationAmount]).sort()).toEqual(
        [
          [people.david, 50],
          [people.amara, 20],
        ].sort(),
      );
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('a new donor typed family name first', () => {
  it('shows the split and the greeting as they will be saved; Alt+W swaps first and last', async () => {
    const batch = await makeBatch('New names');
    const { page, context, problems } = await openBatch(batch);
    try {
      await page.keyboard.type('Nguyễn Thị Minh Khai');
      const active = async () => {
        const id = await donorBox(page).getAttribute('aria-activedescendant');
        return id ? page.locator(`[id="${id}"]`).textContent() : null;
      };
      await expect.poll(active).toContain('New donor');
      expect(await active()).toContain('first name “Nguyễn”, last name “Thị Minh Khai”');
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedLabel(page)).toBe('First name');
      const split = page.getByTestId('new-donor-split');
      expect(await split.textContent()).toBe(
        'Saved as first name “Nguyễn”, last name “Thị Minh Khai”. Letters open “Dear Nguyễn,”',
      );
      // One key: the family name goes last, and the letters greet by the given names.
      await page.keyboard.press('Alt+W');
      await expect
        .poll(() => split.textContent())
        .toBe('Saved as first name “Thị Minh Khai”, last name “Nguyễn”. Letters open “Dear Thị Minh Khai,”');
      expect(await focusedLabel(page)).toBe('First name');
      await expectNoA11yViolations(page, 'a new donor with the name split shown');
      await screenshot(page, 'gift-entry-new-donor-split');
      // The greeting, typed: the letters open with it.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect.poll(() => focusedLabel(page)).toBe('Greeting');
      await page.keyboard.type('Minh Khai');
      await expect.poll(() => split.textContent()).toContain('Letters open “Dear Minh Khai,”');
      await amountBox(page).focus();
      await page.keyboard.type('40');
      await page.keyboard.press('Enter');
      await expect.poll(() => count(page)).toMatch(/^1\b/);

      const [gift] = await giftsOf(batch.id);
      const contact = expectStatus(
        await server.request('GET', `/api/v1/contacts/${gift!.contactId}?accountId=${server.accountId}`),
        200,
      ) as { firstName: string; lastName: string; salutation: string | null };
      expect([contact.firstName, contact.lastName, contact.salutation]).toEqual([
        'Thị Minh Khai',
        'Nguyễn',
        'Minh Khai',
      ]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** In the focused donor-like box: type, wait for the top match to be `name`, Enter. */
async function choose(page: Page, typed: string, name: string): Promise<void> {
  await page.keyboard.type(typed);
  await expect
    .poll(() =>
      page.evaluate(() => {
        const id = document.activeElement?.getAttribute('aria-activedescendant');
        return id ? (document.getElementById(id)?.textContent ?? null) : null;
      }),
    )
    .toContain(name);
  await page.keyboard.press('Enter');
}

describe('the saved gifts', () => {
  it('name the person credited and the host who raised each gift, under its campaign', async () => {
    const batch = await makeBatch('Hosted tables');
    const { page, context, problems } = await openBatch(batch);
    try {
      // David's check credited to Amara, raised by Davida (the host stays for the next gift).
      await choose(page, 'david smith', 'David Smith');
      await page.keyboard.type('100');
      await page.keyboard.press('Alt+C');
      await expect.poll(() => focusedLabel(page)).toMatch(/^Credit to/);
      await choose(page, 'amara', 'Amara Okafor');
      await page.keyboard.press('Alt+R');
      await expect.poll(() => focusedLabel(page)).toMatch(/^Raised by/);
      await choose(page, 'davida', 'Davida Smithson');
      await page.keyboard.press('Enter');
      await expect.poll(() => count(page)).toMatch(/^1\b/);
      await expect.poll(() => focusedLabel(page)).toBe('Donor');
      await choose(page, 'amara', 'Amara Okafor');
      await page.keyboard.type('20');
      await page.keyboard.press('Enter');
      await expect.poll(() => count(page)).toMatch(/^2\b/);

      const gifts = await giftsOf(batch.id);
      const cells = (id: string) =>
        page.locator(`tr[data-donation-id="${id}"]`).evaluate((tr) => {
          const heads = [...tr.closest('table')!.querySelectorAll('thead th')].map((th) => th.textContent);
          const tds = [...tr.querySelectorAll('td')].map((td) => td.textContent);
          return Object.fromEntries(heads.map((h, i) => [h, tds[i]]));
        });
      const column = 'Campaign · credit';
      await expect
        .poll(async () => (await cells(gifts[0]!.id))[column])
        .toBe('Annual Fundcredited to Amara Okafor · raised by Davida Smithson');
      expect((await cells(gifts[1]!.id))[column]).toBe('Annual Fundraised by Davida Smithson');
      // The gift's own record says the same names.
      expect([gifts[0]!.onBehalfOfName, gifts[0]!.facilitatedByName]).toEqual([
        'Amara Okafor',
        'Davida Smithson',
      ]);
      expect([gifts[1]!.onBehalfOfName, gifts[1]!.facilitatedByName]).toEqual([null, 'Davida Smithson']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the host a batch is raised by', () => {
  it('stays with the batch: a new window opening it has the host, and the gifts typed there go to them', async () => {
    const batch = await makeBatch('Table 7');
    const first = await openBatch(batch);
    try {
      await choose(first.page, 'amara', 'Amara Okafor');
      await first.page.keyboard.type('75');
      await first.page.keyboard.press('Alt+R');
      await expect.poll(() => focusedLabel(first.page)).toMatch(/^Raised by/);
      await choose(first.page, 'davida', 'Davida Smithson');
      await first.page.keyboard.press('Enter');
      await expect.poll(() => count(first.page)).toMatch(/^1\b/);
      expect(first.problems).toEqual([]);
    } finally {
      await first.context.close();
    }

    // Another window, its storage its own (a new tab on another machine's browser alike).
    const second = await openBatch(batch);
    try {
      const sticky = second.page.getByTestId('gift-sticky');
      await expect.poll(() => sticky.textContent()).toContain('Raised by Davida Smithson');
      await choose(second.page, 'david smith', 'David Smith');
      await second.page.keyboard.type('30');
      await second.page.keyboard.press('Enter');
      await expect.poll(() => count(second.page)).toMatch(/^2\b/);
      // One key clears it, for the batch too.
      await second.page.keyboard.press('Alt+R');
      await expect.poll(() => focusedLabel(second.page)).toMatch(/^Raised by/);
      await second.page.keyboard.press('Escape');
      await expect.poll(() => sticky.textContent()).not.toContain('Raised by');
      await expect
        .poll(
          async () =>
            (
              expectStatus(
                await server.request('GET', `/api/v1/batches/${batch.id}?accountId=${server.accountId}`),
                200,
              ) as Batch
            ).raisedByContactId,
        )
        .toBeNull();
      expect(second.problems).toEqual([]);
    } finally {
      await second.context.close();
    }
    expect((await giftsOf(batch.id)).map((g) => [g.donationAmount, g.facilitatedByContactId])).toEqual([
      [75, people.davidson],
      [30, people.davidson],
    ]);
  });
});
