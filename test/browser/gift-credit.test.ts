/**
 * Soft credit, hosts and sustainers in gift entry, by keyboard alone in real Chromium: a gift
 * credited to the donor's spouse (Alt+C), three gifts raised by one host (Alt+R once: the host
 * stays for the next gifts, said in the sticky line, Escape clears), and a sustainer gift
 * (Alt+S), then credited in the correction dialog. The legal donor's limit warning fires on
 * his own giving; the Dashboard's host leaderboard shows the host's three; the spouse's contact
 * page shows the credit, marked as credit, and her own total unchanged.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectStatus,
  makeCampaign,
  makeContact,
  makeDonation,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  openApp,
  startAppServer,
  type AppServer,
} from './helpers.ts';

let server: AppServer;
let browser: Browser;
const ids: Record<string, string> = {};

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  const acct = await makeDonationAccount(server, { perElection: 3300 }, 'Federal');
  await makeCampaign(server, 'Spring Gala', [acct.id]);
  const people: Array<[string, string, string]> = [
    ['harold', 'Harold', 'Reyes'],
    ['maria', 'Maria', 'Reyes'],
    ['hana', 'Hana', 'Hostetler'],
    ['ann', 'Annika', 'Guest'],
    ['bo', 'Bowen', 'Guest'],
    ['cy', 'Cyrus', 'Guest'],
    ['sue', 'Suzette', 'Monthly'],
  ];
  for (const [key, firstName, lastName] of people)
    ids[key] = (
      await makeContact(server, { firstName, lastName, employer: 'Acme', occupation: 'Engineer' })
    ).id;
  // Harold has given 3,000 of his 3,300 already; Maria has given 40 of her own.
  await makeDonation(server, ids.harold!, {
    donationAccountId: acct.id,
    donationAmount: 3000,
    donationDate: today,
  });
  await makeDonation(server, ids.maria!, {
    donationAccountId: acct.id,
    donationAmount: 40,
    donationDate: today,
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.getAttribute('aria-label') ?? el?.labels?.[0]?.textContent ?? el?.textContent ?? '';
  });
const expectFocusOn = (page: Page, name: RegExp) => expect.poll(() => focusedLabel(page)).toMatch(name);

async function tabTo(page: Page, name: RegExp): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if (name.test(await focusedLabel(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${name}`);
}

/** In the focused donor-like box: type, wait for the top match to be `name`, Enter. */
async function choose(page: Page, box: RegExp, typed: string, name: string): Promise<void> {
  await expectFocusOn(page, box);
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

const sticky = (page: Page) => page.getByTestId('gift-sticky').textContent();
const count = (page: Page) => page.getByTestId('batch-count').textContent();

async function saved(page: Page, n: number): Promise<void> {
  await expect.poll(() => count(page)).toMatch(new RegExp(`^${n}\\b`));
  await expectFocusOn(page, /^Donor$/);
}

describe('credit to, raised by, sustainer', () => {
  it('are entered by keyboard alone, reported per host, and shown as credit on the spouse’s page', async () => {
    const { page, problems } = await openApp(browser, server);
    await tabTo(page, /^Start a batch$/);
    await page.keyboard.press('Enter');
    await expectFocusOn(page, /^Batch name$/);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Host table');
    await tabTo(page, /^Campaign$/);
    await page.keyboard.press('ArrowDown'); // — none — → Spring Gala (its one account: Federal)
    await tabTo(page, /^Expected number of gifts$/);
    await page.keyboard.type('5');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1125.00');
    await page.keyboard.press('Enter');
    await expectFocusOn(page, /^Donor$/);

    // 1. Harold's check, credited to his wife Maria: his limit is the one checked.
    await choose(page, /^Donor$/, 'harold', 'Harold Reyes');
    await expectFocusOn(page, /^Amount/);
    await page.keyboard.type('500');
    await expect
      .poll(() => page.locator('[data-warning="limit"]').textContent())
      .toContain('given $3,000.00');
    await page.keyboard.press('Alt+C');
    await choose(page, /^Credit to/, 'maria', 'Maria Reyes');
    await expect.poll(() => sticky(page)).toContain('This gift: credit to Maria Reyes');
    await page.keyboard.press('Enter');
    await saved(page, 1);
    expect(await sticky(page)).not.toContain('Maria');

    // 2–4. Three guests of one host: the host is chosen once and stays.
    const guests: Array<[string, string, string]> = [
      ['annika', 'Annika Guest', '100'],
      ['bowen', 'Bowen Guest', '200'],
      ['cyrus', 'Cyrus Guest', '300'],
    ];
    for (const [i, [typed, name, amount]] of guests.entries()) {
      await choose(page, /^Donor$/, typed, name);
      await expectFocusOn(page, /^Amount/);
      await page.keyboard.type(amount);
      if (i === 0) {
        await page.keyboard.press('Alt+R');
        await choose(page, /^Raised by/, 'hana', 'Hana Hostetler');
      }
      await expect.poll(() => sticky(page)).toContain('Raised by Hana Hostetler');
      if (i === 0) await expectNoA11yViolations(page, 'gift entry with a host chosen');
      await page.keyboard.press('Enter');
      await saved(page, 2 + i);
    }
    // One key clears the host for the gifts after.
    await page.keyboard.press('Alt+R');
    await expectFocusOn(page, /^Raised by/);
    await page.keyboard.press('Escape');
    await expect.poll(() => sticky(page)).not.toContain('Raised by');

    // 5. A sustainer's monthly charge.
    await page.keyboard.press('Alt+1');
    await choose(page, /^Donor$/, 'suzette', 'Suzette Monthly');
    await expectFocusOn(page, /^Amount/);
    await page.keyboard.type('25');
    await page.keyboard.press('Alt+S');
    await expect.poll(() => sticky(page)).toContain('This gift: sustainer');
    await page.keyboard.press('Enter');
    await saved(page, 5);

    // The correction dialog has them too: Suzette's charge credited to Bowen, by keyboard.
    await page.getByRole('button', { name: 'Correct the gift of $25.00 from Suzette Monthly' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /Correct the gift of \$25\.00/ });
    await dialog.waitFor();
    await expectFocusOn(page, /^Amount/);
    expect(await dialog.getByLabel('Sustainer (recurring)').isChecked()).toBe(true);
    await page.keyboard.press('Alt+C');
    await choose(page, /^Credit to/, 'bowen', 'Bowen Guest');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expectFocusOn(page, /^Donor$/);

    // What was saved, gift by gift.
    const list = expectStatus(
      await server.request('GET', `/api/v1/donations?accountId=${server.accountId}&limit=100`),
      200,
    ).donations as Array<{ id: string; contactId: string; donationAmount: number }>;
    const detail = async (contactId: string, amount: number) => {
      const d = list.find((x) => x.contactId === contactId && x.donationAmount === amount);
      expect(d, `${contactId} ${amount}`).toBeDefined();
      return expectStatus(
        await server.request('GET', `/api/v1/donations/${d!.id}?accountId=${server.accountId}`),
        200,
      );
    };
    expect(await detail(ids.harold!, 500)).toMatchObject({
      onBehalfOfContactId: ids.maria,
      facilitatedByContactId: null,
      isRecurring: false,
    });
    for (const [key, amount] of [
      ['ann', 100],
      ['bo', 200],
      ['cy', 300],
    ] as const)
      expect(await detail(ids[key]!, amount)).toMatchObject({
        onBehalfOfContactId: null,
        facilitatedByContactId: ids.hana,
      });
    expect(await detail(ids.sue!, 25)).toMatchObject({
      onBehalfOfContactId: ids.bo,
      facilitatedByContactId: null,
      isRecurring: true,
    });
    // D6: the 500 over Harold's room is flagged on his gift.
    const flags = expectStatus(
      await server.request('GET', `/api/v1/flags?accountId=${server.accountId}`),
      200,
    );
    expect(JSON.stringify(flags)).toContain((await detail(ids.harold!, 500)).id);

    // The host leaderboard on the Dashboard.
    await page.keyboard.press('Alt+4');
    const board = page.getByTestId('host-board');
    await expect
      .poll(() => board.locator('tbody tr').first().textContent())
      .toMatch(/Hana Hostetler\s*3\s*3\s*\$600\.00/);
    expect(await board.locator('tbody tr').count()).toBe(1);

    // Maria's page: the credit, marked as credit; her own total still her own 40.
    await page.evaluate((id) => {
      window.location.hash = `#/contacts/${id}`;
    }, ids.maria!);
    const credits = page.getByTestId('soft-credits');
    await expect
      .poll(() => credits.locator('tbody tr').first().textContent())
      .toMatch(/\$500\.00.*credit.*Harold Reyes/);
    const totalGiven = page.locator('.giving-totals .total-big dd').first();
    await expect.poll(() => totalGiven.textContent()).toBe('$40.00');
    const maria = expectStatus(
      await server.request('GET', `/api/v1/contacts/${ids.maria}?accountId=${server.accountId}`),
      200,
    );
    expect(maria.totalDonations).toBe(40);
    expect(problems).toEqual([]);
  });
});
