/**
 * Creates are once per sync reference: a POST /donations whose notes end with a GiftDesk
 * reference (`gd:<local id>` alone on the last line), or a POST /contacts whose tags carry one,
 * answers 200 with the record the account already holds for that reference, and writes
 * nothing — the second copy the sync would otherwise leave at HQ when HQ commits its first
 * create after the client gave up on it (test/sync/late-commit.test.ts). A reference in
 * another account is another record; a reference merely mentioned in notes is not one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactCreateBody } from '#shared/schemas/contacts.ts';
import type { Store } from '../../electron/db/store.ts';
import { createContactOnce } from '../../electron/domain/contacts/create.ts';
import { deleteContact } from '../../electron/domain/contacts/delete.ts';
import {
  asNewAccount,
  expectError,
  expectStatus,
  expectUnchanged,
  getContact,
  giftBody,
  makeCampaign,
  makeContact,
  snapshot,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let donorId: string;
let campaignId: string;

beforeAll(async () => {
  s = await startTestServer();
  donorId = (await makeContact(s, { firstName: 'Robert', lastName: 'Brown' })).id;
  campaignId = (await makeCampaign(s, 'Spring Gala')).id;
});
afterAll(async () => {
  await s?.close();
});

/** A $19.99 cash gift at the gala table, as the sync posts it: the local id on the last line. */
const twin = (t: TestServer, donor: string, campaign: string, ref: string, notes = 'table 4') =>
  giftBody(t, donor, {
    campaignId: campaign,
    donationAmount: 19.99,
    donationDate: '2026-11-24T19:42:00Z',
    paymentMethod: 'cash',
    notes: `${notes}\ngd:${ref}`,
  });

const donations = (t: TestServer) =>
  t.request('GET', `/api/v1/donations?accountId=${t.accountId}&limit=100`).then((r) => expectStatus(r, 200));

describe('POST /donations with a sync reference', () => {
  it('a second create with the reference answers 200 with the first gift and changes nothing', async () => {
    const first = expectStatus(
      await s.request(
        'POST',
        '/api/v1/donations',
        twin(s, donorId, campaignId, 'don_01JDTWINA0000000000000000'),
      ),
      201,
    );
    const before = await snapshot(s, { contacts: [donorId] });
    const again = await s.request(
      'POST',
      '/api/v1/donations',
      twin(s, donorId, campaignId, 'don_01JDTWINA0000000000000000'),
    );
    expect(expectStatus(again, 200)).toEqual(first);
    await expectUnchanged(s, before); // no row, no totals, no change-log entry, same list
    const list = await donations(s);
    expect(list.donations.filter((d: { id: string }) => d.id === first.id)).toHaveLength(1);
    expect((await getContact(s, donorId)).totalDonations).toBe(19.99);
  });

  it('identical twins (same donor, $19.99 cash, same minute) with their own references are two gifts', async () => {
    const t = await asNewAccount(s);
    const donor = (await makeContact(t, { firstName: 'Robert', lastName: 'Brown' })).id;
    const campaign = (await makeCampaign(t, 'Spring Gala')).id;
    const a = await t.request(
      'POST',
      '/api/v1/donations',
      twin(t, donor, campaign, 'don_01JDTWINB0000000000000001'),
    );
    const b = await t.request(
      'POST',
      '/api/v1/donations',
      twin(t, donor, campaign, 'don_01JDTWINB0000000000000002'),
    );
    expect(expectStatus(a, 201).id).not.toBe(expectStatus(b, 201).id);
    expect((await donations(t)).total).toBe(2);
    expect((await getContact(t, donor)).totalDonations).toBe(39.98);
  });

  it('ten concurrent creates with one reference store one gift, and all ten answer it', async () => {
    const t = await asNewAccount(s);
    const donor = (await makeContact(t, { firstName: 'Zoë', lastName: 'Núñez' })).id;
    const campaign = (await makeCampaign(t, 'Spring Gala')).id;
    const body = twin(t, donor, campaign, 'don_01JDRACE00000000000000000');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.request('POST', '/api/v1/donations', body)),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    expect((await donations(t)).total).toBe(1);
    expect((await getContact(t, donor)).totalDonations).toBe(19.99);
    const log = await t.store.db
      .selectFrom('changeLog')
      .select('entityId')
      .where('accountId', '=', t.accountId)
      .where('entityType', '=', 'donation')
      .execute();
    expect(log).toHaveLength(1);
  });

  it('the same reference in another account is another gift there', async () => {
    const t = await asNewAccount(s);
    const donor = (await makeContact(t, { firstName: 'Robert', lastName: 'Brown' })).id;
    const campaign = (await makeCampaign(t, 'Spring Gala')).id;
    const ref = 'don_01JDTWINA0000000000000000'; // the first test's, in the first account
    expectStatus(await t.request('POST', '/api/v1/donations', twin(t, donor, campaign, ref)), 201);
    expect((await donations(t)).total).toBe(1);
  });

  it('a reference mentioned in the notes, not alone on the last line, is no reference', async () => {
    const t = await asNewAccount(s);
    const donor = (await makeContact(t, { firstName: 'Robert', lastName: 'Brown' })).id;
    const campaign = (await makeCampaign(t, 'Spring Gala')).id;
    const base = {
      campaignId: campaign,
      donationAmount: 19.99,
      donationDate: '2026-11-24',
      paymentMethod: 'cash',
    };
    for (const notes of [
      'same as gd:don_01JDMENTION000000000000000 last year', // mid-text
      'gd:don_01JDMENTION000000000000000\ncard sent', // not the last line
      'pledge gd:don_01JDMENTION000000000000000', // on the last line, with other words
      'xgd:don_01JDMENTION000000000000000', // not a whole token
    ]) {
      for (let i = 0; i < 2; i++)
        expectStatus(
          await t.request('POST', '/api/v1/donations', giftBody(t, donor, { ...base, notes })),
          201,
        );
    }
    expect((await donations(t)).total).toBe(8);
    // Blanks around the reference line are forgiven: still the reference.
    const ref = 'notes\r\n  gd:don_01JDMENTION000000000000001 \t';
    const a = expectStatus(
      await t.request('POST', '/api/v1/donations', giftBody(t, donor, { ...base, notes: ref })),
      201,
    );
    const b = await t.request(
      'POST',
      '/api/v1/donations',
      giftBody(t, donor, { ...base, notes: 'other notes\ngd:don_01JDMENTION000000000000001' }),
    );
    expect(expectStatus(b, 200).id).toBe(a.id);
    expect((await donations(t)).total).toBe(9);
  });

  it('a refused create with a held reference is still refused (the rules come first)', async () => {
    const before = await snapshot(s);
    const bad = await s.request('POST', '/api/v1/donations', {
      ...twin(s, donorId, campaignId, 'don_01JDTWINA0000000000000000'),
      donationAmount: -5,
    });
    expect(bad.status).toBe(400);
    await expectUnchanged(s, before);
  });
});

