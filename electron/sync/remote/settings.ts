/**
 * Where an account pushes to: HQ's base URL (requests go to `{baseUrl}/api/v1/...`), the API
 * key id and secret (sealed at rest, secret-box.ts), HQ's account id, the rate (requests per
 * second, default 5) and the schedule (seconds between passes, default 60). One per account.
 */
import type { Selectable } from 'kysely';
import { reusable } from '../../db/bulk.ts';
import type { SyncRemotesTable } from '../../db/schema.ts';
import type { Db, Store } from '../../db/store.ts';
import { DomainError, invalidField } from '../../domain/errors.ts';
import { hqUrlIssue } from '#shared/schemas/sync.ts';
import { type KeySource, openSecret, sealSecret } from './secret-box.ts';

export const DEFAULT_RATE = 5;
export const DEFAULT_SCHEDULE_SECONDS = 60;

export interface RemoteSettingsInput {
  accountId: string;
  baseUrl: string;
  keyId: string;
  /** Required the first time; absent keeps the stored one. */
  secret?: string;
  remoteAccountId: string;
  ratePerSecond?: number;
  scheduleSeconds?: number;
  emailMatch?: boolean;
}

/** What may be shown: everything but the secret. */
export interface RemoteSettings {
  accountId: string;
  baseUrl: string;
  keyId: string;
  remoteAccountId: string;
  ratePerSecond: number;
  scheduleSeconds: number;
  emailMatch: boolean;
  hasSecret: boolean;
  lastSuccessAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  pausedUntil: string | null;
  currentRate: number | null;
  doneCount: number;
  /** Changes HQ confirmed. */
  sentCount: number;
  /** What the requests found of HQ (reachability.ts). */
  hqAnsweredAt: string | null;
  hqFailedAt: string | null;
  hqFailure: string | null;
  hqRefusedAt: string | null;
  /** 'hq', or 'hub' when this GiftDesk is a station of an event hub (station.ts). */
  kind: 'hq' | 'hub';
  /** A hub's pinned certificate fingerprint, this station's id and name there, its feed cursor. */
  pinnedFingerprint: string | null;
  stationId: string | null;
  stationName: string | null;
  hubCursor: string | null;
  /** When the hub said this station was removed from the event (it pushes no more). */
  revokedAt: string | null;
  /** Gifts whose thank-you marks were kept here only (push/marks.ts). */
  marksKeptHere: number;
  /** When HQ last answered it takes no thank-you marks (a spec-only HQ); null once it takes one. */
  marksNotTakenAt: string | null;
  /** When HQ was last asked whether it takes thank-you marks (or answered one); null: never. */
  marksCheckedAt: string | null;
}

/** The settings with the secret opened: for the engine and pull only, never for output. */
export interface RemoteConfig extends RemoteSettings {
  secret: string;
  /** Set by answers during a pass once HQ answered it has no route for thank-you marks: the pass sends no more (push/marks.ts). */
  marksNotTakenThisPass?: boolean;
}

/** `https://hq.example.org/` or `…/api/v1` → `https://hq.example.org`. */
export function normaliseBaseUrl(raw: string): string {
  const issue = hqUrlIssue(raw);
  if (issue) throw invalidField('baseUrl', issue);
  const u = new URL(raw.trim());
  u.search = '';
  u.hash = '';
  const p = u.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  return `${u.origin}${p}`;
}

function checkInput(input: RemoteSettingsInput): void {
  if (!input.keyId.trim()) throw invalidField('keyId', 'must not be empty');
  if (!input.remoteAccountId.trim()) throw invalidField('remoteAccountId', 'must not be empty');
  if (input.secret !== undefined && !input.secret.trim()) throw invalidField('secret', 'must not be empty');
  const rate = input.ratePerSecond;
  if (rate !== undefined && !(Number.isFinite(rate) && rate > 0 && rate <= 1000))
    throw invalidField('ratePerSecond', 'must be a number above 0 and at most 1000');
  const every = input.scheduleSeconds;
  if (every !== undefined && !(Number.isInteger(every) && every >= 5 && every <= 86_400))
    throw invalidField('scheduleSeconds', 'must be a whole number of seconds from 5 to 86400');
}

