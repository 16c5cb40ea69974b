/**
 * `giftdesk hub …`: the event hub's commands for the person hosting, run beside a running hub
 * on the same data folder (the database takes both; a code made here is in the database, so
 * the running hub accepts it): a fresh pairing code, the stations, revoking one, the close-out.
 */
import { formatDollars } from '#shared/money.ts';
import type { CloseOut, CloseOutStation, HubStation } from '#shared/schemas/hub.ts';
import type { Command } from 'commander';
import type { DomainContext } from '../domain/index.ts';
import {
  AT_THE_HUB,
  chooseHubAccount,
  closeOut,
  createPairingCode,
  listStations,
  requireHubSettings,
  revokeStation,
} from '../hub/index.ts';
import { joinLinkFor } from '#shared/hub-link.ts';
import { type CommonOptions, common, withContext } from './context.ts';
import { CliError, print } from './output.ts';

type AccountOption = CommonOptions & { account?: string };

/** The account a command acts for: --account, else the only one hosting an event, else the only one. */
async function accountFor(ctx: DomainContext, o: AccountOption): Promise<string> {
  const chosen = await chooseHubAccount(ctx, o.account, { preferHosting: true });
  if ('problem' in chosen) throw new CliError(chosen.problem, 64, 'usage');
  return chosen.accountId;
}

function stationLine(s: HubStation): string {
  const state = s.revokedAt
    ? `revoked ${s.revokedAt}`
    : `last seen ${s.lastSeenAt ?? 'never'}, ${s.waiting ?? '?'} waiting`;
  return `${s.id}  ${s.name}  ${s.received} gifts received  (${state})`;
}

/** "21:05": a time of tonight on this machine's clock. */
function hhmm(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
}

/** Where a station stands, in a few words (the close-out's `state`). */
function standing(s: CloseOutStation): string {
  switch (s.state) {
    case 'complete':
      return 'complete';
    case 'revoked':
      return `NOT COMPLETE: revoked — not known after ${s.revokedAt ? hhmm(s.revokedAt) : '?'}`;
    case 'not_reported':
      return s.reportedAt === null
        ? 'NOT COMPLETE: the station has not reported'
        : 'NOT COMPLETE: the station has not reported since the hub started serving again';
    default:
      return `NOT COMPLETE: it says it entered ${s.reportedEntered ?? '?'} gifts, ${s.waiting ?? '?'} changes still waiting`;
  }
}

function batchLines(s: CloseOutStation): string[] {
  return s.batches.map(
    (b) =>
      `  batch ${b.batchName}: entered ${formatDollars(b.enteredTotal)}, counted ${formatDollars(b.countedTotal)}${b.difference === 0 ? '' : ` (difference ${formatDollars(b.difference)})`} by ${b.countedBy} at ${hhmm(b.countedAt)}`,
  );
}

function closeOutText(c: CloseOut): string {
  const methods = (m: CloseOut['byMethod']) =>
    Object.entries(m)
      .map(([k, v]) => `${k}: ${v.gifts} (${formatDollars(v.total)})`)
      .join(', ') || 'no gifts';
  return [
    ...c.stations.flatMap((s) => [
      `${s.name} (${s.id}): ${s.gifts} gifts, ${formatDollars(s.total)} — ${methods(s.byMethod)}  ${s.id === AT_THE_HUB.id ? '' : standing(s)}`.trimEnd(),
      ...batchLines(s),
    ]),
    `Event: ${c.gifts} gifts, ${formatDollars(c.total)} — ${methods(c.byMethod)}`,
    `Deposit: cash ${formatDollars(c.cashTotal)}; ${c.checks.length} checks`,
    ...c.checks.map(
      (k) => `  check ${k.checkNumber ? `#${k.checkNumber} ` : ''}${formatDollars(k.amount)}  ${k.donor}`,
    ),
  ].join('\n');
}

export function registerHubCommands(hub: Command): void {
  common(
    hub
      .command('code')
      .description('a fresh one-time pairing code for a station (good for 10 minutes)')
      .option('--account <id>', 'the account whose event it is (default: the one hosting)')
      .option('--only', 'make it the only good code: every older code not used yet stops working'),
  ).action(async (o: AccountOption & { only?: boolean }) => {
    const r = await withContext(o, async (ctx) => {
      const accountId = await accountFor(ctx, o);
      const settings = await requireHubSettings(ctx.store.db, accountId);
      const code = await createPairingCode(ctx, accountId, { only: o.only === true });
      const joinLink = settings.url
        ? joinLinkFor({ url: settings.url, code: code.code, fingerprint: settings.fingerprint })
        : null;
      return { ...code, url: settings.url, fingerprint: settings.fingerprint, joinLink };
    });
    print(o, r, () =>
      [
        `Pairing code: ${r.code} (one station; good until ${r.expiresAt})`,
        ...(o.only
          ? [`Older codes not used yet: ${r.retired === 0 ? 'none' : r.retired} (they no longer work)`]
          : []),
        `Hub: ${r.url ?? '(not served yet)'}`,
        `Fingerprint: ${r.fingerprint}`,
      ].join('\n'),
    );
  });

  common(
    hub
      .command('stations')
      .description("the event's stations: last contact, gifts received, what each still has waiting")
      .option('--account <id>', 'the account whose event it is (default: the one hosting)'),
  ).action(async (o: AccountOption) => {
    const stations = await withContext(o, async (ctx) => listStations(ctx, await accountFor(ctx, o)));
    print(o, { stations }, () =>
      stations.length === 0 ? 'No station has paired yet.' : stations.map(stationLine).join('\n'),
    );
  });

  common(
    hub
      .command('revoke')
      .description('remove a station from the event: its key stops working at once')
      .argument('<stationId>', 'the station (giftdesk hub stations lists them)'),
  ).action(async (stationId: string, o: CommonOptions) => {
    const r = await withContext(o, (ctx) => revokeStation(ctx, stationId));
    print(o, r, () => `Revoked station ${r.id} (at ${r.revokedAt})`);
  });

  common(
    hub
      .command('close')
      .description(
        "closing the night: each station's gifts and totals by payment method, the event's, the deposit",
      )
      .option('--account <id>', 'the account whose event it is (default: the one hosting)'),
  ).action(async (o: AccountOption) => {
    const c = await withContext(o, async (ctx) => closeOut(ctx, await accountFor(ctx, o)));
    print(o, c, () => closeOutText(c));
  });
}
