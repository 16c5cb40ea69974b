/**
 * A campaign's donation account in gift entry (D6: limits are checked per donation account,
 * and only for a gift that names one). As a volunteer types it, by keyboard, on data like the
 * demo's: Björn Hall has given $4,500 ($1,000 of it to the Federal account in this election);
 * a $3,000 gift to "Harvest Dinner (event day)", which offers the Federal account alone, is
 * credited to it by default — the row shows the account, warns before the save, and the server
 * flags the gift. A campaign offering two accounts makes the row ask which one before it saves.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, makeCampaign, makeContact, makeDonationAccount } from '../helpers/api-fixtures.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  openApp,
  requestGate,
  startAppServer,
  type AppServer,
  type RequestGate,
} from './helpers.ts';

const DAY = '2026-03-14'; // counts toward the 2026 general election (D5)

let server: AppServer;
let browser: Browser;
let federal: { id: string; name: string };
let pac: { id: string; name: string };
let harvest: { id: string };
let gala: { id: string };
const donors: Record<string, string> = {};

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  federal = await makeDonationAccount(server, { perElection: 3300 }, 'Federal campaign account');
  pac = await makeDonationAccount(server, { perYear: 5000 }, 'Riverbend Leadership PAC');
  harvest = await makeCampaign(server, 'Harvest Dinner (event day)', [federal.id]);
  gala = await makeCampaign(server, 'Spring Gala', [federal.id, pac.id]);
  const annual = await makeCampaign(server, 'Annual Fund');
  // Namesakes, and a name typed without its accents.
  for (const [key, firstName, lastName, email] of [
    ['bjorn', 'Björn', 'Hall', 'bjorn.hall@example.org'],
    ['bjornToo', 'Björn', 'Hall', 'b.hall@harbor.example'],
    ['lukasz', 'Łukasz', 'Żółć', 'lukasz@example.org'],
  ] as const) {
    donors[key] = (await makeContact(server, { firstName, lastName, primaryEmail: email })).id;
  }
  for (const [amount, date, campaignId, donationAccountId] of [
    [1000, '2026-02-01', harvest.id, federal.id],
    [3500, '2025-12-01', annual.id, null],
  ] as const) {
    expectStatus(
      await server.request('POST', '/api/v1/donations', {
        accountId: server.accountId,
        contactId: donors.bjorn,
        donationAmount: amount,
        donationDate: date,
        paymentMethod: 'check',
        campaignId,
        ...(donationAccountId ? { donationAccountId } : {}),
      }),
      201,
    );
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openBatch(
  campaignId: string,
  name: string,
  beforeReload: (page: Page) => Promise<void> = async () => {},
  untilReady: (page: Page) => Promise<void> = async (page) => {
    await expect.poll(() => focusedLabel(page)).toBe('Donor');
  },
): Promise<{ page: Page; close: (expected?: RegExp) => Promise<void> }> {
  const batch = expectStatus(
    await server.request('POST', '/api/v1/batches', {
      accountId: server.accountId,
      name,
      campaignId,
      paymentMethod: 'check',
      batchDate: DAY,
    }),
    201,
  );
  const { page, context, problems } = await openApp(browser, server);
  await page.evaluate(
    ([key, id]) => localStorage.setItem(key!, id!),
    [`giftdesk.batch.${server.accountId}`, batch.id],
  );
  await beforeReload(page);
  await page.reload();
  await untilReady(page);
  return {
    page,
    /** Checks that the page logged no problem but the `expected` ones, and closes it. */
    close: async (expected?: RegExp) => {
      expect(problems.filter((p) => !expected?.test(p))).toEqual([]);
      await context.close();
    },
  };
}

const focusedLabel = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? '');

/** Types part of a donor's name or email and takes the top match (the one meant) with Enter. */
async function pickDonor(page: Page, typed: string, meant: RegExp): Promise<void> {
  await page.keyboard.type(typed);
  await expect
    .poll(async () => {
      const active = await page
        .getByRole('combobox', { name: 'Donor' })
        .getAttribute('aria-activedescendant');
      return active ? page.locator(`[id="${active}"]`).textContent() : null;
    })
    .toMatch(meant);
  await page.keyboard.press('Enter');
  await expect.poll(() => focusedLabel(page)).toMatch(/^Amount/);
}

