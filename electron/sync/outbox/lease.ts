/**
 * One engine per database: a lease row (`sync_lease`, name 'push'). A process pushes only
 * while it holds an unexpired lease; it renews it in the very transaction that marks an item
 * in flight, and again right before each request leaves (after the pacer's wait), so a request
 * only ever leaves under a live lease, and every request a holder sent left at or before the
 * lease row's `renewedAt`.
 *
 * Taking over from another holder:
 * - after its lease expired (LEASE_MS ≫ a request's deadline): any request it sent has
 *   finished or timed out long ago;
 * - at once, when the holder was a process on THIS machine that no longer exists (kill -9, a
 *   crash, power cut of the app alone). The holder id names its machine, its process id and its
 *   request deadline (`processHolderId`): `gd1/<host>/<pid>/<deadline ms>/<random>`. The host
 *   key is the hostname plus, on Linux, the boot id and the pid namespace, so a container or
 *   another machine sharing the database (PostgreSQL) with the same hostname is never taken
 *   for this one. `process.kill(pid, 0)` failing with ESRCH is the only proof of death; a live
 *   pid (our own process included: tests run two engines in one process), EPERM (another
 *   user's live process), an unreaped zombie, another host, or a holder id that is not ours
 *   to parse (set by hand) all keep the expiry rule. PID reuse can only make a dead holder
 *   look alive, which is the safe direction (it falls back to waiting for expiry).
 *
 * Why an early takeover keeps exactly-once: the dead process cannot send anything more, but a
 * request it sent just before dying may still be running at HQ (HQ does not stop work when the
 * client's connection drops). Every such request left at or before the row's `renewedAt` and
 * its sender would have given up on it by `renewedAt + deadline`. So the grant carries
 * `inFlightSettledAt = renewedAt + 2 × deadline` (the deadline, plus the same again for HQ to
 * finish work it accepted before the deadline — as long as the old rule gave in production:
 * 30 s lease = 2 × 15 s deadline). The engine marks the dead holder's in-flight records
 * `unknown` with nextTryAt = that time: they are reconciled (looked for at HQ) only then, never
 * while a POST of theirs could still land; a donation waiting on an unknown contact waits with
 * it (no remote id yet). Every other record is pushed at once: nothing of theirs was sent.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db, Store } from '../../db/store.ts';

export const LEASE_NAME = 'push';
export const LEASE_MS = 30_000;

const iso = (ms: number) => new Date(ms).toISOString();

let hostKeyCache: string | null = null;

/** This machine (and pid namespace): the hostname, plus on Linux the boot id and pid namespace. */
export function hostKey(): string {
  if (hostKeyCache !== null) return hostKeyCache;
  const parts = [os.hostname() || 'localhost'];
  if (process.platform === 'linux') {
    try {
      parts.push(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
    } catch {
      /* not readable: the hostname alone */
    }
    try {
      parts.push(readlinkSync('/proc/self/ns/pid').replace(/\D/g, ''));
    } catch {
      /* likewise */
    }
  }
  hostKeyCache = parts.map((p) => encodeURIComponent(p)).join('+');
  return hostKeyCache;
}

/**
 * A holder id for this process: `gd1/<host key>/<pid>/<request deadline ms>/<random>`. The
 * deadline is the longest any request of this holder may stay unanswered before it gives up
 * (the engine's clients must not wait longer).
 */
export function processHolderId(
  requestTimeoutMs: number,
  pid: number = process.pid,
  host: string = hostKey(),
): string {
  return `gd1/${host}/${pid}/${Math.ceil(requestTimeoutMs)}/${randomBytes(6).toString('hex')}`;
}

export interface ParsedHolder {
  host: string;
  pid: number;
  requestTimeoutMs: number;
}

/** The parts of a `processHolderId`, or null for any other string (it keeps the expiry rule). */
export function parseHolder(holder: string): ParsedHolder | null {
  const m = /^gd1\/([^/]+)\/(\d{1,10})\/(\d{1,9})\/[0-9a-f]+$/.exec(holder);
  if (!m) return null;
  const pid = Number(m[2]);
  const requestTimeoutMs = Number(m[3]);
  if (
    !Number.isSafeInteger(pid) ||
    pid <= 1 ||
    !Number.isSafeInteger(requestTimeoutMs) ||
    requestTimeoutMs <= 0
  )
    return null;
  return { host: m[1]!, pid, requestTimeoutMs };
}

/** True only when the process is proven gone: kill(pid, 0) says ESRCH. */
function processIsGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * A holder that may be taken over before its lease expires: one of this machine's processes
 * that no longer exists. Returns its request deadline, or null (the expiry rule applies).
 */
export function deadHolderHere(holder: string): ParsedHolder | null {
  const p = parseHolder(holder);
  if (!p || p.host !== hostKey()) return null;
  return processIsGone(p.pid) ? p : null;
}

export interface LeaseGrant {
  /** True when the lease was taken from nobody or from a previous holder (not a renewal). */
  fresh: boolean;
  /**
   * Set when the lease was taken from a dead process before it expired: until this time (ms
   * since epoch) a request that process sent may still be running at HQ, so what it had in
   * flight must not be looked for (reconciled) before then. Null otherwise.
   */
  inFlightSettledAt: number | null;
}

/**
 * Takes or renews the lease; null when another live holder has it. `name`: another lease of
 * the same rules (a station's feed reader takes one per account, station/feed-loop.ts).
 */
export async function acquireLease(
  store: Store,
  holder: string,
  nowMs: number,
  ttlMs = LEASE_MS,
  name = LEASE_NAME,
): Promise<LeaseGrant | null> {
  return store.write(async (trx) => {
    const row = await trx.selectFrom('syncLease').selectAll().where('name', '=', name).executeTakeFirst();
    const at = iso(nowMs);
    const expires = iso(nowMs + ttlMs);
    if (!row) {
      await trx
        .insertInto('syncLease')
        .values({ name, holder, acquiredAt: at, renewedAt: at, expiresAt: expires })
        .execute();
      return { fresh: true, inFlightSettledAt: null };
    }
    if (row.holder === holder) {
      await trx
        .updateTable('syncLease')
        .set({ renewedAt: at, expiresAt: expires })
        .where('name', '=', name)
        .where('holder', '=', holder)
        .execute();
      return { fresh: false, inFlightSettledAt: null };
    }
    let inFlightSettledAt: number | null = null;
    if (Date.parse(row.expiresAt) > nowMs) {
      const dead = deadHolderHere(row.holder);
      if (!dead) return null;
      const settled = Date.parse(row.renewedAt) + 2 * dead.requestTimeoutMs;
      inFlightSettledAt = Number.isFinite(settled) && settled > nowMs ? settled : null;
    }
    // Taken over only if still the same holder with the same expiry (another taker may have won).
    const r = await trx
      .updateTable('syncLease')
      .set({ holder, acquiredAt: at, renewedAt: at, expiresAt: expires })
      .where('name', '=', name)
      .where('holder', '=', row.holder)
      .where('expiresAt', '=', row.expiresAt)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1 ? { fresh: true, inFlightSettledAt } : null;
  });
}

/**
 * Inside a write transaction: renews the lease if this holder still has it unexpired.
 * False means another process took over: the caller must not send anything.
 */
export async function renewLeaseIn(
  trx: Db,
  holder: string,
  nowMs: number,
  ttlMs = LEASE_MS,
): Promise<boolean> {
  const r = await trx
    .updateTable('syncLease')
    .set({ renewedAt: iso(nowMs), expiresAt: iso(nowMs + ttlMs) })
    .where('name', '=', LEASE_NAME)
    .where('holder', '=', holder)
    .where('expiresAt', '>', iso(nowMs))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives the lease up (clean shutdown), so another process need not wait for it to expire. */
export async function releaseLease(store: Store, holder: string, name = LEASE_NAME): Promise<void> {
  await store.write((trx) =>
    trx.deleteFrom('syncLease').where('name', '=', name).where('holder', '=', holder).execute(),
  );
}

export async function leaseHolder(db: Db): Promise<{ holder: string; expiresAt: string } | null> {
  const row = await db
    .selectFrom('syncLease')
    .select(['holder', 'expiresAt'])
    .where('name', '=', LEASE_NAME)
    .executeTakeFirst();
  return row ?? null;
}
