/**
 * Settings → Sync → "Linked to HQ" in real Chromium, against a real HQ (a second GiftDesk
 * server behind the fault proxy): a person links campaigns, a committee and a donation
 * account by choosing HQ's records with the keyboard — the suggestions preselected where the
 * name matches one HQ record (case and accents aside), an ambiguous name left to choose, an
 * HQ record another local record holds shown but not choosable — and "Link all suggested"
 * after a confirmation naming how many; the table then shows HQ's ids. Where HQ does not
 * list a kind the page says so and HQ's id is typed; HQ unreachable is said so, with the
 * typed boxes kept; a suggestion HQ refuses when linked is named, the others linked.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCampaign,
  createCommittee,
  createDonationAccount,
} from '../../electron/domain/reference/records.ts';
import { saveRemoteSettings } from '../../electron/sync/remote/settings.ts';
import { linkRemote } from '../../electron/sync/outbox/links.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { forwardAll, startFaultProxy, type FaultProxy } from '../sync/fault-proxy.ts';
import { testKeys } from '../sync/rig.ts';
import {
  expectNoA11yViolations,
  launchChromium,
  openApp,
  screenshot,
  startAppServer,
  type AppServer,
  type OpenedApp,
} from './helpers.ts';

let local: AppServer;
let hq: TestServer;
let proxy: FaultProxy;
let hqKey: { accountId: string; keyId: string; secret: string };
let browser: Browser;
let app: OpenedApp;
let page: Page;
const at: Record<string, string> = {};
const here: Record<string, string> = {};

beforeAll(async () => {
  hq = await startTestServer();
  proxy = await startFaultProxy({ target: hq.url });
  hqKey = await hq.otherAccount();
  const h = { accountId: hqKey.accountId };
  at.gala = (await createCampaign(hq.ctx, { ...h, name: 'Spring Gala 2026' })).id;
  at.autumnA = (await createCampaign(hq.ctx, { ...h, name: 'Autumn Appeal' })).id;
  at.autumnB = (await createCampaign(hq.ctx, { ...h, name: 'autumn appeal' })).id;
  at.phonathon = (await createCampaign(hq.ctx, { ...h, name: 'Phonathon' })).id;
  at.fonds = (await createDonationAccount(hq.ctx, { ...h, name: 'Fonds général' })).id;
  at.host = (await createCommittee(hq.ctx, { ...h, name: 'Host Committee' })).id;

  local = await startAppServer({ sync: { keys: testKeys, run: false } });
  const l = { accountId: local.accountId };
  here.gala = (await createCampaign(local.ctx, { ...l, name: 'spring gala 2026' })).id;
  here.autumn = (await createCampaign(local.ctx, { ...l, name: 'Autumn Appeal' })).id;
  here.phonathonOld = (await createCampaign(local.ctx, { ...l, name: 'Phonathon 2025' })).id;
  here.phonathon = (await createCampaign(local.ctx, { ...l, name: 'PHONATHON' })).id;
  here.fonds = (await createDonationAccount(local.ctx, { ...l, name: 'Fonds general' })).id;
  here.host = (await createCommittee(local.ctx, { ...l, name: 'host committee' })).id;
  const now = new Date().toISOString();
  await local.store.write((trx) =>
    linkRemote(trx, {
      accountId: local.accountId,
      entityType: 'campaign',
      localId: here.phonathonOld!,
      remoteId: at.phonathon!,
      source: 'manual',
      at: now,
    }),
  );
  await saveRemoteSettings(
    local.store,
    testKeys,
    {
      accountId: local.accountId,
      baseUrl: proxy.url,
      keyId: hqKey.keyId,
      secret: hqKey.secret,
      remoteAccountId: hqKey.accountId,
      ratePerSecond: 50,
    },
    now,
  );
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

const linksPanel = () => page.locator('[aria-labelledby="sync-links-title"]');
const row = (name: string): Locator =>
  linksPanel()
    .locator('tbody tr')
    .filter({ has: page.getByRole('rowheader', { name, exact: true }) });
/** The HQ id the links table shows for a local record ('' while it is not linked). */
const shownId = async (name: string): Promise<string> =>
  (await row(name).locator('code').count()) > 0
    ? ((await row(name).locator('code').textContent()) ?? '')
    : '';
const selectedText = (select: Locator) =>
  select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '');

