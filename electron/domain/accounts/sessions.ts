/**
 * Session keys: the keys the desktop window and browser windows open the API with, as opposed
 * to the permanent keys a person makes. The kinds, the browser key's idle expiry, this
 * process as the owner of the desktop key, and the clean-up at start: keys of processes that
 * are gone (or idle too long) revoked, ended session keys forgotten. The keys themselves are
 * made and checked in api-keys.ts.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { DomainContext } from '../context.ts';

/**
 * The kinds of session key; a permanent key has none. 'sign-in': a person's, opened with their
 * email and password (sign-in.ts); it idles out like a browser window's.
 */
export type SessionKind = 'browser' | 'desktop' | 'sign-in';

/**
 * A browser window's key (and a person's sign-in) belongs to the data folder's database, not to one server process:
 * a restart of the server (Ctrl+C and `npm start` again, or a crash) must not lock a tab
 * out in the middle of a gift. It ends when a person ends it, or after this long unused
 * (a tab left open overnight asks for a fresh link in the morning).
 */
export const BROWSER_SESSION_IDLE_MS = 12 * 60 * 60 * 1000;

/** True when a browser key last used (or made) at `lastActive` is past its idle time at `now`. */
export function browserSessionExpired(lastActive: string, now: string): boolean {
  return Date.parse(now) - Date.parse(lastActive) >= BROWSER_SESSION_IDLE_MS;
}

/**
 * This process, as the owner of the session keys it hands out: host, pid and a random part
 * (a pid is reused after a restart; the random part never is).
 */
export const THIS_PROCESS = `${os.hostname()}|${process.pid}|${randomBytes(9).toString('base64url')}`;

/**
 * True while the process named by an owner (`host|pid|random`: a session key's, or a letter
 * print run's) may still be running.
 */
export function ownerMayBeAlive(owner: string): boolean {
  const [host, pidText] = owner.split('|');
  if (owner === THIS_PROCESS) return true;
  if (host !== os.hostname()) return true; // another machine's process: it cannot be asked
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false; // this pid, but an earlier process (the random part differs)
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/**
 * Revokes the session keys of processes that are gone (a crash, kill -9, a power cut: the
 * revocation at shutdown never ran), and browser windows' keys unused for
 * BROWSER_SESSION_IDLE_MS. Run at start; returns how many were revoked. Such keys already
 * fail everywhere (a desktop key works only in its own process, an idle browser key nowhere),
 * so this makes the list of keys say so too.
 */
export async function revokeOrphanedSessionKeys(ctx: DomainContext): Promise<number> {
  const live = await ctx.store.db
    .selectFrom('apiKeys')
    .select(['id', 'sessionKind', 'sessionOwner', 'createdAt', 'lastUsedAt'])
    .where('sessionKind', 'is not', null)
    .where('revokedAt', 'is', null)
    .execute();
  const now = ctx.now();
  const gone = live
    .filter((k) =>
      k.sessionOwner !== null
        ? !ownerMayBeAlive(k.sessionOwner)
        : browserSessionExpired(k.lastUsedAt ?? k.createdAt, now),
    )
    .map((k) => k.id);
  if (gone.length === 0) return 0;
  const at = ctx.now();
  await ctx.store.write((trx) =>
    trx
      .updateTable('apiKeys')
      .set({ revokedAt: at })
      .where('id', 'in', gone)
      .where('revokedAt', 'is', null)
      .execute(),
  );
  return gone.length;
}

/**
 * Deletes the session keys that have ended (revoked: their process stopped, crashed and was
 * cleaned up above, or a person ended them). They are dead everywhere already and were never
 * keys a person made; kept, every browser window of every past run would pile up in the list.
 * Run at start, after revokeOrphanedSessionKeys; returns how many went.
 */
export async function forgetEndedSessionKeys(ctx: DomainContext): Promise<number> {
  const r = await ctx.store.write((trx) =>
    trx
      .deleteFrom('apiKeys')
      .where('sessionKind', 'is not', null)
      .where('revokedAt', 'is not', null)
      .executeTakeFirst(),
  );
  return Number(r.numDeletedRows);
}
