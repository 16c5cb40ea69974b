/**
 * A laptop's first start, in real Chromium against a real server with nothing on it: gift entry
 * asks what the laptop is for — host an event, join one as a gift table, or just this laptop —
 * and each answer goes where it is done (Settings → Event) or is remembered; once the laptop
 * holds a donor, the question is gone. By keyboard.
 */
import type { Browser } from 'playwright-core';
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

beforeAll(async () => {
  server = await startAppServer({ hub: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a laptop’s first start', () => {
  it('asks what the laptop is for: joining opens Settings → Event, “Just this laptop” is remembered, and a laptop with donors is not asked', async () => {
    const { page, context, problems } = await openApp(browser, server);
    try {
      const question = page.getByRole('region', { name: 'What is this laptop for?' });
      await question.waitFor();
      await expectNoA11yViolations(page, 'Gift entry on a fresh laptop');
      await screenshot(page, 'first-run');
      // Start a batch keeps the focus (a volunteer's Enter still starts one).
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Start a batch');

      // Joining as a gift table: Settings → Event, where the join form is.
      await question.getByRole('button', { name: 'Join an event as a gift table' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 2, name: 'Event' }).waitFor();
      await page.getByRole('form', { name: 'Join an event' }).waitFor();

      // Back in gift entry it still asks; "Just this laptop" answers it for good.
      await page.keyboard.press('Alt+1');
      await question.waitFor();
      await question.getByRole('button', { name: 'Just this laptop' }).focus();
      await page.keyboard.press('Enter');
      await question.waitFor({ state: 'detached' });
      await page.reload();
      await page.getByRole('button', { name: 'Start a batch' }).waitFor();
      expect(await question.count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }

    // Another window, once a donor is on the laptop: nothing to ask.
    expectStatus(
      await server.request('POST', '/api/v1/contacts', {
        accountId: server.accountId,
        firstName: 'Łukasz',
        lastName: 'Żółć',
      }),
      201,
    );
    const later = await openApp(browser, server);
    try {
      // A new window has no answer of its own remembered.
      await later.page.getByRole('button', { name: 'Start a batch' }).waitFor();
      // Every answer the question waits for has come: the event, the sync, the donors.
      await later.page.waitForLoadState('networkidle');
      expect(await later.page.getByTestId('first-run').count()).toBe(0);
    } finally {
      await later.context.close();
    }
  });
});
