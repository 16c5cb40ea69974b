/**
 * GiftDesk's own server stops and starts again while a volunteer's browser tab is open: the
 * real `giftdesk serve --ui` in a child process (what `npm start` runs), stopped with SIGINT
 * (Ctrl+C) and started again on the same port and data folder, real Chromium on the page.
 * The donor box and the header say at once that the server is not answering (never "+ New
 * donor" as if nobody matched), what was typed stays, and the page recovers by itself; the
 * tab's session outlives the restart (the half-typed gift saves without a reload); a gift
 * typed but not saved survives a reload; a link pasted into the tab works without F5.
 * Settings → API keys gives the command that works from the checkout for this data folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContext } from '../../electron/domain/context.ts';
import { openStore } from '../../electron/db/open.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { isolatedEnv, runCli } from '../helpers/cli.ts';
import { rawRequest, tempDir } from '../helpers/server.ts';
import { expectNoA11yViolations, freePort, launchChromium, screenshot } from './helpers.ts';

const BIN = path.resolve('bin/giftdesk.mjs');
const dataDir = tempDir('giftdesk-restart-');
const { env } = isolatedEnv();
let port: number;
let browser: Browser;
let key: { accountId: string; keyId: string; secret: string };
let campaignId: string;

interface Serving {
  child: ChildProcess;
  url: string;
  appUrl: string;
  /** The terminal's stderr so far (with --json the fresh links are printed there). */
  stderr(): string;
}
let serving: Serving | null = null;

/** `giftdesk serve --ui` on this test's port and data folder, as `npm start` runs it. */
function serve(): Promise<Serving> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--ui', '--json', '--no-sync', '--port', String(port), '--data-dir', dataDir],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      const { url, appUrl } = JSON.parse(out.slice(0, nl)) as { url: string; appUrl: string };
      resolve({ child, url, appUrl, stderr: () => err });
    });
    child.on('exit', (code, signal) => reject(new Error(`serve exited (${code ?? signal})\n${err}`)));
  });
}

