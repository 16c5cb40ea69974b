/**
 * The end-to-end sync rig: a local GiftDesk (a real SQLite file, written through the domain as
 * the app and the local API do), a remote GiftDesk server (HQ: SQLite, or PostgreSQL when the
 * run's engine is postgres) reached only through the fault proxy, remote settings saved with a
 * sealed secret, a campaign at HQ linked to the local one, and one custom field on both sides.
 *
 * `checkHqMatchesLocal` is the oracle of every sync suite: HQ's state equals the local intent —
 * every local contact exactly once at HQ (found by its `gd:` identity) with every field's last
 * local value, every delete done, every local gift exactly once (its `gd:` reference in notes —
 * or, for a gift whose notes staff rewrote at HQ (`hqNotes`), its local link, and staff's notes
 * kept) with its amount, date, method, campaign and donor, nothing at HQ that is not local,
 * nothing left in flight.
 */
import fs from 'node:fs';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { getContact } from '../../electron/domain/contacts/index.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createCustomField } from '../../electron/domain/contacts/custom-fields.ts';
import { createCampaign } from '../../electron/domain/reference/records.ts';
import { createRemoteClient, type RemoteClient } from '../../electron/sync/net/http-client.ts';
import { queueCounts } from '../../electron/sync/outbox/outbox.ts';
import { createPacer } from '../../electron/sync/net/pacer.ts';
import { saveRemoteSettings, type RemoteConfig } from '../../electron/sync/remote/settings.ts';
import type { KeySource } from '../../electron/sync/remote/secret-box.ts';
import { linkRemote, remoteIdFor } from '../../electron/sync/outbox/links.ts';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.ts';
import { forwardAll, startFaultProxy, type FaultProxy, type FaultRule } from './fault-proxy.ts';

export const CUSTOM_FIELD = 'Shirt size';
/** A fixed sealing key for tests: the secret is still sealed at rest, never plain. */
export const TEST_KEY_HEX = '7'.repeat(64);
export const testKeys: KeySource = {
  describe: 'the test key',
  key: async () => Buffer.from(TEST_KEY_HEX, 'hex'),
};

export interface LocalSide {
  dataDir: string;
  store: Store;
  ctx: DomainContext;
  accountId: string;
  campaignId: string;
}

/** HQ: a GiftDesk server and the fault proxy in front of it. Shared by many rigs (one HQ account each). */
export interface HqSide {
  remote: TestServer;
  proxy: FaultProxy;
  close(): Promise<void>;
}

export interface SyncRig {
  remote: TestServer;
  proxy: FaultProxy;
  /** This rig's account at HQ and its key. */
  hq: { accountId: string; keyId: string; secret: string; campaignId: string };
  local: LocalSide;
  /** A RemoteClient for the engine: a fast pacer (tests must not wait 200 ms per request). */
  makeClient(cfg: RemoteConfig): RemoteClient;
  close(): Promise<void>;
}

export interface RigOptions {
  /** A shared HQ; without it the rig starts (and closes) its own. */
  hqSide?: HqSide;
  rule?: FaultRule;
  /** The rate saved in the remote settings (default 1000/s: the randomized runs are about faults, not pace). */
  ratePerSecond?: number;
  /** Per-request deadline of the engine's client (default 1500 ms). */
  timeoutMs?: number;
  /** The local SQLite file's sync mode (default FULL, as the app runs). */
  synchronous?: 'FULL' | 'NORMAL';
}

export function fastClientFactory(timeoutMs = 1500): (cfg: RemoteConfig) => RemoteClient {
  return (cfg) =>
    createRemoteClient({
      baseUrl: cfg.baseUrl,
      keyId: cfg.keyId,
      secret: cfg.secret,
      // 429s without a hint pause 20 ms (doubling), not the production 1 s.
      pacer: createPacer({ ratePerSecond: cfg.ratePerSecond, burst: 2, defaultPauseMs: 20 }),
      timeoutMs,
    });
}

