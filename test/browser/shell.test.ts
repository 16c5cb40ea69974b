/**
 * The app shell in real Chromium: opened through the one-time link (which then leaves the
 * address bar and cannot be used again), every screen reached by keyboard alone, no
 * serious accessibility violation, no CSP violation or console error, a screenshot of each.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, launchChromium, openApp, screenshot, startAppServer, type AppServer } from './helpers.ts';

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

describe('opening the app', () => {
  it('the link opens the app once: the token leaves the address bar, a reload stays in, the same link elsewhere is refused', async () => {
    const link = server.appLink();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    expect(page.url()).not.toContain('token');
    await expect.poll(() => page.getByText('Test Org').count()).toBe(1);
    await page.reload();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();

    const other = await browser.newContext();
    const stranger = await other.newPage();
    await stranger.goto(link);
    await stranger.getByText(/has been used already or has expired/).waitFor();
    expect(await stranger.getByRole('navigation', { name: 'Screens' }).count()).toBe(0);
    await other.close();
    await context.close();
  });
});

describe('the shell', () => {
  const screens = [
    { name: 'Gift entry', file: 'gift-entry-shell', key: '1' },
    { name: 'Contacts', file: 'contacts', key: '2' },
    { name: 'Review', file: 'review', key: '3' },
    { name: 'Dashboard', file: 'dashboard', key: '4' },
    { name: 'Settings', file: 'settings', key: '5' },
  ];

  it('every screen is reached by Tab and Enter from the navigation, has its heading focused, passes axe, and is photographed', async () => {
    const { page, context, problems } = await openApp(browser, server);
    for (const s of screens.slice(1).concat(screens[0]!)) {
      // Tab from the top of the page until the screen's link has the focus, then Enter.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      let found = false;
      for (let i = 0; i < 40 && !found; i++) {
        await page.keyboard.press('Tab');
        found = await page.evaluate((name) => document.activeElement?.tagName === 'A' && document.activeElement.textContent === name, s.name);
      }
      expect(found, `Tab reaches the ${s.name} link`).toBe(true);
      const hasRing = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle !== 'none');
      expect(hasRing, 'the focused link shows a focus ring').toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => document.querySelector('h1')?.textContent)).toBe(s.name);
      await expect.poll(() => page.getByRole('link', { name: s.name }).getAttribute('aria-current')).toBe('page');
      await expectNoSeriousA11yViolations(page, s.name);
      await screenshot(page, s.file);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Alt+1…5 jump to each screen', async () => {
    const { page, context } = await openApp(browser, server);
    for (const s of screens) {
      await page.keyboard.press(`Alt+${s.key}`);
      await expect.poll(() => page.evaluate(() => document.querySelector('h1')?.textContent)).toBe(s.name);
    }
    await context.close();
  });
});
