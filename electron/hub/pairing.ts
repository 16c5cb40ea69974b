/**
 * Pairing a station: one-time codes (8 characters of an alphabet nobody misreads, shown
 * XXXX-XXXX, stored only as the SHA-256 of the code, good for 10 minutes), and the join that
 * trades a good code for the station's own API key — the code's use, the key and the
 * station's row in one transaction, so a code pairs exactly one station.
 */
import { PAIRING_ALPHABET, normalisePairingCode, showPairingCode } from '#shared/hub-link.ts';
import { newId } from '#shared/ids.ts';
import { createHash, randomInt } from 'node:crypto';
import type { HubRejoin } from '#shared/schemas/hub.ts';
import { insertApiKey } from '../domain/accounts/index.ts';
import { type DomainContext, DomainError } from '../domain/index.ts';
import { requireHubSettings } from './settings.ts';
import { STATION_CONFIRM_MS, expireUnconfirmed, reopenStation } from './stations.ts';

/** How long a pairing code is good for. */
export const PAIRING_CODE_TTL_MS = 10 * 60 * 1000;

/** A fresh code: 8 characters of the pairing alphabet, from the system's random source. */
export function newPairingCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)];
  return code;
}

/** What is stored of a code: the SHA-256 (hex) of the code as normalised. */
export function pairingCodeHash(code: string): string {
  return createHash('sha256').update(normalisePairingCode(code), 'utf8').digest('hex');
}

/**
 * Makes a fresh one-time code for the account's event (which must be hosted here). `only`: the
 * new code is the only one good from now on — every older code not used yet is retired in the
 * same write (a code shown on a screen someone photographed, say), and is then refused as not a
 * code of this hub. `retired` counts them.
 */
export async function createPairingCode(
  ctx: DomainContext,
  accountId: string,
  opts: { only?: boolean | undefined } = {},
): Promise<{ code: string; expiresAt: string; retired: number }> {
  await requireHubSettings(ctx.store.db, accountId);
  const code = newPairingCode();
  const at = ctx.now();
  const expiresAt = new Date(Date.parse(at) + PAIRING_CODE_TTL_MS).toISOString();
  let retired = 0;
  await ctx.store.write(async (trx) => {
    if (opts.only) {
      const gone = await trx
        .deleteFrom('hubPairingCodes')
        .where('accountId', '=', accountId)
        .where('usedAt', 'is', null)
        .executeTakeFirst();
      retired = Number(gone.numDeletedRows);
    }
    await trx
      .insertInto('hubPairingCodes')
      .values({
        codeHash: pairingCodeHash(code),
        accountId,
        createdAt: at,
        expiresAt,
        usedAt: null,
        stationId: null,
      })
      .execute();
  });
  return { code: showPairingCode(code), expiresAt, retired };
}

export type CodeRefusal = 'wrong' | 'used' | 'expired';

/** The 403 of a refused code, in words a volunteer can act on. */
export function codeRefused(why: CodeRefusal): DomainError {
  const ask = 'Ask the person hosting the event for a new code.';
  const [message, issue] =
    why === 'used'
      ? [`This pairing code was used already: a code pairs one station. ${ask}`, 'was used already']
      : why === 'expired'
        ? [`This pairing code has expired (a code is good for 10 minutes). ${ask}`, 'has expired']
        : [
            `This pairing code is not right: check it, or ${ask.charAt(0).toLowerCase()}${ask.slice(1)}`,
            'is not a code of this hub',
          ];
  return new DomainError('forbidden', `pairing_code_${why}`, message, [{ field: 'code', issue }]);
}

export interface Joined {
  accountId: string;
  accountName: string;
  station: { id: string; name: string };
  keyId: string;
  secret: string;
  fingerprint: string;
  /** A new station: it confirms by then that it stored its key (POST /hub/join/confirm), or expires. */
  confirmBy?: string;
}

/**
 * Trades a pairing code for a station: the code marked used, an API key labelled
 * `station: NAME` and the station's row, in one transaction. The new station is unconfirmed
 * until it says it stored its key (stations.ts, confirmStation): a join that failed on the
 * station's side after this answer leaves no station that never reports. A refused code throws
 * codeRefused's error (and writes nothing).
 *
 * With `rejoin` (a station this hub removed, pairing again): the station it names, proven by
 * the key it had, is taken back instead of a new one made — its row kept (so its gifts, the
 * board and the close-out go on counting it once), the removal cleared, its old key revoked and
 * a new one given (stations.ts, reopenStation). A proof that fails writes nothing (the code
 * stays unused).
 */
export async function joinStation(
  ctx: DomainContext,
  body: { code: string; name: string; rejoin?: HubRejoin | undefined },
): Promise<Joined> {
  const hash = pairingCodeHash(body.code);
  const name = body.name.trim();
  const at = ctx.now();
  const result = await ctx.store.write(async (trx): Promise<Joined | CodeRefusal> => {
    // The claim: only an unused, unexpired code is taken, and only once (on PostgreSQL a second
    // join with the same code waits for this row, then finds it used).
    const claimed = await trx
      .updateTable('hubPairingCodes')
      .set({ usedAt: at })
      .where('codeHash', '=', hash)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', at)
      .executeTakeFirst();
    const row = await trx
      .selectFrom('hubPairingCodes')
      .select(['accountId', 'usedAt'])
      .where('codeHash', '=', hash)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0 || !row)
      return !row ? 'wrong' : row.usedAt !== null ? 'used' : 'expired';
    const accountId = row.accountId;
    const hub = await trx
      .selectFrom('hubSettings as h')
      .innerJoin('accounts as a', 'a.id', 'h.accountId')
      .select(['h.fingerprint', 'a.name'])
      .where('h.accountId', '=', accountId)
      .executeTakeFirst();
    if (!hub) throw codeRefused('wrong'); // not hosted here (any more): the claim is rolled back
    if (body.rejoin) {
      const back = await reopenStation(trx, accountId, body.rejoin, at);
      await trx
        .updateTable('hubPairingCodes')
        .set({ stationId: back.id })
        .where('codeHash', '=', hash)
        .execute();
      return {
        accountId,
        accountName: hub.name,
        station: { id: back.id, name: back.name },
        keyId: back.keyId,
        secret: back.secret,
        fingerprint: hub.fingerprint,
      };
    }
    // A join of the same name that never confirmed (the table trying again), or whose time is up, ends here.
    await expireUnconfirmed(trx, accountId, at, name);
    const key = await insertApiKey(trx, { accountId, label: `station: ${name}`, at });
    const id = newId('station');
    await trx
      .insertInto('hubStations')
      .values({
        id,
        accountId,
        name,
        apiKeyId: key.keyId,
        createdAt: at,
        revokedAt: null,
        lastSeenAt: at,
        reportedEntered: null,
        reportedLastSeq: null,
        reportedWaiting: null,
        reportedAt: null,
        reportedBatches: null,
        confirmed: 0,
      })
      .execute();
    await trx.updateTable('hubPairingCodes').set({ stationId: id }).where('codeHash', '=', hash).execute();
    return {
      accountId,
      accountName: hub.name,
      station: { id, name },
      keyId: key.keyId,
      secret: key.secret,
      fingerprint: hub.fingerprint,
      confirmBy: new Date(Date.parse(at) + STATION_CONFIRM_MS).toISOString(),
    };
  });
  if (typeof result === 'string') throw codeRefused(result);
  return result;
}
