/**
 * The Settings screen in real Chromium against a real server, by keyboard: campaigns,
 * committees, donation accounts with limits, custom fields of every type (an option
 * retired, a field archived), elections and the default election, an API key created (its
 * curl line run for real) and revoked, a CSV import with bad rows followed to the end and
 * its rejected rows downloaded, an export. Every section passes axe and is photographed.
 */
import fs from 'node:fs';
import type { Browser, Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesktopSession } from '../../electron/shell/session.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  openApp,
  requestGate,
  screenshot,
  startAppServer,
  type AppServer,
  type OpenedApp,
} from './helpers.ts';

let server: AppServer;
let browser: Browser;
let app: OpenedApp;
let page: Page;

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  app = await openApp(browser, server);
  page = app.page;
});
afterAll(async () => {
  await app?.context.close();
  await browser?.close();
  await server?.close();
});

const api = async (path: string) => {
  const sep = path.includes('?') ? '&' : '?';
  const r = await server.request('GET', `/api/v1${path}${sep}accountId=${server.accountId}`);
  expect(r.status, r.text).toBe(200);
  return r.body;
};

/** Opens a Settings section the way a keyboard user does: Alt+5, then the section's link and Enter. */
async function openSection(name: string): Promise<void> {
  if (!(await page.evaluate(() => location.hash.startsWith('#/settings')))) {
    await page.keyboard.press('Alt+5');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    // arriving, the focus goes into the section shown; wait for it before moving on
    await expect
      .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('.settings-content'))))
      .toBe(true);
  }
  const link = page
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('link', { name, exact: true });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => link.getAttribute('aria-current')).toBe('page');
  await page.getByRole('heading', { level: 2, name }).waitFor();
  // the focus goes into the section (its first field, else its heading): what is typed next lands there
  await expect
    .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('.settings-content'))))
    .toBe(true);
}

/** Types into a field reached by its label (focus, select what is there, type). */
async function typeInto(field: Locator, text: string): Promise<void> {
  await field.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

async function focusedLabel(): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.labels?.[0]?.textContent ?? el?.getAttribute('aria-label') ?? el?.textContent ?? '';
  });
}

async function readDownload(d: Download): Promise<string> {
  const file = await d.path();
  return fs.readFileSync(file, 'utf8');
}

async function checkAndPhotograph(name: string): Promise<void> {
  await expectNoA11yViolations(page, `Settings: ${name}`);
  // Notices from earlier steps would cover the picture (the pointer resting on them keeps them).
  await page.mouse.move(0, 0);
  await page.evaluate(() =>
    document.querySelectorAll<HTMLButtonElement>('.toasts .toast-close').forEach((b) => b.click()),
  );
  await page.locator('.toasts .toast').first().waitFor({ state: 'detached' });
  await screenshot(page, `settings-${name}`);
}

