/**
 * `giftdesk hub leave [--to-hq URL --key-id K --secret S --remote-account R]`: this data folder
 * stops being a station of its event (electron/sync/station/leave.ts). Without --to-hq only when
 * the hub has confirmed everything typed here; with it, HQ (the settings `sync configure`
 * takes) becomes the account's remote and everything typed here goes to HQ, once. With --json it
 * prints `{"accountId", "hubUrl", "hq": {"baseUrl", "remoteAccountId"} | null, "resent", "pulled"}`.
 */
import type { Command } from 'commander';
import { defaultKeySource, leaveEvent } from '../sync/index.ts';
import { type CommonOptions, common, resolveDataDir, withContext } from './context.ts';
import { CliError, print } from './output.ts';

interface LeaveOptions extends CommonOptions {
  toHq?: string;
  keyId?: string;
  secret?: string;
  remoteAccount?: string;
  rate?: string;
  every?: string;
  emailMatch?: boolean;
}

function numberOption(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(v.trim()))
    throw new CliError(`${flag} must be a number, not "${v}"`, 64, 'usage');
  return Number(v);
}

/** HQ's settings from the options, or undefined without --to-hq; a usage error when one is missing. */
function hqTarget(o: LeaveOptions) {
  const secret = o.secret ?? process.env.GIFTDESK_HQ_SECRET;
  if (o.toHq === undefined) {
    if (o.keyId || o.remoteAccount || o.secret)
      throw new CliError('--key-id, --secret and --remote-account go with --to-hq URL', 64, 'usage');
    return undefined;
  }
  if (!o.keyId || !secret || !o.remoteAccount)
    throw new CliError(
      '--to-hq needs --key-id, --secret (or GIFTDESK_HQ_SECRET) and --remote-account',
      64,
      'usage',
    );
  const rate = numberOption('--rate', o.rate);
  const every = numberOption('--every', o.every);
  return {
    baseUrl: o.toHq,
    keyId: o.keyId,
    secret,
    remoteAccountId: o.remoteAccount,
    ...(rate !== undefined ? { ratePerSecond: rate } : {}),
    ...(every !== undefined ? { scheduleSeconds: every } : {}),
    emailMatch: o.emailMatch !== false,
  };
}

/** Adds `leave` to the `hub` command group. */
export function registerHubLeave(hub: Command): void {
  common(
    hub
      .command('leave')
      .description(
        'stop being a station of the event: refused while changes have not reached the hub, unless they are handed to HQ (--to-hq)',
      )
      .option(
        '--to-hq <url>',
        "HQ's base URL: HQ becomes this data folder's remote and gets everything typed here",
      )
      .option('--key-id <keyId>', "HQ's API key id")
      .option('--secret <secret>', "HQ's API secret (env GIFTDESK_HQ_SECRET also works)")
      .option('--remote-account <id>', 'the account id at HQ')
      .option('--rate <n>', 'requests per second to HQ (default 5)')
      .option('--every <seconds>', 'seconds between scheduled passes (default 60)')
      .option(
        '--no-email-match',
        'create contacts at HQ without first linking to an HQ contact with the same email',
      ),
  ).action(async (o: LeaveOptions) => {
    const toHq = hqTarget(o);
    const dataDir = resolveDataDir(o);
    const left = await withContext(o, (ctx) => leaveEvent(ctx, defaultKeySource(dataDir), { toHq }));
    print(o, left, () =>
      [
        `This data folder is no longer a station of the event hub at ${left.hubUrl}.`,
        left.hq
          ? `It syncs to HQ at ${left.hq.baseUrl} (HQ account ${left.hq.remoteAccountId}): ${left.resent} changes typed here go to HQ, which keeps each once (run giftdesk serve, or giftdesk sync, to send them).`
          : 'The hub had confirmed everything typed here; it takes it on to HQ.',
        ...(left.pulled && !left.pulled.ok
          ? [
              `HQ's campaigns and donors did not all come down (${left.pulled.message}): run giftdesk sync pull before sending.`,
            ]
          : []),
      ].join('\n'),
    );
  });
}