describe('POST /contacts with a sync reference tag', () => {
  const robert = (t: TestServer, ref: string, extra: Record<string, unknown> = {}) => ({
    accountId: t.accountId,
    firstName: 'Robert',
    lastName: 'Brown',
    primaryEmail: 'robert.brown@example.org',
    tags: ['gala 2026', `gd:${ref}`],
    ...extra,
  });

  it('a second create with the tag answers 200 with the first contact and changes nothing', async () => {
    const t = await asNewAccount(s);
    const first = expectStatus(
      await t.request('POST', '/api/v1/contacts', robert(t, 'cnt_01JDROBERT00000000000001')),
      201,
    );
    const before = await snapshot(t, { contacts: [first.id] });
    // The re-post the sync would send; a namesake with another reference is another contact.
    const again = await t.request(
      'POST',
      '/api/v1/contacts',
      robert(t, 'cnt_01JDROBERT00000000000001', { tags: ['GD:cnt_01JDROBERT00000000000001'] }),
    );
    expect(expectStatus(again, 200)).toEqual(first);
    await expectUnchanged(t, before);
    const namesake = await t.request('POST', '/api/v1/contacts', robert(t, 'cnt_01JDROBERT00000000000002'));
    expect(expectStatus(namesake, 201).id).not.toBe(first.id);
    const list = expectStatus(
      await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}&limit=100`),
      200,
    );
    expect(list.total).toBe(2);
  });

  it("a window's try made again with its key (the answer lost) is the same contact; a namesake's own key is another", async () => {
    const t = await asNewAccount(s);
    const body = {
      accountId: t.accountId,
      firstName: 'Robert',
      lastName: 'Brown',
      entryKey: 'ent_robert_try1',
    };
    const first = expectStatus(await t.request('POST', '/api/v1/contacts', body), 201);
    const before = await snapshot(t, { contacts: [first.id] });
    expect(expectStatus(await t.request('POST', '/api/v1/contacts', body), 200)).toEqual(first);
    await expectUnchanged(t, before);
    // Three Robert Browns at one event, no email: each typed in a fresh form is a donor of his own.
    for (const key of ['ent_robert_try2', 'ent_robert_try3'])
      expectStatus(await t.request('POST', '/api/v1/contacts', { ...body, entryKey: key }), 201);
    expectError(await t.request('POST', '/api/v1/contacts', { ...body, entryKey: 'no' }), 400, {
      field: 'entryKey',
    });
    const list = expectStatus(
      await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}&limit=100`),
      200,
    );
    expect(list.total).toBe(3);
  });

  it('concurrent creates with one tag store one contact', async () => {
    const t = await asNewAccount(s);
    const body = robert(t, 'cnt_01JDRACE000000000000000C');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.request('POST', '/api/v1/contacts', body)),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    const list = expectStatus(
      await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}&limit=100`),
      200,
    );
    expect(list.total).toBe(1);
  });

  it('a tag that only starts with gd: is no reference, and a contact deleted frees its reference', async () => {
    const t = await asNewAccount(s);
    for (let i = 0; i < 2; i++)
      expectStatus(
        await t.request('POST', '/api/v1/contacts', robert(t, 'x', { tags: ['gd: VIP table'] })),
        201,
      );
    const a = expectStatus(
      await t.request('POST', '/api/v1/contacts', robert(t, 'cnt_01JDGONE0000000000000000')),
      201,
    );
    expectStatus(await t.request('DELETE', `/api/v1/contacts/${a.id}?accountId=${t.accountId}`), 200);
    const b = expectStatus(
      await t.request('POST', '/api/v1/contacts', robert(t, 'cnt_01JDGONE0000000000000000')),
      201,
    );
    expect(b.id).not.toBe(a.id);
  });

  it('a contact deleted between its reference being found and its record being read: the create makes the donor again, as after any delete (never a 404 naming the deleted one)', async () => {
    // The hub deleting a donor while a station's create of it is sent again (its first answer
    // lost to kill -9): the convergence soak's seed 137, where the station parked its donor.
    const ref = 'cnt_01JDRACEDELETE00000000000';
    const first = await createContactOnce(s.ctx, robert(s, ref) as ContactCreateBody);
    expect(first.created).toBe(true);
    // The store's reads, with the look-up of a contact by its reference answered and only then
    // (before the caller reads the contact it names) the contact deleted, as the hub's DELETE
    // committing in between does.
    let armed = true;
    type Builder = { executeTakeFirst: (...a: unknown[]) => Promise<unknown> };
    const wrap = <B extends object>(b: B): B =>
      new Proxy(b, {
        get(target, prop) {
          const v = Reflect.get(target, prop) as unknown;
          if (typeof v !== 'function') return v;
          if (prop === 'executeTakeFirst')
            return async (...args: unknown[]) => {
              const found = await (v as Builder['executeTakeFirst']).apply(target, args);
              if (armed && found) {
                armed = false;
                await deleteContact(s.ctx, s.accountId, first.contact.id);
              }
              return found;
            };
          return (...args: unknown[]) => {
            const out = (v as (...a: unknown[]) => unknown).apply(target, args);
            return out && typeof out === 'object' && 'executeTakeFirst' in out ? wrap(out) : out;
          };
        },
      });
    const db = new Proxy(s.store.db, {
      get(target, prop) {
        const v = Reflect.get(target, prop) as unknown;
        if (prop === 'selectFrom')
          return (table: string) => {
            const b = target.selectFrom(table as 'contactSyncReferences');
            return table === 'contactSyncReferences' ? wrap(b) : b;
          };
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const store = Object.create(s.store) as Store;
    Object.defineProperty(store, 'db', { value: db });
    const again = await createContactOnce({ ...s.ctx, store }, robert(s, ref) as ContactCreateBody);
    expect(armed).toBe(false);
    expect(again.created).toBe(true);
    expect(again.contact.id).not.toBe(first.contact.id);
    expect(again.contact.tags).toContain(`gd:${ref}`);
    expect(
      (await s.request('GET', `/api/v1/contacts/${first.contact.id}?accountId=${s.accountId}`)).status,
    ).toBe(404);
  });
});

describe('DELETE /contacts/gd:<id>: the sender retires a contact reference', () => {
  const lukasz = (t: TestServer, ref: string, extra: Record<string, unknown> = {}) => ({
    accountId: t.accountId,
    firstName: 'Łukasz',
    lastName: 'Żółć',
    primaryEmail: 'lukasz.zolc@example.org',
    tags: ['gala 2026', `gd:${ref}`],
    ...extra,
  });
  const total = async (t: TestServer) =>
    expectStatus(await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}&limit=100`), 200)
      .total as number;

  it('held by no contact: 404, and a create carrying it afterwards (one that landed late) is a 409 that writes nothing', async () => {
    const t = await asNewAccount(s);
    const ref = 'cnt_01JDRETIRE000000000000001';
    const gone = await t.request('DELETE', `/api/v1/contacts/gd:${ref}?accountId=${t.accountId}`);
    expect(expectStatus(gone, 404).code).toBe('contact_not_found');
    expect(gone.headers.get('x-giftdesk-extensions')).toContain('contact-reference-retire');
    const before = await snapshot(t);
    const late = await t.request('POST', '/api/v1/contacts', lukasz(t, ref));
    const refused = expectStatus(late, 409);
    expect(refused.code).toBe('reference_retired');
    expect(refused.details).toEqual([{ field: 'tags', issue: `carry the retired reference gd:${ref}` }]);
    await expectUnchanged(t, before);
    // The same name typed again, with its own reference (as "lukasz zolc" at another table): a contact.
    expectStatus(
      await t.request(
        'POST',
        '/api/v1/contacts',
        lukasz(t, 'cnt_01JDRETIRE000000000000002', { firstName: 'lukasz', lastName: 'zolc' }),
      ),
      201,
    );
    expect(await total(t)).toBe(1);
  });

  it('held by the contact its create made: that contact is deleted, and the reference stays retired', async () => {
    const t = await asNewAccount(s);
    const ref = 'cnt_01JDRETIRE000000000000003';
    const landed = expectStatus(await t.request('POST', '/api/v1/contacts', lukasz(t, ref)), 201);
    const namesake = expectStatus(
      await t.request('POST', '/api/v1/contacts', lukasz(t, 'cnt_01JDRETIRE000000000000004')),
      201,
    );
    const del = await t.request('DELETE', `/api/v1/contacts/gd%3A${ref}?accountId=${t.accountId}`);
    expect(expectStatus(del, 200).message).toContain(landed.id);
    expect((await t.request('GET', `/api/v1/contacts/${landed.id}?accountId=${t.accountId}`)).status).toBe(
      404,
    );
    expect(
      expectStatus(await t.request('GET', `/api/v1/contacts/${namesake.id}?accountId=${t.accountId}`), 200)
        .id,
    ).toBe(namesake.id);
    // Twice is the same: nothing held, still retired.
    expectStatus(await t.request('DELETE', `/api/v1/contacts/gd:${ref}?accountId=${t.accountId}`), 404);
    expectStatus(await t.request('POST', '/api/v1/contacts', lukasz(t, ref)), 409);
    expect(await total(t)).toBe(1);
  });

  it('creates and the retirement at once: whichever order, no contact holds the reference afterwards', async () => {
    const t = await asNewAccount(s);
    const ref = 'cnt_01JDRETIRERACE00000000000';
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => t.request('POST', '/api/v1/contacts', lukasz(t, ref))),
      t.request('DELETE', `/api/v1/contacts/gd:${ref}?accountId=${t.accountId}`),
      ...Array.from({ length: 6 }, () => t.request('POST', '/api/v1/contacts', lukasz(t, ref))),
    ]);
    for (const a of answers) expect([200, 201, 404, 409], a.text).toContain(a.status);
    expect(await total(t)).toBe(0);
    expectStatus(await t.request('POST', '/api/v1/contacts', lukasz(t, ref)), 409);
  });

  it("a server of the donor API alone has no such thing: it names no extension, and gd:<id> is no contact's id", async () => {
    const spec = await startTestServer({ specOnly: true });
    try {
      const r = await spec.request(
        'DELETE',
        `/api/v1/contacts/gd:cnt_01JDRETIRE000000000000005?accountId=${spec.accountId}`,
      );
      expectStatus(r, 404);
      expect(r.headers.get('x-giftdesk-extensions')).toBeNull();
      expectStatus(
        await spec.request('POST', '/api/v1/contacts', lukasz(spec, 'cnt_01JDRETIRE000000000000005')),
        201,
      );
    } finally {
      await spec.close();
    }
  });
});