describe('Settings', () => {
  it('shows an empty state in every list of a new organisation', async () => {
    await openSection('Campaigns');
    await page.getByText('No campaigns yet.').waitFor();
    await checkAndPhotograph('campaigns-empty');
    await openSection('Committees');
    await page.getByText('No committees yet.').waitFor();
    await openSection('Custom fields');
    await page.getByText('No custom fields yet.').waitFor();
    // the section list: Up and Down walk it, wrapping around
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    await nav.getByRole('link', { name: 'Campaigns' }).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedLabel()).toBe('Committees');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => focusedLabel()).toBe('Sync');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Sync' }).waitFor();
  });

  it('donation accounts: one is added with limits by keyboard; a bad limit is shown at its field and nothing typed is lost', async () => {
    await openSection('Donation accounts & limits');
    await expect.poll(() => focusedLabel()).toBe('Account name'); // the section's first field has the focus
    await page.keyboard.type('Federal PAC');
    await typeInto(page.getByLabel('Per election'), '3,300');
    await typeInto(page.getByLabel('Per calendar year'), 'lots');
    await page.keyboard.press('Enter');
    await page.getByText('Must be a number.').waitFor();
    expect(await page.getByLabel('Account name').inputValue()).toBe('Federal PAC');
    await expect.poll(() => page.getByLabel('Per calendar year').getAttribute('aria-invalid')).toBe('true');
    await typeInto(page.getByLabel('Per calendar year'), '10000.50');
    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /Federal PAC/ }).waitFor();
    expect(await page.getByRole('row', { name: /Federal PAC/ }).textContent()).toContain('$3,300.00');

    const { data } = await api('/donation-accounts');
    expect(data).toEqual([
      expect.objectContaining({
        name: 'Federal PAC',
        limits: { perElection: 3300, perCycle: null, perYear: 10000.5, perDonor: null },
      }),
    ]);
    // the form is empty again, ready for the next one
    await expect.poll(() => page.getByLabel('Account name').inputValue()).toBe('');

    // a duplicate name is refused at the field before anything is sent
    await typeInto(page.getByLabel('Account name'), 'federal pac');
    await page.keyboard.press('Enter');
    await page.getByText('A donation account with this name already exists.').waitFor();
    expect((await api('/donation-accounts')).data).toHaveLength(1);

    // edit: clear one limit, set another
    await page.getByRole('button', { name: 'Edit Federal PAC' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /Edit donation account/ });
    await dialog.waitFor();
    await typeInto(dialog.getByLabel('Per election'), '');
    await page.keyboard.press('Backspace');
    await typeInto(dialog.getByLabel('Per donor, lifetime'), '25000');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await api('/donation-accounts')).data[0].limits)
      .toEqual({ perElection: null, perCycle: null, perYear: 10000.5, perDonor: 25000 });
    await checkAndPhotograph('donation-accounts');
  });

  it('campaigns: one is added offering the donation account, by keyboard; then renamed', async () => {
    // A fresh start elsewhere, so the donation accounts are not known yet when Campaigns opens:
    // while they load, the form must not say there are none (it did, for a moment).
    await page.evaluate(() => {
      location.hash = '#/dashboard';
    });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { sawNoAccounts: boolean };
      w.sawNoAccounts = false;
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes)
            if (n.textContent?.includes('No donation accounts yet')) w.sawNoAccounts = true;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await openSection('Campaigns');
    await page.getByRole('checkbox', { name: 'Federal PAC' }).waitFor();
    expect(
      await page.evaluate(() => (window as unknown as { sawNoAccounts: boolean }).sawNoAccounts),
      '"No donation accounts yet" shown while they were loading',
    ).toBe(false);
    await expect.poll(() => focusedLabel()).toBe('Campaign name');
    await page.keyboard.type('Spring Gala');
    await page.getByRole('checkbox', { name: 'Federal PAC' }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Add campaign' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /Spring Gala/ }).waitFor();
    const [gala] = (await api('/campaigns')).data;
    expect(gala).toMatchObject({ name: 'Spring Gala', donationAccounts: [{ name: 'Federal PAC' }] });

    // an empty name: the message is at the field, the request never leaves
    await page.getByLabel('Campaign name').focus();
    await page.keyboard.press('Enter');
    await page.getByText('Must not be empty.').waitFor();
    await expect.poll(() => page.getByLabel('Campaign name').getAttribute('aria-invalid')).toBe('true');

    await page.getByRole('button', { name: 'Edit Spring Gala' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /Edit campaign/ });
    await typeInto(dialog.getByLabel('Campaign name'), 'Spring Gala 2026');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Spring Gala 2026/ }).waitFor();
    expect((await api('/campaigns')).data.map((c: { name: string }) => c.name)).toEqual(['Spring Gala 2026']);
    await checkAndPhotograph('campaigns');
  });

  it('committees: one is added and renamed', async () => {
    await openSection('Committees');
    await expect.poll(() => focusedLabel()).toBe('Committee name');
    await page.keyboard.type('Host Committee');
    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /Host Committee/ }).waitFor();
    expect((await api('/committees')).data).toEqual([expect.objectContaining({ name: 'Host Committee' })]);
    await expect.poll(() => focusedLabel()).toBe('Committee name'); // ready for the next one
    await page.getByRole('button', { name: 'Rename Host Committee' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /Rename committee/ });
    await typeInto(dialog.getByLabel('Committee name'), 'Hosts');
    // the rename says it is done, as every other save in Settings does (watched from before Enter)
    const saved = page.getByText('Committee “Hosts” saved.').waitFor();
    await page.keyboard.press('Enter');
    await saved;
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Hosts/ }).waitFor();
    expect((await api('/committees')).data.map((c: { name: string }) => c.name)).toEqual(['Hosts']);
    await checkAndPhotograph('committees');
  });

  it('custom fields: one of each type; a pick-list option added and retired; a field archived, with undo', async () => {
    await openSection('Custom fields');
    for (const [name, type] of [
      ['Nickname', 'Text'],
      ['Score', 'Number'],
      ['Member Since', 'Date'],
    ] as const) {
      await typeInto(page.getByLabel('Field name'), name);
      await page.getByLabel('Type').selectOption({ label: type });
      await page.getByLabel('Field name').focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 3, name }).waitFor();
    }
    await typeInto(page.getByLabel('Field name'), 'Donor Tier');
    await page.getByLabel('Type').selectOption('picklist');
    // a pick list without options: the server's message appears at the options box
    await page.getByRole('button', { name: 'Add field' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('A pick list needs at least one option.').waitFor();
    expect(await page.getByLabel('Field name').inputValue()).toBe('Donor Tier');
    await page.getByLabel('Options, one per line').focus();
    await page.keyboard.type('Bronze');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Silver');
    await page.getByRole('button', { name: 'Add field' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 3, name: 'Donor Tier' }).waitFor();

    await typeInto(page.getByLabel('New option for Donor Tier'), 'Gold');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Options of Donor Tier' }).getByText('Gold').waitFor();
    await page.getByRole('button', { name: 'Retire Bronze' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Offer again: Bronze' }).waitFor();

    await page.getByRole('button', { name: 'Archive Nickname' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Archived fields (1)').waitFor();
    const fields = (await api('/custom-fields')).data as Array<{
      name: string;
      type: string;
      archived: boolean;
      options: Array<{ name: string; retired: boolean }>;
    }>;
    expect(fields.map((f) => [f.name, f.type, f.archived])).toEqual([
      ['Nickname', 'text', true],
      ['Score', 'number', false],
      ['Member Since', 'date', false],
      ['Donor Tier', 'picklist', false],
    ]);
    expect(fields[3]!.options.map((o) => [o.name, o.retired])).toEqual([
      ['Bronze', true],
      ['Silver', false],
      ['Gold', false],
    ]);

    // an archived field keeps its name: a new one may not take it, refused at the field before sending
    await typeInto(page.getByLabel('Field name'), 'nickname');
    await page.getByLabel('Field name').press('Enter');
    await page.getByText('A custom field with this name already exists.').waitFor();
    expect(await page.getByLabel('Field name').getAttribute('aria-invalid')).toBe('true');
    expect((await api('/custom-fields')).data).toHaveLength(4);

    // the toast's Undo brings the archived field back
    await page.getByRole('button', { name: 'Undo' }).last().click();
    await expect
      .poll(async () => ((await api('/custom-fields')).data as typeof fields)[0]!.archived)
      .toBe(false);
    await page.getByText('Archived fields (1)').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Archive Nickname' }).click();
    await page.getByText('Archived fields (1)').waitFor();
    await page.getByText('Archived fields (1)').click(); // open it for the picture
    await checkAndPhotograph('custom-fields');
  });

  it('elections: two are added; one is made the default by keyboard; a duplicate is refused at its field', async () => {
    await openSection('Elections');
    await page
      .getByText('None: gifts count toward the next election on the calendar.', { exact: false })
      .waitFor();
    await page.getByLabel('Type').selectOption('primary');
    await page.getByLabel('Election day').focus();
    await page.keyboard.type('06022026');
    expect(await page.getByLabel('Year').inputValue()).toBe('2026'); // the year follows the day
    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /Primary 2026/ }).waitFor();
    // Saved, the form is ready for the next one: the focus back on its first field once the
    // lists (the calendar and the default election) are refreshed, which may come after the row.
    await expect.poll(() => focusedLabel()).toBe('Type');

    await page.getByLabel('Type').selectOption('general');
    await page.getByLabel('Election day').focus();
    await page.keyboard.type('11032026');
    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /General 2026/ }).waitFor();
    await expect.poll(() => focusedLabel()).toBe('Type');

    await page.getByRole('button', { name: 'Make default: General 2026' }).focus();
    await page.keyboard.press('Enter');
    await page
      .getByRole('row', { name: /General 2026/ })
      .getByText('Default')
      .waitFor();
    expect((await api('/account')).defaultElection).toEqual({ electionType: 'general', electionYear: 2026 });

    await page.getByLabel('Type').selectOption('general');
    await page.getByLabel('Election day').focus();
    await page.keyboard.type('11102026');
    await page.keyboard.press('Enter');
    await page.getByText('Already exists for that year.').waitFor();
    expect((await api('/elections')).data).toHaveLength(2);
    await checkAndPhotograph('elections');
  });

  it('elections: a save refreshed slowly leaves the focus where the user went meanwhile', async () => {
    await openSection('Elections');
    // The refresh of the default election after the save is held: a slow laptop, a fast
    // volunteer already on the next election when the saved one's refresh ends.
    const account = await requestGate(page, '**/api/v1/account**', { method: 'GET' });
    account.hold();
    await page.getByLabel('Type').selectOption('runoff');
    await page.getByLabel('Election day').focus();
    await page.keyboard.type('12012026');
    await page.getByLabel('Make it the default election').check();
    await page.getByLabel('Election day').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /Runoff 2026/ }).waitFor();

    await page.getByLabel('Type').selectOption('special');
    await page.getByLabel('Type').focus();
    await page.keyboard.press('Tab'); // into the day's first part (month)
    await page.keyboard.type('0315');
    await account.release();
    // The refresh is done once the default election shown is the new one.
    await page.locator('.settings-default-election').getByText('Runoff 2026').waitFor();
    await page.keyboard.type('2027');
    await page.keyboard.press('Enter');
    await page.getByRole('row', { name: /Special 2027/ }).waitFor();
    const elections = (await api('/elections')).data as Array<{ electionType: string; electionDate: string }>;
    expect(elections.map((e) => `${e.electionType} ${e.electionDate}`)).toContain('special 2027-03-15');
    expect((await api('/account')).defaultElection).toEqual({ electionType: 'runoff', electionYear: 2026 });
  });

  it('API keys in a browser window: no key can be created there; the screen says where keys are made', async () => {
    await openSection('API keys');
    await page.getByText('This window').waitFor();
    const notice = page.locator('#api-keys-browser-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`giftdesk key create --account ${server.accountId}`);
    expect(await page.getByLabel('What it is for').count()).toBe(0);
    await expectNoA11yViolations(page, 'Settings: API keys in a browser window');
  });

  it('API keys (desktop window): a key is created, its curl line works against this server, the key is revoked after a confirmation and stops working', async () => {
    // The desktop app's window: its session comes through the preload bridge (a desktop key).
    const desktop = await openDesktopSession(server.ctx, server.url);
    const context = await browser.newContext({
      viewport: { width: 1366, height: 900 },
      reducedMotion: 'reduce',
    });
    await context.addInitScript((s) => {
      (window as unknown as { giftdesk: unknown }).giftdesk = { session: async () => s };
    }, desktop);
    const browserPage = page;
    page = await context.newPage();
    try {
      await page.goto(server.url);
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      await apiKeysInTheDesktopWindow();
    } finally {
      await context.close();
      page = browserPage;
    }
  });

  async function apiKeysInTheDesktopWindow(): Promise<void> {
    await openSection('API keys');
    // the window's own key is marked and offers no revoke
    await page.getByText('This window').waitFor();
    await expect.poll(() => focusedLabel()).toBe('What it is for');
    await page.keyboard.type('nightly reconcile');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    await dialog.waitFor();
    const secret = await dialog.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^gds_/);
    const curl = await dialog.getByLabel('curl example').inputValue();
    await dialog.getByRole('button', { name: 'Copy secret' }).click();
    await dialog.getByText(/Copied\.|Select it and press Ctrl\+C\./).waitFor();
    await screenshot(page, 'settings-api-key-created');
    await expectNoA11yViolations(page, 'Settings: new API key dialog');

    // Run the curl line as a shell would: its URL and headers.
    const parts = [...curl.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
    const [url, ...headers] = parts;
    expect(url).toBe(`${server.url}/api/v1/contacts?accountId=${server.accountId}&limit=5`);
    const headerObj = Object.fromEntries(
      headers.map((h) => [h.slice(0, h.indexOf(':')), h.slice(h.indexOf(':') + 1).trim()]),
    );
    expect(headerObj.Authorization).toBe(`Bearer ${secret}`);
    const ok = await fetch(url!, { headers: headerObj });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ data: [], total: 0 });

    await dialog.getByRole('button', { name: 'I have copied it' }).click();
    await dialog.waitFor({ state: 'detached' });
    // the list never shows the secret
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Revoke nightly reconcile' }).focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: /Revoke “nightly reconcile”/ });
    await confirm.waitFor();
    await expect.poll(() => focusedLabel()).toBe('Cancel'); // the safe choice has the focus
    await screenshot(page, 'settings-api-key-revoke');
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('Revoked keys (1)').waitFor();
    const refused = await fetch(url!, { headers: headerObj });
    expect(refused.status).toBe(401);
    await checkAndPhotograph('api-keys');
  }

  it('import: a CSV with bad rows runs to the end with a progress bar; the rejected rows download as CSV', async () => {
    await openSection('Import CSV');
    // Before any file is sent, the screen says what a re-run without externalId does.
    const rerun = page.locator('#import-rerun-notice');
    await rerun.waitFor();
    expect(await rerun.textContent()).toMatch(/without an externalId are added again.*duplicate/);
    const rows = ['externalId,firstName,lastName,primaryEmail'];
    for (let i = 1; i <= 400; i++)
      rows.push(`imp-${i},Guest${i},Tester${i},${i === 50 ? 'not-an-email' : `guest${i}@example.org`}`);
    rows.push('imp-bad,,NoFirstName,');
    await page.getByLabel('The file holds').selectOption('contacts');
    await page.getByLabel('CSV file').setInputFiles({
      name: 'guests.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${rows.join('\n')}\n`),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).focus();
    await page.keyboard.press('Enter');

    const bar = page.getByRole('progressbar');
    await page.getByRole('heading', { name: 'Import finished' }).waitFor();
    await expect.poll(() => bar.getAttribute('aria-valuenow')).toBe('401');
    await expect.poll(() => bar.getAttribute('aria-valuemax')).toBe('401');
    await page.getByText('401 of 401 rows').waitFor();
    await page.getByText('399 imported, 2 rejected.').waitFor();
    await checkAndPhotograph('import-finished');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the 2 rejected rows (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('giftdesk-contacts-rejected-rows.csv');
    const text = await readDownload(download);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('row,reason');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['51', '402']);
    expect(lines[1]).toContain('primaryEmail');
    expect((await api('/account')).contacts).toBe(399);

    // a file with a column GiftDesk does not know is refused at the file field, whole
    await page.getByLabel('CSV file').setInputFiles({
      name: 'odd.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('firstName,shoeSize\nA,9\n'),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText(/unknown column "shoeSize"/).waitFor();
    await expect.poll(() => page.getByLabel('CSV file').getAttribute('aria-invalid')).toBe('true');
    expect((await api('/account')).contacts).toBe(399);
  });

  it('export: contacts download as CSV in the import columns, every imported contact in it', async () => {
    await openSection('Export CSV');
    await page.getByText('399 contacts').waitFor();
    const button = page.getByRole('button', { name: 'Export contacts (CSV)' });
    await expect.poll(() => focusedLabel()).toBe('Export contacts (CSV)');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/^giftdesk-contacts-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readDownload(download)).trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^externalId,/);
    expect(lines).toHaveLength(400);
    expect(lines.filter((l) => l.startsWith('imp-'))).toHaveLength(399);
    await button.waitFor();
    await page.getByText(/^Saved giftdesk-contacts-/).waitFor();
    await checkAndPhotograph('export');
  });

  it('import: the same file without externalId chosen again is asked about before its rows go in twice', async () => {
    await openSection('Import CSV');
    const before = (await api('/account')).contacts as number;
    // A door list with no reference column: a Robert Brown and Łukasz Żółć.
    const doorList = {
      name: 'door-list.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'firstName,lastName,primaryEmail\nRobert,Brown,rb.door@example.org\nŁukasz,Żółć,lz.door@example.org\n',
      ),
    };
    const importIt = async () => {
      await page.getByLabel('The file holds').selectOption('contacts');
      await page.getByLabel('CSV file').setInputFiles(doorList);
      await page.getByRole('button', { name: 'Import', exact: true }).click();
    };
    await importIt();
    await page.getByText('2 imported, 0 rejected.').waitFor();
    await expect.poll(async () => (await api('/account')).contacts).toBe(before + 2);

    // The same file again: asked, with when it went in and what it added; nothing added yet.
    await importIt();
    const ask = page.getByRole('alertdialog', { name: 'This file was imported before' });
    await ask.waitFor();
    // When it went in, in the user's own time zone and words (the server says it in UTC).
    const { createdAt } = await server.store.db
      .selectFrom('imports')
      .select('createdAt')
      .where('accountId', '=', server.accountId)
      .where('kind', '=', 'contacts')
      .orderBy('createdAt', 'desc')
      .executeTakeFirstOrThrow();
    const local = await page.evaluate(
      (at) =>
        new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)),
      createdAt,
    );
    expect(await ask.textContent()).toContain(`was imported on ${local} (2 rows added)`);
    expect(await ask.textContent()).toMatch(/second time/);
    await expect.poll(() => focusedLabel()).toBe('Do not import it');
    await checkAndPhotograph('import-asked-again');
    await page.keyboard.press('Enter');
    await ask.waitFor({ state: 'detached' });
    expect((await api('/account')).contacts).toBe(before + 2);

    // Asked again, and this time imported anyway: its rows go in a second time, as asked.
    await importIt();
    await ask.getByRole('button', { name: 'Import it again anyway' }).click();
    await ask.waitFor({ state: 'detached' });
    await expect.poll(async () => (await api('/account')).contacts).toBe(before + 4);
  });

  it('left no console error, page error or CSP violation behind (but the refusals the tests asked for)', () => {
    expect(
      app.problems.filter(
        (p) => !/Failed to load resource: the server responded with a status of 40[09]/.test(p),
      ),
    ).toEqual([]);
  });
});
