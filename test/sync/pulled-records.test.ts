/**
 * The domain write path for records pulled from HQ (electron/domain/pulled/), on a real
 * SQLite file: a pulled contact is in the directory like any other, its change-log rows say
 * push = 0, a refresh writes only what differs, and fields with local intent are kept.
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
import {
  insertPulledContact,
  insertPulledReference,
  pulledContactFields,
  refreshPulledContact,
  renamePulledReference,
} from '../../electron/domain/pulled/index.ts';
import { listCampaigns } from '../../electron/domain/reference/records.ts';
import { tempDir } from '../helpers/server.ts';

let store: Store;
let ctx: DomainContext;
let accountId: string;

beforeAll(async () => {
  store = await openStore({ dataDir: tempDir() });
  ctx = createContext(store);
  accountId = (await createAccount(ctx, 'Pull Org')).id;
});
afterAll(async () => {
  await store?.close();
});

const logOf = (id: string) =>
  store.db
    .selectFrom('changeLog')
    .select(['op', 'fields', 'push'])
    .where('entityId', '=', id)
    .orderBy('seq')
    .execute();

describe('a contact pulled from HQ', () => {
  it('is found by the directory search and its change is never queued for HQ', async () => {
    const id = await store.write((trx) =>
      insertPulledContact(
        trx,
        accountId,
        {
          firstName: 'Grace',
          lastName: 'Hopper',
          email: 'grace@navy.example',
          phone: '555-0100',
          organization: 'US Navy',
        },
        ctx.now(),
      ),
    );
    const found = await listContacts(ctx, { accountId, search: 'grace@navy' });
    expect(found.data.map((c) => c.id)).toEqual([id]);
    const c = await getContact(ctx, accountId, id);
    expect(c).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      primaryEmail: 'grace@navy.example',
      email: 'grace@navy.example',
      primaryPhone: '555-0100',
      organization: 'US Navy',
    });
    expect(await logOf(id)).toEqual([{ op: 'create', fields: null, push: 0 }]);
  });

  it('is refreshed only where HQ differs, and a refresh of an unchanged record writes nothing', async () => {
    const id = await store.write((trx) =>
      insertPulledContact(
        trx,
        accountId,
        { firstName: 'Alan', lastName: 'Turing', email: null, phone: null, organization: null },
        ctx.now(),
      ),
    );
    const same = await store.write((trx) =>
      refreshPulledContact(
        trx,
        accountId,
        id,
        { firstName: 'Alan', lastName: 'Turing', email: null, phone: null, organization: null },
        new Set(),
        ctx.now(),
      ),
    );
    expect(same).toEqual({ kind: 'unchanged' });
    expect(await logOf(id)).toHaveLength(1);
    const r = await store.write((trx) =>
      refreshPulledContact(
        trx,
        accountId,
        id,
        {
          firstName: 'Alan',
          lastName: 'Turing',
          email: 'alan@bletchley.example',
          phone: null,
          organization: 'GC&CS',
        },
        new Set(),
        ctx.now(),
      ),
    );
    expect(r).toEqual({ kind: 'updated', fields: ['primaryEmail', 'organization'] });
    expect(await getContact(ctx, accountId, id)).toMatchObject({
      email: 'alan@bletchley.example',
      primaryEmail: 'alan@bletchley.example',
      organization: 'GC&CS',
    });
    expect((await logOf(id)).at(-1)).toEqual({
      op: 'update',
      fields: JSON.stringify(['primaryEmail', 'organization']),
      push: 0,
    });
  });

  it('keeps the fields the user changed here (local intent wins) and takes HQ for the rest', async () => {
    const id = await store.write((trx) =>
      insertPulledContact(
        trx,
        accountId,
        { firstName: 'Ada', lastName: 'Byron', email: 'ada@example.org', phone: null, organization: null },
        ctx.now(),
      ),
    );
    await updateContact(ctx, accountId, id, {
      lastName: 'Lovelace',
      emailAddresses: [{ emailAddress: 'ada@engines.example', isPrimary: true }],
    });
    const r = await store.write((trx) =>
      refreshPulledContact(
        trx,
        accountId,
        id,
        {
          firstName: 'Augusta Ada',
          lastName: 'King',
          email: 'countess@example.org',
          phone: null,
          organization: 'Analytical Society',
        },
        new Set(['lastName', 'emailAddresses']),
        ctx.now(),
      ),
    );
    expect(r).toEqual({ kind: 'updated', fields: ['firstName', 'organization'] });
    expect(await getContact(ctx, accountId, id)).toMatchObject({
      firstName: 'Augusta Ada',
      lastName: 'Lovelace',
      primaryEmail: 'ada@example.org',
      organization: 'Analytical Society',
    });
    const all = await store.write((trx) =>
      refreshPulledContact(
        trx,
        accountId,
        id,
        { firstName: 'Someone', lastName: 'Else', email: null, phone: null, organization: null },
        'all',
        ctx.now(),
      ),
    );
    expect(all.kind).toBe('kept');
    expect((await getContact(ctx, accountId, id)).firstName).toBe('Augusta Ada');
  });

  it('says so when the local copy is gone, and refuses HQ records it cannot store', async () => {
    const gone = await store.write((trx) =>
      refreshPulledContact(
        trx,
        accountId,
        'cnt_01JD00000000000000000000XX',
        { firstName: 'A', lastName: 'B', email: null, phone: null, organization: null },
        new Set(),
        ctx.now(),
      ),
    );
    expect(gone).toEqual({ kind: 'missing' });
    expect(pulledContactFields({ firstName: '  ', lastName: 'X' })).toEqual({
      problem: 'firstName is empty',
    });
    expect(pulledContactFields({ firstName: 'X', lastName: 42 })).toEqual({ problem: 'lastName is empty' });
    expect(pulledContactFields({ firstName: ' Zoë ', lastName: 'Ng', email: '', phone: null })).toEqual({
      firstName: 'Zoë',
      lastName: 'Ng',
      email: null,
      phone: null,
      organization: null,
    });
  });

  it('leaves contacts made here to be pushed as before', async () => {
    const c = await createContact(ctx, { accountId, firstName: 'Local', lastName: 'Donor' });
    expect(await logOf(c.id)).toEqual([{ op: 'create', fields: null, push: 1 }]);
  });
});

describe('reference records pulled from HQ', () => {
  it('are added and renamed with push = 0', async () => {
    const id = await store.write((trx) =>
      insertPulledReference(trx, 'campaign', accountId, ' Spring Gala ', ctx.now()),
    );
    expect((await listCampaigns(ctx, accountId)).find((c) => c.id === id)?.name).toBe('Spring Gala');
    expect(
      await store.write((trx) =>
        renamePulledReference(trx, 'campaign', accountId, id, 'Spring Gala', ctx.now()),
      ),
    ).toBe(false);
    expect(
      await store.write((trx) =>
        renamePulledReference(trx, 'campaign', accountId, id, 'Spring Gala 2027', ctx.now()),
      ),
    ).toBe(true);
    expect(await logOf(id)).toEqual([
      { op: 'create', fields: null, push: 0 },
      { op: 'update', fields: JSON.stringify(['name']), push: 0 },
    ]);
  });
});
