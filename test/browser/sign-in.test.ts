/**
 * The way in at a shared server, in real Chromium against a real server: a new person opens
 * their set-password link, sets a password, and signs in with it on the page that follows; a
 * tab opened with neither a link nor a session shows the sign-in, says so when the password
 * is wrong, and opens the app with the right one. axe on both pages.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, issuePasswordToken } from '../../electron/domain/accounts/index.ts';
import { expectNoA11yViolations, launchChromium, startAppServer, type AppServer } from './helpers.ts';

let server: AppServer;
let browser: Browser;

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('signing in in a browser', () => {
  it('a set-password link, then the sign-in with the new password, opens the app', async () => {
    const u = await addUser(server.ctx, {
      accountId: server.accountId,
      email: 'Lukasz.Zolc@example.org',
      name: 'Łukasz Żółć',
      role: 'volunteer',
    });
    const { token } = await issuePasswordToken(server.ctx, server.accountId, u.id);
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${server.url}/#set-password=${token}`);
    await page.getByRole('heading', { name: 'Set your password' }).waitFor();
    expect(page.url()).not.toContain(token);
    await expectNoA11yViolations(page, 'set-password page');
    await page.getByLabel('New password', { exact: true }).fill('correct horse battery');
    await page.getByLabel('The same password again').fill('correct horse battery');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set. Sign in with it.').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('Lukasz.Zolc@example.org');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    await context.close();
  });

  it('a tab with no link and no session shows the sign-in; a wrong password is said, the right one opens the app', async () => {
    await addUser(server.ctx, {
      accountId: server.accountId,
      email: 'robert.brown@example.org',
      name: 'Robert Brown',
      role: 'treasurer',
      password: 'robert brown password',
    });
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(server.url);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.waitFor();
    await expectNoA11yViolations(page, 'sign-in page');
    await page.getByLabel('Email').fill('ROBERT.BROWN@example.org ');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .getByText(/^The email or the password is not right/)
      .waitFor();
    await page.getByLabel('Password').fill('robert brown password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    // A reload keeps the tab's session.
    await page.reload();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    await context.close();
  });
});
