/**
 * email-link.ts through its inputs: the app's own email matcher (email-match.ts) and a real
 * client against a real GiftDesk HQ on 127.0.0.1 behind the fault proxy, the rig's local
 * SQLite file, and namesakes as events have them: the same person typed at HQ without her
 * accent, two Robert Browns sharing one email. Whom a new contact is linked to before its
 * create — and when it must be created after all.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { systemClock, type Clock } from '../../electron/sync/net/clock.ts';
import {
  type ContactMatcher,
  linkByEmail,
  type EmailLinkInput,
} from '../../electron/sync/push/email-link.ts';
import { findRemoteContactByEmail } from '../../electron/sync/push/email-match.ts';
import type { RemoteClient } from '../../electron/sync/net/http-client.ts';
import { loadRemoteConfig, type RemoteConfig } from '../../electron/sync/remote/settings.ts';
import { ensureItem, getItem, updateItem } from '../../electron/sync/outbox/items.ts';
import { forwardAll } from './fault-proxy.ts';
import { startRig, testKeys, type SyncRig } from './rig.ts';

let rig: SyncRig;
let cfg: RemoteConfig;
let client: RemoteClient;

const fastClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => systemClock.sleep(Math.min(ms, 20), signal),
};
/** The app's matcher (as exactly-once.ts runs it). */
const appMatcher: ContactMatcher = async ({ client, remoteAccountId, email }) => {
  const r = await findRemoteContactByEmail(client, remoteAccountId, email, { attempts: 2, clock: fastClock });
  if (r.kind === 'failed') throw new Error(r.message);
  return r.kind === 'found' ? r.remoteId : null;
};

beforeAll(async () => {
  rig = await startRig();
  cfg = (await loadRemoteConfig(rig.local.store.db, testKeys, rig.local.accountId))!;
  client = rig.makeClient(cfg);
});
afterAll(async () => {
  await rig?.close();
});
beforeEach(() => {
  rig.proxy.setRule(forwardAll);
  cfg.lastError = null;
});

async function atHq(body: Record<string, unknown>): Promise<string> {
  const r = await client.request('POST', '/contacts', { accountId: rig.hq.accountId, ...body });
  expect(r.status).toBe(201);
  return (r.body as { id: string }).id;
}

const local = (firstName: string, lastName: string, primaryEmail: string) =>
  createContact(rig.local.ctx, { accountId: rig.local.accountId, firstName, lastName, primaryEmail });

async function link(contactId: string): Promise<string | null> {
  const r = await rig.local.store.db
    .selectFrom('syncLinks')
    .select(['remoteId', 'source'])
    .where('entityType', '=', 'contact')
    .where('localId', '=', contactId)
    .executeTakeFirst();
  return r ? `${r.source}:${r.remoteId}` : null;
}

function input(
  contactId: string,
  email: string,
  extra: Partial<EmailLinkInput> = {},
): { i: EmailLinkInput; sent: () => number } {
  let n = 0;
  const i: EmailLinkInput = {
    deps: { store: rig.local.store, clock: Date.now, random: () => 0.5 },
    matcher: appMatcher,
    client,
    get: (path, query) => client.request('GET', path, undefined, { query }),
    counted: () => n++,
    cfg,
    contactId,
    email,
    pass: {},
    ...extra,
  };
  return { i, sent: () => n };
}

