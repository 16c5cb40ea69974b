/**
 * Pull from HQ, email match and reference links against a real HQ: a second GiftDesk server
 * on 127.0.0.1 with its own data dir, reached over HTTP through the sync client and its
 * pacer. The local side is a real SQLite file (or PostgreSQL with GIFTDESK_TEST_ENGINE).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import {
  createContact,
  getContact,
  listContacts,
  updateContact,
} from '../../electron/domain/contacts/index.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { listCustomFields } from '../../electron/domain/contacts/custom-fields.ts';
import { isDomainError } from '../../electron/domain/errors.ts';
import {
  createCampaign,
  createCommittee,
  listCampaigns,
  listCommittees,
  listDonationAccounts,
} from '../../electron/domain/reference/records.ts';
import { findRemoteContactByEmail } from '../../electron/sync/push/email-match.ts';
import { createRemoteClient, type RemoteClient } from '../../electron/sync/net/http-client.ts';
import { createPacer } from '../../electron/sync/net/pacer.ts';
import { beginPull, latestPull, pullFromHq, type PullProgress } from '../../electron/sync/pull/pull.ts';
import {
  linkReference,
  listReferenceLinks,
  remoteReferenceId,
} from '../../electron/sync/reference-data/rules.ts';
import { localIdFor, remoteIdFor } from '../../electron/sync/outbox/links.ts';
import {
  expectStatus,
  makeCampaign,
  makeCommittee,
  makeCustomField,
  makeDonationAccount,
} from '../helpers/api-fixtures.ts';
import { freshDatabase, startTestServer, type TestServer } from '../helpers/server.ts';
import { type FaultAction, type ProxiedRequest, startFaultProxy } from './fault-proxy.ts';

let hq: TestServer;
let client: RemoteClient;
let local: { store: Store; ctx: DomainContext; accountId: string; drop: () => Promise<void> };

const HQ_CONTACTS = 250;

async function newLocal() {
  const fresh = await freshDatabase();
  const store = await openStore({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl });
  const ctx = createContext(store);
  const accountId = (await createAccount(ctx, 'Event Laptop')).id;
  return {
    store,
    ctx,
    accountId,
    drop: async () => {
      await store.close();
      await fresh.drop();
    },
  };
}

const pullOpts = (l = local, extra: Partial<Parameters<typeof pullFromHq>[0]> = {}) => ({
  ctx: l.ctx,
  remote: client,
  accountId: l.accountId,
  remoteAccountId: hq.accountId,
  ...extra,
});

/** The local outbox rows still to go to HQ (push = 1, not synced). */
const queued = (l = local) =>
  l.store.db
    .selectFrom('changeLog')
    .select(['entityType', 'entityId', 'op', 'fields'])
    .where('accountId', '=', l.accountId)
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .execute();

let campaign: { id: string }, committee: { id: string }, federal: { id: string };
let hqAda: { id: string };

beforeAll(async () => {
  hq = await startTestServer();
  client = createRemoteClient({
    baseUrl: hq.url,
    keyId: hq.keyId,
    secret: hq.secret,
    pacer: createPacer({ ratePerSecond: 500, burst: 10 }),
    timeoutMs: 10_000,
  });
  federal = await makeDonationAccount(hq, { perElection: 3300 }, 'Federal');
  campaign = await makeCampaign(hq, 'Spring Gala', [federal.id]);
  committee = await makeCommittee(hq, 'Finance Committee');
  await makeCustomField(hq, 'T-shirt size', 'picklist', ['S', 'M', 'L']);
  // HQ's directory: oldest first, one with a known email.
  const made = await createContact(hq.ctx, {
    accountId: hq.accountId,
    firstName: 'Ada',
    lastName: 'Lovelace',
    primaryEmail: 'ada@engines.example',
    organization: 'Analytical Engines',
  });
  hqAda = made;
  for (let i = 1; i < HQ_CONTACTS; i++) {
    await createContact(hq.ctx, {
      accountId: hq.accountId,
      firstName: `Donor${i}`,
      lastName: `Number${i}`,
      primaryEmail: `donor${i}@hq.example`,
    });
  }
  local = await newLocal();
}, 120_000);
afterAll(async () => {
  await local?.drop();
  await hq?.close();
});

