/**
 * `giftdesk sync configure|status|run` (and bare `giftdesk sync`, the same as `run`): where an
 * account pushes to, what is queued, and one push pass with a progress bar.
 * Exit codes of a pass: 0 everything done, 2 some records need attention, 1 failed (HQ
 * unreachable, key refused, or another process holds the sync lease).
 */
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import {
  createSyncEngine,
  defaultClient,
  defaultKeySource,
  KEY_ENV,
  matchContactByEmail,
  recordingAnswers,
  resolveSyncAccount,
  saveRemoteSettings,
  syncStatus,
  type PassProgress,
} from '../sync/index.ts';
import { common, resolveDataDir, withAccount, withContext, type CommonOptions } from './context.ts';
import { CliError, print } from './output.ts';

interface ConfigureOptions extends CommonOptions {
  account: string;
  url: string;
  keyId: string;
  secret?: string;
  remoteAccount: string;
  rate?: string;
  every?: string;
  emailMatch?: boolean;
}

interface RunOptions extends CommonOptions {
  account?: string;
}

function number(
  flag: string,
  v: string | undefined,
  ok: (n: number) => boolean,
  what: string,
): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v.trim()) || !ok(n))
    throw new CliError(`${flag} must be ${what}, not "${v}"`, 64, 'usage');
  return n;
}