describe('linkByEmail', () => {
  it('the same person typed at HQ (no GiftDesk tag, no accent): linked by email, not created', async () => {
    const hqId = await atHq({
      firstName: 'Maria',
      lastName: 'Garcia',
      primaryEmail: 'maria.garcia@example.org',
    });
    const maria = await local('María', 'García', 'Maria.Garcia@example.org');
    const { i, sent } = input(maria.id, 'Maria.Garcia@example.org');
    expect(await linkByEmail(i)).toBe('checked');
    expect(await link(maria.id)).toBe(`email:${hqId}`);
    expect(sent()).toBe(1); // the one read of HQ's contact (the list has no tags)
  });

  it('two Robert Browns, one email: HQ’s contact GiftDesk created for the first is never the second’s', async () => {
    const first = await local('Robert', 'Brown', 'rbrown@example.org');
    const second = await local('Robert', 'Brown', 'rbrown@example.org');
    // The first one's create landed at HQ; its answer was lost (its item idle again, not yet linked).
    const hqId = await atHq({
      firstName: 'Robert',
      lastName: 'Brown',
      primaryEmail: 'rbrown@example.org',
      tags: [`gd:${first.id}`],
    });
    expect(await linkByEmail(input(second.id, 'rbrown@example.org').i)).toBe('checked');
    expect(await link(second.id)).toBeNull();
    expect(await link(first.id)).toBe(`found:${hqId}`);
  });

  it('the other namesake’s create still of unknown outcome: left to its reconcile, nothing linked here', async () => {
    const first = await local('Roberta', 'Browne', 'rb2@example.org');
    const second = await local('Roberta', 'Browne', 'rb2@example.org');
    await rig.local.store.write(async (trx) => {
      await ensureItem(trx, {
        entityType: 'contact',
        entityId: first.id,
        accountId: rig.local.accountId,
        laneId: first.id,
        at: new Date().toISOString(),
      });
      await updateItem(trx, 'contact', first.id, { state: 'unknown' });
    });
    await atHq({
      firstName: 'Roberta',
      lastName: 'Browne',
      primaryEmail: 'rb2@example.org',
      tags: [`gd:${first.id}`],
    });
    expect(await linkByEmail(input(second.id, 'rb2@example.org').i)).toBe('checked');
    expect(await link(first.id)).toBeNull();
    expect(await link(second.id)).toBeNull();
  });

  it('this contact’s own earlier create, found by its email: linked to it', async () => {
    const ana = await local('Ana', 'Lopez', 'ana.lopez@example.org');
    const hqId = await atHq({
      firstName: 'Ana',
      lastName: 'Lopez',
      primaryEmail: 'ana.lopez@example.org',
      tags: [`gd:${ana.id}`],
    });
    expect(await linkByEmail(input(ana.id, 'ana.lopez@example.org').i)).toBe('checked');
    expect(await link(ana.id)).toBe(`found:${hqId}`);
  });

  it('HQ’s contact is linked to another local contact already, or gone at HQ: nothing linked, ours is created', async () => {
    const jose = await local('Jose', 'Nunez', 'jose@example.org');
    const gone = input(jose.id, 'jose@example.org', { matcher: async () => 'cnt_deleted_at_hq' });
    expect(await linkByEmail(gone.i)).toBe('checked');
    expect(gone.sent()).toBe(1);
    expect(await link(jose.id)).toBeNull();

    const maria = (
      await rig.local.store.db
        .selectFrom('syncLinks')
        .select('remoteId')
        .where('source', '=', 'email')
        .executeTakeFirstOrThrow()
    ).remoteId;
    const taken = input(jose.id, 'jose@example.org', { matcher: async () => maria });
    expect(await linkByEmail(taken.i)).toBe('checked');
    expect(taken.sent()).toBe(0);
    expect(await link(jose.id)).toBeNull();
  });

  it('the match fails: the record backs off with the reason; HQ refuses the key: auth', async () => {
    const lee = await local('Lee', 'Wong', 'lee@example.org');
    await rig.local.store.write((trx) =>
      ensureItem(trx, {
        entityType: 'contact',
        entityId: lee.id,
        accountId: rig.local.accountId,
        laneId: lee.id,
        at: new Date().toISOString(),
      }),
    );
    rig.proxy.setRule(() => ({ kind: 'respond', status: 500 }));
    expect(await linkByEmail(input(lee.id, 'lee@example.org').i)).toBe('failed');
    const item = await getItem(rig.local.store.db, 'contact', lee.id);
    expect(item).toMatchObject({ state: 'idle', failures: 1 });
    expect(item!.lastError).toMatch(/^HQ at http:\/\/127\.0\.0\.1:\d+ is failing: it answered 500/);

    rig.proxy.setRule(() => ({ kind: 'respond', status: 403 }));
    expect(await linkByEmail(input(lee.id, 'lee@example.org', { matcher: async () => 'cnt_any' }).i)).toBe(
      'auth',
    );
    expect(cfg.lastError).toMatch(/^HQ refused the API key \(403\): the key is not for this HQ account/);
  });
});
