/**
 * The Contacts screen in real Chromium against a real server: a contact created by keyboard
 * with sub-records, tags and custom fields of every type (retired options not offered,
 * archived fields hidden), a server refusal shown at its field with nothing typed lost,
 * edited, found by an accented partial name, its giving shown, deleted after a warning with
 * the count and sum of its gifts; axe on the list, the page and the form; screenshots. And
 * 100,000 contacts (seeded through the store's bulk path) paged and scrolled correctly.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customFieldAction,
  expectStatus,
  makeCampaign,
  makeContact,
  makeCustomField,
  makeDonation,
} from '../helpers/api-fixtures.ts';
import { expectedOrder, seedContacts } from '../helpers/seed-contacts.ts';
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
/** The app answers within a moment, but a loaded 2-core CI machine can take seconds. */
const poll = { timeout: 30_000, interval: 100 };

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return '';
    const id = el.getAttribute('id');
    const label = id ? document.querySelector(`label[for="${CSS.escape(id)}"]`)?.textContent : null;
    return label ?? el.getAttribute('aria-label') ?? el.textContent ?? '';
  });

/** Presses Tab until the focused control's label is `label` (keyboard only, no clicks). */
async function tabTo(page: Page, label: string | RegExp, max = 120): Promise<void> {
  for (let i = 0; i < max; i++) {
    const now = (await focusedLabel(page)).trim();
    if (typeof label === 'string' ? now === label : label.test(now)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached "${String(label)}" (last: "${await focusedLabel(page)}")`);
}

async function typeInto(page: Page, label: string | RegExp, text: string): Promise<void> {
  await tabTo(page, label);
  await page.keyboard.type(text);
}

/** Scrolls the page to the top, so a full-page screenshot shows the sticky bars where they belong. */
async function top(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
}

async function hasFocusRing(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const s = getComputedStyle(el);
    return s.outlineStyle !== 'none' && s.outlineWidth !== '0px';
  });
}

describe('a contact from creation to deletion, by keyboard', () => {
  it('creates, edits, finds and deletes a contact with sub-records, tags and custom fields of every type', async () => {
    const api = server;
    await makeCustomField(api, 'Volunteer Interests', 'text');
    await makeCustomField(api, 'Wealth Score', 'number');
    await makeCustomField(api, 'Last Contacted', 'date');
    const level = await makeCustomField(api, 'Membership Level', 'picklist', [
      'Bronze',
      'Silver',
      'Gold',
      'Founding Member',
    ]);
    await customFieldAction(api, level.id, { action: 'retireOption', option: 'Founding Member' });
    const legacy = await makeCustomField(api, 'Legacy Donor ID', 'text');
    await customFieldAction(api, legacy.id, { action: 'archive' });
    const campaign = await makeCampaign(api, 'Spring Gala');
    await makeContact(api, { firstName: 'Brian', lastName: 'Adams', primaryEmail: 'brian@adams.example' });

    const { page, context, problems } = await openApp(browser, server);
    await page.keyboard.press('Alt+2');
    await page.getByRole('heading', { name: 'Contacts' }).waitFor();
    await expect.poll(() => focusedLabel(page), poll).toBe('Search contacts');
    await page.getByRole('status').filter({ hasText: '1 contact' }).waitFor();

    // New contact: Tab to the link, Enter; the first name has the focus.
    await tabTo(page, 'New contact');
    expect(await hasFocusRing(page)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New contact' }).waitFor();
    await expect.poll(() => focusedLabel(page), poll).toBe('First name');
    await page.keyboard.type('Zoë');
    await typeInto(page, 'Last name', 'Ångström-Núñez');
    await typeInto(page, 'Email', 'zoe@fjord.example');
    await typeInto(page, 'Organization', 'Fjord Foundation');
    await typeInto(page, 'Add a tag', 'board');
    await page.keyboard.press('Enter');
    await page.keyboard.type('volunteer,');

    // Custom fields by type; the retired option is not offered, the archived field not shown.
    await typeInto(page, 'Volunteer Interests', 'phone banking');
    await typeInto(page, 'Wealth Score', '8.5');
    await tabTo(page, 'Last Contacted');
    await page.keyboard.type('03152026'); // a date input takes the digits in order
    await tabTo(page, 'Membership Level');
    const offered = await page.getByLabel('Membership Level').locator('option').allTextContents();
    expect(offered).toEqual(['— none —', 'Bronze', 'Silver', 'Gold']);
    expect(await page.getByLabel('Legacy Donor ID').count()).toBe(0);
    await page.keyboard.press('ArrowDown'); // Bronze
    await page.keyboard.press('ArrowDown'); // Silver

    // Sub-records: one of each.
    await tabTo(page, 'Add phone number');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(page), poll).toBe('Number');
    await page.keyboard.type('+1 555 0100');
    await typeInto(page, 'Type', 'mobile');
    await tabTo(page, 'Add email address');
    await page.keyboard.press('Enter');
    await page.keyboard.type('zoe@home.example');
    await tabTo(page, 'Add address');
    await page.keyboard.press('Enter');
    await page.keyboard.type('1 Fjord Way');
    await typeInto(page, 'City', 'Bergen');
    await typeInto(page, 'Country', 'Norway');
    await tabTo(page, 'Add education record');
    await page.keyboard.press('Enter');
    await page.keyboard.type('University of Oslo');
    await typeInto(page, 'Graduation year', '2012');
    await tabTo(page, 'Add employment record');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Fjord Foundation');
    await typeInto(page, 'Job title', 'Director');
    await tabTo(page, 'Add note');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Met at the spring gala.');

    await expectNoA11yViolations(page, 'the new-contact form');
    await top(page);
    await screenshot(page, 'contacts-form-new');

    // The server refuses (the option was retired while the form was open): the message sits
    // at the field, and nothing typed is lost.
    await customFieldAction(api, level.id, { action: 'retireOption', option: 'Silver' });
    await page.keyboard.press('Control+Enter');
    // The field names its error only once the refusal has come back: wait for that first.
    const describedBy = page.getByLabel('Membership Level');
    await expect.poll(() => describedBy.getAttribute('aria-describedby'), poll).toBeTruthy();
    const levelError = page.locator(
      '#' + (await describedBy.getAttribute('aria-describedby'))!.split(' ')[0]!,
    );
    await expect.poll(() => levelError.textContent(), poll).toMatch(/retired/);
    await page.getByRole('alert').filter({ hasText: 'Everything you typed is still here' }).first().waitFor();
    expect(await page.getByLabel('Last name', { exact: true }).inputValue()).toBe('Ångström-Núñez');
    expect(await page.getByLabel('Note', { exact: true }).inputValue()).toBe('Met at the spring gala.');
    expect(await page.getByLabel('City', { exact: true }).inputValue()).toBe('Bergen');
    await top(page);
    await screenshot(page, 'contacts-form-server-error');
    // Gold, then save by keyboard.
    await page.getByLabel('Membership Level').focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.getByLabel('Membership Level').inputValue()).toBe('Gold');
    // A server slow to answer, and Ctrl+Enter pressed again meanwhile: one contact is made.
    let creates = 0;
    await page.route('**/api/v1/contacts', async (route) => {
      if (route.request().method() === 'POST') {
        creates++;
        await new Promise((r) => setTimeout(r, 600));
      }
      return route.continue();
    });
    await page.keyboard.press('Control+Enter');
    await page.keyboard.press('Control+Enter');

    // The contact page shows it all.
    await page.getByRole('heading', { name: 'Zoë Ångström-Núñez' }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);
    expect(id).toMatch(/^cnt_/);
    expect(creates).toBe(1);
    await page.unroute('**/api/v1/contacts');
    const saved = expectStatus(
      await api.request('GET', `/api/v1/contacts/${id}?accountId=${api.accountId}`),
      200,
    );
    expect(saved).toMatchObject({
      firstName: 'Zoë',
      lastName: 'Ångström-Núñez',
      primaryEmail: 'zoe@fjord.example',
      organization: 'Fjord Foundation',
      tags: ['board', 'volunteer'],
      phoneNumbers: [{ phoneNumber: '+1 555 0100', phoneType: 'mobile', isPrimary: false }],
      emailAddresses: [{ emailAddress: 'zoe@home.example' }],
      addresses: [{ street1: '1 Fjord Way', city: 'Bergen', country: 'Norway' }],
      education: [{ institution: 'University of Oslo', graduationYear: 2012 }],
      employment: [{ employer: 'Fjord Foundation', title: 'Director' }],
      notes: [{ content: 'Met at the spring gala.' }],
      customFields: {
        'Volunteer Interests': 'phone banking',
        'Wealth Score': 8.5,
        'Last Contacted': '2026-03-15',
        'Membership Level': 'Gold',
      },
    });
    const main = page.locator('main');
    for (const text of [
      '+1 555 0100',
      'zoe@home.example',
      'Bergen',
      'University of Oslo',
      'Director at Fjord Foundation',
      'Met at the spring gala.',
      'phone banking',
      '8.5',
      'Mar 15, 2026',
      'Gold',
      'board',
      'volunteer',
    ]) {
      await main.getByText(text, { exact: false }).first().waitFor();
    }
    expect(await main.getByText('Legacy Donor ID').count()).toBe(0);
    await main.getByText('No gifts yet.').waitFor();

    // Two gifts arrive (as from gift entry); the page shows the history and the totals.
    await makeDonation(api, id, { campaignId: campaign.id, donationAmount: 250, donationDate: '2025-05-01' });
    await makeDonation(api, id, {
      campaignId: campaign.id,
      donationAmount: 1000.5,
      donationDate: '2026-03-01',
      notes: 'gala pledge',
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Zoë Ångström-Núñez' }).waitFor();
    await main.getByText('$1,250.50').first().waitFor();
    await main.getByRole('img', { name: /Given by year/ }).waitFor();
    expect(await main.locator('.giving-table tbody tr').count()).toBe(2);
    await expectNoA11yViolations(page, 'the contact page');
    await screenshot(page, 'contacts-page');

    // Edit: Tab to Edit, change the last name and the number field, remove the phone.
    await tabTo(page, 'Edit');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /^Edit / }).waitFor();
    await tabTo(page, 'Last name');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Ångström');
    await tabTo(page, 'Wealth Score');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('9');
    await tabTo(page, 'Remove phone number 1');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedLabel(page), poll).toBe('Add phone number');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('heading', { name: 'Zoë Ångström', exact: true }).waitFor();
    const edited = expectStatus(
      await api.request('GET', `/api/v1/contacts/${id}?accountId=${api.accountId}`),
      200,
    );
    expect(edited).toMatchObject({
      lastName: 'Ångström',
      phoneNumbers: [],
      customFields: { 'Wealth Score': 9, 'Membership Level': 'Gold' },
      tags: ['board', 'volunteer'],
    });
    expect(edited.notes).toHaveLength(1);

    // Find her by an accented partial name typed without accents, from the list.
    await page.keyboard.press('Alt+2');
    await expect.poll(() => focusedLabel(page), poll).toBe('Search contacts');
    await page.keyboard.type('angst');
    const rows = page.locator('#contact-rows [role="row"]');
    await expect.poll(() => rows.count(), poll).toBe(1);
    await rows.first().getByText('Zoë Ångström').waitFor();
    await page.getByRole('status').filter({ hasText: '1 contact matches “angst”' }).waitFor();
    await expectNoA11yViolations(page, 'the contact list');
    await screenshot(page, 'contacts-list-search');
    // a search that finds nobody says so
    await page.keyboard.type('xyz');
    await page.getByText('No contact matches “angstxyz”.').waitFor();
    await screenshot(page, 'contacts-list-no-match');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
    await expect.poll(() => rows.count(), poll).toBe(1);
    // ↓ into the list, Enter opens her.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedLabel(page), poll).toBe('Zoë Ångström');
    expect(await hasFocusRing(page)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Zoë Ångström' }).waitFor();

    // Delete: the warning gives the count and sum of the gifts that go with her.
    await tabTo(page, 'Delete…');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete Zoë Ångström?' });
    await dialog.getByText('This also deletes 2 gifts totalling $1,250.50').waitFor();
    await expect.poll(() => focusedLabel(page), poll).toBe('Cancel');
    await expectNoA11yViolations(page, 'the delete confirmation');
    await screenshot(page, 'contacts-delete-confirm');
    await page.keyboard.press('Tab');
    await expect.poll(() => focusedLabel(page), poll).toBe('Delete contact and 2 gifts');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Contacts' }).waitFor();
    await page.getByText('Zoë Ångström was deleted, with 2 gifts.').waitFor();
    expect((await api.request('GET', `/api/v1/contacts/${id}?accountId=${api.accountId}`)).status).toBe(404);
    const gifts = expectStatus(await api.request('GET', `/api/v1/donations?accountId=${api.accountId}`), 200);
    expect(gifts.total).toBe(0);

    expect(problems.filter((p) => !/status of (400|404)/.test(p))).toEqual([]);
    await context.close();
  });
});

describe('100,000 contacts', () => {
  it('shows the count, pages and scrolls to the right rows in every order, and searches among them', async () => {
    const t = await startAppServer();
    let context: Awaited<ReturnType<typeof openApp>>['context'] | null = null;
    try {
      const seeded = await seedContacts(t.store, t.accountId, 100_000);
      const opened = await openApp(browser, t);
      context = opened.context;
      const { page, problems } = opened;
      await page.keyboard.press('Alt+2');
      await page.getByRole('status').filter({ hasText: '100,000 contacts' }).waitFor();
      expect(await page.getByRole('table', { name: 'Contacts' }).getAttribute('aria-rowcount')).toBe(
        '100001',
      );
      await screenshot(page, 'contacts-list-100k');

      const rowAt = async (index: number) => {
        const row = page.locator(`#contact-rows [role="row"][aria-rowindex="${index + 2}"]`);
        await row.locator('a').waitFor();
        return (await row.locator('a').textContent())?.trim();
      };
      const nameOf = (i: number, order: ReturnType<typeof expectedOrder>) =>
        `${order[i]!.firstName} ${order[i]!.lastName}`;
      /** The focused row as a user sees it: its place in the list, its name, and whether it is inside the list's visible part. */
      const focusedRow = () =>
        page.evaluate(() => {
          const row = document.activeElement?.closest('[role="row"]');
          const list = document.getElementById('contact-rows');
          if (!row || !list) return null;
          const r = row.getBoundingClientRect();
          const l = list.getBoundingClientRect();
          return {
            index: Number(row.getAttribute('aria-rowindex')) - 2,
            name: document.activeElement?.textContent?.trim() ?? '',
            visible:
              r.height > 0 &&
              r.top >= l.top - 1 &&
              r.bottom <= l.bottom + 1 &&
              r.bottom <= window.innerHeight + 1,
          };
        });

      // Every order: the first rows; then from the search box ↓ into the list and End: the very
      // last contact is focused and on screen; Home: the first again.
      const orders = [
        ['name', 'asc'],
        ['name', 'desc'],
        ['lastDonationDate', 'desc'],
        ['lastDonationDate', 'asc'],
        ['totalDonations', 'desc'],
        ['totalDonations', 'asc'],
        ['createdAt', 'desc'],
        ['createdAt', 'asc'],
      ] as const;
      for (const [by, dir] of orders) {
        await page.getByLabel('Sort by').selectOption(`${by}:${dir}`);
        const order = expectedOrder(seeded, by, dir);
        await expect.poll(() => rowAt(0), poll).toBe(nameOf(0, order));
        expect(await rowAt(5)).toBe(nameOf(5, order));
        await page.getByLabel('Search contacts').focus();
        await page.keyboard.press('ArrowDown');
        await expect.poll(focusedRow, poll).toEqual({ index: 0, name: nameOf(0, order), visible: true });
        await page.keyboard.press('End');
        await expect
          .poll(focusedRow, poll)
          .toEqual({ index: 99_999, name: nameOf(99_999, order), visible: true });
        expect(await focusedLabel(page)).toBe(nameOf(99_999, order));
        if (by === 'name' && dir === 'asc') {
          await screenshot(page, 'contacts-list-100k-end');
          // PageUp and ↑ from there, pressed at once: the focus follows, on the row it names.
          await page.keyboard.press('PageUp');
          await page.keyboard.press('ArrowUp');
          await expect.poll(async () => (await focusedRow())?.index ?? -1, poll).toBeLessThan(99_998);
          const now = (await focusedRow())!;
          expect(now.index).toBeGreaterThan(99_900);
          expect(now).toEqual({ index: now.index, name: nameOf(now.index, order), visible: true });
          // The middle, by scrolling.
          await page.locator('#contact-rows').evaluate((el) => {
            el.scrollTop = 50_000 * 52;
          });
          expect(await rowAt(50_000)).toBe(nameOf(50_000, order));
          expect(await rowAt(50_003)).toBe(nameOf(50_003, order));
          await screenshot(page, 'contacts-list-100k-middle');
          await page.getByLabel('Search contacts').focus();
          await page.keyboard.press('ArrowDown');
        }
        await page.keyboard.press('Home');
        await expect.poll(focusedRow, poll).toEqual({ index: 0, name: nameOf(0, order), visible: true });
      }

      // Total given, highest first, from the header: the amount shown is the right one.
      await page.getByRole('button', { name: 'Total given' }).click();
      const byTotal = expectedOrder(seeded, 'totalDonations', 'desc');
      await expect.poll(() => rowAt(0), poll).toBe(nameOf(0, byTotal));
      expect(
        await page
          .locator('#contact-rows [role="row"][aria-rowindex="2"] [role="cell"]')
          .last()
          .textContent(),
      ).toBe(`$${(byTotal[0]!.totalCents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
      expect(await page.getByRole('columnheader', { name: /Total given/ }).getAttribute('aria-sort')).toBe(
        'descending',
      );

      // Search among them (last gift, oldest first): the count, then the rows in order; End and
      // Enter open the last match.
      await page.getByLabel('Sort by').selectOption('lastDonationDate:asc');
      const quenn = expectedOrder(
        seeded.filter((c) => c.lastName === 'Quenneville'),
        'lastDonationDate',
        'asc',
      );
      await page.getByLabel('Search contacts').fill('quenn');
      await page
        .getByRole('status')
        .filter({ hasText: `${quenn.length.toLocaleString('en-US')} contacts match “quenn”` })
        .waitFor();
      expect(await rowAt(0)).toBe(nameOf(0, quenn));
      expect(await rowAt(3)).toBe(nameOf(3, quenn));
      expect(await page.locator('#contact-rows .is-loading').count()).toBe(0);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('End');
      const lastQuenn = quenn.length - 1;
      await expect
        .poll(focusedRow, poll)
        .toEqual({ index: lastQuenn, name: nameOf(lastQuenn, quenn), visible: true });
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: nameOf(lastQuenn, quenn) }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      // the page's keep-alive connections would hold the server's close open
      await context?.close();
      await t.close();
    }
  }, 600_000);
});
