/**
 * The email match before a contact's create: HQ may hold this person already (typed in at
 * HQ, or pulled). The matcher (email-match.ts) names HQ's contact with the email, if any; it
 * is read (the list has no tags) and, in one transaction:
 * - linked to by another local contact already, or gone at HQ since → nothing: ours is created;
 * - its `gd:` tag names this contact (its sync identity, sync-identity.ts: its own id, or the
 *   one it came with from another GiftDesk) → our own earlier create, landed after it was
 *   looked for, or the same record sent to HQ by another path: linked (`found`);
 * - its tag names ANOTHER contact of this device (a namesake with the same email) → never
 *   ours: that contact is linked to it (unless its own create is still unknown: its reconcile
 *   will find it), and ours is created;
 * - no GiftDesk tag → the same person, entered at HQ: linked (`email`), not created.
 */
import { type RemoteKind, saidOf } from '../net/remote-words.ts';
import type { Store } from '../../db/store.ts';
import { connectionProblem } from '../net/connection-problem.ts';
import type { RemoteClient, RemoteResult } from '../net/http-client.ts';
import { sentContactIdentity } from './identity.ts';
import { backOff, type RecordDeps } from './answers.ts';
import type { RemoteConfig } from '../remote/settings.ts';
import { linkRemote, localIdFor, remoteIdFor } from '../outbox/links.ts';
import { getItem } from '../outbox/items.ts';
import { contactsByOrigin, identityOf } from './sync-identity.ts';

/**
 * Before creating a contact at HQ: an HQ contact to link to instead (email-match.ts), or null.
 * `pass` is the same object for every call of one account pass (one directory read per pass).
 */
export type ContactMatcher = (args: {
  client: RemoteClient;
  remoteAccountId: string;
  accountId: string;
  contactId: string;
  email: string;
  store: Store;
  now: () => number;
  pass: object;
}) => Promise<string | null>;

export interface EmailLinkInput {
  /** The store, clock and jitter a failure backs the record off with (answers.ts). */
  deps: RecordDeps;
  matcher: ContactMatcher;
  /** The engine's client for the remote, handed to the matcher. */
  client: RemoteClient;
  /** One GET through that client under the lease (under-lease.ts). */
  get: (path: string, query: Record<string, string | number>) => Promise<RemoteResult>;
  /** Called for every request this step sends itself. */
  counted: () => void;
  /** The remote; `lastError` is set when HQ refuses the key. */
  cfg: Pick<RemoteConfig, 'accountId' | 'baseUrl' | 'remoteAccountId' | 'lastError'> & {
    kind?: RemoteKind | undefined;
  };
  contactId: string;
  email: string;
  /** The same object for every call of one account pass. */
  pass: object;
}

/**
 * `checked`: the match is done (linked or not; the record is prepared again); `failed`: the
 * match or the read failed, the record backs off; `auth`: HQ refused the key.
 */
export async function linkByEmail(i: EmailLinkInput): Promise<'checked' | 'failed' | 'auth'> {
  const { cfg } = i;
  const store: Store = i.deps.store;
  const e = { entityType: 'contact' as const, entityId: i.contactId };
  let found: string | null;
  try {
    found = await i.matcher({
      client: i.client,
      remoteAccountId: cfg.remoteAccountId,
      accountId: cfg.accountId,
      contactId: e.entityId,
      email: i.email,
      store,
      now: i.deps.clock,
      pass: i.pass,
    });
  } catch (err) {
    await backOff(i.deps, e, err instanceof Error ? err.message : String(err));
    return 'failed';
  }
  if (found) {
    const taken = await store.db
      .selectFrom('syncLinks')
      .select('localId')
      .where('accountId', '=', cfg.accountId)
      .where('entityType', '=', 'contact')
      .where('remoteId', '=', found)
      .executeTakeFirst();
    if (taken) return 'checked'; // that HQ contact is linked to another local one already: create ours
    // HQ's list does not show tags: read the one contact matched (a read instead of the create).
    i.counted();
    const read = await i.get(`/contacts/${encodeURIComponent(found)}`, { accountId: cfg.remoteAccountId });
    const problem = connectionProblem(read, cfg.baseUrl, cfg.kind);
    if (read.status === 401 || read.status === 403) {
      cfg.lastError = saidOf(cfg.kind, problem?.sentence ?? `HQ refused the API key (${read.status})`);
      return 'auth';
    }
    if (read.status === 404) return 'checked'; // gone at HQ since: create ours
    if (read.outcome !== 'applied') {
      await backOff(
        i.deps,
        e,
        problem?.sentence ??
          `reading HQ's contact ${found} before linking to it: ${read.error?.message ?? read.networkError?.message ?? read.status ?? 'no answer'}`,
      );
      return 'failed';
    }
    // The record GiftDesk created it for: the one its reference (its last `gd:` tag) names. An
    // earlier `gd:` tag is a mention a person typed: it makes the contact nobody's.
    const own = sentContactIdentity((read.body as { tags?: unknown } | null)?.tags);
    const owners = own === null ? [] : [own];
    const names = new Set(
      [e.entityId, await identityOf(store.db, 'contact', e.entityId)].map((n) => n.toLowerCase()),
    );
    await store.write(async (trx) => {
      const at = new Date(i.deps.clock()).toISOString();
      if (await localIdFor(trx, cfg.accountId, 'contact', found)) return; // linked meanwhile by another lane: create ours
      if (owners.some((o) => names.has(o.toLowerCase()))) {
        // This contact's own earlier create, landed after it was looked for (or the same
        // contact sent to HQ by the GiftDesk it came from): it is ours.
        await linkRemote(trx, {
          accountId: cfg.accountId,
          entityType: 'contact',
          localId: e.entityId,
          remoteId: found,
          source: 'found',
          at,
        });
        return;
      }
      // GiftDesk created it for ANOTHER contact of this device: never this one's. HQ holds
      // that contact, so it is linked to it (its create is then not sent twice); ours is created.
      const mine =
        owners.length === 0
          ? []
          : await trx
              .selectFrom('syncItems')
              .select('entityId')
              .where('accountId', '=', cfg.accountId)
              .where('entityType', '=', 'contact')
              .where('entityId', 'in', owners)
              .execute();
      const contacts =
        owners.length === 0
          ? []
          : await trx
              .selectFrom('contacts')
              .select('id')
              .where('accountId', '=', cfg.accountId)
              .where('id', 'in', owners)
              .execute();
      // A contact that came from another GiftDesk is named by the id it came with.
      const origins = await contactsByOrigin(trx, cfg.accountId, owners);
      const local = new Set([...mine.map((m) => m.entityId), ...contacts.map((c) => c.id), ...origins]);
      local.delete(e.entityId);
      if (local.size === 0) {
        await linkRemote(trx, {
          accountId: cfg.accountId,
          entityType: 'contact',
          localId: e.entityId,
          remoteId: found,
          source: 'email',
          at,
        });
        return;
      }
      for (const owner of local) {
        const item = await getItem(trx, 'contact', owner);
        if (item && (item.state === 'unknown' || item.state === 'in_flight')) continue; // its reconcile will find it
        if ((await remoteIdFor(trx, 'contact', owner)) === null)
          await linkRemote(trx, {
            accountId: cfg.accountId,
            entityType: 'contact',
            localId: owner,
            remoteId: found,
            source: 'found',
            at,
          });
        break;
      }
    });
  }
  return 'checked';
}
