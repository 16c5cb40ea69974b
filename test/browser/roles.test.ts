/**
 * What a role is shown, in real Chromium against a real server: a browser window whose
 * session acts as a volunteer gets Gift entry and Contacts, no Settings (so no export, keys,
 * sync or event controls), no Review, Dashboard or Letters, and no "Balance and close…" on
 * its batch; typing #/settings says the screen is not open to its role. A treasurer's window
 * gets Settings with Export CSV and Letters only. The server refuses the rest anyway
 * (test/api/route-rules.test.ts); this is what the screens keep out of the way.
 */
import type { Role } from '#shared/schemas/roles.ts';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectStatus, makeContact } from '../helpers/api-fixtures.ts';
import { launchChromium, openApp, startAppServer, type AppServer, type OpenedApp } from './helpers.ts';

let server: AppServer;
let browser: Browser;
let batchId: string;
const opened: OpenedApp[] = [];

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
  await makeContact(server, { firstName: 'Łukasz', lastName: 'Żółć' });
  batchId = expectStatus(
    await server.request('POST', '/api/v1/batches', { accountId: server.accountId, name: 'Front desk' }),
    201,
  ).id;
});
afterAll(async () => {
  for (const a of opened) await a.context.close();
  await browser?.close();
  await server?.close();
});

/** A window opened through a one-time link, its session then made to act in `role` (as a person's would). */
async function windowAs(role: Role): Promise<Page> {
  const app = await openApp(browser, server);
  opened.push(app);
  await expect.poll(() => app.page.evaluate(() => Object.keys(sessionStorage).length)).toBeGreaterThan(0);
  const live = await server.store.db
    .selectFrom('apiKeys')
    .select('id')
    .where('sessionKind', '=', 'browser')
    .where('role', '=', 'administrator')
    .where('revokedAt', 'is', null)
    .execute();
  expect(live).toHaveLength(1);
  await sql`update api_keys set role = ${role} where id = ${live[0]!.id}`.execute(server.store.db);
  // A volunteer opens only the batches they started: "Front desk" is this window's own.
  if (role === 'volunteer')
    await sql`update batches set created_by_key_id = ${live[0]!.id} where id = ${batchId}`.execute(
      server.store.db,
    );
  // Typing into the batch "Front desk", as gift entry remembers it.
  await app.page.evaluate(
    ([key, id]) => localStorage.setItem(key!, id!),
    [`giftdesk.batch.${server.accountId}`, batchId],
  );
  await app.page.reload();
  await app.page.getByRole('navigation', { name: 'Screens' }).waitFor();
  return app.page;
}

const screenLinks = (page: Page) =>
  page.getByRole('navigation', { name: 'Screens' }).getByRole('link').allTextContents();

it("shows a volunteer gift entry and contacts only, and no batch's count", async () => {
  const page = await windowAs('volunteer');
  await expect.poll(() => screenLinks(page)).toEqual(['Gift entry', 'Contacts']);
  // The batch is there to type into, without the treasurer's count.
  await page.getByTestId('batch-count').waitFor();
  expect(await page.getByRole('button', { name: 'Balance and close…' }).count()).toBe(0);
  // Contacts works for a volunteer: the donors are listed.
  await page.getByRole('link', { name: 'Contacts' }).click();
  await page.getByText('Żółć').first().waitFor();

  await page.evaluate(() => (window.location.hash = '#/settings/export'));
  await page.getByText('This screen is not open to your role.').waitFor();
  expect(await page.getByRole('button', { name: /export/i }).count()).toBe(0);
  expect(await page.getByRole('navigation', { name: 'Settings sections' }).count()).toBe(0);
});

it('shows a treasurer Settings with exports and letters, not keys, sync or the event', async () => {
  const page = await windowAs('treasurer');
  await expect
    .poll(() => screenLinks(page))
    .toEqual(['Gift entry', 'Contacts', 'Dashboard', 'Letters', 'Settings']);
  await page.getByRole('link', { name: 'Settings' }).click();
  const sections = page.getByRole('navigation', { name: 'Settings sections' });
  await sections.waitFor();
  expect(await sections.getByRole('link').allTextContents()).toEqual(['Export CSV', 'Letters']);
  await page
    .getByRole('heading', { name: /Export/ })
    .first()
    .waitFor();
});