/** Opens Settings → Sync afresh (a reload: what HQ lists is read again, as when the app is opened). */
async function openSyncSettings(): Promise<void> {
  if (new URL(page.url()).hash === '#/settings/sync') await page.reload();
  else await page.goto(`${local.url}/#/settings/sync`);
  await page.getByRole('heading', { level: 2, name: 'Sync' }).waitFor();
  await linksPanel().waitFor();
}

describe('Linking reference data by choosing HQ’s records', () => {
  it('links 5 records with the keyboard: suggestions preselected, the ambiguous one chosen, the rest with "Link all suggested"', async () => {
    proxy.setRule(forwardAll);
    await openSyncSettings();
    await expect
      .poll(() => linksPanel().getByRole('heading').textContent())
      .toBe('Linked to HQ (5 not linked)');
    const all = page.getByRole('button', { name: 'Link all suggested (3)' });
    await all.waitFor();

    // Suggestions are preselected and say why; accents and case aside.
    const galaPick = page.getByRole('combobox', { name: 'HQ campaign for spring gala 2026' });
    expect(await selectedText(galaPick)).toBe('Spring Gala 2026');
    expect(
      await selectedText(page.getByRole('combobox', { name: 'HQ donation account for Fonds general' })),
    ).toBe('Fonds général');
    expect(await row('Fonds general').textContent()).toContain(
      'Suggested: HQ’s “Fonds général” (the same name but for case or accents).',
    );
    // Two HQ campaigns named Autumn Appeal: nothing preselected, the reason says so; the ids tell them apart.
    const autumnPick = page.getByRole('combobox', { name: 'HQ campaign for Autumn Appeal' });
    expect(await autumnPick.inputValue()).toBe('');
    expect(await row('Autumn Appeal').textContent()).toContain(
      'HQ has 2 campaigns named “Autumn Appeal”: choose the one it is',
    );
    // HQ's Phonathon is held by "Phonathon 2025": shown, marked, not choosable, not suggested for PHONATHON.
    const phonPick = page.getByRole('combobox', { name: 'HQ campaign for PHONATHON' });
    expect(await phonPick.inputValue()).toBe('');
    const taken = phonPick.locator(`option[value="${at.phonathon}"]`);
    expect(await taken.textContent()).toBe('Phonathon — linked to “Phonathon 2025”');
    expect(await taken.isDisabled()).toBe(true);
    expect(await row('PHONATHON').textContent()).toContain('linked already to “Phonathon 2025”');
    await expectNoA11yViolations(page, 'Settings → Sync (links to choose)');
    await screenshot(page, 'sync-links-choose');

    // Autumn Appeal: the keyboard picks the second of HQ's two, Tab reaches Link, Enter links it.
    await autumnPick.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await autumnPick.inputValue()).toBe(at.autumnB);
    expect(await selectedText(autumnPick)).toBe(`autumn appeal (${at.autumnB})`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Link Autumn Appeal',
    );
    await page.keyboard.press('Enter');
    await expect.poll(() => shownId('Autumn Appeal')).toBe(at.autumnB);

    // spring gala 2026: the suggestion as it stands, linked from the keyboard.
    await galaPick.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => shownId('spring gala 2026')).toBe(at.gala);

    // The rest of the suggestions at once, after a confirmation that names how many and which.
    const rest = page.getByRole('button', { name: 'Link all suggested (2)' });
    await rest.waitFor();
    await rest.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Link 2 records to HQ’s suggested ones?' });
    await dialog.waitFor();
    expect(await dialog.locator('li').allTextContents()).toEqual([
      'Donation account “Fonds general” → HQ’s “Fonds général”',
      'Committee “host committee” → HQ’s “Host Committee”',
    ]);
    await screenshot(page, 'sync-links-confirm-all');
    // Cancel has the focus first; Tab to "Link 2", Enter.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.isVisible()).toBe(false);

    await expect.poll(() => shownId('Fonds general')).toBe(at.fonds);
    await expect.poll(() => shownId('host committee')).toBe(at.host);
    expect(await shownId('Phonathon 2025')).toBe(at.phonathon);
    expect(await shownId('PHONATHON')).toBe('');
    await expect
      .poll(() => linksPanel().getByRole('heading').textContent())
      .toBe('Linked to HQ (1 not linked)');
    // The links are HQ's ids in the local id map, as the push engine reads them.
    const links = (await local.request('GET', `/api/v1/sync/links?accountId=${local.accountId}`)).body
      .data as Array<{ localId: string; remoteId: string | null }>;
    expect(Object.fromEntries(links.map((x) => [x.localId, x.remoteId]))).toEqual({
      [here.gala!]: at.gala,
      [here.autumn!]: at.autumnB,
      [here.phonathonOld!]: at.phonathon,
      [here.phonathon!]: null,
      [here.fonds!]: at.fonds,
      [here.host!]: at.host,
    });
    await screenshot(page, 'sync-links-linked');
  });

  it('where HQ does not list campaigns (the spec’s HQ), the page says so and HQ’s id is typed', async () => {
    proxy.setRule((req) =>
      req.method === 'GET' && req.path.split('?')[0] === '/api/v1/campaigns'
        ? { kind: 'respond', status: 404 }
        : { kind: 'forward' },
    );
    await openSyncSettings();
    await linksPanel()
      .getByText(
        'HQ does not list campaigns (GET /api/v1/campaigns answered 404): type HQ’s id for each one; it is checked at HQ before it is kept.',
      )
      .waitFor();
    expect(await page.getByRole('combobox', { name: 'HQ campaign for PHONATHON' }).count()).toBe(0);
    const box = page.getByRole('textbox', { name: 'HQ id for PHONATHON' });
    await box.fill('cmp_01NOSUCHTHING');
    await box.press('Enter');
    await expect
      .poll(() => row('PHONATHON').locator('.field-error').textContent())
      .toContain('HQ has no campaign cmp_01NOSUCHTHING');
    const free = await createCampaign(hq.ctx, { accountId: hqKey.accountId, name: 'Phonathon (spring)' });
    await box.fill(free.id);
    await box.press('Enter');
    await expect.poll(() => shownId('PHONATHON')).toBe(free.id);
    await expect.poll(() => linksPanel().getByText('Every one is linked to HQ').count()).toBe(1);
  });

  it('HQ unreachable: the page says so, and the typed boxes stay', async () => {
    proxy.setRule(forwardAll);
    await createCampaign(local.ctx, { accountId: local.accountId, name: 'Golf Day' });
    proxy.setRule(() => ({ kind: 'resetBeforeForward' }));
    await openSyncSettings();
    const alert = linksPanel().getByRole('alert');
    await expect
      .poll(() => alert.textContent(), { timeout: 60_000 })
      .toMatch(
        /^Could not read HQ’s lists to choose from: Could not reach HQ to read its campaigns \(.+\): nothing was linked\. Try again when HQ answers\. Meanwhile, HQ’s id can be typed for each one below/,
      );
    await page.getByRole('textbox', { name: 'HQ id for Golf Day' }).waitFor();
    await expectNoA11yViolations(page, 'Settings → Sync (HQ unreachable)');
    await screenshot(page, 'sync-links-unreachable');
  });

  it('"Link all suggested" links what HQ confirms and names the one HQ refused (deleted at HQ since its list was read)', async () => {
    proxy.setRule(forwardAll);
    const golf = await createCampaign(hq.ctx, { accountId: hqKey.accountId, name: 'Golf  Day' });
    const dinner = await createCampaign(hq.ctx, { accountId: hqKey.accountId, name: 'Gala Dînner' });
    await createCampaign(local.ctx, { accountId: local.accountId, name: 'gala dinner' });
    await openSyncSettings();
    const all = page.getByRole('button', { name: 'Link all suggested (2)' });
    await all.waitFor();
    // HQ no longer has the dinner when the link is checked.
    proxy.setRule((req) =>
      req.method === 'GET' && req.path.startsWith(`/api/v1/campaigns/${dinner.id}`)
        ? {
            kind: 'respond',
            status: 404,
            body: JSON.stringify({
              statusCode: 404,
              error: 'Not Found',
              code: 'campaign_not_found',
              message: `Campaign ${dinner.id} was not found`,
            }),
            headers: { 'content-type': 'application/json' },
          }
        : { kind: 'forward' },
    );
    await all.click();
    await page
      .getByRole('dialog', { name: 'Link 2 records to HQ’s suggested ones?' })
      .getByRole('button', { name: 'Link 2' })
      .click();
    await expect.poll(() => shownId('Golf Day')).toBe(golf.id);
    const refused = linksPanel().getByRole('alert');
    await expect
      .poll(() => refused.textContent())
      .toContain(`Not linked:“gala dinner”: HQ has no campaign ${dinner.id}`);
    expect(await shownId('gala dinner')).toBe('');
    await expect
      .poll(() => linksPanel().getByRole('heading').textContent())
      .toBe('Linked to HQ (1 not linked)');
    expect(app.problems.filter((p) => !/status of (400|404|502)/.test(p))).toEqual([]);
  });
});
