/**
 * `giftdesk serve` beyond loopback: plain HTTP on 0.0.0.0 says at start that keys and donor
 * data cross the network unencrypted; with --tls-cert/--tls-key it serves HTTPS (checked with
 * a real TLS client trusting the test's certificate) and says nothing of the kind.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, startServe, type ServeChild } from '../helpers/cli.ts';
import { tempDir } from '../helpers/server.ts';

const dir = tempDir('giftdesk-tls-');
const { env, home } = isolatedEnv();
const children: ServeChild[] = [];
afterAll(() => {
  for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});

async function stop(c: ServeChild): Promise<void> {
  c.child.kill('SIGTERM');
  await c.exited;
}

const warnings = (stderr: string) =>
  stderr
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((r) => r.level === 40 && /plain HTTP/.test(r.msg));

describe('serving beyond this machine', () => {
  it('warns at start when bound to 0.0.0.0 without TLS, and not on 127.0.0.1', async () => {
    const open = await startServe(['--host', '0.0.0.0', '--data-dir', path.join(dir, 'a')], env);
    children.push(open);
    await open.waitForLog(/plain HTTP/);
    await stop(open);
    const warned = warnings(open.stderr());
    expect(warned).toHaveLength(1);
    expect(warned[0]!.msg).toMatch(/--tls-cert/);

    const local = await startServe(['--data-dir', path.join(dir, 'b')], env);
    children.push(local);
    await stop(local);
    expect(warnings(local.stderr())).toEqual([]);
  });

  it.runIf(fs.existsSync('/usr/bin/openssl'))(
    'serves HTTPS with --tls-cert and --tls-key, without the warning',
    async () => {
      const cert = path.join(dir, 'cert.pem');
      const key = path.join(dir, 'key.pem');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '2',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost,IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      const s = await startServe(
        ['--host', '0.0.0.0', '--tls-cert', cert, '--tls-key', key, '--data-dir', path.join(dir, 'c')],
        env,
      );
      children.push(s);
      expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const status = await new Promise<number>((resolve, reject) => {
        const req = https.get(`${s.url}/api/v1/openapi.json`, { ca: fs.readFileSync(cert) }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
      expect(status).toBe(200);
      await stop(s);
      expect(warnings(s.stderr())).toEqual([]);
    },
  );

  it('refuses --tls-cert without --tls-key as a usage error', async () => {
    const r = await runCli(['serve', '--tls-cert', 'x.pem', '--data-dir', path.join(dir, 'd')], env);
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/--tls-cert and --tls-key go together/);
  });
});