describe('pull from HQ', () => {
  it('brings HQ contacts and reference data down once, page by page, with progress', async () => {
    // A campaign entered here before the first pull, under HQ's name: linked, not doubled.
    const mine = await createCampaign(local.ctx, { accountId: local.accountId, name: 'spring gala' });
    const progress: PullProgress[] = [];
    const run = await pullFromHq(pullOpts(local, { onProgress: (p) => progress.push(p) }));
    expect(run, JSON.stringify(run.notes)).toMatchObject({
      status: 'done',
      phase: 'contacts',
      pagesDone: 3,
      pagesTotal: 3,
      error: null,
    });
    expect(run.counts).toMatchObject({ created: HQ_CONTACTS, updated: 0, linked: 0, rejected: 0 });
    expect(progress.filter((p) => p.phase === 'contacts').map((p) => p.pagesDone)).toEqual([0, 1, 2, 3]);
    expect(progress.at(-1)).toEqual({ phase: 'contacts', pagesDone: 3, pagesTotal: 3 });
    expect(await latestPull(local.store.db, local.accountId)).toEqual(run);

    // Gift entry finds HQ's donor in the local directory, linked to its HQ id.
    const found = await listContacts(local.ctx, { accountId: local.accountId, search: 'ada@engines' });
    expect(found.data).toHaveLength(1);
    expect(found.data[0]).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@engines.example',
      organization: 'Analytical Engines',
    });
    expect(await remoteIdFor(local.store.db, 'contact', found.data[0]!.id)).toBe(hqAda.id);
    expect((await listContacts(local.ctx, { accountId: local.accountId })).total).toBe(HQ_CONTACTS);

    // Reference data: the campaign matched by name, the rest added, all linked.
    expect((await listCampaigns(local.ctx, local.accountId)).map((c) => c.id)).toEqual([mine.id]);
    expect(await remoteReferenceId(local.store.db, 'campaign', mine.id)).toBe(campaign.id);
    const [cmt] = await listCommittees(local.ctx, local.accountId);
    expect(cmt?.name).toBe('Finance Committee');
    expect(await remoteReferenceId(local.store.db, 'committee', cmt!.id)).toBe(committee.id);
    const [dac] = await listDonationAccounts(local.ctx, local.accountId);
    expect(dac).toMatchObject({ name: 'Federal', limits: { perElection: 3300 } });
    expect(await remoteReferenceId(local.store.db, 'donationAccount', dac!.id)).toBe(federal.id);
    expect((await listCampaigns(local.ctx, local.accountId))[0]!.donationAccounts.map((d) => d.id)).toEqual([
      dac!.id,
    ]);
    expect(
      (await listCustomFields(local.store.db, local.accountId)).map((f) => [
        f.name,
        f.type,
        f.options.map((o) => o.name),
      ]),
    ).toEqual([['T-shirt size', 'picklist', ['S', 'M', 'L']]]);

    // Nothing pulled is queued to go back to HQ (the campaign made here was never pushable).
    expect((await queued()).filter((q) => q.entityType === 'contact')).toEqual([]);
  });

  it('re-pulls HQ changes as updates, never as duplicates', async () => {
    expectStatus(
      await hq.request('PUT', `/api/v1/contacts/${hqAda.id}`, {
        accountId: hq.accountId,
        lastName: 'King',
        organization: 'Royal Society',
      }),
      200,
    );
    const added = expectStatus(
      await hq.request('POST', '/api/v1/contacts', {
        accountId: hq.accountId,
        firstName: 'Grace',
        lastName: 'Hopper',
        primaryEmail: 'grace@navy.example',
      }),
      201,
    );
    const run = await pullFromHq(pullOpts());
    expect(run.status).toBe('done');
    expect(run.counts).toMatchObject({ created: 1, updated: 1, unchanged: HQ_CONTACTS - 1, linked: 0 });
    expect((await listContacts(local.ctx, { accountId: local.accountId })).total).toBe(HQ_CONTACTS + 1);
    const ada = await getContact(
      local.ctx,
      local.accountId,
      (await localIdFor(local.store.db, local.accountId, 'contact', hqAda.id))!,
    );
    expect(ada).toMatchObject({ firstName: 'Ada', lastName: 'King', organization: 'Royal Society' });
    expect(await localIdFor(local.store.db, local.accountId, 'contact', added.id)).not.toBeNull();
    // A third pull with nothing new writes nothing.
    const before = await local.store.db
      .selectFrom('changeLog')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const again = await pullFromHq(pullOpts());
    expect(again.counts).toMatchObject({ created: 0, updated: 0, unchanged: HQ_CONTACTS + 1 });
    const after = await local.store.db
      .selectFrom('changeLog')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect((await queued()).filter((q) => q.entityType === 'contact')).toEqual([]);
  });

  it('keeps local edits not yet pushed (local intent wins) and takes HQ for the other fields', async () => {
    const localAda = (await localIdFor(local.store.db, local.accountId, 'contact', hqAda.id))!;
    await updateContact(local.ctx, local.accountId, localAda, { lastName: 'Lovelace-Byron' });
    expectStatus(
      await hq.request('PUT', `/api/v1/contacts/${hqAda.id}`, {
        accountId: hq.accountId,
        lastName: 'Countess',
        organization: 'Babbage & Co',
      }),
      200,
    );
    const run = await pullFromHq(pullOpts());
    expect(run.counts.kept).toBe(1);
    expect(await getContact(local.ctx, local.accountId, localAda)).toMatchObject({
      lastName: 'Lovelace-Byron',
      organization: 'Babbage & Co',
    });
    // The user's change is still queued for HQ; the pulled organisation is not.
    expect((await queued()).filter((q) => q.entityId === localAda)).toEqual([
      { entityType: 'contact', entityId: localAda, op: 'update', fields: JSON.stringify(['lastName']) },
    ]);
  });

  it('links an HQ contact to unlinked local history by email instead of copying it, and leaves a contact made here to its push', async () => {
    const l = await newLocal();
    try {
      // History HQ already has (imported with --no-push): same person, email in another case.
      const history = await createContact(
        l.ctx,
        {
          accountId: l.accountId,
          firstName: 'Ada',
          lastName: 'Lovelace',
          primaryEmail: 'ADA@engines.example',
        },
        { push: false },
      );
      // Entered at the event, not pushed yet: HQ's Grace is left for the engine's email match.
      const walkIn = await createContact(l.ctx, {
        accountId: l.accountId,
        firstName: 'Grace',
        lastName: 'Hopper',
        primaryEmail: 'grace@navy.example',
      });
      const run = await pullFromHq(pullOpts(l, { contactsOnly: true }));
      expect(run.counts).toMatchObject({ created: HQ_CONTACTS - 1, linked: 1, deferred: 1 });
      expect(await remoteIdFor(l.store.db, 'contact', history.id)).toBe(hqAda.id);
      expect(await remoteIdFor(l.store.db, 'contact', walkIn.id)).toBeNull();
      const graces = await listContacts(l.ctx, { accountId: l.accountId, search: 'grace hopper' });
      expect(graces.data.map((c) => c.id)).toEqual([walkIn.id]);
      expect((await listContacts(l.ctx, { accountId: l.accountId })).total).toBe(HQ_CONTACTS + 1);
    } finally {
      await l.drop();
    }
  });

  it('resumes a pull that stopped part-way, without duplicates', async () => {
    const l = await newLocal();
    try {
      const stop = new AbortController();
      const first = await pullFromHq(
        pullOpts(l, {
          contactsOnly: true,
          signal: stop.signal,
          onProgress: (p) => {
            if (p.pagesDone === 1) stop.abort();
          },
        }),
      );
      expect(first).toMatchObject({ status: 'failed', pagesDone: 1 });
      expect(first.error).toMatch(/resumes/);
      expect((await listContacts(l.ctx, { accountId: l.accountId })).total).toBe(100);
      const second = await pullFromHq(pullOpts(l, { contactsOnly: true }));
      expect(second).toMatchObject({ id: first.id, status: 'done', pagesDone: 3, pagesTotal: 3 });
      expect(second.counts.created).toBe(HQ_CONTACTS + 1);
      expect((await listContacts(l.ctx, { accountId: l.accountId })).total).toBe(HQ_CONTACTS + 1);
    } finally {
      await l.drop();
    }
  });

  it('refuses a second pull while one is running', async () => {
    const l = await newLocal();
    try {
      await beginPull(l.ctx, l.accountId);
      await expect(beginPull(l.ctx, l.accountId)).rejects.toMatchObject({
        status: 409,
        code: 'pull_running',
      });
    } finally {
      await l.drop();
    }
  });
});

