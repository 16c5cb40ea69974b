/**
 * The sync face tells the truth, in real Chromium: every figure of the header badge and of
 * Settings → Sync (HQ's state, waiting, in flight, needs attention and its list, sent, HQ's
 * last answer) is read from the page and checked against GET /sync/status at that moment —
 * first with HQ at a 127.0.0.1 port nothing listens on (a new user's first minutes), then
 * with a real GiftDesk HQ answering there (through a plain forwarding proxy).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { SyncStatus } from '#shared/schemas/sync.ts';
import { expectStatus, makeContact, makeCustomField, makeDonation } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startFaultProxy, type FaultProxy } from '../sync/fault-proxy.ts';
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
let proxy: FaultProxy | null = null;
let port: number;
const poll = { timeout: 60_000, interval: 200 };

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

  // An event's worth of messy entry: a contact entered by mistake and deleted before any sync,
  // three Robert Browns (two sharing an email), a donor typed without her accents, identical
  // twin gifts ($19.99 cash, same donor, same day), a corrected gift, and a contact HQ will
  // refuse (a custom field HQ lacks) with a gift that waits for it.
  const mistake = await makeContact(local, { firstName: 'Robret', lastName: 'Brwon' });
  expectStatus(
    await local.request('DELETE', `/api/v1/contacts/${mistake.id}?accountId=${local.accountId}`),
    200,
  );
  const rob = await makeContact(local, {
    firstName: 'Robert',
    lastName: 'Brown',
    email: 'rbrown@example.org',
  });
  await makeContact(local, { firstName: 'Bob', lastName: 'Brown', email: 'rbrown@example.org' });
  await makeContact(local, { firstName: 'Robert', lastName: 'Brown' });
  const zoe = await makeContact(local, { firstName: 'Zoe', lastName: 'Nunez' });
  for (let i = 0; i < 2; i++)
    await makeDonation(local, rob.id, {
      donationAmount: 19.99,
      paymentMethod: 'cash',
      donationDate: '2026-03-07',
      campaignId,
    });
  const fixed = await makeDonation(local, zoe.id, {
    donationAmount: 250,
    paymentMethod: 'check',
    donationDate: '2026-03-07',
    campaignId,
  });
  expectStatus(
    await local.request('PATCH', `/api/v1/donations/${fixed.id}`, {
      accountId: local.accountId,
      donationAmount: 25,
    }),
    200,
  );
  await makeCustomField(local, 'Shirt Size', 'text');
  const cy = await makeContact(local, {
    firstName: 'Cy',
    lastName: 'Dee',
    customFields: { 'Shirt Size': 'L' },
  });
  await makeDonation(local, cy.id, {
    donationAmount: 19.99,
    paymentMethod: 'cash',
    donationDate: '2026-03-07',
    campaignId,
  });

  port = await freePort();
  const saved = await local.request('PUT', '/api/v1/sync/settings', {
    accountId: local.accountId,
    baseUrl: `http://127.0.0.1:${port}`,
    keyId: hqKey.keyId,
    secret: hqKey.secret,
    remoteAccountId: hqKey.accountId,
    scheduleSeconds: 86_400,
  });
  expect(saved.status, saved.text).toBe(200);
  browser = await launchChromium();
  app = await openApp(browser, local);
  page = app.page;
});
afterAll(async () => {
  await app?.context.close();
  await browser?.close();
  await local?.close();
  await proxy?.close();
  await hq?.close();
});

async function apiStatus(): Promise<SyncStatus> {
  return SyncStatus.parse(
    expectStatus(await local.request('GET', `/api/v1/sync/status?accountId=${local.accountId}`), 200),
  );
}

const text = async (testId: string): Promise<string | null> => {
  const el = page.getByTestId(testId);
  return (await el.count()) > 0 ? ((await el.textContent()) ?? '').trim() : null;
};

/** What the connection state reads as, at the start of the badge and of the panel's "HQ" line. */
const WORDS: Record<SyncStatus['connection']['state'], string> = {
  online: 'Online',
  quiet: 'HQ last answered',
  offline: 'Offline — HQ not reached since',
  never: 'Never reached HQ',
  paused: 'Paused by HQ until',
  refused: 'HQ refused the key',
};

/**
 * Every figure on screen against the status API's answer read right after: the mismatches,
 * in words (none when the page tells the truth). The page polls the same route, so a
 * difference that lasts is a lie, not a lag.
 */