/**
 * HQ as these suites run it: GiftDesk, or with `specOnly` (default: GIFTDESK_TEST_HQ=spec-only)
 * the donor API alone (`serve --spec-only`: a re-posted create is a second record), so what HQ
 * holds once it holds because the engine looked before it posted.
 */
/** `synchronous: 'NORMAL'` for suites whose subject is not HQ's durability (much faster on a busy disk). */
export async function startHq(
  opts: { synchronous?: 'FULL' | 'NORMAL'; specOnly?: boolean; hub?: boolean } = {},
): Promise<HqSide> {
  const remote = await startTestServer({
    ...(opts.synchronous ? { synchronous: opts.synchronous } : {}),
    ...(opts.hub ? { hub: true } : {}),
    specOnly: opts.specOnly ?? process.env.GIFTDESK_TEST_HQ === 'spec-only',
  });
  const proxy = await startFaultProxy({ target: remote.url });
  return {
    remote,
    proxy,
    async close() {
      await proxy.close();
      await remote.close();
    },
  };
}

export async function startRig(opts: RigOptions = {}): Promise<SyncRig> {
  const own = opts.hqSide ? null : await startHq();
  const { remote, proxy } = opts.hqSide ?? own!;
  proxy.setRule(opts.rule ?? forwardAll);
  const hqKey = await remote.otherAccount();
  const dataDir = tempDir('giftdesk-sync-local-');
  const store = await openStore({ dataDir, ...(opts.synchronous ? { synchronous: opts.synchronous } : {}) });
  const ctx = createContext(store);
  const { id: accountId } = await createAccount(ctx, 'Gala night');
  const campaign = await createCampaign(ctx, { accountId, name: 'Spring gala' });
  const hqCampaign = await createCampaign(remote.ctx, { accountId: hqKey.accountId, name: 'Spring gala' });
  await createCustomField(ctx, { accountId, name: CUSTOM_FIELD, type: 'text' });
  await createCustomField(remote.ctx, { accountId: hqKey.accountId, name: CUSTOM_FIELD, type: 'text' });
  const at = new Date().toISOString();
  await store.write((trx) =>
    linkRemote(trx, {
      accountId,
      entityType: 'campaign',
      localId: campaign.id,
      remoteId: hqCampaign.id,
      source: 'manual',
      at,
    }),
  );
  await saveRemoteSettings(
    store,
    testKeys,
    {
      accountId,
      baseUrl: proxy.url,
      keyId: hqKey.keyId,
      secret: hqKey.secret,
      remoteAccountId: hqKey.accountId,
      ratePerSecond: opts.ratePerSecond ?? 1000,
    },
    at,
  );
  return {
    remote,
    proxy,
    hq: { ...hqKey, campaignId: hqCampaign.id },
    local: { dataDir, store, ctx, accountId, campaignId: campaign.id },
    makeClient: fastClientFactory(opts.timeoutMs),
    async close() {
      await store.close().catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (own) await own.close();
    },
  };
}

/* ------------------------------------------------------------------ the oracle */

const VOLATILE = new Set([
  'id',
  'accountId',
  'createdAt',
  'updatedAt',
  'totalDonations',
  'totalDonated',
  'lastDonationDate',
]);

/** A contact's read shape without ids, timestamps, totals and sync's own `gd:` tags. */
export function comparableContact(c: unknown): unknown {
  const strip = (v: unknown, top: boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => strip(x, false));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (k === 'id' || (top && VOLATILE.has(k))) continue;
        if (top && k === 'tags' && Array.isArray(x)) {
          out.tags = (x as string[]).filter((t) => !t.startsWith('gd:'));
          continue;
        }
        out[k] = strip(x, false);
      }
      return out;
    }
    return v;
  };
  return strip(c, true);
}

