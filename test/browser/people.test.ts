/**
 * Settings → People, in real Chromium against a real server: an administrator who signed in
 * sees "Only you so far", adds a treasurer by keyboard alone, copies the set-password link
 * shown once (and then gone from the window); the treasurer sets a password through it and
 * signs in. The administrator disables a volunteer — one of two Robert Browns — after
 * confirming, and the volunteer's open window is refused at its next request. Demoting the
 * last administrator is refused in words at the field. A treasurer is not shown People. axe on
 * the section and its dialogs.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../electron/domain/accounts/index.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  screenshot,
  startAppServer,
  type AppServer,
} from './helpers.ts';

let server: AppServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const ADMIN_PASSWORD = 'administrator password';
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  await addUser(server.ctx, {
    accountId: server.accountId,
    email: 'Lukasz.Zolc@example.org',
    name: 'Łukasz Żółć',
    role: 'administrator',
    password: ADMIN_PASSWORD,
  });
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.close();
});

/** A fresh tab (its own cookies and storage), the clipboard allowed. */
async function newTab(): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    reducedMotion: 'reduce',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  contexts.push(context);
  return context.newPage();
}

/** Signs in on the sign-in page of a fresh tab and waits for the app. */
async function signedIn(email: string, password: string): Promise<Page> {
  const page = await newTab();
  await page.goto(server.url);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  return page;
}

async function openPeople(page: Page): Promise<void> {
  await page.evaluate(() => (window.location.hash = '#/settings'));
  await page
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('link', { name: 'People' })
    .click();
  await page.getByRole('heading', { name: 'People', level: 2 }).waitFor();
}

const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.labels?.[0]?.textContent ?? el?.textContent ?? null;
  });

const rowOf = (page: Page, email: string) =>
  page.getByRole('table', { name: 'People' }).getByRole('row').filter({ hasText: email });

