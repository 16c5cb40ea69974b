/**
 * Part `post` of `npm run bench`: POST /donations throughput against the bare baseline server,
 * with an audit of every acknowledged gift after each round.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openStore } from '../electron/db/open.ts';
import { startServer } from '../electron/server/serve.ts';
import { type Audit, auditPosts, type LoadResult } from './audit-posts.ts';
import { startBaselineServer } from './baseline-server.ts';
import { exec, WORK, log, fmt, cli, rows, notes, benchAccount } from './core-common.ts';
import { contactsCsv } from './core-data.ts';

async function postLoad(job: Record<string, unknown>): Promise<LoadResult> {
  const { stdout } = await exec(
    'node',
    ['--import', 'tsx', 'bench/load-post-donations.ts', JSON.stringify(job)],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as LoadResult;
}

export async function benchPostThroughput(): Promise<void> {
  const dir = path.join(WORK, 'post');
  fs.mkdirSync(dir, { recursive: true });
  const { accountId, keyId, secret, campaignId } = await benchAccount(dir, 'Gala');
  const csv = path.join(dir, 'donors.csv');
  contactsCsv(csv, 200);
  await cli(dir, 'import', 'contacts', csv, '--account', accountId, '--no-push');
  const store = await openStore({ dataDir: dir });
  const contactIds = (await store.db.selectFrom('contacts').select('id').execute()).map((r) => r.id);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const job = (url: string, tag: string) => ({
    url,
    connections: 10,
    seconds,
    accountId,
    keyId,
    secret,
    contactIds,
    campaignId,
    tag,
  });

  const results: { base: number[]; ours: number[] } = { base: [], ours: [] };
  const audits: Audit[] = [];
  for (let round = 0; round < 2; round++) {
    const base = await startBaselineServer(path.join(dir, `baseline-${round}.sqlite`));
    log(`POST throughput: baseline round ${round + 1}`);
    const b = await postLoad(job(base.url, `baseline-${round}`));
    results.base.push(b.rps);
    await base.close();

    const ours = await startServer({ store, port: 0, rateLimit: { ratePerSecond: 1e9, burst: 1e9 } });
    log(`POST throughput: GiftDesk round ${round + 1}`);
    const tag = `round-${round}`;
    const o = await postLoad(job(ours.url, tag));
    if (o.non2xx > 0 || o.errors > 0)
      throw new Error(`GiftDesk answered ${o.non2xx} non-2xx, ${o.errors} errors`);
    results.ours.push(o.rps);
    await ours.app.close(); // waits for requests in flight
    audits.push(await auditPosts(store, tag, o));
  }
  await store.close();
  const base = results.base.reduce((a, b) => a + b, 0) / results.base.length;
  const ours = results.ours.reduce((a, b) => a + b, 0) / results.ours.length;
  const ratio = ours / base;
  rows.push({
    name: 'POST /api/v1/donations throughput, 10 connections, loopback',
    figure: `${fmt(ours)} req/s`,
    baseline: `bare Fastify + zod + one prepared INSERT: ${fmt(base)} req/s`,
    ratio: ratio.toFixed(2),
    goal: '≥ 0.6 (beating 1.0 welcome)',
    met: audits.every((a) => a.ok)
      ? ratio >= 0.6
        ? 'yes'
        : 'no'
      : 'no — GIFTS LOST OR DOUBLED, see the note',
  });
  const audit = audits.every((a) => a.ok) ? 'every gift accounted for' : 'DEFECT';
  if (!audits.every((a) => a.ok)) process.exitCode = 1;
  notes.push(
    `POST throughput: mean of 2 alternating rounds of ${seconds} s each; load from autocannon in a child process, each request for the next of 200 donors, with unique notes. Check after each GiftDesk round (server closed first, so nothing in flight), ${audit}: ${audits.map((a, i) => `round ${i + 1}: ${a.text}`).join('; ')}.`,
  );
}
