/**
 * The Letters screen in real Chromium against a real server: a thank-you run of the gifts not
 * yet thanked (one already thanked is left out) — the first letter previewed, "Make letters"
 * with its progress bar (the run's progress held at the browser so it can be seen), the run's
 * figures, "Mark as sent" after a confirmation that says how many gifts it marks, exactly
 * those gifts marked — and a second not-thanked run that finds nothing says so plainly. Then
 * Settings → Letters: a political committee's wording, an edited heading in the next preview,
 * and "Reset to default".
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { letterRunLimits } from '../../electron/letters/index.ts';
import { pdfPages } from '../letters/pdf-text.ts';
import {
  expectNoA11yViolations,
  cutFirstAnswer,
  launchChromium,
  openApp,
  requestGate,
  screenshot,
  startAppServer,
  type AppServer,
} from './helpers.ts';

let server: AppServer;
let browser: Browser;
/** The gifts a not-thanked run must cover, and the one thanked before. */
const open: string[] = [];
let thankedBefore: string;

interface GiftJson {
  id: string;
  thankYouSent: boolean;
  thankYouSentDate: string | null;
}

const post = async (path: string, body: Record<string, unknown>) =>
  expectStatus(await server.request('POST', path, { accountId: server.accountId, ...body }), 201);
const get = async (path: string) =>
  expectStatus(
    await server.request('GET', `${path}${path.includes('?') ? '&' : '?'}accountId=${server.accountId}`),
    200,
  );
const gift = async (id: string): Promise<GiftJson> => (await get(`/api/v1/donations/${id}`)) as GiftJson;