interface DonationFacts {
  id: string;
  contactId: string;
  amountCents: number;
  donationDate: string;
  paymentMethod: string;
  campaignId: string | null;
  notes: string | null;
  status: string;
  onBehalfOfContactId: string | null;
  facilitatedByContactId: string | null;
  isRecurring: number;
}

async function donationsOf(store: Store, accountId: string): Promise<DonationFacts[]> {
  return store.db
    .selectFrom('donations')
    .select([
      'id',
      'contactId',
      'amountCents',
      'donationDate',
      'paymentMethod',
      'campaignId',
      'notes',
      'status',
      'onBehalfOfContactId',
      'facilitatedByContactId',
      'isRecurring',
    ])
    .where('accountId', '=', accountId)
    .orderBy('id')
    .execute() as Promise<DonationFacts[]>;
}

export interface OracleReport {
  contacts: number;
  donations: number;
}

/** Throws with every difference found (not just the first). */
export async function checkHqMatchesLocal(
  rig: SyncRig,
  opts: { voided?: ReadonlySet<string>; hqNotes?: ReadonlyMap<string, string> } = {},
): Promise<OracleReport> {
  const { local, remote } = rig;
  const hqAccount = rig.hq.accountId;
  const problems: string[] = [];

  const counts = await queueCounts(local.store.db, local.accountId);
  const left = Object.entries(counts).filter(([k, v]) => k !== 'done' && typeof v === 'number' && v > 0);
  if (left.length > 0) problems.push(`queue not drained: ${JSON.stringify(counts)}`);
  const open = await local.store.db
    .selectFrom('syncItems')
    .select(['entityType', 'entityId', 'state'])
    .where('accountId', '=', local.accountId)
    .where('state', '!=', 'idle')
    .execute();
  if (open.length > 0)
    problems.push(
      `items not idle: ${open.map((o) => `${o.entityType} ${o.entityId} ${o.state}`).join(', ')}`,
    );

  // HQ contacts by identity tag
  const hqContactIds = (
    await remote.store.db.selectFrom('contacts').select('id').where('accountId', '=', hqAccount).execute()
  ).map((r) => r.id);
  const hqByRef = new Map<string, unknown[]>();
  const hqUntagged: string[] = [];
  const hqContacts = new Map<string, Awaited<ReturnType<typeof getContact>>>();
  for (const id of hqContactIds) {
    const c = await getContact(remote.ctx, hqAccount, id);
    hqContacts.set(id, c);
    const refs = (c.tags ?? []).filter((t: string) => t.startsWith('gd:'));
    if (refs.length !== 1) hqUntagged.push(`${id} tags=${JSON.stringify(c.tags)}`);
    for (const r of refs) hqByRef.set(r.slice(3), [...(hqByRef.get(r.slice(3)) ?? []), c]);
  }
  if (hqUntagged.length > 0)
    problems.push(`HQ contacts without exactly one gd: identity: ${hqUntagged.join(', ')}`);

  const localContactIds = (
    await local.store.db
      .selectFrom('contacts')
      .select('id')
      .where('accountId', '=', local.accountId)
      .execute()
  ).map((r) => r.id);
  const localSet = new Set(localContactIds);
  for (const id of localContactIds) {
    const at = hqByRef.get(id) ?? [];
    if (at.length === 0) {
      problems.push(`contact ${id} is missing at HQ`);
      continue;
    }
    if (at.length > 1) problems.push(`contact ${id} is at HQ ${at.length} times`);
    const want = JSON.stringify(comparableContact(await getContact(local.ctx, local.accountId, id)));
    const got = JSON.stringify(comparableContact(at[0]));
    if (want !== got) problems.push(`contact ${id} differs at HQ:\n  local ${want}\n  HQ    ${got}`);
    const linked = await remoteIdFor(local.store.db, 'contact', id);
    if (linked !== (at[0] as { id: string }).id)
      problems.push(`contact ${id} is linked to ${linked}, but HQ has it as ${(at[0] as { id: string }).id}`);
  }
  for (const ref of hqByRef.keys())
    if (!localSet.has(ref)) problems.push(`HQ still has contact gd:${ref}, deleted (or never) here`);

  // Donations by reference
  const localDonations = await donationsOf(local.store, local.accountId);
  const hqDonations = await donationsOf(remote.store, hqAccount);
  // HQ's gifts this laptop pushed (or found), by HQ id: a gift whose notes staff rewrote at HQ
  // has lost its reference, and is identified by the link instead.
  const linkedD = new Map(
    (
      await local.store.db
        .selectFrom('syncLinks')
        .select(['localId', 'remoteId'])
        .where('accountId', '=', local.accountId)
        .where('entityType', '=', 'donation')
        .execute()
    ).map((l) => [l.remoteId, l.localId]),
  );
  const hqByRefD = new Map<string, DonationFacts[]>();
  for (const d of hqDonations) {
    const refs = (d.notes ?? '').match(/gd:don_[0-9A-Za-z]+/g)?.map((r) => r.slice(3)) ?? [];
    const staff = opts.hqNotes?.get(d.id);
    if (staff !== undefined) {
      if (d.notes !== staff)
        problems.push(
          `HQ donation ${d.id}: the notes staff wrote at HQ (${JSON.stringify(staff)}) became ${JSON.stringify(d.notes)}`,
        );
      const linked = linkedD.get(d.id);
      if (linked) refs.splice(0, refs.length, linked);
      else problems.push(`HQ donation ${d.id}, whose notes staff rewrote, is linked to no local gift`);
    } else if (refs.length !== 1)
      problems.push(
        `HQ donation ${d.id} carries ${refs.length} gd: references (notes ${JSON.stringify(d.notes)})`,
      );
    for (const r of refs) hqByRefD.set(r, [...(hqByRefD.get(r) ?? []), d]);
  }
  let expectedDonations = 0;
  const localDonationIds = new Set<string>();
  for (const d of localDonations) {
    localDonationIds.add(d.id);
    const at = hqByRefD.get(d.id) ?? [];
    const isVoid = opts.voided?.has(d.id) || d.status === 'voided';
    if (isVoid) {
      if (at.length > 0) problems.push(`voided donation ${d.id} reached HQ`);
      continue;
    }
    expectedDonations++;
    if (at.length === 0) {
      problems.push(`donation ${d.id} is missing at HQ`);
      continue;
    }
    if (at.length > 1) problems.push(`donation ${d.id} is at HQ ${at.length} times (DUPLICATE GIFT)`);
    const h = at[0]!;
    const hqContact = await remoteIdFor(local.store.db, 'contact', d.contactId);
    const mismatch: string[] = [];
    if (h.amountCents !== d.amountCents) mismatch.push(`amount ${h.amountCents} ≠ ${d.amountCents}`);
    if (h.donationDate !== d.donationDate) mismatch.push(`date ${h.donationDate} ≠ ${d.donationDate}`);
    if (h.paymentMethod !== d.paymentMethod) mismatch.push(`method ${h.paymentMethod} ≠ ${d.paymentMethod}`);
    if (h.campaignId !== rig.hq.campaignId) mismatch.push(`campaign ${h.campaignId} ≠ ${rig.hq.campaignId}`);
    if (h.contactId !== hqContact) mismatch.push(`donor ${h.contactId} ≠ ${hqContact}`);
    for (const f of ['onBehalfOfContactId', 'facilitatedByContactId'] as const) {
      const want = d[f] === null ? null : await remoteIdFor(local.store.db, 'contact', d[f]);
      if (h[f] !== want) mismatch.push(`${f} ${h[f]} ≠ ${want}`);
    }
    if (h.isRecurring !== d.isRecurring) mismatch.push(`isRecurring ${h.isRecurring} ≠ ${d.isRecurring}`);
    if (d.notes && !opts.hqNotes?.has(h.id) && !(h.notes ?? '').includes(d.notes))
      mismatch.push(`notes ${JSON.stringify(h.notes)} lack ${JSON.stringify(d.notes)}`);
    if (mismatch.length > 0) problems.push(`donation ${d.id} differs at HQ: ${mismatch.join('; ')}`);
  }
  for (const ref of hqByRefD.keys())
    if (!localDonationIds.has(ref)) problems.push(`HQ has donation gd:${ref}, which is not here`);

  if (problems.length > 0)
    throw new Error(
      `HQ does not match the local intent (${problems.length} problems):\n- ${problems.slice(0, 40).join('\n- ')}`,
    );
  return { contacts: localContactIds.length, donations: expectedDonations };
}

