/**
 * The Review screen in real Chromium against a real server: contribution-limit flags show
 * who, which limit, the window and the donor's total; marking reviewed, refunding (asked
 * first) and redesignating each work end to end with a note, and the API shows the result
 * (flag state, gift status or election, the gift's history). Cash gifts over $100 are listed
 * too, in gift entry's warning words. Empty state, axe, screenshots.
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

interface FlagView {
  id: string;
  donationId: string;
  contactName: string;
  state: string;
  resolutionNote: string | null;
  limitKind: string;
  donorTotal: number;
  limit: number;
}

const api = (method: string, path: string, body?: Record<string, unknown>) =>
  server.request(method, path, body === undefined ? undefined : { accountId: server.accountId, ...body });
const get = async (path: string) =>
  expectStatus(
    await server.request('GET', `${path}${path.includes('?') ? '&' : '?'}accountId=${server.accountId}`),
    200,
  );
const flags = async (): Promise<FlagView[]> => (await get('/api/v1/flags?state=all')).flagged;

let seeded = false;

/** Three donors, each over the $100 per-election limit of the "Federal" donation account (once). */
async function seedFlags(): Promise<void> {
  if (seeded) return;
  seeded = true;
  const dac = expectStatus(
    await api('POST', '/api/v1/donation-accounts', { name: 'Federal', limits: { perElection: 100 } }),
    201,
  );
  expectStatus(
    await api('POST', '/api/v1/elections', {
      electionType: 'primary',
      electionYear: 2026,
      electionDate: '2026-06-02',
    }),
    201,
  );
  expectStatus(
    await api('POST', '/api/v1/elections', {
      electionType: 'general',
      electionYear: 2026,
      electionDate: '2026-11-03',
    }),
    201,
  );
  for (const [first, last, amount] of [
    ['Ada', 'Lovelace', 150],
    ['Grace', 'Hopper', 120.5],
    ['Zoë', 'Ångström', 300],
  ] as const) {
    const c = expectStatus(await api('POST', '/api/v1/contacts', { firstName: first, lastName: last }), 201);
    expectStatus(
      await api('POST', '/api/v1/donations', {
        contactId: c.id,
        donationAmount: amount,
        donationDate: '2026-03-01',
        paymentMethod: 'check',
        donationAccountId: dac.id,
        electionType: 'primary',
        electionYear: 2026,
      }),
      201,
    );
  }
}

