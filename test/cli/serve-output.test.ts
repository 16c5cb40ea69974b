/**
 * What `npm start` (giftdesk serve --demo --ui) shows the person running the event: the real
 * command in a child process, a few hundred requests of an hour at the gift table (the app's
 * own through browser windows opened from the printed links, a script's, refused ones, donor
 * searches), and the terminal still fits on one screen with the newest link on it. Every
 * request is in the log file the terminal names, redacted: no secret and no searched name.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliJson, isolatedEnv } from '../helpers/cli.ts';
import { rawRequest, tempDir } from '../helpers/server.ts';

const BIN = path.resolve('bin/giftdesk.mjs');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** Everything the command wrote to the terminal (stdout and stderr, in order of arrival). */
function startNpmStart(dataDir: string, env: NodeJS.ProcessEnv) {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--demo', '--ui', '--port', '0', '--data-dir', dataDir],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let terminal = '';
  const waiters: Array<() => void> = [];
  const on = (d: Buffer) => {
    terminal += d.toString();
    for (const w of waiters.splice(0)) w();
  };
  child.stdout.on('data', on);
  child.stderr.on('data', on);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    terminal: () => terminal,
    /** Resolves once the terminal matches `re` `count` times. */
    async waitFor(re: RegExp, count = 1): Promise<void> {
      const global = new RegExp(re.source, `${re.flags.replace('g', '')}g`);
      while ((terminal.match(global) ?? []).length < count) {
        if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}:\n${terminal}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

const LINK = /http:\/\/127\.0\.0\.1:\d+\/#token=gdt_[A-Za-z0-9_-]+/g;
const links = (text: string) => text.match(LINK) ?? [];

describe('npm start: the terminal after an hour of gift entry', () => {
  it(
    'fits on one screen and holds a working link; every request is in the log file, redacted',
    { timeout: 300_000 },
    async () => {
      const dataDir = tempDir('giftdesk-npm-start-');
      const { env } = isolatedEnv();
      const s = startNpmStart(dataDir, env);
      await s.waitFor(LINK);
      const url = /GiftDesk is serving (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(s.terminal())?.[1];
      expect(url, s.terminal()).toBeDefined();
      const logFile = path.join(dataDir, 'giftdesk.log');
      const secrets: string[] = [];

      // Four browser windows over the hour, each from the newest link printed.
      const windows: Array<{ accountId: string; keyId: string; secret: string }> = [];
      for (let w = 0; w < 4; w++) {
        const link = links(s.terminal()).at(-1)!;
        const token = link.split('#token=')[1]!;
        const r = await rawRequest(`${url}/api/v1/browser-session`, 'POST', { token });
        expect(r.status, r.text).toBe(201);
        windows.push(r.body as { accountId: string; keyId: string; secret: string });
        secrets.push((r.body as { secret: string }).secret, token);
        await s.waitFor(/For another window: /, w + 1);
      }
      const [win] = windows;
      const asWindow = (w = win!) => ({ 'x-api-key': w.keyId, authorization: `Bearer ${w.secret}` });
      const accountId = win!.accountId;

      // A script's key, made as the README says (its own command prints the secret, not the server).
      const key = (await cliJson(
        ['key', 'create', '--account', accountId, '--label', 'nightly reconcile', '--data-dir', dataDir],
        env,
      )) as { keyId: string; secret: string };
      secrets.push(key.secret);
      const asScript = { 'x-api-key': key.keyId, authorization: `Bearer ${key.secret}` };

      const campaign = (
        await rawRequest(`${url}/api/v1/campaigns`, 'POST', { accountId, name: 'Spring Gala' }, asWindow())
      ).body as { id: string };
      const batch = (
        await rawRequest(
          `${url}/api/v1/batches`,
          'POST',
          { accountId, name: 'Door', campaignId: campaign.id, paymentMethod: 'cash' },
          asWindow(),
        )
      ).body as { id: string };
      expect(batch.id).toMatch(/^bat_/);
      // Namesake donors (three Robert Browns), one typed without its accent.
      const donors: string[] = [];
      for (const [first, last, email] of [
        ['Robert', 'Brown', 'rb1@example.org'],
        ['Robert', 'Brown', 'rb2@example.org'],
        ['Robert', 'Brown', 'rb1@example.org'],
        ['Zoë', 'Núñez', 'zoe@example.org'],
      ] as const) {
        const c = await rawRequest(
          `${url}/api/v1/contacts`,
          'POST',
          { accountId, firstName: first, lastName: last, primaryEmail: email },
          asWindow(),
        );
        expect(c.status, c.text).toBe(201);
        donors.push((c.body as { id: string }).id);
      }

      let requests = 0;
      const statuses = new Map<number, number>();
      const count = (status: number) => {
        requests++;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      };
      // An hour at the table, compressed: each gift is a donor search, a limit check and a save
      // (identical twin gifts: same donor, $19.99 cash, same minute), the badge and totals
      // refreshed, and now and then a script's read and a refused request.
      for (let i = 0; i < 80; i++) {
        const w = windows[i % windows.length]!;
        const typed = i % 2 ? 'Nunez' : 'robert bro';
        const found = await rawRequest(
          `${url}/api/v1/contact-summaries?accountId=${accountId}&search=${encodeURIComponent(typed)}&sortBy=relevance&limit=8`,
          'GET',
          undefined,
          asWindow(w),
        );
        count(found.status);
        const donor = donors[i % donors.length]!;
        count(
          (
            await rawRequest(
              `${url}/api/v1/contacts/${donor}/gift-check?donationDate=2026-11-25`,
              'GET',
              undefined,
              asWindow(w),
            )
          ).status,
        );
        const saved = await rawRequest(
          `${url}/api/v1/batches/${batch.id}/donations`,
          'POST',
          {
            accountId,
            contactId: donor,
            donationAmount: 19.99,
            donationDate: '2026-11-25',
            paymentMethod: 'cash',
            campaignId: campaign.id,
          },
          asWindow(w),
        );
        expect(saved.status, saved.text).toBe(201);
        count(saved.status);
        if (i % 4 === 0)
          count(
            (
              await rawRequest(
                `${url}/api/v1/sync/status?accountId=${accountId}`,
                'GET',
                undefined,
                asWindow(w),
              )
            ).status,
          );
        if (i % 8 === 0)
          count(
            (
              await rawRequest(
                `${url}/api/v1/stats/donations?accountId=${accountId}&startDate=2026-11-25&endDate=2026-11-25&basis=entered`,
                'GET',
                undefined,
                asWindow(w),
              )
            ).status,
          );
        if (i % 10 === 0)
          count(
            (
              await rawRequest(
                `${url}/api/v1/contacts?accountId=${accountId}&search=Zo%C3%AB&limit=5`,
                'GET',
                undefined,
                asScript,
              )
            ).status,
          );
        if (i % 20 === 0) {
          count(
            (
              await rawRequest(`${url}/api/v1/contacts?accountId=${accountId}`, 'GET', undefined, {
                'x-api-key': key.keyId,
                authorization: 'Bearer gds_wrong',
              })
            ).status,
          );
          count(
            (
              await rawRequest(
                `${url}/api/v1/donations`,
                'POST',
                {
                  accountId,
                  contactId: donor,
                  donationAmount: 0,
                  donationDate: '2026-11-25',
                  paymentMethod: 'cash',
                },
                asScript,
              )
            ).status,
          );
          count((await rawRequest(`${url}/api/v1/contacts/cnt_nope`, 'GET', undefined, asScript)).status);
        }
      }
      expect(requests).toBeGreaterThanOrEqual(250);
      expect(statuses.get(401)).toBeGreaterThan(0);
      expect(statuses.get(400)).toBeGreaterThan(0);

      // One screen: the start-up facts, the link, one line per window opened.
      const shown = s.terminal().trimEnd().split('\n');
      expect(shown.length, s.terminal()).toBeLessThanOrEqual(25);
      expect(s.terminal(), 'the terminal says where the log is').toContain(logFile);
      // The newest link printed is the one that works (and it is on that screen).
      const newest = links(s.terminal()).at(-1)!;
      const opened = await rawRequest(`${url}/api/v1/browser-session`, 'POST', {
        token: newest.split('#token=')[1],
      });
      expect(opened.status, opened.text).toBe(201);
      secrets.push((opened.body as { secret: string }).secret);
      await s.waitFor(/For another window: /, 5);

      s.child.kill('SIGINT');
      expect(await s.exited).toBe(0);
      const terminal = s.terminal();
      const log = fs.readFileSync(logFile, 'utf8');
      // Secrets: on the terminal only the one-time links; in the log none at all.
      const withoutLinks = terminal.replace(LINK, '');
      for (const secret of secrets.filter((x) => !x.startsWith('gdt_')))
        expect(terminal).not.toContain(secret);
      expect(withoutLinks).not.toMatch(/gds_|gdt_|Bearer/);
      for (const secret of secrets) expect(log).not.toContain(secret);
      expect(log).not.toMatch(/gds_|gdt_|Bearer|authorization|x-api-key/i);
      // Donor names searched for never reach the file; the requests themselves do.
      expect(log).not.toMatch(/Nunez|robert|Zo%C3%AB|Zoë/i);
      const completed = log.split('\n').filter((l) => l.includes('"request completed"')).length;
      expect(completed).toBeGreaterThanOrEqual(requests);
      expect(fs.statSync(logFile).mode & 0o777).toBe(0o600);
    },
  );

  it(
    '--log-requests prints a line per request on the terminal (method, redacted URL, status)',
    { timeout: 120_000 },
    async () => {
      const dataDir = tempDir('giftdesk-log-requests-');
      const { env } = isolatedEnv();
      const child = spawn(
        process.execPath,
        [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--log-requests'],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.push(child);
      let terminal = '';
      child.stdout.on('data', (d: Buffer) => (terminal += d.toString()));
      child.stderr.on('data', (d: Buffer) => (terminal += d.toString()));
      while (!/GiftDesk is serving/.test(terminal)) {
        if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}:\n${terminal}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const url = /GiftDesk is serving (http:\/\/127\.0\.0\.1:\d+)/.exec(terminal)![1];
      const r = await rawRequest(`${url}/api/v1/contacts?accountId=acct_x&search=Robert`, 'GET');
      expect(r.status).toBe(401);
      while (!/ 401 \(/.test(terminal)) await new Promise((r2) => setTimeout(r2, 50));
      expect(terminal).toMatch(
        /GET \/api\/v1\/contacts\?accountId=acct_x&search=\[redacted\] 401 \(\d+ ms\)/,
      );
      expect(terminal).not.toContain('Robert');
      child.kill('SIGINT');
      await new Promise((resolve) => child.on('exit', resolve));
    },
  );
});
