/**
 * Finding the right donor at the gift table, in real Chromium against a real server: the
 * contacts are the namesake mess of a real event — a William Williams among Williamsons who
 * all gave more recently, three Robert Browns with different emails and cities, a José Núñez
 * typed without accents beside a Josefina who gave last week, an organisation whose name
 * starts others' — and a volunteer types full names and emails into the donor box. The
 * intended donor is the top option (the one Enter takes) every time, and the namesakes on
 * screen each show a different detail line.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCampaign, makeContact, makeDonation } from '../helpers/api-fixtures.ts';
import {
  launchChromium,
  openApp,
  requestGate,
  screenshot,
  startAppServer,
  type AppServer,
} from './helpers.ts';

let server: AppServer;
let browser: Browser;

interface Person {
  firstName: string;
  lastName: string;
  primaryEmail?: string;
  organization?: string;
  city?: string;
  lastGift?: string;
}

const TARGETS = {
  william: {
    firstName: 'William',
    lastName: 'Williams',
    primaryEmail: 'bill@williams-family.example',
    city: 'Dayton',
    lastGift: '2025-01-10',
  },
  brownOak: {
    firstName: 'Robert',
    lastName: 'Brown',
    primaryEmail: 'robert.brown@oak.example',
    city: 'Dayton',
    lastGift: '2025-03-01',
  },
  brownPine: {
    firstName: 'Robert',
    lastName: 'Brown',
    primaryEmail: 'rbrown@pine.example',
    city: 'Akron',
    lastGift: '2025-05-01',
  },
  brownElm: { firstName: 'Robert', lastName: 'Brown', primaryEmail: 'bob.brown@elm.example', city: 'Toledo' },
  jose: {
    firstName: 'José',
    lastName: 'Núñez',
    primaryEmail: 'jnunez@example.org',
    city: 'Salem',
    lastGift: '2025-01-02',
  },
  acme: { firstName: 'Ann', lastName: 'Lee', organization: 'Acme', city: 'Salem' },
} satisfies Record<string, Person>;

const DECOYS: Person[] = [
  ...Array.from({ length: 12 }, (_, i) => ({
    firstName: i % 2 ? 'William' : 'Williams',
    lastName: i % 3 ? 'Williamson' : 'Williamsen',
    primaryEmail: `w${i}@williamson.example`,
    lastGift: `2025-06-${String(10 + i).padStart(2, '0')}`,
  })),
  { firstName: 'Willa', lastName: 'Williamsburg', lastGift: '2025-07-01' },
  {
    firstName: 'Roberta',
    lastName: 'Browning',
    primaryEmail: 'roberta@browning.example',
    lastGift: '2025-08-01',
  },
  { firstName: 'Robertson', lastName: 'Browne', lastGift: '2025-08-02' },
  {
    firstName: 'Josefina',
    lastName: 'Nuñezca',
    primaryEmail: 'josefina@nunezca.example',
    lastGift: '2025-09-01',
  },
  { firstName: 'José', lastName: 'Nunes', lastGift: '2025-09-02' },
  { firstName: 'Pat', lastName: 'Acmeson', organization: 'Acme Widgets', lastGift: '2025-10-01' },
  { firstName: 'Sam', lastName: 'Stone', organization: 'Acmes Holdings', lastGift: '2025-10-02' },
  // Same email, different name (a couple sharing an address).
  { firstName: 'Robin', lastName: 'Brown', primaryEmail: 'rbrown@pine.example', lastGift: '2025-11-01' },
];

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  const campaignId = (await makeCampaign(server, 'Spring Gala')).id;
  for (const p of [...Object.values(TARGETS), ...DECOYS] as Person[]) {
    const c = await makeContact(server, {
      firstName: p.firstName,
      lastName: p.lastName,
      primaryEmail: p.primaryEmail,
      organization: p.organization,
      addresses: p.city ? [{ city: p.city, isPrimary: true }] : undefined,
    });
    if (p.lastGift)
      await makeDonation(server, c.id, {
        campaignId,
        donationDate: p.lastGift,
        donationAmount: 19.99,
        paymentMethod: 'cash',
      });
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const donorBox = (page: Page) => page.getByRole('combobox', { name: 'Donor' });

/** The options on screen for what is typed now: name line and detail line of each donor. */
async function optionsFor(
  page: Page,
  typed: string,
): Promise<Array<{ name: string; line: string; active: boolean }>> {
  await donorBox(page).fill('');
  await donorBox(page).pressSequentially(typed);
  // Wait for the answer to this text (not the "Searching…" row, not a previous search).
  await expect
    .poll(async () => page.getByRole('listbox', { name: 'Matching donors' }).getByRole('option').count())
    .toBeGreaterThan(1);
  await expect
    .poll(
      async () =>
        (await donorBox(page).inputValue()) === typed &&
        (await donorBox(page).getAttribute('aria-activedescendant')) !== null,
    )
    .toBe(true);
  return page
    .getByRole('listbox', { name: 'Matching donors' })
    .getByRole('option')
    .evaluateAll((els) =>
      els
        .filter((el) => !el.classList.contains('donor-option-new'))
        .map((el) => ({
          name: el.querySelector('.donor-option-name')?.textContent ?? '',
          line: el.querySelector('.donor-option-line')?.textContent ?? '',
          active: el.getAttribute('aria-selected') === 'true',
        })),
    );
}