describe('email match', () => {
  it("finds HQ's contact by exact primary email, whatever its case, and says none or failed truthfully", async () => {
    expect(await findRemoteContactByEmail(client, hq.accountId, ' Grace@Navy.example ')).toMatchObject({
      kind: 'found',
      matches: 1,
    });
    expect(await findRemoteContactByEmail(client, hq.accountId, 'grace@navy.exam')).toEqual({ kind: 'none' });
    expect(await findRemoteContactByEmail(client, hq.accountId, 'donor1@hq.example')).toMatchObject({
      kind: 'found',
      name: 'Donor1 Number1',
    });
    const down = createRemoteClient({
      baseUrl: 'http://127.0.0.1:9',
      keyId: hq.keyId,
      secret: hq.secret,
      pacer: createPacer({ ratePerSecond: 100 }),
      timeoutMs: 2000,
    });
    const failed = await findRemoteContactByEmail(down, hq.accountId, 'grace@navy.example', { attempts: 1 });
    expect(failed.kind).toBe('failed');
  });
});

describe('linking reference data by hand', () => {
  it('checks the HQ id at HQ and refuses a wrong one with a clear message, storing nothing', async () => {
    const l = await newLocal();
    try {
      const gala = await createCampaign(l.ctx, { accountId: l.accountId, name: 'Gala (event copy)' });
      const args = {
        accountId: l.accountId,
        remoteAccountId: hq.accountId,
        kind: 'campaign' as const,
        localId: gala.id,
      };
      const wrong = await linkReference(l.ctx, client, { ...args, remoteId: 'cmp_01NOPE' }).catch(
        (e: unknown) => e,
      );
      expect(isDomainError(wrong)).toBe(true);
      expect((wrong as Error).message).toBe(
        `HQ has no campaign cmp_01NOPE (for that remoteId, GET /api/v1/campaigns/cmp_01NOPE answered 404: Campaign cmp_01NOPE was not found)`,
      );
      expect(await remoteReferenceId(l.store.db, 'campaign', gala.id)).toBeNull();

      const ok = await linkReference(l.ctx, client, { ...args, remoteId: campaign.id });
      expect(ok).toEqual({
        kind: 'campaign',
        localId: gala.id,
        remoteId: campaign.id,
        remoteName: 'Spring Gala',
        replaced: null,
        checked: true,
      });
      expect(await remoteReferenceId(l.store.db, 'campaign', gala.id)).toBe(campaign.id);

      // Another local campaign cannot take the same HQ id.
      const other = await createCampaign(l.ctx, { accountId: l.accountId, name: 'Other' });
      await expect(
        linkReference(l.ctx, client, { ...args, localId: other.id, remoteId: campaign.id }),
      ).rejects.toMatchObject({ status: 409, code: 'remote_id_linked' });

      const cmt = await createCommittee(l.ctx, { accountId: l.accountId, name: 'Finance' });
      await expect(
        linkReference(l.ctx, client, { ...args, kind: 'committee', localId: cmt.id, remoteId: 'cmt_01NOPE' }),
      ).rejects.toThrow(/HQ has no committee cmt_01NOPE/);
      expect(
        (
          await linkReference(l.ctx, client, {
            ...args,
            kind: 'committee',
            localId: cmt.id,
            remoteId: committee.id,
          })
        ).remoteName,
      ).toBe('Finance Committee');

      await expect(
        linkReference(l.ctx, client, { ...args, localId: 'cmp_missing', remoteId: campaign.id }),
      ).rejects.toThrow('There is no local campaign cmp_missing in this account');
      const links = await listReferenceLinks(l.ctx, l.accountId);
      expect(links.map((x) => [x.kind, x.name, x.remoteId, x.source])).toEqual([
        ['committee', 'Finance', committee.id, 'manual'],
        ['campaign', 'Gala (event copy)', campaign.id, 'manual'],
        ['campaign', 'Other', null, null],
      ]);
    } finally {
      await l.drop();
    }
  });

  it('says HQ could not be asked when it is down, and links nothing', async () => {
    const l = await newLocal();
    try {
      const gala = await createCampaign(l.ctx, { accountId: l.accountId, name: 'Gala' });
      const down = createRemoteClient({
        baseUrl: 'http://127.0.0.1:9',
        keyId: hq.keyId,
        secret: hq.secret,
        pacer: createPacer({ ratePerSecond: 100 }),
        timeoutMs: 2000,
      });
      await expect(
        linkReference(l.ctx, down, {
          accountId: l.accountId,
          remoteAccountId: hq.accountId,
          kind: 'campaign',
          localId: gala.id,
          remoteId: campaign.id,
        }),
      ).rejects.toThrow(/Could not check campaign .* at HQ/);
      expect(await remoteReferenceId(l.store.db, 'campaign', gala.id)).toBeNull();
    } finally {
      await l.drop();
    }
  });
});