describe('Settings → People', () => {
  let admin: Page;

  it('an administrator adds a treasurer by keyboard; the link is shown once, copied, and lets them in', async () => {
    admin = await signedIn('lukasz.zolc@example.org', ADMIN_PASSWORD);
    await openPeople(admin);
    await admin.getByText('Only you so far.').waitFor();
    await expectNoA11yViolations(admin, 'People, only you');

    // Choosing the section put the focus in Name: the rest is typed.
    expect(await focusedLabel(admin)).toBe('Name');
    await admin.keyboard.type('Robert Brown');
    await admin.keyboard.press('Tab');
    await admin.keyboard.type('not an email');
    await admin.keyboard.press('Tab');
    await admin.keyboard.type('t'); // Treasurer, typed
    await admin.keyboard.press('Tab');
    await admin.keyboard.press('Enter');
    // The server's refusal at its field, the rest kept.
    await admin.getByText('Is not an email address.').waitFor();
    expect(await focusedLabel(admin)).toBe('Email');
    await admin.keyboard.press('Control+A');
    await admin.keyboard.type(' Robert.Brown@example.org ');
    await admin.keyboard.press('Enter');

    const dialog = admin.getByRole('dialog', { name: 'Robert Brown is added' });
    await dialog.waitFor();
    await expectNoA11yViolations(admin, 'the set-password link');
    await screenshot(admin, 'people-link-shown-once');
    const shown = await dialog.getByLabel('Set-password link').inputValue();
    expect(shown).toMatch(new RegExp(`^${server.url}/#set-password=gdp_`));
    await dialog.getByRole('button', { name: 'Copy set-password link' }).click();
    await dialog.getByText('Copied.').waitFor();
    const copied = await admin.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Back in Name for the next person; the link is nowhere in the window any more.
    expect(await focusedLabel(admin)).toBe('Name');
    const token = shown.split('#set-password=')[1]!;
    expect(await admin.content()).not.toContain(token);
    const stored = await admin.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain(token);
    const row = rowOf(admin, 'Robert.Brown@example.org');
    await expect.poll(() => row.textContent()).toContain('Treasurer');
    expect(await row.textContent()).toContain('No password yet');

    // The treasurer opens the link in a tab of their own.
    const treasurer = await newTab();
    await treasurer.goto(copied);
    await treasurer.getByRole('heading', { name: 'Set your password' }).waitFor();
    await treasurer.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await treasurer.getByLabel('The same password again').fill(PASSWORD);
    await treasurer.getByRole('button', { name: 'Set password' }).click();
    await treasurer.getByText('Your password is set. Sign in with it.').waitFor();
    await treasurer.getByLabel('Password').fill(PASSWORD);
    await treasurer.getByRole('button', { name: 'Sign in' }).click();
    await treasurer.getByRole('navigation', { name: 'Screens' }).waitFor();
    // A treasurer is not shown People.
    await treasurer.evaluate(() => (window.location.hash = '#/settings'));
    const sections = treasurer.getByRole('navigation', { name: 'Settings sections' });
    await sections.waitFor();
    // Every section is listed until the session's role is known (renderer/screens/settings/sections.tsx).
    await expect.poll(() => sections.getByRole('link', { name: 'People' }).count()).toBe(0);

    await admin.reload();
    await admin.getByRole('heading', { name: 'People', level: 2 }).waitFor();
    await expect.poll(() => rowOf(admin, 'Robert.Brown@example.org').textContent()).toContain('Active');
    expect(await rowOf(admin, 'Robert.Brown@example.org').textContent()).not.toContain('not known');
  });

  it('disabling one of two Robert Browns, after confirming, refuses their open window at its next request', async () => {
    await addUser(server.ctx, {
      accountId: server.accountId,
      email: 'robert.brown@example.com',
      name: 'Robert Brown',
      role: 'volunteer',
      password: PASSWORD,
    });
    const volunteer = await signedIn('robert.brown@example.com', PASSWORD);
    await admin.reload();
    await admin.getByRole('heading', { name: 'People', level: 2 }).waitFor();
    await rowOf(admin, 'robert.brown@example.com').waitFor();
    await screenshot(admin, 'people-list');

    // Cancel first: nothing happens.
    await admin.getByRole('button', { name: 'Disable Robert Brown (robert.brown@example.com)' }).click();
    const ask = admin.getByRole('dialog', { name: 'Disable Robert Brown?' });
    await ask.getByText('every window they have open is refused').waitFor();
    await expectNoA11yViolations(admin, 'the question before disabling');
    await admin.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    await expect.poll(() => admin.locator('dialog[open]').count()).toBe(0);
    // The volunteer is at work on Contacts meanwhile.
    await volunteer.evaluate(() => (window.location.hash = '#/contacts'));
    const search = volunteer.getByLabel('Search contacts');
    await search.waitFor();

    await admin.getByRole('button', { name: 'Disable Robert Brown (robert.brown@example.com)' }).click();
    await ask.getByRole('button', { name: 'Disable' }).click();
    await admin.getByText('Robert Brown is disabled: their open sessions have ended.').waitFor();
    await expect.poll(() => rowOf(admin, 'robert.brown@example.com').textContent()).toContain('Disabled');
    // The other Robert Brown is untouched.
    expect(await rowOf(admin, 'Robert.Brown@example.org').textContent()).toContain('Active');

    // The volunteer's next request (a search) is refused: the window says its session ended.
    await search.fill('robert');
    await volunteer.getByText(/^This window’s session has ended/).waitFor();
    await volunteer.getByLabel('Email').fill('robert.brown@example.com');
    await volunteer.getByLabel('Password').fill(PASSWORD);
    await volunteer.getByRole('button', { name: 'Sign in' }).click();
    await volunteer
      .getByRole('alert')
      .getByText(/^The email or the password is not right/)
      .waitFor();
  });

  it('demoting the last administrator is refused in words at the field, and nothing changes', async () => {
    await admin.getByRole('button', { name: 'Change role: Łukasz Żółć (Lukasz.Zolc@example.org)' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Role of Łukasz Żółć' });
    await dialog.waitFor();
    expect(await focusedLabel(admin)).toBe('Role');
    await admin.keyboard.type('v'); // Volunteer
    await admin.keyboard.press('Enter');
    await dialog
      .getByText(
        'Łukasz Żółć is the last administrator of this account: demoting them would leave no one to manage its people. Make someone else an administrator first.',
      )
      .waitFor();
    await expectNoA11yViolations(admin, 'the last administrator refused');
    await screenshot(admin, 'people-last-administrator');
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await rowOf(admin, 'Lukasz.Zolc@example.org').textContent()).toContain('Administrator');
    // Still an administrator: People is still there after a reload.
    await admin.reload();
    await admin.getByRole('heading', { name: 'People', level: 2 }).waitFor();
  });
});
