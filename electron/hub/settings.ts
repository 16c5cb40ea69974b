/**
 * What the hub keeps of itself per account: the certificate's fingerprint, the address it last
 * served on (what `giftdesk hub code` prints beside a running hub), the address it was told to
 * listen on (to serve there again), when its server last started serving (the close-out counts
 * only the stations' reports since), and which account a hub command acts for when none is
 * named.
 */
import type { Db } from '../db/store.ts';
import { listAccounts } from '../domain/accounts/index.ts';
import { type DomainContext, DomainError } from '../domain/index.ts';

export interface HubSettings {
  accountId: string;
  fingerprint: string;
  url: string | null;
  /** When its server last started serving the event. */
  servedAt: string | null;
  /** The address it was told to listen on (null: not recorded, e.g. before this was kept). */
  bindHost: string | null;
  createdAt: string;
}

export async function getHubSettings(db: Db, accountId: string): Promise<HubSettings | null> {
  const row = await db
    .selectFrom('hubSettings')
    .select(['accountId', 'fingerprint', 'url', 'servedAt', 'bindHost', 'createdAt'])
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return row ?? null;
}

/** Every account whose event this GiftDesk hosts (served now or not). */
export async function hostedEvents(db: Db): Promise<HubSettings[]> {
  return db
    .selectFrom('hubSettings')
    .select(['accountId', 'fingerprint', 'url', 'servedAt', 'bindHost', 'createdAt'])
    .orderBy('accountId')
    .execute();
}

/** The account's hub settings, or a 404 saying it hosts no event. */
export async function requireHubSettings(db: Db, accountId: string): Promise<HubSettings> {
  const s = await getHubSettings(db, accountId);
  if (!s)
    throw new DomainError(
      'not_found',
      'hub_not_hosted',
      `Account ${accountId} does not host an event on this GiftDesk: start it as the event's hub first (Settings → Event → Host this event, or giftdesk serve --hub)`,
      [{ field: 'accountId', issue: 'hosts no event here' }],
    );
  return s;
}

/**
 * Records that this GiftDesk serves the account's event from now: its fingerprint, the address
 * shown to stations, the address it listens on, and the time it started serving (now).
 */
export async function saveHubSettings(
  ctx: DomainContext,
  s: { accountId: string; fingerprint: string; url: string | null; bindHost: string },
): Promise<HubSettings> {
  const at = ctx.now();
  await ctx.store.write((trx) =>
    trx
      .insertInto('hubSettings')
      .values({
        accountId: s.accountId,
        fingerprint: s.fingerprint,
        url: s.url,
        servedAt: at,
        bindHost: s.bindHost,
        createdAt: at,
        updatedAt: at,
      })
      .onConflict((oc) =>
        oc.column('accountId').doUpdateSet({
          fingerprint: s.fingerprint,
          url: s.url,
          servedAt: at,
          bindHost: s.bindHost,
          updatedAt: at,
        }),
      )
      .execute(),
  );
  return (await getHubSettings(ctx.store.db, s.accountId))!;
}

/**
 * The account a hub command acts for: the one named; else (`preferHosting`: the commands run
 * beside a hub) the only account hosting an event; else the only account. Anything else is
 * the caller's to say (`problem`).
 */
export async function chooseHubAccount(
  ctx: DomainContext,
  named: string | undefined,
  opts: { preferHosting?: boolean } = {},
): Promise<{ accountId: string } | { problem: string }> {
  const accounts = await listAccounts(ctx);
  if (named !== undefined) {
    if (accounts.some((a) => a.id === named)) return { accountId: named };
    return { problem: `there is no account ${named} in this data folder` };
  }
  const hosting = opts.preferHosting
    ? await ctx.store.db.selectFrom('hubSettings').select('accountId').execute()
    : [];
  if (hosting.length === 1) return { accountId: hosting[0]!.accountId };
  if (accounts.length === 1) return { accountId: accounts[0]!.id };
  if (accounts.length === 0)
    return {
      problem: 'this data folder has no account yet: create one with `giftdesk account create --name …`',
    };
  return {
    problem: `this data folder has ${accounts.length} accounts: say which one with --account (${accounts
      .map((a) => `${a.id} ${a.name}`)
      .join(', ')})`,
  };
}
