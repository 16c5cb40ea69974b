/**
 * Settings → Sync speaks a coordinator's words and never contradicts the status, in real
 * Chromium against a real server running the sync scheduler, with HQ where it cannot be
 * reached: first at a port no web address may use (127.0.0.1:6000), then at a closed port.
 * - The connection's problem is said once, at the top, with what to check — not against each
 *   donor's record (Priyanka Venkataraman's contact search, the Robert Browns, Łukasz Żółć).
 * - "Sync now" after a long outage, every record backing off: it tries at once, and says how
 *   many changes wait, why and when they go next — never "HQ is up to date".
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncRunResult, SyncStatus } from '#shared/schemas/sync.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { ensureItem } from '../../electron/sync/outbox/items.ts';
import { expectStatus, makeContact, makeDonation } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testKeys } from '../sync/rig.ts';
import {
  expectNoA11yViolations,
  freePort,
  launchChromium,
  openApp,
  screenshot,
  startAppServer,
  type AppServer,
  type OpenedApp,
} from './helpers.ts';

let local: AppServer;
let hq: TestServer;
let hqKey: { accountId: string; keyId: string; secret: string };
let browser: Browser;
let app: OpenedApp;
let page: Page;
const poll = { timeout: 60_000, interval: 300 };

beforeAll(async () => {
  hq = await startTestServer();
  hqKey = await hq.otherAccount();
  local = await startAppServer({ sync: { keys: testKeys, run: true } });
  const hqCampaign = await createCampaign(hq.ctx, { accountId: hqKey.accountId, name: 'Spring Gala' });
  const campaignId = (await createCampaign(local.ctx, { accountId: local.accountId, name: 'Spring Gala' }))
    .id;
  await local.store.write((trx) =>
    linkRemote(trx, {
      accountId: local.accountId,
      entityType: 'campaign',
      localId: campaignId,
      remoteId: hqCampaign.id,
      source: 'manual',
      at: new Date().toISOString(),
    }),
  );
  // The evening's entry: a donor with an email (the email match searches HQ for her first),
  // three Robert Browns, a name typed with its accents, twin gifts of $19.99 cash.
  const priyanka = await makeContact(local, {
    firstName: 'Priyanka',
    lastName: 'Venkataraman',
    email: 'priyanka.v@example.org',
  });
  const robs = [
    await makeContact(local, { firstName: 'Robert', lastName: 'Brown' }),
    await makeContact(local, { firstName: 'Robert', lastName: 'Brown', email: 'rbrown@example.org' }),
    await makeContact(local, { firstName: 'Robert', lastName: 'Brown' }),
  ];
  const lukasz = await makeContact(local, { firstName: 'Łukasz', lastName: 'Żółć' });
  for (const c of [priyanka, robs[0]!, lukasz, lukasz])
    await makeDonation(local, c.id, {
      donationAmount: 19.99,
      paymentMethod: 'cash',
      donationDate: '2026-03-07',
      campaignId,
    });
  browser = await launchChromium();
  app = await openApp(browser, local);
  page = app.page;
});
afterAll(async () => {
  await app?.context.close();
  await browser?.close();
  await local?.close();
  await hq?.close();
});

async function saveSettings(baseUrl: string): Promise<void> {
  expectStatus(
    await local.request('PUT', '/api/v1/sync/settings', {
      accountId: local.accountId,
      baseUrl,
      keyId: hqKey.keyId,
      secret: hqKey.secret,
      remoteAccountId: hqKey.accountId,
      scheduleSeconds: 86_400,
    }),
    200,
  );
}

async function apiStatus(): Promise<SyncStatus> {
  return SyncStatus.parse(
    expectStatus(await local.request('GET', `/api/v1/sync/status?accountId=${local.accountId}`), 200),
  );
}

async function openSyncSettings(): Promise<void> {
  await page.goto(`${local.url}/#/settings/sync`);
  await page.getByRole('heading', { level: 2, name: 'Sync' }).waitFor();
  await page.getByTestId('sync-waiting').waitFor();
}

const panel = () => page.locator('[aria-labelledby="sync-status-title"]');

describe('Settings → Sync in a coordinator’s words', () => {
  it('HQ at a port no web address may use: said once at the top with what to check, not against each donor', async () => {
    await saveSettings('http://127.0.0.1:6000');
    // Passes until records have failed three times and more (the panel lists such records).
    await expect
      .poll(async () => {
        expectStatus(await local.request('POST', '/api/v1/sync/run', { accountId: local.accountId }), 200);
        return (await apiStatus()).failing.length;
      }, poll)
      .toBeGreaterThan(0);
    const s = await apiStatus();
    expect(s.connection.state).toBe('never');
    const sentence =
      "GiftDesk cannot reach HQ at http://127.0.0.1:6000: the address's port (6000) is not valid for a web address (it is reserved for other services). Check the HQ address in the sync settings.";

    await openSyncSettings();
    await page.getByText('HQ last answered:').waitFor();
    const text = (await panel().textContent()) ?? '';
    // Once, and in plain words: no network jargon, no record blamed for it.
    expect(text.split('GiftDesk cannot reach HQ').length - 1).toBe(1);
    expect(text).not.toMatch(/bad port|other:|contact search failed|could not reach HQ \(/);
    expect(await panel().locator('.sync-failing-title').count()).toBe(0);
    for (const f of s.failing) expect(text).not.toContain(f.label);
    expect(await page.getByTestId('sync-problem').textContent()).toBe(sentence);
    expect(s.connection.lastFailure).toBe(sentence);
    expect(await page.getByTestId('sync-badge').textContent()).toMatch(/^Never reached HQ · \d+ waiting/);
    await expectNoA11yViolations(page, 'Settings → Sync (HQ address with a bad port)');
    await screenshot(page, 'sync-words-bad-port');
  }, 120_000);

  it('Sync now after a long outage (every record backing off): tries at once and says what waits, why and when next', async () => {
    await saveSettings(`http://127.0.0.1:${await freePort()}`);
    // A long outage: every record with changes to go backs off for ten minutes.
    const later = new Date(Date.now() + 10 * 60_000).toISOString();
    await local.store.write(async (trx) => {
      const pending = await trx
        .selectFrom('changeLog')
        .select(['entityType', 'entityId'])
        .distinct()
        .where('accountId', '=', local.accountId)
        .where('push', '=', 1)
        .where('syncedAt', 'is', null)
        .where('entityType', 'in', ['contact', 'donation'])
        .execute();
      for (const p of pending) {
        const entityType = p.entityType === 'contact' ? 'contact' : 'donation';
        await ensureItem(trx, {
          entityType,
          entityId: p.entityId,
          accountId: local.accountId,
          laneId: p.entityId,
          at: new Date().toISOString(),
        });
        await trx
          .updateTable('syncItems')
          .set({ failures: 6, nextTryAt: later })
          .where('entityType', '=', entityType)
          .where('entityId', '=', p.entityId)
          .execute();
      }
    });
    const before = await apiStatus();
    expect(before.waiting).toBe(9); // 5 contacts, 4 gifts
    expect(before.nextTryAt).not.toBeNull();

    await openSyncSettings();
    const answered = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/sync/run',
    );
    await page.getByRole('button', { name: 'Sync now' }).click();
    const run = SyncRunResult.parse(await (await answered).json());
    expect(run.status.waiting).toBe(before.waiting);

    const outcome = panel().locator('.notice').last();
    await expect
      .poll(() => outcome.textContent())
      .toMatch(
        new RegExp(
          `^${run.status.waiting} changes to gifts and contacts are waiting; HQ could not be reached; next try at ([A-Z][a-z]{2} \\d{1,2}, )?\\d{1,2}:\\d{2}( [AP]M)?\\.$`,
        ),
      );
    expect(await panel().textContent()).not.toContain('up to date');
    // A person asked: the pass tried HQ now instead of waiting out the backoff.
    expect(run.requests).toBeGreaterThan(0);
    expect(run.status.nextTryAt).not.toBeNull();
    expect(await page.getByTestId('sync-waiting').textContent()).toBe(String(run.status.waiting));
    expect(await page.getByTestId('sync-sent').textContent()).toBe('0');
    await expect
      .poll(() => page.getByTestId('sync-problem').textContent())
      .toMatch(/^GiftDesk cannot reach HQ at http:\/\/127\.0\.0\.1:\d+: nothing answers at that address/);
    await expectNoA11yViolations(page, 'Settings → Sync (Sync now, HQ unreachable)');
    await screenshot(page, 'sync-words-waiting');
  }, 120_000);
});