export async function saveRemoteSettings(
  store: Store,
  keys: KeySource,
  input: RemoteSettingsInput,
  at: string,
): Promise<RemoteSettings> {
  checkInput(input);
  const baseUrl = normaliseBaseUrl(input.baseUrl);
  const sealed = input.secret !== undefined ? await sealSecret(keys, input.secret.trim()) : undefined;
  await store.write(async (trx) => {
    const existing = await trx
      .selectFrom('syncRemotes')
      .select(['secretSealed', 'baseUrl', 'keyId', 'kind'])
      .where('accountId', '=', input.accountId)
      .executeTakeFirst();
    // A station of an event has its hub as its one remote (station/join.ts), never an HQ too.
    if (existing?.kind === 'hub')
      throw new DomainError(
        'conflict',
        'station_of_event',
        `This account is a station of the event hub at ${existing.baseUrl}: it sends everything to the hub, which syncs to HQ. Its sync settings are the hub's.`,
        [{ field: 'accountId', issue: 'is a station of an event hub' }],
      );
    if (!existing && sealed === undefined)
      throw invalidField('secret', 'is required the first time sync is configured');
    const values = {
      baseUrl,
      keyId: input.keyId.trim(),
      remoteAccountId: input.remoteAccountId.trim(),
      ...(sealed !== undefined ? { secretSealed: sealed } : {}),
      ...(input.ratePerSecond !== undefined ? { ratePerSecond: input.ratePerSecond } : {}),
      ...(input.scheduleSeconds !== undefined ? { scheduleSeconds: input.scheduleSeconds } : {}),
      ...(input.emailMatch !== undefined
        ? { emailMatch: input.emailMatch ? (1 as const) : (0 as const) }
        : {}),
      updatedAt: at,
    };
    if (existing) {
      // What the requests learnt of HQ stays true of the same HQ and key. Another key may be
      // taken (the refusal goes); another address is another HQ, never reached yet.
      const newKey = sealed !== undefined || existing.keyId !== values.keyId;
      const newHq = existing.baseUrl !== baseUrl;
      const contact = newHq
        ? {
            hqAnsweredAt: null,
            hqFailedAt: null,
            hqFailure: null,
            hqRefusedAt: null,
            marksKeptHere: 0,
            marksNotTakenAt: null,
            marksCheckedAt: null,
          }
        : newKey
          ? { hqRefusedAt: null }
          : {};
      await trx
        .updateTable('syncRemotes')
        .set({ ...values, ...contact, lastError: null, pausedUntil: null })
        .where('accountId', '=', input.accountId)
        .execute();
    } else {
      await trx
        .insertInto('syncRemotes')
        .values({
          accountId: input.accountId,
          secretSealed: sealed!,
          ratePerSecond: DEFAULT_RATE,
          scheduleSeconds: DEFAULT_SCHEDULE_SECONDS,
          emailMatch: 1,
          createdAt: at,
          ...values,
        })
        .execute();
    }
  });
  return (await getRemoteSettings(store.db, input.accountId))!;
}

type Row = Selectable<SyncRemotesTable> | undefined;

/** The account's remote row: every sync status reads it (after every save in gift entry), so named on PostgreSQL. */
const rowByAccount = reusable(
  (db, p) => db.selectFrom('syncRemotes').selectAll().where('accountId', '=', p<string>(0)),
  { named: true },
);

async function selectRow(db: Db, accountId: string): Promise<Row> {
  return (await rowByAccount(db, [accountId])).rows[0] as Row;
}

function view(r: NonNullable<Row>): RemoteSettings {
  return {
    accountId: r.accountId,
    baseUrl: r.baseUrl,
    keyId: r.keyId,
    remoteAccountId: r.remoteAccountId,
    ratePerSecond: Number(r.ratePerSecond),
    scheduleSeconds: Number(r.scheduleSeconds),
    emailMatch: r.emailMatch === 1,
    hasSecret: r.secretSealed.length > 0,
    lastSuccessAt: r.lastSuccessAt,
    lastAttemptAt: r.lastAttemptAt,
    lastError: r.lastError,
    pausedUntil: r.pausedUntil,
    currentRate: r.currentRate === null ? null : Number(r.currentRate),
    doneCount: Number(r.doneCount),
    sentCount: Number(r.sentCount),
    hqAnsweredAt: r.hqAnsweredAt,
    hqFailedAt: r.hqFailedAt,
    hqFailure: r.hqFailure,
    hqRefusedAt: r.hqRefusedAt,
    kind: r.kind === 'hub' ? 'hub' : 'hq',
    pinnedFingerprint: r.pinnedFingerprint,
    stationId: r.stationId,
    stationName: r.stationName,
    hubCursor: r.hubCursor,
    revokedAt: r.revokedAt,
    marksKeptHere: Number(r.marksKeptHere),
    marksNotTakenAt: r.marksNotTakenAt,
    marksCheckedAt: r.marksCheckedAt,
  };
}

/** The settings without the secret, or null when the account does not sync. */
export async function getRemoteSettings(db: Db, accountId: string): Promise<RemoteSettings | null> {
  const r = await selectRow(db, accountId);
  return r ? view(r) : null;
}

/** The settings with the secret opened (engine and pull only), or null. */
export async function loadRemoteConfig(
  db: Db,
  keys: KeySource,
  accountId: string,
): Promise<RemoteConfig | null> {
  const r = await selectRow(db, accountId);
  if (!r) return null;
  return { ...view(r), secret: await openSecret(keys, r.secretSealed) };
}

/** The accounts that have a remote configured. */
export async function configuredAccounts(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('syncRemotes').select('accountId').orderBy('accountId').execute();
  return rows.map((r) => r.accountId);
}

/** Records what the app shows about the remote (never the secret). */
export async function noteRemote(
  trx: Db,
  accountId: string,
  patch: Partial<
    Pick<RemoteSettings, 'lastSuccessAt' | 'lastAttemptAt' | 'lastError' | 'pausedUntil' | 'currentRate'>
  >,
): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await trx.updateTable('syncRemotes').set(patch).where('accountId', '=', accountId).execute();
}