const card = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: new RegExp(name) }) });

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Review', () => {
  it('shows a clear empty state before any gift is flagged, and left open lists the gifts flagged since', async () => {
    const { page, context, problems } = await openApp(browser, server);
    await page.keyboard.press('Alt+3');
    await page.getByText('Nothing to review').waitFor();
    await expectNoA11yViolations(page, 'Review (empty)');
    await screenshot(page, 'review-empty');
    // Left open, it lists gifts flagged elsewhere (a station's, another window's) by itself.
    await seedFlags();
    await card(page, 'Ada Lovelace').waitFor();
    await card(page, 'Zoë Ångström').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('reviews, refunds (after asking) and redesignates flagged gifts, each with a note, and the API shows each result', async () => {
    await seedFlags();
    const { page, context, problems } = await openApp(browser, server);
    await page.keyboard.press('Alt+3');
    await card(page, 'Ada Lovelace').waitFor();
    await expect
      .poll(() => page.getByRole('list', { name: 'Flagged gifts' }).getByRole('listitem').count())
      .toBe(3);
    // who, which limit, the window, the donor's total
    const ada = card(page, 'Ada Lovelace');
    await expect
      .poll(() => ada.textContent())
      .toMatch(/per-election limit.*\$100\.00.*Federal.*Primary 2026/);
    expect(await ada.textContent()).toContain('$150.00');
    expect(await ada.textContent()).toMatch(/Over by\s*\$50\.00/);
    await expectNoA11yViolations(page, 'Review (flags)');
    await screenshot(page, 'review');

    // 1. Mark reviewed — by keyboard alone: focus the button, Enter, type the note, Enter.
    await ada.getByRole('button', { name: 'Mark reviewed…' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Mark reviewed' });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await page.keyboard.type('Spouse’s share, confirmed by phone');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' }).catch(() => undefined);
    await expect
      .poll(async () => (await flags()).find((f) => f.contactName === 'Ada Lovelace')?.state)
      .toBe('reviewed');
    const adaFlag = (await flags()).find((f) => f.contactName === 'Ada Lovelace')!;
    expect(adaFlag.resolutionNote).toBe('Spouse’s share, confirmed by phone');
    const adaHistory = (await get(`/api/v1/donations/${adaFlag.donationId}/history`)).data as Array<{
      action: string;
      note: string | null;
    }>;
    expect(adaHistory.map((h) => h.action)).toEqual(['flagged', 'reviewed']);
    expect(adaHistory[1]!.note).toBe('Spouse’s share, confirmed by phone');
    // it leaves the open list
    await expect.poll(() => card(page, 'Ada Lovelace').count()).toBe(0);

    // 2. Refund asks first: Cancel changes nothing; confirming refunds.
    const grace = card(page, 'Grace Hopper');
    await grace.getByRole('button', { name: 'Refund…' }).click();
    const ask = page.getByRole('dialog', { name: 'Refund this gift?' });
    await ask.waitFor();
    expect(await ask.textContent()).toContain('cannot be undone');
    await expectNoA11yViolations(page, 'Review (refund dialog)');
    await screenshot(page, 'review-refund-dialog');
    // the safe choice has the focus
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Enter');
    await ask.waitFor({ state: 'hidden' });
    const graceFlag = (await flags()).find((f) => f.contactName === 'Grace Hopper')!;
    expect(graceFlag.state).toBe('open');
    expect((await get(`/api/v1/donations/${graceFlag.donationId}`)).status).toBe('completed');
    await grace.getByRole('button', { name: 'Refund…' }).click();
    await ask.waitFor();
    await ask.getByLabel('Note (optional)').fill('Over the limit; check returned');
    await ask.getByRole('button', { name: 'Refund $120.50' }).click();
    await expect
      .poll(async () => (await get(`/api/v1/donations/${graceFlag.donationId}`)).status)
      .toBe('refunded');
    expect((await flags()).find((f) => f.id === graceFlag.id)).toMatchObject({
      state: 'refunded',
      resolutionNote: 'Over the limit; check returned',
    });

    // 3. Redesignate to an election on the calendar.
    const zoeFlag = (await flags()).find((f) => f.contactName === 'Zoë Ångström')!;
    const zoe = card(page, 'Zoë Ångström');
    await zoe.getByRole('button', { name: 'Redesignate…' }).click();
    const move = page.getByRole('dialog', { name: 'Redesignate to another election' });
    await move.waitFor();
    await move.getByLabel('Election on the calendar').selectOption({ label: 'General 2026 (2026-11-03)' });
    await move.getByLabel('Note (optional)').fill('Donor asked for the general');
    await move.getByRole('button', { name: 'Redesignate', exact: true }).click();
    await expect
      .poll(async () => (await flags()).find((f) => f.id === zoeFlag.id)?.state)
      .toBe('redesignated');
    expect((await flags()).find((f) => f.id === zoeFlag.id)?.resolutionNote).toBe(
      'Donor asked for the general',
    );
    const moved = await get(`/api/v1/donations/${zoeFlag.donationId}`);
    expect([moved.electionType, moved.electionYear]).toEqual(['general', 2026]);
    // $300 toward the general is over that election's $100 too: a new flag, open, in the list
    await expect.poll(() => card(page, 'Zoë Ångström').count()).toBe(1);
    await expect.poll(() => card(page, 'Zoë Ångström').textContent()).toContain('General 2026');

    // History is visible on the screen: "All" lists the resolved flags with what was done.
    await page.getByRole('button', { name: 'All, with what was done' }).click();
    const graceAll = card(page, 'Grace Hopper');
    await expect.poll(() => graceAll.textContent()).toContain('Refunded');
    expect(await graceAll.textContent()).toContain('Over the limit; check returned');
    // the redesignated flag still names the election it was raised for
    const zoeMoved = page.getByRole('listitem').filter({ hasText: 'Donor asked for the general' });
    await expect
      .poll(() => zoeMoved.textContent())
      .toMatch(/toward the Primary 2026 election.*Counts toward\s*General 2026/s);
    await graceAll.getByRole('button', { name: 'Show history' }).click();
    const hist = graceAll.getByRole('list', { name: 'History of this gift' });
    await hist.waitFor();
    await expect.poll(() => hist.getByRole('listitem').count()).toBe(2);
    expect(await hist.textContent()).toMatch(
      /Flagged over a limit.*Refunded.*Over the limit; check returned/s,
    );
    await expectNoA11yViolations(page, 'Review (all, history open)');
    await screenshot(page, 'review-all-history');
    expect(problems).toEqual([]);
    await context.close();
  });
  it('lists cash gifts over $100 to look at, in gift entry’s words: twins each, not $100 exactly, not a check, not a void; a gift corrected to a check leaves the list', async () => {
    const gala = expectStatus(await api('POST', '/api/v1/campaigns', { name: 'Spring Gala' }), 201);
    const cashGift = async (contactId: string, amount: number, paymentMethod = 'cash') =>
      expectStatus(
        await api('POST', '/api/v1/donations', {
          contactId,
          donationAmount: amount,
          donationDate: '2026-03-07',
          paymentMethod,
          campaignId: gala.id,
        }),
        201,
      );
    const person = async (firstName: string, lastName: string) =>
      expectStatus(await api('POST', '/api/v1/contacts', { firstName, lastName }), 201);
    // Three Robert Browns: $150 cash, $100 cash (at the limit, not over), $250 by check.
    const robs = [
      await person('Robert', 'Brown'),
      await person('Robert', 'Brown'),
      await person('Robert', 'Brown'),
    ];
    await cashGift(robs[0].id, 150);
    await cashGift(robs[1].id, 100);
    await cashGift(robs[2].id, 250, 'check');
    // Łukasz Żółć gave two identical $120 cash gifts; a $500 cash gift typed by mistake was voided.
    const lukasz = await person('Łukasz', 'Żółć');
    const twins = [await cashGift(lukasz.id, 120), await cashGift(lukasz.id, 120)];
    const mistake = await cashGift(lukasz.id, 500);
    expectStatus(await api('POST', `/api/v1/donations/${mistake.id}/void`, { reason: 'typed twice' }), 200);

    const { page, context, problems } = await openApp(browser, server);
    await page.keyboard.press('Alt+3');
    const cash = page.getByRole('list', { name: 'Cash gifts over $100' });
    await cash.waitFor();
    await expect
      .poll(() =>
        cash.getByRole('listitem').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))),
      )
      .toEqual([
        expect.stringMatching(/^\$120\.00 cash from Łukasz Żółć on /),
        expect.stringMatching(/^\$120\.00 cash from Łukasz Żółć on /),
        expect.stringMatching(/^\$150\.00 cash from Robert Brown on /),
      ]);
    // The same sentence gift entry shows while typing.
    for (const text of await cash.getByRole('listitem').allTextContents())
      expect(text).toContain('Spring Gala');
    for (const text of await cash.getByRole('listitem').allTextContents())
      expect(text).toContain(
        'Cash over $100: the limit for cash gifts is $100; take a check or card for the rest.',
      );
    await expect.poll(() => page.getByRole('heading', { name: 'Cash over $100 (3)' }).count()).toBe(1);
    await expectNoA11yViolations(page, 'Review (cash over $100)');
    await screenshot(page, 'review-cash');

    // One twin was a check after all: corrected, it leaves the list; the other stays.
    expectStatus(await api('PATCH', `/api/v1/donations/${twins[0].id}`, { paymentMethod: 'check' }), 200);
    await page.reload();
    await page.getByRole('heading', { name: 'Cash over $100 (2)' }).waitFor();
    expect(await cash.getByRole('listitem').count()).toBe(2);
    expect(problems).toEqual([]);
    await context.close();
  });
});