/** The gifts the API holds for a donor, newest first. */
async function giftsOf(contactId: string) {
  const list = expectStatus(
    await server.request('GET', `/api/v1/contacts/${contactId}/donations?accountId=${server.accountId}`),
    200,
  );
  return list.donations as Array<{
    id: string;
    donationAmount: number;
    donationAccountId: string | null;
    flagged: boolean;
  }>;
}

const accountSelect = (page: Page) => page.getByLabel('Donation account', { exact: true });

/**
 * Holds the page's requests for one list (`/api/v1/<path>`, e.g. the campaigns) at the browser
 * until `release`, so "before the list arrived" holds however fast or slow the machine is.
 * `release` resolves once the released answer has reached the page.
 */
async function holdList(page: Page, path: string) {
  const matches = (url: URL) => url.pathname === `/api/v1/${path}`;
  const gate = await requestGate(page, matches);
  gate.hold();
  return {
    release: async () => {
      const arrived = page.waitForResponse((r) => matches(new URL(r.url())));
      await gate.release();
      await arrived;
    },
  };
}

describe('a campaign’s donation account in gift entry', () => {
  it('one account: credited by default, warned before the save, flagged by the server', async () => {
    const { page, close } = await openBatch(harvest.id, 'Harvest Dinner door');
    await pickDonor(page, 'bjorn hall', /Björn Hall.*bjorn\.hall@example\.org/);
    await page.keyboard.type('3000');
    // The warning, before the save: $1,000 given in this election, $2,300 of room. (Each
    // finding is reported, pass or fail: a gift saved unchecked shows no warning AND no flag.)
    const warning = page.locator('[data-warning="limit"]');
    const warned = await expect
      .poll(() => warning.textContent())
      .toContain('Federal campaign account')
      .then(
        () => true,
        () => false,
      );
    expect.soft(warned, 'the limit warning shows before the save').toBe(true);
    if (warned) {
      expect(await warning.textContent()).toContain('$2,300.00 of room left');
      await expectNoA11yViolations(page, 'the limit warning for the campaign’s account');
    }
    // The row shows the account it credits.
    expect.soft(await accountSelect(page).inputValue(), 'the account in the row').toBe(federal.id);
    await page.keyboard.press('Enter');

    const row = page.locator('table.gift-table tbody tr').first();
    await expect.poll(() => row.textContent()).toContain('$3,000.00');
    await expect.poll(() => focusedLabel(page)).toBe('Donor');

    // The server credited the account and flagged the gift (D6), and the row says so.
    const [saved] = await giftsOf(donors.bjorn!);
    expect.soft(saved, 'the gift as saved').toMatchObject({
      donationAmount: 3000,
      donationAccountId: federal.id,
      flagged: true,
    });
    const flags = expectStatus(
      await server.request('GET', `/api/v1/flags?accountId=${server.accountId}`),
      200,
    );
    expect(flags.flagged, 'the review queue').toEqual([
      expect.objectContaining({
        donationId: saved!.id,
        donationAccountId: federal.id,
        limitKind: 'per_election',
      }),
    ]);
    expect(await row.textContent()).toContain('Harvest Dinner (event day) · Federal campaign account');
    expect(await row.textContent()).toContain('over a limit: in Review');
    // The next gift starts with the account still chosen.
    expect(await accountSelect(page).inputValue()).toBe(federal.id);
    await close();
  });

  it('the campaigns and accounts arriving after the batch: no row until they are here, then it shows what it credits', async () => {
    // The order that once showed "— none —" in both selects while the row held the batch's
    // campaign and credited its account (the lists came after the selects were given their
    // values), and let a gift typed before the campaigns arrived be saved on no account at all.
    let campaigns: Awaited<ReturnType<typeof holdList>> | undefined;
    let accounts: Awaited<ReturnType<typeof holdList>> | undefined;
    const opening = (page: Page) => page.getByText('Opening the batch “Harvest Dinner bar”…');
    const donorBox = (page: Page) => page.getByRole('combobox', { name: 'Donor' });
    const { page, close } = await openBatch(
      harvest.id,
      'Harvest Dinner bar',
      async (page) => {
        campaigns = await holdList(page, 'campaigns');
        accounts = await holdList(page, 'donation-accounts');
      },
      // The batch is here (the screen names it), its lists are not.
      (page) => opening(page).or(donorBox(page)).waitFor(),
    );
    // Each finding is reported, pass or fail.
    expect.soft(await donorBox(page).count(), 'a row to type in before the campaigns').toBe(0);
    await campaigns!.release();
    expect.soft(await donorBox(page).count(), 'a row to type in before the donation accounts').toBe(0);
    expect.soft(await opening(page).count(), 'the screen says it is opening the batch').toBe(1);
    await accounts!.release();

    // Then the row, ready to type in, showing the batch's campaign and the account it credits.
    await expect.poll(() => focusedLabel(page)).toBe('Donor');
    await expect
      .poll(() => page.getByTestId('gift-sticky').textContent())
      .toContain('Campaign Harvest Dinner (event day) · Donation account Federal campaign account');
    expect
      .soft(await page.getByLabel('Campaign', { exact: true }).inputValue(), 'the campaign in the row')
      .toBe(harvest.id);
    expect.soft(await accountSelect(page).inputValue(), 'the account in the row').toBe(federal.id);
    await pickDonor(page, 'b.hall@harbor', /Björn Hall.*b\.hall@harbor\.example/);
    await page.keyboard.type('40');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await giftsOf(donors.bjornToo!)).length).toBe(1);
    const [saved] = await giftsOf(donors.bjornToo!);
    expect(saved).toMatchObject({ donationAmount: 40, donationAccountId: federal.id });
    await close();
  });

  it('the campaigns not loading: the screen says so instead of offering a row, and Try again opens the batch', async () => {
    const failing = (page: Page) => page.getByRole('alert').filter({ hasText: 'The batch cannot be opened' });
    let campaigns: RequestGate | undefined;
    const { page, close } = await openBatch(
      harvest.id,
      'Harvest Dinner cloakroom',
      async (page) => {
        campaigns = await requestGate(page, (url) => url.pathname === '/api/v1/campaigns');
        campaigns.answer({ status: 500, json: { error: { code: 'internal', message: 'Something broke' } } });
      },
      (page) => failing(page).waitFor(),
    );
    expect(await page.getByRole('combobox', { name: 'Donor' }).count(), 'a row to type in').toBe(0);
    await expectNoA11yViolations(page, 'gift entry when the campaigns did not load');

    await campaigns!.release();
    await failing(page).getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => focusedLabel(page)).toBe('Donor');
    expect(await accountSelect(page).inputValue(), 'the account in the row').toBe(federal.id);
    await close(/the server responded with a status of 500/);
  });

  it('several accounts: the row asks which one, and saves nothing until it is chosen', async () => {
    const { page, close } = await openBatch(gala.id, 'Spring Gala door');
    expect(await accountSelect(page).inputValue()).toBe('');
    // The row says, before anything is typed, that it will ask.
    const asks = await expect
      .poll(() => page.getByText('This campaign offers Federal campaign account and Riverbend').count())
      .toBe(1)
      .then(
        () => true,
        () => false,
      );
    expect.soft(asks, 'the row says it will ask').toBe(true);

    await pickDonor(page, 'lukasz zolc', /Łukasz Żółć/);
    await page.keyboard.type('250');
    await page.keyboard.press('Enter');
    // The row answers either way: saved (the focus back in the donor box) or asking.
    await expect.poll(() => focusedLabel(page)).toMatch(/^(Donor|Donation account)$/);
    expect.soft(await giftsOf(donors.lukasz!), 'saved without a donation account').toEqual([]);
    // Not saved: the row names the field and takes the focus there.
    expect(await focusedLabel(page)).toBe('Donation account');
    expect(await page.locator('.gift-row .field-error').allTextContents()).toContainEqual(
      expect.stringContaining('Spring Gala offers Federal campaign account and Riverbend Leadership PAC'),
    );
    await expectNoA11yViolations(page, 'the row asking for the donation account');

    // The volunteer chooses (the first account down the list) and saves with Enter.
    await page.keyboard.press('ArrowDown');
    expect(await accountSelect(page).inputValue()).toBe(federal.id);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await giftsOf(donors.lukasz!)).length).toBe(1);
    const [saved] = await giftsOf(donors.lukasz!);
    expect(saved).toMatchObject({ donationAmount: 250, donationAccountId: federal.id, flagged: false });
    await expect
      .poll(() => page.locator('table.gift-table tbody tr').first().textContent())
      .toContain('Spring Gala · Federal campaign account');
    await close();
  });
});