describe('through a faulty network, and an HQ that has only the spec routes', () => {
  /** GiftDesk's extension routes answered 404, as an HQ with only the spec's routes would. */
  const specOnly = (r: ProxiedRequest): FaultAction | null =>
    /^\/api\/v1\/(campaigns|committees|donation-accounts|custom-fields)(\?|$)/.test(r.path) ||
    /^\/api\/v1\/(committees|donation-accounts)\//.test(r.path)
      ? {
          kind: 'respond',
          status: 404,
          body: JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'Not Found' }),
        }
      : null;

  it('pulls every contact exactly once through 503s, 429s and resets, within the rate, and says what HQ does not list', async () => {
    const proxy = await startFaultProxy({ target: hq.url, rateLimit: { ratePerSecond: 20, burst: 2 } });
    const l = await newLocal();
    try {
      const faults = new Map<string, FaultAction>([
        ['offset=100', { kind: 'respond', status: 503 }],
        ['offset=200', { kind: 'respond', status: 429, retryAfter: '1' }],
        ['offset=0', { kind: 'resetBeforeForward' }],
      ]);
      proxy.setRule((r) => {
        const ref = specOnly(r);
        if (ref) return ref;
        for (const [k, action] of faults) {
          if (r.path.startsWith('/api/v1/contacts?') && r.path.includes(`&${k}&`)) {
            faults.delete(k);
            return action;
          }
        }
        return { kind: 'forward' };
      });
      const viaProxy = createRemoteClient({
        baseUrl: proxy.url,
        keyId: hq.keyId,
        secret: hq.secret,
        pacer: createPacer({ ratePerSecond: 10 }),
        timeoutMs: 5000,
      });
      const run = await pullFromHq({
        ctx: l.ctx,
        remote: viaProxy,
        accountId: l.accountId,
        remoteAccountId: hq.accountId,
      });
      expect(run, run.error ?? '').toMatchObject({ status: 'done', pagesDone: 3, pagesTotal: 3 });
      expect(faults.size).toBe(0);
      expect(run.counts).toMatchObject({ created: HQ_CONTACTS + 1, reference: 0 });
      expect(run.notes).toEqual(
        expect.arrayContaining([
          'HQ does not list campaigns: link each one used by gifts with giftdesk sync link.',
        ]),
      );
      expect((await listContacts(l.ctx, { accountId: l.accountId })).total).toBe(HQ_CONTACTS + 1);
      expect(proxy.records.filter((r) => r.action === 'rateLimited')).toEqual([]);

      // Linking at this HQ: a campaign is checked by the spec's GET /campaigns/:id (404 here
      // means "no such campaign"); a committee cannot be checked, so it is stored as entered.
      const gala = await createCampaign(l.ctx, { accountId: l.accountId, name: 'Gala' });
      const args = { accountId: l.accountId, remoteAccountId: hq.accountId, localId: gala.id };
      await expect(
        linkReference(l.ctx, viaProxy, { ...args, kind: 'campaign', remoteId: campaign.id }),
      ).resolves.toMatchObject({ checked: true, remoteName: 'Spring Gala' });
      const cmt = await createCommittee(l.ctx, { accountId: l.accountId, name: 'Finance' });
      await expect(
        linkReference(l.ctx, viaProxy, {
          ...args,
          kind: 'committee',
          localId: cmt.id,
          remoteId: 'cmt_anything',
        }),
      ).resolves.toMatchObject({ checked: false, remoteName: null });
    } finally {
      await l.drop();
      await proxy.close();
    }
  }, 60_000);
});