const DONORS = [
  ['Łukasz', 'Żółć'],
  ['Thị Minh Khai', 'Nguyễn'],
  ['Zoë', 'Núñez'],
  ['Siobhán', "O'Brien"],
] as const;
const NAMES = DONORS.map(([f, l]) => `${f} ${l}`);

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  // The organisation's kind is chosen (a charity): the Letters screen does not ask it here.
  expectStatus(
    await server.request('PUT', '/api/v1/letters/settings', {
      accountId: server.accountId,
      orgKind: 'charity',
    }),
    200,
  );
  const gala = await post('/api/v1/campaigns', { name: 'Spring Gala' });
  const ids: string[] = [];
  for (const [firstName, lastName] of DONORS)
    ids.push((await post('/api/v1/contacts', { firstName, lastName })).id);
  const give = async (contactId: string, amount: number, date: string, extra: Record<string, unknown> = {}) =>
    (
      await post('/api/v1/donations', {
        contactId,
        donationAmount: amount,
        donationDate: date,
        paymentMethod: 'check',
        campaignId: gala.id,
        ...extra,
      })
    ).id as string;
  open.push(await give(ids[0]!, 120.5, '2026-10-02'));
  open.push(await give(ids[0]!, 30, '2026-10-20'));
  open.push(await give(ids[1]!, 75, '2026-10-05'));
  open.push(await give(ids[2]!, 19.99, '2026-10-11'));
  open.push(await give(ids[3]!, 250, '2026-10-12'));
  thankedBefore = await give(ids[3]!, 60, '2026-09-01', {
    thankYouSent: true,
    thankYouSentDate: '2026-09-05T10:00:00.000Z',
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const lettersSection = (page: Page) =>
  page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Letters' });

/**
 * The preview PDFs the page is given, read back in order: the page's requests for a preview go
 * through the browser's route, which keeps a copy of each answer it passes on.
 */
async function watchPreviews(page: Page): Promise<() => Promise<string[]>> {
  const bodies: Buffer[] = [];
  await page.route(
    (u) => u.pathname === '/api/v1/letters/preview',
    async (route) => {
      const res = await route.fetch();
      const body = await res.body();
      if (res.ok()) bodies.push(body);
      await route.fulfill({ response: res, body });
    },
  );
  return async () =>
    Promise.all(bodies.map(async (b) => (await pdfPages(new Uint8Array(b))).flat().join('\n')));
}

/** The Letters screen, year-end statements of 2026 chosen: the preview counts their 4. */
async function chooseYearEnd2026(page: Page): Promise<void> {
  await page.keyboard.press('Alt+6');
  await page.getByRole('heading', { level: 1, name: 'Letters' }).waitFor();
  await page.getByRole('radio', { name: 'Year-end statements' }).check();
  await page.getByLabel('Year', { exact: true }).selectOption('2026');
  await expect
    .poll(() => page.getByTestId('letters-preview-counts').textContent())
    .toBe('The first of 4 statements this choice would print, for 6 gifts.');
}

describe('the Letters screen', () => {
  it('makes the thank-you letters with a progress bar, marks them sent after a confirmation, and a second run finds none', async () => {
    const { page, context, problems } = await openApp(browser, server);
    try {
      const previews = await watchPreviews(page);
      await page.keyboard.press('Alt+6');
      await page.getByRole('heading', { level: 1, name: 'Letters' }).waitFor();
      // Thank-you letters are the first choice, focused, and "not yet thanked" is on.
      await expect
        .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).value))
        .toBe('thank-you');
      expect(await page.getByLabel('Only gifts not yet thanked').isChecked()).toBe(true);

      // The preview is the first letter only: one donor.
      await page.locator('iframe[title="Preview of the first letter"]').waitFor();
      await expect.poll(async () => (await previews()).length).toBeGreaterThan(0);
      const [preview] = await previews();
      expect(NAMES.filter((n) => preview!.includes(n))).toHaveLength(1);
      await expect
        .poll(() => page.getByTestId('letters-preview-counts').textContent())
        .toBe('The first of 4 letters this choice would print, for 5 gifts.');

      // Make letters, with the run's progress held at the browser: the bar shows 0 of 4.
      const progress = await requestGate(page, (u) => /\/api\/v1\/letters\/runs\/[^/]+$/.test(u.pathname), {
        method: 'GET',
      });
      progress.hold();
      await page.getByRole('button', { name: 'Make letters' }).focus();
      await page.keyboard.press('Enter');
      const bar = page.getByRole('progressbar');
      await bar.waitFor();
      expect(await bar.getAttribute('aria-valuemax')).toBe('4');
      expect(await bar.getAttribute('aria-valuetext')).toMatch(/^\d of 4$/);
      await screenshot(page, 'letters-progress');
      await progress.release();

      // Done: the run's figures, and the PDF to open, print or save.
      await page.getByRole('heading', { name: 'Ready: 4 letters' }).waitFor();
      await expect
        .poll(() => page.locator('.letters-run [role="status"]').textContent())
        .toContain('4 letters for 5 gifts, $495.49 in all. Not marked as sent yet.');
      const runs = (await get('/api/v1/letters/runs')) as {
        runs: Array<{ id: string; documents: number; gifts: number }>;
      };
      expect(runs.runs).toHaveLength(1);
      expect(runs.runs[0]).toMatchObject({ documents: 4, gifts: 5 });
      await page.getByRole('button', { name: 'Open PDF' }).focus();
      await page.keyboard.press('Enter');
      await page.locator('iframe[title^="Thank-you letters, "]').waitFor();
      // The history lists it, not yet sent.
      const historyRow = page.locator('table.letters-runs tbody tr').first();
      await expect.poll(() => historyRow.textContent()).toContain('not marked');
      await expectNoA11yViolations(page, 'Letters with a run made');
      await screenshot(page, 'letters-run-ready');

      // Mark as sent: the confirmation says how many gifts; Cancel (focused first) changes nothing.
      const thankedDate = (await gift(thankedBefore)).thankYouSentDate;
      expect(thankedDate).toBeTruthy();
      await page.locator('.letters-run').getByRole('button', { name: 'Mark as sent…' }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Mark 5 gifts as thanked?' });
      await dialog.waitFor();
      await expect
        .poll(() => dialog.textContent())
        .toContain('Each of the 5 gifts in this run (4 letters, $495.49)');
      await screenshot(page, 'letters-mark-sent');
      await page.keyboard.press('Enter'); // Cancel has the focus
      await dialog.waitFor({ state: 'detached' });
      expect((await gift(open[0]!)).thankYouSent).toBe(false);

      await page.locator('.letters-run').getByRole('button', { name: 'Mark as sent…' }).focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Mark 5 gifts as sent' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Marked as sent: 5 gifts now say' }).waitFor();
      for (const id of open) expect((await gift(id)).thankYouSent, id).toBe(true);
      expect((await gift(thankedBefore)).thankYouSentDate).toBe(thankedDate);
      await expect.poll(() => historyRow.textContent()).toContain('sent');
      await expect.poll(() => historyRow.textContent()).not.toContain('not marked');

      // Right after, the same choice again: nothing is waiting, said beside the form, and no
      // empty run is recorded or listed.
      await page.getByRole('button', { name: 'Make letters' }).focus();
      await page.keyboard.press('Enter');
      await page.locator('.letters-side').getByText('No gifts waiting for a thank-you letter').waitFor();
      expect(((await get('/api/v1/letters/runs')) as { runs: unknown[] }).runs).toHaveLength(1);
      // Leaving the choice and coming back to it: the preview speaks of what is left (nothing),
      // never of the letters the earlier answer counted.
      await page.getByLabel('Only gifts not yet thanked').uncheck();
      await page.getByTestId('letters-preview-counts').waitFor();
      await page.getByLabel('Only gifts not yet thanked').check();
      await page.locator('.letters-viewer').getByText('No gifts waiting for a thank-you letter').waitFor();
      expect(await page.getByTestId('letters-preview-counts').count()).toBe(0);

      // A second not-thanked run: nothing is waiting, said plainly, in the preview and the run.
      await page.getByLabel('Gifts from').fill('2026-01-01');
      await page.locator('.letters-viewer').getByText('No gifts waiting for a thank-you letter').waitFor();
      await page.getByRole('button', { name: 'Make letters' }).focus();
      await page.keyboard.press('Enter');
      await page.locator('.letters-side').getByText('No gifts waiting for a thank-you letter').waitFor();
      const after = (await get('/api/v1/letters/runs')) as { runs: Array<{ documents: number }> };
      expect(after.runs.map((r) => r.documents)).toEqual([4]);
      expect(await page.locator('table.letters-runs tbody tr').count()).toBe(1);
      await expectNoA11yViolations(page, 'Letters with nothing waiting');
      await screenshot(page, 'letters-nothing-waiting');
      // Year-end statements of 2026: the preview counts them, and nothing beside the form speaks
      // of the earlier choice ("No gifts in 2026" beside four statements).
      await page.getByRole('radio', { name: 'Year-end statements' }).check();
      await page.getByLabel('Year', { exact: true }).selectOption('2026');
      await expect
        .poll(() => page.getByTestId('letters-preview-counts').textContent())
        .toBe('The first of 4 statements this choice would print, for 6 gifts.');
      expect(
        await page
          .locator('.letters-side')
          .getByText(/^No gifts/)
          .count(),
      ).toBe(0);
      expect(await page.locator('.letters-side .letters-run').count()).toBe(0);
      // The one answer allowed: the preview's 404 when nothing matches (no letter to show).
      expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Settings → Letters: a political committee’s wording, an edited heading in the next preview, and reset to default', async () => {
    const { page, context, problems } = await openApp(browser, server);
    try {
      await page.keyboard.press('Alt+5');
      await lettersSection(page).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Letters', level: 2 }).waitFor();
      await page.getByLabel('Kind of organisation').selectOption('political');
      await page.getByLabel('Organisation name').fill('Friends of Ana Ruiz');
      await page.getByLabel('Signed by').fill('Ana Ruiz');
      await page.getByLabel('Organisation name').press('Enter');
      await page.getByRole('status').filter({ hasText: 'Letter settings saved' }).waitFor();
      const settings = (await get('/api/v1/letters/settings')) as {
        orgKind: string;
        organizationName: string;
      };
      expect(settings).toMatchObject({ orgKind: 'political', organizationName: 'Friends of Ana Ruiz' });

      // The thank-you letter's heading, edited and saved.
      const heading = page.getByLabel('Thank-you letter: heading');
      await heading.fill('With thanks from Friends of Ana Ruiz');
      await heading.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Thank-you letter: wording saved.' }).waitFor();
      await expectNoA11yViolations(page, 'Settings → Letters');
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, 'letters-settings');

      // The next preview uses it, and says what a political committee's letter says.
      const previews = await watchPreviews(page);
      await page.keyboard.press('Alt+6');
      await page.getByLabel('Only gifts not yet thanked').uncheck();
      await expect.poll(async () => (await previews()).length).toBeGreaterThan(0);
      const text = (await previews()).at(-1)!;
      expect(text).toContain('With thanks from Friends of Ana Ruiz');
      expect(text).toContain('not tax deductible');

      // Reset to default, after a confirmation.
      await page.keyboard.press('Alt+5');
      await lettersSection(page).click();
      await page
        .locator('form.letters-template')
        .filter({ hasText: 'Thank-you letter' })
        .getByRole('button', { name: 'Reset to default…' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Reset the thank-you letter to the default wording?' });
      await dialog.getByRole('button', { name: 'Reset to default' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Thank-you letter: back to the default wording.' })
        .waitFor();
      await expect.poll(() => page.getByLabel('Thank-you letter: heading').inputValue()).toBe('Thank you');

      // Year-end statements: the year to choose, last year first; a receipt points to gift entry.
      await page.keyboard.press('Alt+6');
      await expect
        .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).value))
        .toBe('thank-you');
      await page.keyboard.press('ArrowDown');
      await expect
        .poll(() => page.getByLabel('Year', { exact: true }).inputValue())
        .toBe(String(new Date().getFullYear() - 1));
      await expectNoA11yViolations(page, 'Letters: year-end statements');
      await page.keyboard.press('ArrowDown');
      await page.getByText('A receipt is printed for one gift, at the table').waitFor();
      expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a year-end statement for one donor: from the donor’s page, and chosen among three Robert Browns on the Letters screen', async () => {
    const year = new Date().getFullYear() - 1;
    const gala = await post('/api/v1/campaigns', { name: 'Year-end appeal' });
    const browns: string[] = [];
    for (const [email, amounts] of [
      ['rb.elm@example.org', [19.99, 19.99]],
      ['rb.oak@example.org', [50]],
      ['rb.pine@example.org', [75, 25]],
    ] as const) {
      const id = (
        await post('/api/v1/contacts', {
          firstName: 'Robert',
          lastName: 'Brown',
          emailAddresses: [{ emailAddress: email }],
        })
      ).id as string;
      browns.push(id);
      for (const amount of amounts)
        await post('/api/v1/donations', {
          contactId: id,
          donationAmount: amount,
          donationDate: `${year}-06-15`,
          paymentMethod: 'cash',
          campaignId: gala.id,
        });
    }
    const { page, context, problems } = await openApp(browser, server);
    try {
      // The donor's page: "Year-end statement" opens Letters with that donor and last year.
      await page.goto(`${server.url}/#/contacts/${browns[0]}`);
      await page.getByRole('link', { name: 'Year-end statement' }).click();
      await page.getByRole('heading', { level: 1, name: 'Letters' }).waitFor();
      expect(await page.getByRole('radio', { name: 'Year-end statements' }).isChecked()).toBe(true);
      await expect
        .poll(() => page.getByTestId('letters-donor').textContent())
        .toBe('Robert Brown · rb.elm@example.org');
      await expect
        .poll(() => page.getByTestId('letters-preview-counts').textContent())
        .toBe('The first of 1 statement this choice would print, for 2 gifts.');
      await page.getByRole('button', { name: 'Make letters' }).click();
      await page.getByRole('heading', { name: 'Ready: 1 statement' }).waitFor();
      const runs = (await get('/api/v1/letters/runs')) as {
        runs: Array<{
          kind: string;
          documents: number;
          gifts: number;
          total: number;
          choice: { contactId?: string };
        }>;
      };
      expect(runs.runs[0]).toMatchObject({ kind: 'year-end', documents: 1, gifts: 2, total: 39.98 });
      expect(runs.runs[0]!.choice.contactId).toBe(browns[0]);

      // On the Letters screen: every donor again, then another Robert Brown by keyboard.
      await page.getByRole('button', { name: 'All donors' }).click();
      const box = page.getByLabel('One donor only');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.id))
        .toBe(await box.getAttribute('id'));
      await expect
        .poll(() => page.getByTestId('letters-preview-counts').textContent())
        .toBe('The first of 3 statements this choice would print, for 5 gifts.');
      await page.keyboard.type('robert brown');
      const matches = page.getByRole('list', { name: 'Matching donors' }).getByRole('button');
      await expect.poll(() => matches.count()).toBe(3);
      const labels = await matches.allTextContents();
      expect(labels.every((l) => l.startsWith('Robert Brown · rb.'))).toBe(true);
      const pine = labels.findIndex((l) => l.includes('rb.pine@'));
      await page.keyboard.press('ArrowDown');
      for (let i = 0; i < pine; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.getByTestId('letters-donor').textContent())
        .toBe('Robert Brown · rb.pine@example.org');
      await expect
        .poll(() => page.getByTestId('letters-preview-counts').textContent())
        .toBe('The first of 1 statement this choice would print, for 2 gifts.');
      await expectNoA11yViolations(page, 'Letters: one donor’s year-end statement');
      await screenshot(page, 'letters-one-donor');
      expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a run of more letters than a part holds offers each part, with its letters and pages', async () => {
    const was = letterRunLimits.lettersPerPart;
    letterRunLimits.lettersPerPart = 3;
    const { page, context, problems } = await openApp(browser, server);
    try {
      await chooseYearEnd2026(page);
      await page.getByRole('button', { name: 'Make letters' }).click();
      await page.getByRole('heading', { name: 'Ready: 4 statements' }).waitFor();
      const parts = page.getByRole('list', { name: 'Parts' }).getByRole('listitem');
      await expect.poll(() => parts.count()).toBe(2);
      expect(await page.locator('.letters-part-label').allTextContents()).toEqual([
        'Part 1 of 2 (letters 1–3, 3 pages)',
        'Part 2 of 2 (letter 4, 1 page)',
      ]);
      await page.getByRole('button', { name: 'Open part 2 of 2' }).click();
      await page.locator('iframe[title$=", part 2 of 2"]').waitFor();
      await expectNoA11yViolations(page, 'Letters: a run in parts');
      await screenshot(page, 'letters-run-in-parts');
      expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
    } finally {
      letterRunLimits.lettersPerPart = was;
      await context.close();
    }
  });

  it('"Make letters" pressed again after its answer was lost is one run, not the same letters printed twice', async () => {
    const { page, context, problems } = await openApp(browser, server);
    try {
      const yearEndRuns = async () =>
        ((await get('/api/v1/letters/runs')) as { runs: Array<{ kind: string }> }).runs.filter(
          (r) => r.kind === 'year-end',
        ).length;
      const before = await yearEndRuns();
      await chooseYearEnd2026(page);
      // The start reaches GiftDesk and the run is made; its answer never comes back.
      const starts = await cutFirstAnswer(page, '**/api/v1/letters/runs');
      await page.getByRole('button', { name: 'Make letters' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /The letters could not be started: .*not answering/ })
        .waitFor();
      expect(await yearEndRuns()).toBe(before + 1);
      // Pressed again: the run the first try started, not a second one.
      await page.getByRole('button', { name: 'Make letters' }).click();
      await page.getByRole('heading', { name: 'Ready: 4 statements' }).waitFor();
      expect(starts.count).toBe(2);
      expect(await yearEndRuns()).toBe(before + 1);
      expect(
        problems.filter((p) => !p.includes('status of 404') && !p.includes('ERR_CONNECTION_RESET')),
      ).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
