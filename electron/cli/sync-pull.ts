/**
 * `giftdesk sync pull` and `giftdesk sync link` / `giftdesk sync links`: HQ's directory and
 * reference data down into this database, and HQ ids for local campaigns, committees and
 * donation accounts (electron/sync/pull/pull.ts, reference.ts).
 */
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import type { DomainContext } from '../domain/index.ts';
import {
  type PullProgress,
  type PullRun,
  type ReferenceKind,
  hqTakesMarks,
  linkReference,
  listReferenceLinks,
  pullHqNote,
  openRemote,
  pullFromHq,
  resolveSyncAccount,
  saidByHqNote,
  unlinkReference,
} from '../sync/index.ts';
import { type CommonOptions, common, resolveDataDir, withContext } from './context.ts';
import { CliError, print } from './output.ts';

interface AccountOption extends CommonOptions {
  account?: string;
}

/** A progress bar on a terminal (stderr a TTY, not --json): pages of HQ's directory. */
function progressBar(o: CommonOptions): { update(p: PullProgress): void; stop(): void } {
  if (o.json || !process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      format: 'pulling from HQ [{bar}] {value}/{total} pages | {phase} | ETA {eta_formatted}',
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const total = p.pagesTotal ?? Math.max(1, p.pagesDone + 1);
      if (!started) {
        bar.start(total, p.pagesDone, {
          phase: p.phase === 'reference' ? 'campaigns and fields' : 'contacts',
        });
        started = true;
      }
      bar.setTotal(total);
      bar.update(p.pagesDone, { phase: p.phase === 'reference' ? 'campaigns and fields' : 'contacts' });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

function pullSummary(r: PullRun, hqNote: string | null): string {
  const c = r.counts;
  const lines = [
    r.status === 'done'
      ? `Pulled ${r.pagesDone} page${r.pagesDone === 1 ? '' : 's'} of contacts from HQ: ${c.created} added, ${c.updated} updated, ${c.linked} linked to contacts already here, ${c.unchanged} unchanged.`
      : `The pull stopped after ${r.pagesDone}${r.pagesTotal ? ` of ${r.pagesTotal}` : ''} pages: ${r.error ?? 'unknown error'}`,
  ];
  if (c.kept > 0)
    lines.push(
      `${c.kept} contact${c.kept === 1 ? '' : 's'} kept local changes that are not pushed yet (local intent wins; the push sends them to HQ).`,
    );
  if (c.deferred > 0)
    lines.push(
      `${c.deferred} HQ contact${c.deferred === 1 ? '' : 's'} look like contacts entered here and not pushed yet: the push links them.`,
    );
  if (c.reference > 0)
    lines.push(
      `${c.reference} campaign${c.reference === 1 ? '' : 's'}, committees or donation accounts added or linked.`,
    );
  // An HQ of the donor API alone is said once, in one sentence, instead of a line per kind.
  if (hqNote) lines.push(`note: ${hqNote}`);
  for (const n of r.notes) if (!hqNote || !saidByHqNote(n)) lines.push(`note: ${n}`);
  return lines.join('\n');
}

const KIND_OPTION: Array<[ReferenceKind, 'campaign' | 'committee' | 'donationAccount']> = [
  ['campaign', 'campaign'],
  ['committee', 'committee'],
  ['donationAccount', 'donationAccount'],
];

export function registerSyncPullCommands(sync: Command): void {
  common(
    sync
      .command('pull')
      .description(
        "bring HQ's contacts (and campaigns, committees, donation accounts where HQ lists them) into this database",
      )
      .option('--account <id>', 'local account (default: the one account that syncs)')
      .option('--contacts-only', 'skip campaigns, committees, donation accounts and custom fields'),
  ).action(async (o: AccountOption & { contactsOnly?: boolean }) => {
    const { run, hqNote, thankYouMarks } = await withContext(o, async (ctx) => {
      const { remote, config, close } = await openRemote(ctx, resolveDataDir(o), o.account);
      const bar = progressBar(o);
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      try {
        const pulled = await pullFromHq({
          ctx,
          remote,
          accountId: config.accountId,
          remoteAccountId: config.remoteAccountId,
          emailMatch: config.emailMatch,
          contactsOnly: o.contactsOnly,
          signal: stop.signal,
          onProgress: (p) => bar.update(p),
        });
        const takes = o.contactsOnly ? null : await hqTakesMarks(ctx.store.db, config.accountId);
        return { run: pulled, hqNote: pullHqNote(pulled, takes), thankYouMarks: takes };
      } finally {
        process.off('SIGINT', onSignal);
        bar.stop();
        close();
      }
    });
    // --json: the run as before, with what HQ does not take (hqTakesThankYouMarks: null when not asked).
    print(o, { ...run, hqTakesThankYouMarks: thankYouMarks, hqNote }, () => pullSummary(run, hqNote));
    if (run.status !== 'done') process.exitCode = 1;
  });

  common(
    sync
      .command('link')
      .description(
        'link a local campaign, committee or donation account to its id at HQ (checked at HQ first)',
      )
      .option('--account <id>', 'local account (default: the one account that syncs)')
      .option('--campaign <localId>', 'the local campaign')
      .option('--committee <localId>', 'the local committee')
      .option('--donation-account <localId>', 'the local donation account')
      .option('--remote <hqId>', "HQ's id for it")
      .option('--unlink', 'remove its link instead (gifts for it wait until it is linked again)'),
  ).action(
    async (
      o: AccountOption & {
        campaign?: string;
        committee?: string;
        donationAccount?: string;
        remote?: string;
        unlink?: boolean;
      },
    ) => {
      const chosen = KIND_OPTION.flatMap(([kind, key]) =>
        o[key] !== undefined ? [{ kind, localId: o[key]! }] : [],
      );
      if (chosen.length !== 1)
        throw new CliError(
          'name exactly one of --campaign, --committee or --donation-account (run with --help for usage)',
          64,
          'usage',
        );
      const { kind, localId } = chosen[0]!;
      if (o.unlink && o.remote !== undefined)
        throw new CliError('--unlink and --remote do not go together', 64, 'usage');
      if (!o.unlink && o.remote === undefined)
        throw new CliError("--remote <hqId> is required (HQ's id for it), or --unlink", 64, 'usage');
      if (o.unlink) {
        const r = await withContext(o, async (ctx) => {
          const accountId = await accountFor(ctx, o.account);
          return { kind, localId, ...(await unlinkReference(ctx, accountId, kind, localId)) };
        });
        print(o, r, () =>
          r.unlinked
            ? `Unlinked ${localId}; gifts for it wait until it is linked again.`
            : `${localId} was not linked.`,
        );
        return;
      }
      const r = await withContext(o, async (ctx) => {
        const { remote, config, close } = await openRemote(ctx, resolveDataDir(o), o.account);
        try {
          return await linkReference(ctx, remote, {
            accountId: config.accountId,
            remoteAccountId: config.remoteAccountId,
            kind,
            localId,
            remoteId: o.remote!,
          });
        } finally {
          close();
        }
      });
      print(o, r, () =>
        [
          `Linked ${localId} to HQ's ${r.remoteId}${r.remoteName ? ` ("${r.remoteName}" at HQ)` : ''}${r.replaced ? ` (was ${r.replaced})` : ''}.`,
          ...(r.checked
            ? []
            : [
                `note: HQ has no way to read ${kind === 'committee' ? 'committees' : 'donation accounts'}, so the id could not be checked; if it is wrong, HQ refuses the first gift and it shows under needs attention.`,
              ]),
        ].join('\n'),
      );
    },
  );

  common(
    sync
      .command('links')
      .description('list local campaigns, committees and donation accounts with their HQ ids')
      .option('--account <id>', 'local account (default: the one account that syncs)'),
  ).action(async (o: AccountOption) => {
    const data = await withContext(o, async (ctx) =>
      listReferenceLinks(ctx, await accountFor(ctx, o.account)),
    );
    print(o, { data }, () =>
      data.length === 0
        ? 'No campaigns, committees or donation accounts yet.'
        : data
            .map(
              (l) =>
                `${l.kind.padEnd(16)} ${l.localId}  ${l.name}  →  ${l.remoteId ?? 'not linked (gifts for it wait)'}`,
            )
            .join('\n'),
    );
  });
}

function accountFor(ctx: DomainContext, account: string | undefined): Promise<string> {
  return resolveSyncAccount(ctx, account);
}
