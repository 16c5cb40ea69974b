/**
 * `giftdesk hub join URL --code CODE --fingerprint FP [--name NAME]`: this data folder becomes
 * a station of the event hub at URL (electron/sync/station/join.ts). URL may be the hub's join
 * link (what its QR code carries), which holds the code and the fingerprint too. With --json it
 * prints `{"accountId", "station": {"id", "name"}}`.
 *
 * `--replace`: this data folder is a station of a hub that was lost; it moves to the hub at URL
 * and sends it everything typed here again (electron/sync/station/replace.ts). With --json it
 * prints the same, with `"replaced": {"previousHubUrl", "resent", "donors"}`.
 */
import os from 'node:os';
import type { Command } from 'commander';
import { defaultKeySource, joinHub, replaceHub } from '../sync/index.ts';
import { type CommonOptions, common, resolveDataDir, withContext } from './context.ts';
import { print } from './output.ts';

/**
 * How the CLI opens the store for a join, as for an import (data-commands.ts): a join reads the
 * whole event, and each page of the feed writes rows spread over the donors, the gifts and their
 * indexes. A page cache that holds them spares reading them back from the file page after page,
 * and a WAL that grows to a gigabyte before it is copied into the database copies each page
 * once per many pages instead of once per page. Every page's commit is still synced; closing
 * the store copies the rest.
 */
const CLI_JOIN_OPEN = { cacheMiB: 512, walCheckpointMiB: 1024 };

interface JoinOptions extends CommonOptions {
  code?: string;
  fingerprint?: string;
  name?: string;
  replace?: boolean;
}

/** Adds `join` to the `hub` command group. */
export function registerHubJoin(hub: Command): void {
  common(
    hub
      .command('join')
      .description('join an event as a station: this data folder pushes to and reads from the hub at URL')
      .argument('<url>', "the hub's address (https://H:PORT) or its join link")
      .option('--code <code>', 'the pairing code the hub shows (XXXX-XXXX)')
      .option('--fingerprint <fp>', "the hub certificate's fingerprint (sha256:…), pinned from now on")
      .option('--name <name>', "this station's name at the hub (default: this computer's name)")
      .option(
        '--replace',
        'this data folder is a station of a hub that was lost: move it to the hub at URL and send that hub everything typed here again',
      ),
  ).action(async (url: string, o: JoinOptions) => {
    const dataDir = resolveDataDir(o);
    const input = {
      url,
      code: o.code,
      fingerprint: o.fingerprint,
      name: o.name ?? (os.hostname() || 'station'),
    };
    let replaced: { previousHubUrl: string; resent: number; donors: number } | null = null;
    const joined = await withContext(
      o,
      async (ctx) => {
        if (!o.replace) return joinHub(ctx, defaultKeySource(dataDir), input);
        const r = await replaceHub(ctx, defaultKeySource(dataDir), input);
        replaced = { previousHubUrl: r.previousHubUrl, resent: r.resent, donors: r.donors };
        return r;
      },
      { create: !o.replace, ...CLI_JOIN_OPEN },
    );
    print(
      o,
      {
        accountId: joined.accountId,
        station: joined.station,
        ...(replaced ? { replaced } : {}),
        ...(joined.again ? { again: true } : {}),
        marksNote: joined.marksNote,
      },
      () =>
        [
          replaced
            ? `This data folder left the lost hub at ${replaced.previousHubUrl} and is now station "${joined.station.name}" (${joined.station.id}) of the event hub at ${joined.hubUrl}. ${replaced.resent} changes typed here${replaced.donors > 0 ? ` and ${replaced.donors} donors typed at other stations that its gifts need` : ''} go to the new hub; it keeps each once.`
            : joined.again
              ? `This data folder is station "${joined.station.name}" (${joined.station.id}) of the event hub at ${joined.hubUrl} again: the hub took it back, and what was typed here while it was removed goes to the hub now.`
              : `This data folder is now station "${joined.station.name}" (${joined.station.id}) of the event hub at ${joined.hubUrl}, account ${joined.accountName} (${joined.accountId}).`,
          joined.caughtUp
            ? 'Campaigns, donation accounts and the donor directory are here: gifts can be entered now.'
            : 'The hub stopped answering before everything came down: `giftdesk serve` brings the rest when it answers again.',
          `Pinned certificate: ${joined.fingerprint}`,
          ...(joined.marksNote ? [joined.marksNote] : []),
        ].join('\n'),
    );
  });
}
