/**
 * The app shell in real Chromium: opened through the one-time link (which then leaves the
 * address bar and cannot be used again), every screen reached by keyboard alone, no
 * serious accessibility violation, no CSP violation or console error, a screenshot of each.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
        found = await page.evaluate(
          (name) => document.activeElement?.tagName === 'A' && document.activeElement.textContent === name,
          s.name,
        );
      }
      expect(found, `Tab reaches the ${s.name} link`).toBe(true);
      const hasRing = await page.evaluate(
        () => getComputedStyle(document.activeElement!).outlineStyle !== 'none',
      );
      expect(hasRing, 'the focused link shows a focus ring').toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => document.querySelector('h1')?.textContent)).toBe(s.name);
      await expect
        .poll(() => page.getByRole('link', { name: s.name }).getAttribute('aria-current'))
        .toBe('page');
      await expectNoA11yViolations(page, s.name);
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

  it('keys typed right after Alt+N land in the new screen, not where the focus was', async () => {
    const { page, context, problems } = await openApp(browser, server);
    const value = (label: string) => page.getByLabel(label, { exact: true }).inputValue();
    const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
    const cdp = await context.newCDPSession(page);
    /**
     * Alt+digit, then keys, the way a fast typist's keys arrive: all queued at once, with no
     * round trip (and so, often, no animation frame) between them. Each key is still a
     * separate trusted key event, handled in order.
     */
    const altThenKeys = async (digit: string, keys: string[]) => {
      type Key = { key: string; code: string; keyCode: number; text?: string };
      const keyOf = (k: string): Key =>
        k === 'Enter'
          ? { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' }
          : k === 'Escape'
            ? { key: 'Escape', code: 'Escape', keyCode: 27 }
            : k === ' '
              ? { key: ' ', code: 'Space', keyCode: 32, text: ' ' }
              : { key: k, code: `Key${k.toUpperCase()}`, keyCode: k.toUpperCase().charCodeAt(0), text: k };
      const events: Array<Record<string, unknown>> = [
        { type: 'rawKeyDown', key: 'Alt', code: 'AltLeft', windowsVirtualKeyCode: 18, modifiers: 1 },
        {
          type: 'rawKeyDown',
          key: digit,
          code: `Digit${digit}`,
          windowsVirtualKeyCode: digit.charCodeAt(0),
          modifiers: 1,
        },
        {
          type: 'keyUp',
          key: digit,
          code: `Digit${digit}`,
          windowsVirtualKeyCode: digit.charCodeAt(0),
          modifiers: 1,
        },
        { type: 'keyUp', key: 'Alt', code: 'AltLeft', windowsVirtualKeyCode: 18, modifiers: 0 },
      ];
      for (const k of keys.map(keyOf)) {
        const base = { key: k.key, code: k.code, windowsVirtualKeyCode: k.keyCode };
        events.push(
          k.text
            ? { type: 'keyDown', ...base, text: k.text, unmodifiedText: k.text }
            : { type: 'rawKeyDown', ...base },
          { type: 'keyUp', ...base },
        );
      }
      await Promise.all(events.map((e) => cdp.send('Input.dispatchKeyEvent', e as never)));
    };

    // Contacts: the search box has the focus inside the keystroke; what follows is searched for.
    await altThenKeys('2', [...'zoe']);
    await expect.poll(() => value('Search contacts')).toBe('zoe');
    expect(await focusedId()).toBe('contact-search');

    // From the search box (focus in a field of the screen left) to Settings: its first field.
    await altThenKeys('5', [...'Spring Gala']);
    await expect.poll(() => value('Campaign name')).toBe('Spring Gala');

    // Back to Contacts from that field: the search box again (emptied by Escape), not the old field.
    await altThenKeys('2', ['Escape', ...'adams']);
    await expect.poll(() => value('Search contacts')).toBe('adams');

    // Review and Dashboard: their heading, so Tab goes on from the top of the screen.
    for (const [key, name] of [
      ['3', 'Review'],
      ['4', 'Dashboard'],
    ] as const) {
      await altThenKeys(key, []);
      await expect
        .poll(() =>
          page.evaluate(() =>
            document.activeElement?.id === 'screen-title' ? document.activeElement.textContent : '',
          ),
        )
        .toBe(name);
    }

    // Gift entry with no batch: Enter at once presses "Start a batch".
    await altThenKeys('1', ['Enter']);
    await page.getByRole('dialog', { name: 'Start a batch' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