/** The newest link the server printed: the first, or the fresh one printed after a link was used. */
const newestLink = (s: Serving) =>
  s
    .stderr()
    .match(/http:\/\/127\.0\.0\.1:\d+\/#token=gdt_[\w-]+/g)
    ?.at(-1) ?? s.appUrl;

/** Ctrl+C: the server finishes what is in flight and exits. */
async function stop(): Promise<void> {
  const s = serving!;
  serving = null;
  const gone = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGINT');
  await gone;
}

const api = (method: string, p: string, body?: unknown) =>
  rawRequest(`${serving!.url}${p}`, method, body, {
    'x-api-key': key.keyId,
    authorization: `Bearer ${key.secret}`,
  });

const gifts = async (): Promise<Array<{ contactId: string; donationAmount: number }>> =>
  expectStatus(await api('GET', `/api/v1/donations?accountId=${key.accountId}&limit=100`), 200).donations;

const donorBox = (page: Page) => page.getByRole('combobox', { name: 'Donor' });
const activeOption = async (page: Page) => {
  const active = await donorBox(page).getAttribute('aria-activedescendant');
  return active ? page.locator(`[id="${active}"]`).textContent() : null;
};
const NOT_ANSWERING = 'GiftDesk’s server is not answering — nothing you type is lost; it will retry.';

const contacts: Record<string, string> = {};

beforeAll(async () => {
  port = await freePort();
  // The organisation and a script's key, made before the server first starts (as a setup script would).
  const store = await openStore({ dataDir });
  const ctx = createContext(store);
  const { id: accountId } = await createAccount(ctx, 'Riverside Food Bank');
  key = await createApiKey(ctx, accountId, 'test setup');
  await store.close();
  serving = await serve();
  campaignId = expectStatus(
    await api('POST', '/api/v1/campaigns', { accountId, name: 'Harvest Dinner' }),
    201,
  ).id;
  // Namesakes and accents: three Robert Browns, Łukasz Żółć (typed "lukasz zolc"), Zoe Kim.
  for (const [first, last, email] of [
    ['Zoe', 'Kim', 'zoe.kim@example.org'],
    ['Robert', 'Brown', 'rbrown@example.org'],
    ['Robert', 'Brown', 'bob.brown@example.com'],
    ['Robert', 'Brown', null],
    ['Łukasz', 'Żółć', 'lukasz@example.pl'],
  ] as const) {
    const c = expectStatus(
      await api('POST', '/api/v1/contacts', {
        accountId,
        firstName: first,
        lastName: last,
        primaryEmail: email,
      }),
      201,
    );
    contacts[email ?? `${first} ${last} (no email)`] = c.id;
  }
  expectStatus(await api('POST', '/api/v1/batches', { accountId, name: 'Door', campaignId }), 201);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  if (serving) await stop();
});

/** Opens the app from the link the server printed, and the open batch. */
async function openGiftEntry(viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(serving!.appUrl);
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  await page.getByRole('button', { name: /^Door/ }).click();
  await donorBox(page).waitFor();
  return { context, page };
}

describe('the server stops and starts again with the page open', () => {
  it('the donor box and the header say so at once, keep what was typed, and recover by themselves', async () => {
    const { context, page } = await openGiftEntry();
    try {
      await expect.poll(() => page.getByTestId('sync-badge').textContent()).toContain('Sync not set up');
      await stop();

      await donorBox(page).click();
      await page.keyboard.type('zoe kim');
      const failed = page.getByTestId('donor-search-failed');
      await expect.poll(() => failed.textContent()).toBe(NOT_ANSWERING);
      // Never an invitation to make Zoe Kim twice.
      expect(await page.getByText(/New donor/).count()).toBe(0);
      expect(await page.locator('.donor-list [role="option"]').count()).toBe(0);
      await expect
        .poll(() => page.getByTestId('sync-badge-connection').getAttribute('data-state'))
        .toBe('server-down');
      expect(await page.getByTestId('sync-badge').textContent()).toBe('Server not answering');
      // Enter does not choose anything while the search cannot be answered.
      await page.keyboard.press('Enter');
      expect(await page.getByLabel('First name').count()).toBe(0);
      expect(await donorBox(page).inputValue()).toBe('zoe kim');
      await screenshot(page, 'server-not-answering');
      await expectNoA11yViolations(page, 'Gift entry while the server is not answering');

      serving = await serve();
      // The page finds the server again by itself: the search reruns, the header is itself again.
      await expect.poll(() => activeOption(page)).toContain('Zoe Kim');
      expect(await failed.count()).toBe(0);
      await expect.poll(() => page.getByTestId('sync-badge').textContent()).toContain('Sync not set up');
      expect(await donorBox(page).inputValue()).toBe('zoe kim');
      await page.keyboard.press('Enter');
      await page.keyboard.type('19.99');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('batch-count').textContent()).toMatch(/^1\b/);
      expect((await gifts()).filter((g) => g.contactId === contacts['zoe.kim@example.org'])).toHaveLength(1);
    } finally {
      await context.close();
      serving ??= await serve(); // the next case starts with a server, whatever happened here
    }
  });

  it('the tab carries on through a restart: the half-typed gift saves without a reload, and a draft survives a reload', async () => {
    const before = (await gifts()).length;
    const { context, page } = await openGiftEntry();
    try {
      // Donor chosen, amount typed … and the server restarts (Ctrl+C, npm start again).
      await donorBox(page).click();
      await page.keyboard.type('lukasz zolc');
      await expect.poll(() => activeOption(page)).toContain('Łukasz Żółć');
      await page.keyboard.press('Enter');
      await page.keyboard.type('25');
      await stop();
      serving = await serve();

      await page.keyboard.press('Enter');
      await expect
        .poll(async () => (await gifts()).filter((g) => g.contactId === contacts['lukasz@example.pl']))
        .toHaveLength(1);
      expect(await page.getByText(/session has ended/).count()).toBe(0);

      // The next gift: one of three Robert Browns, told apart by email; amount typed, then F5.
      await expect.poll(() => donorBox(page).inputValue()).toBe('');
      await donorBox(page).click();
      await page.keyboard.type('bob.brown@');
      await expect.poll(() => activeOption(page)).toContain('bob.brown@example.com');
      await page.keyboard.press('Enter');
      await page.keyboard.type('40');
      await page.reload();
      await donorBox(page).waitFor();
      await expect.poll(() => donorBox(page).inputValue()).toBe('Robert Brown');
      await expect.poll(() => page.getByLabel('Amount ($)').inputValue()).toBe('40');
      expect(await page.locator('.donor-chosen').textContent()).toContain('bob.brown@example.com');
      await page.getByLabel('Amount ($)').press('Enter');
      await expect
        .poll(
          async () => (await gifts()).filter((g) => g.contactId === contacts['bob.brown@example.com']).length,
        )
        .toBe(1);
      expect((await gifts()).length).toBe(before + 2);
      // Saved: the row is empty again, and so after another reload.
      await expect.poll(() => donorBox(page).inputValue()).toBe('');
      await page.reload();
      await donorBox(page).waitFor();
      expect(await page.getByLabel('Amount ($)').inputValue()).toBe('');
      expect(await donorBox(page).inputValue()).toBe('');
    } finally {
      await context.close();
      serving ??= await serve();
    }
  });

  it('a new link pasted into a tab takes effect without a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      // A tab without a session (its key was ended, or opened without the link).
      await page.goto(`${serving!.url}/`);
      await page.getByText(/Open GiftDesk with the link printed/).waitFor();
      await page.evaluate(() => ((window as Window & { loaded?: number }).loaded = 1));
      const link = serving!.appUrl; // unused so far: this server's first link
      await page.evaluate((hash) => (window.location.hash = hash), new URL(link).hash);
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      // The same page (no reload), and the token is gone from the address bar.
      expect(await page.evaluate(() => (window as Window & { loaded?: number }).loaded)).toBe(1);
      expect(page.url()).not.toContain('token=');
    } finally {
      await context.close();
    }
  });

  it('Settings → API keys gives the command that makes a key for this data folder, and it works', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(newestLink(serving!));
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      await page.goto(`${serving!.url}/#/settings/api-keys`);
      const command = await page.getByTestId('key-create-command').textContent();
      expect(command).toBe(
        `npx giftdesk key create --account ${key.accountId} --data-dir ${dataDir} --label "what it is for"`,
      );
      // Run as written (npx giftdesk is bin/giftdesk.mjs), from a shell with no GiftDesk settings.
      const args = command!
        .replace(/^npx giftdesk /, '')
        .replace(' --label "what it is for"', '')
        .split(' ');
      const made = await runCli([...args, '--label', 'what it is for', '--json'], env);
      expect(made.status, made.stderr).toBe(0);
      const { keyId } = JSON.parse(made.stdout) as { keyId: string };
      const listed = expectStatus(await api('GET', `/api/v1/api-keys?accountId=${key.accountId}`), 200);
      expect(listed.data.map((k: { keyId: string }) => k.keyId)).toContain(keyId);
    } finally {
      await context.close();
    }
  });
});