/* ------------------------------------------------------------------ driving the engine */

export interface DrainableEngine {
  runPass(p?: { accountId?: string }): Promise<unknown>;
  nextRetryAt(): Promise<number | null>;
}

/** The local changes (contacts' and gifts' change-log rows meant for HQ) synced so far: the denominator of requests per change. */
export async function syncedChanges(rig: SyncRig): Promise<number> {
  const r = await rig.local.store.db
    .selectFrom('changeLog')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('accountId', '=', rig.local.accountId)
    .where('push', '=', 1)
    .where('syncedAt', 'is not', null)
    .where('entityType', 'in', ['contact', 'donation'])
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Passes until nothing is left to push: the faults stay on for `faultyPasses` passes, then the
 * proxy forwards everything (so a run always ends). Waits for backoff timers between passes.
 * With HQ reachable again, the run must end within `maxPasses` passes or, on a slow (loaded)
 * machine where backoffs outlast quick passes, within `settleMs` of the faults ending.
 */
export async function syncToCompletion(
  engine: DrainableEngine,
  rig: SyncRig,
  opts: { faultyPasses?: number; maxPasses?: number; settleMs?: number; afterFaults?: FaultRule } = {},
): Promise<{ passes: number }> {
  const faulty = opts.faultyPasses ?? 15;
  const max = opts.maxPasses ?? faulty + 40;
  const settleMs = opts.settleMs ?? 30_000;
  const { store, accountId } = rig.local;
  let faultsEnded = faulty === 0 ? Date.now() : Infinity;
  for (let i = 0; ; i++) {
    if (i === faulty) {
      rig.proxy.setRule(opts.afterFaults ?? forwardAll);
      faultsEnded = Date.now();
    }
    await engine.runPass({ accountId });
    const c = await queueCounts(store.db, accountId);
    const open = await store.db
      .selectFrom('syncItems')
      .select('entityId')
      .where('accountId', '=', accountId)
      .where('state', 'in', ['unknown', 'in_flight'])
      .executeTakeFirst();
    if (c.pending === 0 && c.inFlight === 0 && !open) return { passes: i + 1 };
    if (i + 1 >= max && (faultsEnded === Infinity || Date.now() - faultsEnded >= settleMs)) break;
    const next = await engine.nextRetryAt();
    const wait = next === null ? 5 : Math.min(Math.max(0, next - Date.now()), 250);
    await new Promise((r) => setTimeout(r, wait));
  }
  const c = await queueCounts(store.db, accountId);
  const left = await store.db
    .selectFrom('syncItems')
    .select(['entityType', 'entityId', 'state', 'op', 'failures', 'nextTryAt', 'lastError', 'attentionCode'])
    .where('accountId', '=', accountId)
    .where((eb) => eb.or([eb('state', '!=', 'idle'), eb('nextTryAt', 'is not', null)]))
    .limit(10)
    .execute();
  throw new Error(
    `sync did not finish in ${max} passes${faultsEnded === Infinity ? ' (faults never off)' : ` and ${Math.round((Date.now() - faultsEnded) / 1000)} s with HQ reachable`}: ${JSON.stringify(c)}; records not idle: ${JSON.stringify(left)}; nextRetryAt ${await engine.nextRetryAt()}, now ${Date.now()}`,
  );
}
