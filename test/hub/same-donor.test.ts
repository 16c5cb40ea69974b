/**
 * The same new donor typed at two stations at once is one donor at the hub: a contact create
 * from a station's key whose primary email (case aside) and first and last name (accents and
 * case aside) match a contact of the account answers 200 with that contact and writes nothing.
 * Decided inside the write transaction: creates sent truly at the same time, from two
 * stations' keys, give one donor. Anything else (another name, no email, the hosting key) is
 * an ordinary create; a station's gift is stamped with its station.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contact } from '#shared/schemas/contacts.ts';
import { expectStatus, giftBody, makeCampaign } from '../helpers/api-fixtures.ts';
import { type Hub, type Station, startHub } from './hub-rig.ts';

let hub: Hub;
let a: Station;
let b: Station;
beforeAll(async () => {
  hub = await startHub();
  a = await hub.join('Table A');
  b = await hub.join('Table B');
});
afterAll(async () => {
  await hub?.close();
});

const create = (s: Station | Hub, fields: Record<string, unknown>) =>
  s.request('POST', '/api/v1/contacts', { accountId: hub.accountId, ...fields });

async function contactsWithEmail(email: string): Promise<string[]> {
  const rows = await hub.store.db
    .selectFrom('contacts')
    .select(['id', 'email'])
    .where('accountId', '=', hub.accountId)
    .execute();
  return rows.filter((r) => r.email?.toLowerCase() === email.toLowerCase()).map((r) => r.id);
}

describe('the same new donor at two stations', () => {
  it('two creates sent at the same moment from two stations give one donor', async () => {
    const [fromA, fromB] = await Promise.all([
      create(a, {
        firstName: 'Maria',
        lastName: 'Lopez',
        primaryEmail: 'maria.lopez@example.org',
        tags: ['gd:cnt_tableA1'],
      }),
      create(b, {
        firstName: 'María',
        lastName: 'LÓPEZ',
        primaryEmail: 'Maria.Lopez@Example.org',
        tags: ['gd:cnt_tableB1'],
      }),
    ]);
    expect([fromA.status, fromB.status].sort()).toEqual([200, 201]);
    const ca = Contact.parse(fromA.body);
    const cb = Contact.parse(fromB.body);
    expect(ca.id).toBe(cb.id);
    expect(await contactsWithEmail('maria.lopez@example.org')).toEqual([ca.id]);
  });

  it('many donors, each typed at both stations at once: one contact each', async () => {
    const donors = Array.from({ length: 12 }, (_, i) => ({
      firstName: `Guest${i}`,
      lastName: 'Twin',
      primaryEmail: `guest${i}@example.org`,
    }));
    const answers = await Promise.all(
      donors.flatMap((d, i) => [
        create(a, { ...d, tags: [`gd:cnt_a${i}`] }),
        create(b, { ...d, primaryEmail: d.primaryEmail.toUpperCase(), tags: [`gd:cnt_b${i}`] }),
      ]),
    );
    for (let i = 0; i < donors.length; i++) {
      const [x, y] = [answers[2 * i]!, answers[2 * i + 1]!];
      expect([x.status, y.status].sort(), `${x.text} ${y.text}`).toEqual([200, 201]);
      expect(x.body.id).toBe(y.body.id);
      expect(await contactsWithEmail(donors[i]!.primaryEmail)).toEqual([x.body.id]);
    }
    // Nothing written for the answered ones: one change per donor in the log.
    const logged = await hub.store.db
      .selectFrom('changeLog')
      .select('entityId')
      .where('entityType', '=', 'contact')
      .where(
        'entityId',
        'in',
        answers.map((r) => r.body.id as string),
      )
      .execute();
    expect(logged.length).toBe(donors.length);
  });

  it('another name with the same email, no email, or the hosting key: an ordinary create', async () => {
    const first = expectStatus(
      await create(a, { firstName: 'Sam', lastName: 'Park', primaryEmail: 'park.family@example.org' }),
      201,
    );
    // The spouse shares the family email: another donor.
    const spouse = expectStatus(
      await create(b, { firstName: 'Jin', lastName: 'Park', primaryEmail: 'park.family@example.org' }),
      201,
    );
    expect(spouse.id).not.toBe(first.id);
    // No email: names alone never merge donors (namesakes).
    const n1 = expectStatus(await create(a, { firstName: 'John', lastName: 'Smith' }), 201);
    const n2 = expectStatus(await create(b, { firstName: 'John', lastName: 'Smith' }), 201);
    expect(n1.id).not.toBe(n2.id);
    // The hub's own key is not a station: its create is the spec route's, unchanged.
    const own = expectStatus(
      await create(hub, { firstName: 'Sam', lastName: 'Park', primaryEmail: 'park.family@example.org' }),
      201,
    );
    expect(own.id).not.toBe(first.id);
  });

  it('matches on the primary email sub-record as well', async () => {
    const first = expectStatus(
      await create(a, {
        firstName: 'Ana',
        lastName: 'Ruiz',
        emailAddresses: [{ emailAddress: 'ana.ruiz@example.org', isPrimary: true }],
      }),
      201,
    );
    const again = await create(b, {
      firstName: 'Ana',
      lastName: 'Ruiz',
      primaryEmail: 'ANA.RUIZ@example.org',
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.id);
  });
});

describe("a station's gift", () => {
  it('is stamped with the station it was sent from; the hub’s own gifts with none', async () => {
    const campaign = await makeCampaign(hub, 'Gala');
    const donor = expectStatus(await create(a, { firstName: 'Gift', lastName: 'Giver' }), 201);
    const fromA = expectStatus(
      await a.request('POST', '/api/v1/donations', giftBody(hub, donor.id, { campaignId: campaign.id })),
      201,
    );
    const fromB = expectStatus(
      await b.request('POST', '/api/v1/donations', giftBody(hub, donor.id, { campaignId: campaign.id })),
      201,
    );
    const atHub = expectStatus(
      await hub.request('POST', '/api/v1/donations', giftBody(hub, donor.id, { campaignId: campaign.id })),
      201,
    );
    const rows = await hub.store.db
      .selectFrom('donations')
      .select(['id', 'stationId'])
      .where('id', 'in', [fromA.id, fromB.id, atHub.id])
      .execute();
    const station = Object.fromEntries(rows.map((r) => [r.id, r.stationId]));
    expect(station).toEqual({ [fromA.id]: a.stationId, [fromB.id]: b.stationId, [atHub.id]: null });
  });
});