/**
 * The page's contact searches (the donor box's and the Contacts screen's), through a gate at
 * the browser: held, "before the matches arrived" holds however fast or slow the machine is (a
 * busy one answers a search before the test's next key; a practised volunteer's Enter beats it).
 */
const searchGate = (page: Page) => requestGate(page, '**/api/v1/contact-summaries?**');

describe('donor lookup', () => {
  it('puts the donor typed by full name or email first, and tells namesakes apart', async () => {
    const { page, context } = await openApp(browser, server);
    await page.getByRole('button', { name: 'Start a batch' }).first().click();
    await page.getByLabel('Batch name').fill('Namesakes');
    await page.getByLabel('Campaign').selectOption({ label: 'Spring Gala' });
    await page.getByLabel('Batch name').press('Enter');
    await donorBox(page).waitFor();

    const cases: Array<[string, Person]> = [
      ['william williams', TARGETS.william],
      ['Williams William', TARGETS.william],
      ['bill@williams-family.example', TARGETS.william],
      ['jose nunez', TARGETS.jose],
      ['JOSE NUNEZ', TARGETS.jose],
      ['jnunez@example.org', TARGETS.jose],
      ['robert.brown@oak.example', TARGETS.brownOak],
      ['bob.brown@elm.example', TARGETS.brownElm],
      ['acme', TARGETS.acme],
    ];
    for (const [typed, who] of cases) {
      const options = await optionsFor(page, typed);
      const top = options[0];
      expect(top?.active, `“${typed}”: the top option is the one Enter takes`).toBe(true);
      expect(top?.name, `“${typed}”`).toContain(`${who.firstName} ${who.lastName}`);
      if (who.primaryEmail) expect(top?.line, `“${typed}”`).toContain(who.primaryEmail);
      if (who.city) expect(top?.line, `“${typed}”`).toContain(who.city);
    }

    // Three Robert Browns typed by name: all three first, each with its own detail line.
    const browns = (await optionsFor(page, 'robert brown')).slice(0, 3);
    expect(browns.map((o) => o.name)).toEqual(['Robert Brown', 'Robert Brown', 'Robert Brown']);
    expect(new Set(browns.map((o) => o.line)).size).toBe(3);
    for (const b of [TARGETS.brownOak, TARGETS.brownPine, TARGETS.brownElm]) {
      expect(
        browns.some((o) => o.line.includes(b.primaryEmail) && o.line.includes(b.city)),
        b.primaryEmail,
      ).toBe(true);
    }
    // The email two people share: both offered first, told apart by name.
    const shared = (await optionsFor(page, 'rbrown@pine.example')).slice(0, 2);
    expect(shared.map((o) => o.name).sort()).toEqual(['Robert Brown', 'Robin Brown']);

    // Enter takes the top option: the gift goes to William Williams, not a Williamson.
    await optionsFor(page, 'william williams');
    await page.keyboard.press('Enter');
    await expect.poll(() => donorBox(page).inputValue()).toBe('William Williams');
    await expect
      .poll(async () => page.locator('.donor-chosen').textContent())
      .toContain('bill@williams-family.example');
    await screenshot(page, 'donor-lookup');
    await context.close();
  });

  it('takes the top match for an Enter pressed before the matches arrived, and not after the text changed', async () => {
    const { page, context, problems } = await openApp(browser, server);
    await page.getByRole('button', { name: 'Start a batch' }).first().click();
    await page.getByLabel('Batch name').fill('Quick hands');
    await page.getByLabel('Campaign').selectOption({ label: 'Spring Gala' });
    await page.getByLabel('Batch name').press('Enter');
    await donorBox(page).waitFor();
    const searches = await searchGate(page);

    // A practised volunteer types the whole name and Enter at once, before any answer is on
    // screen: the Enter is kept and takes the top match of that text when it arrives.
    for (const [typed, who] of [
      ['william williams', TARGETS.william],
      ['jose nunez', TARGETS.jose],
    ] as const) {
      searches.hold();
      await donorBox(page).fill('');
      await donorBox(page).pressSequentially(typed);
      await page.keyboard.press('Enter');
      // No answer yet: the box still says what was typed and offers nothing to take.
      await page.getByText('Searching…').waitFor();
      expect(await donorBox(page).inputValue()).toBe(typed);
      expect(await page.locator('.donor-chosen').count()).toBe(0);
      await searches.release();
      await expect.poll(() => donorBox(page).inputValue()).toBe(`${who.firstName} ${who.lastName}`);
      await expect.poll(async () => page.locator('.donor-chosen').textContent()).toContain(who.primaryEmail);
    }

    // An Enter followed by more typing in the donor box (back there with Shift+Tab: the Enter
    // took the focus on to the amount) is forgotten: the box waits for the new text's own
    // Enter instead of taking a match of what was typed before.
    searches.hold();
    await donorBox(page).fill('');
    await donorBox(page).pressSequentially('robert');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('End');
    await page.keyboard.type(' brown');
    await searches.release();
    await expect
      .poll(async () => page.getByRole('listbox', { name: 'Matching donors' }).getByRole('option').count())
      .toBeGreaterThan(3);
    expect(await donorBox(page).inputValue()).toBe('robert brown');
    expect(await page.locator('.donor-chosen').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("ranks the Contacts screen's search the same way: the whole name first, namesakes side by side with their emails", async () => {
    const { page, context, problems } = await openApp(browser, server);
    const searches = await searchGate(page);
    await page.keyboard.press('Alt+2');
    /** The email cells of the first n rows. */
    const firstRows = async (n: number) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const row = page.locator(`#contact-rows [role="row"][aria-rowindex="${i + 2}"]`);
        await row.locator('a').waitFor();
        out.push((await row.locator('.ccell-email').textContent()) ?? '');
      }
      return out;
    };
    await page.getByLabel('Search contacts').fill('william williams');
    await page.getByRole('status').filter({ hasText: 'match “william williams”' }).waitFor();
    await expect.poll(async () => (await firstRows(1))[0]).toBe('bill@williams-family.example');
    expect(await page.getByLabel('Sort by').inputValue()).toBe('relevance:desc');
    await page.getByLabel('Search contacts').fill('robert brown');
    await page.getByRole('status').filter({ hasText: 'match “robert brown”' }).waitFor();
    await expect
      .poll(async () => (await firstRows(3)).sort())
      .toEqual(['bob.brown@elm.example', 'rbrown@pine.example', 'robert.brown@oak.example']);

    // Typed and Enter at once, before the matches are on screen: the top match opens when they
    // arrive (the Enter is not lost), the accents typed without them.
    searches.hold();
    await page.getByLabel('Search contacts').fill('jose nunez');
    await page.keyboard.press('Enter');
    expect(await page.locator('#screen-title').textContent()).not.toContain('José');
    await searches.release();
    await expect.poll(() => page.locator('#screen-title').textContent()).toContain('José Núñez');
    expect(problems).toEqual([]);
    await context.close();
  });
});