function bar(o: CommonOptions): { update(p: PassProgress): void; stop(): void } {
  if (o.json || !process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const b = new cliProgress.SingleBar(
    {
      format: 'pushing to HQ [{bar}] {value}/{total} changes | ETA {eta_formatted}',
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      if (!started) {
        b.start(Math.max(1, p.total), p.done);
        started = true;
      }
      b.setTotal(Math.max(1, p.total, p.done));
      b.update(p.done);
    },
    stop() {
      if (started) b.stop();
    },
  };
}

export function registerSyncPushCommands(sync: Command): void {
  // `giftdesk sync --account X` runs a pass; `giftdesk sync pull --account X` gives --account to
  // pull: the parent's options count only before the subcommand's name.
  sync.enablePositionalOptions();
  common(
    sync
      .command('configure')
      .description(
        `where an account pushes to (the secret is stored encrypted: key from ${KEY_ENV} or the data folder's sync.key)`,
      )
      .requiredOption('--account <id>', 'the local account')
      .requiredOption('--url <url>', "HQ's base URL (requests go to URL/api/v1/…)")
      .requiredOption('--key-id <keyId>', "HQ's API key id")
      .option(
        '--secret <secret>',
        "HQ's API secret (required the first time; env GIFTDESK_HQ_SECRET also works)",
      )
      .requiredOption('--remote-account <id>', 'the account id at HQ')
      .option('--rate <n>', 'requests per second to HQ (default 5)')
      .option('--every <seconds>', 'seconds between scheduled passes (default 60)')
      .option(
        '--no-email-match',
        'create contacts at HQ without first linking to an HQ contact with the same email',
      ),
  ).action(async (o: ConfigureOptions) => {
    const rate = number('--rate', o.rate, (n) => n > 0 && n <= 1000, 'a number above 0 and at most 1000');
    const every = number(
      '--every',
      o.every,
      (n) => Number.isInteger(n) && n >= 5 && n <= 86_400,
      'a whole number of seconds from 5 to 86400',
    );
    const secret = o.secret ?? process.env.GIFTDESK_HQ_SECRET;
    const dataDir = resolveDataDir(o);
    const s = await withAccount(o, (ctx) =>
      saveRemoteSettings(
        ctx.store,
        defaultKeySource(dataDir),
        {
          accountId: o.account,
          baseUrl: o.url,
          keyId: o.keyId,
          ...(secret !== undefined ? { secret } : {}),
          remoteAccountId: o.remoteAccount,
          ...(rate !== undefined ? { ratePerSecond: rate } : {}),
          ...(every !== undefined ? { scheduleSeconds: every } : {}),
          emailMatch: o.emailMatch !== false,
        },
        ctx.now(),
      ),
    );
    const shown = {
      accountId: s.accountId,
      baseUrl: s.baseUrl,
      keyId: s.keyId,
      remoteAccountId: s.remoteAccountId,
      ratePerSecond: s.ratePerSecond,
      scheduleSeconds: s.scheduleSeconds,
      emailMatch: s.emailMatch,
      hasSecret: s.hasSecret,
    };
    print(
      o,
      shown,
      () =>
        `Account ${s.accountId} pushes to ${s.baseUrl} (HQ account ${s.remoteAccountId}, key ${s.keyId}) at ${s.ratePerSecond} requests/s, every ${s.scheduleSeconds} s. The secret is stored encrypted.`,
    );
  });

  common(
    sync
      .command('status')
      .description('what is queued, in flight, needing attention and done')
      .option('--account <id>', 'the local account (default: the one that syncs)'),
  ).action(async (o: RunOptions) => {
    const r = await withContext(o, async (ctx) => {
      const accountId = await resolveSyncAccount(ctx, o.account);
      return { accountId, ...(await syncStatus(ctx.store.db, accountId)) };
    });
    const { attention, ...status } = r;
    const c = r.connection;
    print(o, status, () =>
      [
        `${r.waiting} change${r.waiting === 1 ? '' : 's'} waiting (${r.inFlight} in flight), ${r.needsAttention} record${r.needsAttention === 1 ? '' : 's'} need${r.needsAttention === 1 ? 's' : ''} attention, ${r.sent} sent (confirmed by HQ).`,
        `HQ: ${c.state}; last answered ${c.lastAnsweredAt ?? 'never'}${c.lastFailure && c.state !== 'online' && c.state !== 'quiet' ? `; ${c.lastFailure}` : ''}${r.lastError ? `; last error: ${r.lastError}` : ''}${r.pausedUntil ? `; HQ asked us to wait until ${r.pausedUntil}` : ''}.`,
        ...attention.map((a) => `  needs attention: ${a.label} (${a.entityType} ${a.entityId}): ${a.reason}`),
        ...r.failing.map((f) => `  failing (${f.failures}×): ${f.label}: ${f.lastError ?? ''}`),
        ...(r.marksNote ? [r.marksNote] : []),
      ].join('\n'),
    );
  });

  const run = async (o: RunOptions) => {
    const dataDir = resolveDataDir(o);
    const progress = bar(o);
    const out = await withContext(o, async (ctx) => {
      const accountId = await resolveSyncAccount(ctx, o.account);
      if (!(await syncStatus(ctx.store.db, accountId)).configured)
        throw new CliError(
          `Account ${accountId} does not sync to HQ: run giftdesk sync configure --account ${accountId} --url URL --key-id K --secret S --remote-account R first`,
          1,
          'sync_not_configured',
        );
      const engine = createSyncEngine({
        store: ctx.store,
        keys: defaultKeySource(dataDir),
        matchContact: matchContactByEmail,
        makeClient: (cfg) => recordingAnswers(ctx.store, cfg.accountId, defaultClient(cfg)),
      });
      const stop = () => void engine.stop();
      process.once('SIGINT', stop);
      try {
        let stopped: string | null = null;
        let requests = 0;
        // A few passes: a record that failed is retried when its backoff is due (up to ~30 s).
        for (let i = 0; i < 6; i++) {
          const r = await engine.runPass({ accountId, onProgress: (p) => progress.update(p) });
          if (!r.ran) {
            stopped = 'another process (the app or a giftdesk serve) is syncing this database right now';
            break;
          }
          const a = r.accounts[0];
          requests += a?.requests ?? 0;
          stopped = a?.stopped ?? null;
          if (stopped && !/retrying later/.test(stopped)) break;
          const next = await engine.nextRetryAt();
          const counts = await syncStatus(ctx.store.db, accountId);
          if (counts.pending + counts.inFlight === 0 || next === null || next - Date.now() > 30_000) break;
          await new Promise((res) => setTimeout(res, Math.max(0, next - Date.now()) + 50));
        }
        const status = await syncStatus(ctx.store.db, accountId);
        return { accountId, requests, stopped, ...status };
      } finally {
        process.off('SIGINT', stop);
        progress.stop();
        await engine.stop();
      }
    });
    const failed = out.stopped !== null || out.failing.length > 0 || out.pending + out.inFlight > 0;
    const exit = failed ? 1 : out.needsAttention > 0 ? 2 : 0;
    print(o, { ...out, exitCode: exit }, () =>
      [
        `${out.requests} request${out.requests === 1 ? '' : 's'} to HQ. ${out.pending + out.inFlight} change${out.pending + out.inFlight === 1 ? '' : 's'} still to push, ${out.needsAttention} record${out.needsAttention === 1 ? '' : 's'} need${out.needsAttention === 1 ? 's' : ''} attention (giftdesk sync status), ${out.done} done.`,
        ...(out.stopped ? [`Stopped: ${out.stopped}`] : []),
      ].join('\n'),
    );
    process.exitCode = exit;
  };

  common(
    sync
      .command('run')
      .description('push now: one pass with a progress bar (exit 0 done, 2 needs attention, 1 failed)')
      .option('--account <id>', 'the local account (default: the one that syncs)'),
  ).action(run);
  common(sync.option('--account <id>', 'the local account (default: the one that syncs)')).action(run);
}