async function mismatches(): Promise<string[]> {
  const shown = {
    badge: ((await page.getByTestId('sync-badge').textContent()) ?? '').trim(),
    badgeState: await page
      .getByTestId('sync-badge-connection')
      .getAttribute('data-state')
      .catch(() => null),
    badgeWaiting: await text('sync-badge-waiting'),
    badgeAttention: await text('sync-badge-attention'),
    waiting: await text('sync-waiting'),
    inFlight: await text('sync-inflight'),
    attention: await text('sync-attention'),
    sent: await text('sync-sent'),
    connection: await text('sync-connection'),
    lastAnswer: await text('sync-last-answer'),
    listTitle: ((await page.locator('#sync-attention-title').textContent()) ?? '').trim(),
    listItems: await page
      .locator('.sync-attention-item')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? '')),
    nothingNeedsAttention: await page.getByText('Nothing needs attention.').count(),
  };
  const s = await apiStatus();
  const c = s.connection;
  const out: string[] = [];
  const check = (what: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want))
      out.push(`${what}: the page shows ${JSON.stringify(got)}, the status says ${JSON.stringify(want)}`);
  };
  const waitingWords = s.waiting > 0 ? `${s.waiting} waiting` : 'all sent';
  check(
    'badge, first words',
    shown.badge.startsWith(WORDS[c.state]) ? WORDS[c.state] : shown.badge,
    WORDS[c.state],
  );
  check('badge state', shown.badgeState, c.state);
  check('badge waiting', shown.badgeWaiting, waitingWords);
  check(
    'badge needs attention',
    shown.badgeAttention,
    s.needsAttention > 0 ? `${s.needsAttention} need${s.needsAttention === 1 ? 's' : ''} attention` : null,
  );
  check('panel waiting', shown.waiting, String(s.waiting));
  check('panel in flight', shown.inFlight, String(s.inFlight));
  check('panel needs attention', shown.attention, String(s.needsAttention));
  check('panel sent', shown.sent, String(s.sent));
  check(
    'panel HQ line',
    shown.connection?.startsWith(WORDS[c.state]) ? WORDS[c.state] : shown.connection,
    WORDS[c.state],
  );
  check('panel HQ last answered', shown.lastAnswer, c.lastAnsweredAt === null ? 'never' : 'just now');
  check(
    'attention list title',
    shown.listTitle,
    s.needsAttention > 0 ? `Needs attention (${s.needsAttention})` : 'Needs attention',
  );
  check(
    'attention list',
    shown.listItems.map((l) => l.split(':')[0]),
    s.attention.map((a) => a.label),
  );
  check('"Nothing needs attention."', shown.nothingNeedsAttention, s.needsAttention === 0 ? 1 : 0);
  return out;
}

async function openSyncSettings(): Promise<void> {
  await page.goto(`${local.url}/#/settings/sync`);
  await page.getByRole('heading', { level: 2, name: 'Sync' }).waitFor();
  await page.getByTestId('sync-waiting').or(page.getByTestId('sync-pending')).first().waitFor();
}

async function syncNow(): Promise<void> {
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/sync/run',
  );
  await page.getByRole('button', { name: 'Sync now' }).click();
  expect((await answered).status()).toBe(200);
}

describe('the sync badge and Settings → Sync tell the truth', () => {
  it('HQ unreachable: "Never reached HQ", nothing sent, every change waiting; each figure is the status API’s', async () => {
    await openSyncSettings();
    await syncNow();
    const badge = page.getByTestId('sync-badge');
    // What a new user sees first: not "Online" while HQ has never answered.
    await expect
      .poll(async () => (await badge.textContent()) ?? '', poll)
      .toMatch(/^Never reached HQ · \d+ waiting$/);
    expect(await badge.getAttribute('role')).toBe('status'); // announced politely when it changes
    await expect.poll(mismatches, poll).toEqual([]);
    const s = await apiStatus();
    expect(s.connection.state).toBe('never');
    expect(s.sent).toBe(0);
    expect(s.waiting).toBeGreaterThanOrEqual(9); // 5 contacts, 4 gifts, the correction (the deleted mistake is no change to send)
    expect(await text('sync-sent')).toBe('0');
    expect(await text('sync-last-answer')).toBe('never');
    await expectNoA11yViolations(page, 'Settings → Sync (HQ unreachable)');
    await screenshot(page, 'sync-face-unreachable');
  }, 120_000);

  it('HQ answering: "Online", sent = what HQ confirmed, the refused contact counted and listed alike; each figure is the status API’s', async () => {
    proxy = await startFaultProxy({ target: hq.url, port });
    await syncNow();
    await expect
      .poll(async () => {
        const s = await apiStatus();
        return { state: s.connection.state, needsAttention: s.needsAttention, waiting: s.waiting };
      }, poll)
      .toEqual({ state: 'online', needsAttention: 1, waiting: 1 });
    await expect.poll(mismatches, poll).toEqual([]);
    const s = await apiStatus();
    expect(await page.getByTestId('sync-badge').textContent()).toBe('Online · 1 waiting1 needs attention');
    expect(s.attention.map((a) => a.label)).toEqual(['Cy Dee']);
    // Sent: the changes HQ confirmed — HQ holds the twins and the corrected gift, and every contact but Cy Dee.
    const gifts = await hq.store.db
      .selectFrom('donations')
      .select('amountCents')
      .where('accountId', '=', hqKey.accountId)
      .execute();
    expect(gifts.map((g) => Number(g.amountCents)).sort((a, b) => a - b)).toEqual([1999, 1999, 2500]);
    const contacts = await hq.store.db
      .selectFrom('contacts')
      .select(['firstName', 'lastName'])
      .where('accountId', '=', hqKey.accountId)
      .execute();
    expect(contacts.map((c) => `${c.firstName} ${c.lastName}`).sort()).toEqual([
      'Bob Brown',
      'Robert Brown',
      'Robert Brown',
      'Zoe Nunez',
    ]);
    expect(s.sent).toBe(8); // 4 contacts, 3 gifts, and the correction (sent with its gift)
    expect(await text('sync-sent')).toBe('8');
    await expectNoA11yViolations(page, 'Settings → Sync (HQ answering, one record needs attention)');
    await screenshot(page, 'sync-face-online');
  }, 120_000);
});
