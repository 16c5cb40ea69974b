/**
 * Settings → API keys after an afternoon of `npm start`, in real Chromium against a real
 * server: nine browser windows opened from nine printed links (eight of them closed since),
 * sessions of an earlier run that ended, a script's key and a revoked one. The keys table
 * lists the keys people made, and only those; the windows are said once, apart, and the
 * others can be ended together (their keys then refused). axe on the section and the dialog.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  openApp,
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
});
afterAll(async () => {
  await app?.context.close();
  await browser?.close();
  await server?.close();
});

type Listed = { keyId: string; label: string | null; revokedAt: string | null; session: string | null };
const listed = async (): Promise<Listed[]> =>
  (
    expectStatus(await server.request('GET', `/api/v1/api-keys?accountId=${server.accountId}`), 200) as {
      data: Listed[];
    }
  ).data;

describe('Settings → API keys after an afternoon of browser windows', () => {
  it('lists the keys people made once; the nine windows are one line, and the other eight can be ended', async () => {
    // Sessions that ended (their windows were revoked, as a server stop does): never listed again.
    for (let i = 0; i < 3; i++) {
      const k = await createApiKey(
        server.ctx,
        server.accountId,
        'browser window (until the server stops)',
        'browser',
      );
      await revokeApiKey(server.ctx, k.keyId, server.accountId);
    }
    const script = await createApiKey(server.ctx, server.accountId, 'nightly reconcile');
    const old = await createApiKey(server.ctx, server.accountId, 'old laptop');
    await revokeApiKey(server.ctx, old.keyId, server.accountId);

    // Eight windows opened from eight links over the afternoon, and closed again; the ninth stays.
    for (let i = 0; i < 8; i++) {
      const w = await openApp(browser, server, { viewport: { width: 1024, height: 700 } });
      await w.context.close();
    }
    app = await openApp(browser, server, { viewport: { width: 1280, height: 800 } });
    page = app.page;
    await page.goto(`${server.url}/#/settings/api-keys`);
    await page.getByRole('heading', { level: 2, name: 'API keys' }).waitFor();

    const table = page.getByRole('table', { name: 'Active API keys' });
    await table.waitFor();
    const rows = await table.locator('tbody tr th').allTextContents();
    expect(rows.sort()).toEqual([server.keyId, script.keyId].sort());
    expect(await table.getByText(/browser window/i).count()).toBe(0);
    expect(await page.getByText('Revoked keys (1)').count()).toBe(1);

    const windows = page.getByRole('region', { name: 'Open app windows' });
    await expect
      .poll(() => windows.locator('#app-windows-summary').textContent())
      .toMatch(/^This window and 8 other windows with a session open\./);
    await screenshot(page, 'settings-app-windows');
    await expectNoA11yViolations(page, 'Settings: API keys with open app windows');

    await windows.getByRole('button', { name: 'End the other windows’ sessions' }).click();
    const dialog = page.getByRole('dialog', { name: 'End the other 8 windows’ sessions?' });
    await dialog.waitFor();
    await expectNoA11yViolations(page, 'Settings: end the other windows dialog');
    await dialog.getByRole('button', { name: 'End sessions' }).click();
    await expect
      .poll(() => windows.locator('#app-windows-summary').textContent())
      .toMatch(/^This window only\./);

    // The API says the same: the keys people made (live and revoked), and this window's session alone.
    const after = await listed();
    expect(after.filter((k) => k.session !== null)).toHaveLength(1);
    expect(
      after
        .filter((k) => k.session === null)
        .map((k) => k.label)
        .sort(),
    ).toEqual(['nightly reconcile', 'old laptop', 'tests']);
    const ended = await server.store.db
      .selectFrom('apiKeys')
      .select(['id'])
      .where('sessionKind', '=', 'browser')
      .where('revokedAt', 'is not', null)
      .execute();
    expect(ended).toHaveLength(3 + 8);
    // This window still works.
    await page.goto(`${server.url}/#/contacts`);
    await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    expect(app.problems).toEqual([]);
  });
});
