/**
 * Structured logs carry request ids and never a secret: run `giftdesk serve` as people do,
 * send authenticated requests (good and bad), and read everything it wrote.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { rawRequest, tempDir } from '../helpers/server.ts';

const bin = ['bin/giftdesk.mjs'];
const dataDir = tempDir();
const cli = (...args: string[]) => {
  const r = spawnSync('node', [...bin, ...args, '--data-dir', dataDir, '--json'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, string>;
};

let child: ReturnType<typeof spawn> | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('server logs', () => {
  it('are JSON lines with request ids, and contain no API secret or Authorization header', async () => {
    const { id: accountId } = cli('account', 'create', '--name', 'Log Test');
    const { keyId, secret } = cli('key', 'create', '--account', accountId!);
    child = spawn(
      'node',
      [...bin, 'serve', '--port', '0', '--json', '--data-dir', dataDir, '--log-level', 'debug'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    const { url } = JSON.parse(line.toString()) as { url: string };

    const auth = { 'x-api-key': keyId!, authorization: `Bearer ${secret}` };
    const ok = await rawRequest(`${url}/api/v1/contacts?accountId=${accountId}`, 'GET', undefined, auth);
    expect(ok.status).toBe(200);
    const bad = await rawRequest(`${url}/api/v1/contacts?accountId=${accountId}`, 'GET', undefined, {
      'x-api-key': keyId!,
      authorization: `Bearer ${secret}x`,
    });
    expect(bad.status).toBe(401);
    const created = await rawRequest(`${url}/api/v1/api-keys`, 'POST', { accountId, label: 'second' }, auth);
    expect(created.status).toBe(201);
    // Searches for donors: their names and emails must not reach the log.
    for (const search of ['Robert Brown', 'rb.brown@example.org', 'Zoë Núñez']) {
      const found = await rawRequest(
        `${url}/api/v1/contacts?accountId=${accountId}&search=${encodeURIComponent(search)}&limit=5`,
        'GET',
        undefined,
        auth,
      );
      expect(found.status).toBe(200);
    }

    child.kill('SIGTERM');
    await once(child, 'exit');
    const lines = stderr.trim().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    const records = lines.map((l) => JSON.parse(l) as { requestId?: string; reqId?: string });
    expect(records.some((r) => (r.reqId ?? r.requestId ?? '').startsWith('req_'))).toBe(true);
    expect(stderr).not.toContain(secret);
    expect(stderr).not.toContain(created.body.secret);
    expect(stderr.toLowerCase()).not.toContain('bearer');
    for (const personal of ['Robert', 'Brown', 'rb.brown', 'example.org', 'Zo%C3%AB', 'N%C3%BA', 'Zoë'])
      expect(stderr).not.toContain(personal);
    // The request is still there: its route, and the URL with the search redacted.
    const searchLines = records.filter((r) =>
      (r as { req?: { route?: string; url?: string } }).req?.url?.includes('search='),
    );
    expect(searchLines.length).toBeGreaterThanOrEqual(3);
    for (const r of searchLines) {
      const req = (r as { req: { route: string; url: string } }).req;
      expect(req.route).toBe('/api/v1/contacts');
      expect(req.url).toBe(`/api/v1/contacts?accountId=${accountId}&search=[redacted]&limit=5`);
    }
  });
});
