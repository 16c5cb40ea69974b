import { describe, expect, it } from 'vitest';
import type { Contact } from '#shared/schemas/contacts.ts';
import type { DonationRow } from '../../electron/db/schema.ts';
import {
  contactCreateBody,
  contactUpdateBody,
  customFieldsToSend,
  donationCreateBody,
} from '../../electron/sync/push/payloads.ts';
import {
  donationSearchWindow,
  hasContactReference,
  hasDonationReference,
  matchDonation,
  sentContactIdentity,
  sentDonationIdentity,
  withDonationReference,
} from '../../electron/sync/push/identity.ts';

const contact: Contact = {
  id: 'cnt_1',
  contactType: 'INDIVIDUAL',
  status: 'ACTIVE',
  firstName: 'Zoë',
  lastName: 'Adams',
  prefix: null,
  middleName: null,
  suffix: null,
  salutation: null,
  formalSalutation: null,
  primaryEmail: 'zoe@example.org',
  primaryPhone: null,
  organization: 'Library',
  title: null,
  employer: null,
  occupation: null,
  industry: null,
  spouse: null,
  birthDate: null,
  gender: null,
  politicalParty: null,
  capacity: null,
  quickNotes: null,
  source: null,
  preferredContactMethod: null,
  tags: ['vip'],
  phoneNumbers: [{ id: 'sub_1', phoneNumber: '555', phoneType: null, isPrimary: true }],
  emailAddresses: [],
  addresses: [],
  education: [],
  employment: [],
  notes: [{ id: 'sub_2', content: 'met at gala', noteType: null, createdAt: '2026-01-01T00:00:00.000Z' }],
  customFields: { 'Shirt Size': 'L', Score: 3 },
  email: 'zoe@example.org',
  phone: '555',
  address: null,
  totalDonations: 0,
  totalDonated: 0,
  lastDonationDate: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('contact payloads', () => {
  it('create: the whole record, no local ids, the reference tag, HQ account', () => {
    const body = contactCreateBody(contact, 'cnt_1', 'acct_hq');
    expect(body).toEqual({
      accountId: 'acct_hq',
      firstName: 'Zoë',
      lastName: 'Adams',
      contactType: 'INDIVIDUAL',
      status: 'ACTIVE',
      primaryEmail: 'zoe@example.org',
      organization: 'Library',
      tags: ['vip', 'gd:cnt_1'],
      phoneNumbers: [{ phoneNumber: '555', isPrimary: true }],
      notes: [{ content: 'met at gala' }],
      customFields: { 'Shirt Size': 'L', Score: 3 },
    });
    expect(JSON.stringify(body)).not.toContain('sub_');
  });

  it('update: only the changed fields (C1), collections whole (C3), custom fields by name (C4), no accountId', () => {
    expect(
      contactUpdateBody(contact, 'cnt_1', [
        'organization',
        'quickNotes',
        'phoneNumbers',
        'customFields',
        'customFields.shirt size',
        'customFields.Gone',
      ]),
    ).toEqual({
      organization: 'Library',
      quickNotes: null,
      phoneNumbers: [{ phoneNumber: '555', isPrimary: true }],
      customFields: { 'Shirt Size': 'L', Gone: null },
    });
    expect(contactUpdateBody(contact, 'cnt_1', ['tags'])).toEqual({ tags: ['vip', 'gd:cnt_1'] });
    const all = contactUpdateBody(contact, 'cnt_1', null);
    expect(all).not.toHaveProperty('accountId');
    expect(all.emailAddresses).toEqual([]);
    expect(all.customFields).toEqual({ 'Shirt Size': 'L', Score: 3 });
  });

  it('custom fields: none named → none sent; "customFields" alone → all values', () => {
    expect(customFieldsToSend({ A: 1 }, ['firstName'])).toBeNull();
    expect(customFieldsToSend({ A: 1 }, ['customFields'])).toEqual({ A: 1 });
  });
});

const gift: DonationRow = {
  id: 'don_01ABC',
  accountId: 'acct_local',
  contactId: 'cnt_1',
  amountCents: 12_550,
  donationDate: '2026-03-01T00:00:00.000Z',
  paymentMethod: 'check',
  status: 'completed',
  campaignId: 'cmp_local',
  committeeId: null,
  donationAccountId: null,
  electionType: 'general',
  electionYear: 2026,
  onBehalfOfContactId: null,
  facilitatedByContactId: 'cnt_2',
  isAnonymous: 0,
  isRecurring: 1,
  thankYouSent: 0,
  thankYouSentDate: null,
  notes: 'table 4',
  externalId: null,
  batchId: null,
  stationId: null,
  enteredByUserId: null,
  enteredByKeyId: null,
  enteredByName: null,
  createdAt: 'x',
  updatedAt: 'x',
};

describe('donation payloads', () => {
  it('maps every reference to its HQ id and carries the reference in notes', () => {
    const r = donationCreateBody(
      gift,
      { contactId: 'hq_c1', campaignId: 'hq_cmp', facilitatedByContactId: 'hq_c2' },
      'acct_hq',
      gift.id,
    );
    expect(r).toEqual({
      ok: true,
      body: {
        accountId: 'acct_hq',
        contactId: 'hq_c1',
        donationAmount: 125.5,
        donationDate: '2026-03-01T00:00:00.000Z',
        paymentMethod: 'check',
        electionType: 'general',
        electionYear: 2026,
        isAnonymous: false,
        isRecurring: true,
        thankYouSent: false,
        notes: 'table 4\ngd:don_01ABC',
        campaignId: 'hq_cmp',
        facilitatedByContactId: 'hq_c2',
      },
    });
  });

  it('says when the gift was entered here to an event hub only, never to HQ', () => {
    const ids = { contactId: 'hq_c1', campaignId: 'hq_cmp', facilitatedByContactId: 'hq_c2' };
    const toHq = donationCreateBody(gift, ids, 'acct_hq', gift.id, 'hq');
    expect(toHq.ok && 'enteredAt' in toHq.body).toBe(false);
    expect(donationCreateBody(gift, ids, 'acct_hq', gift.id)).toEqual(toHq);
    const toHub = donationCreateBody(gift, ids, 'acct_hub', gift.id, 'hub');
    expect(toHub).toMatchObject({
      ok: true,
      body: { enteredAt: gift.createdAt, notes: 'table 4\ngd:don_01ABC' },
    });
  });

  it('a reference without an HQ id stops the build, naming it', () => {
    expect(donationCreateBody(gift, { contactId: 'hq_c1' }, 'acct_hq', gift.id)).toEqual({
      ok: false,
      missing: [
        { field: 'campaignId', localId: 'cmp_local' },
        { field: 'facilitatedByContactId', localId: 'cnt_2' },
      ],
    });
  });
});

describe('a record that came with its origin’s reference', () => {
  it('a gift goes under that reference, its notes unchanged', () => {
    const arrived = { ...gift, id: 'don_HUB', notes: 'table 4\ngd:don_STATION' };
    const r = donationCreateBody(
      arrived,
      { contactId: 'hq_c1', campaignId: 'hq_cmp', facilitatedByContactId: 'hq_c2' },
      'acct_hq',
      'don_STATION',
    );
    expect(r.ok && r.body.notes).toBe('table 4\ngd:don_STATION');
    // Its reference line removed by a correction here: put back, the origin's.
    const edited = donationCreateBody(
      { ...arrived, notes: 'table 5' },
      { contactId: 'hq_c1', campaignId: 'hq_cmp', facilitatedByContactId: 'hq_c2' },
      'acct_hq',
      'don_STATION',
    );
    expect(edited.ok && edited.body.notes).toBe('table 5\ngd:don_STATION');
  });

  it('a contact keeps its one reference tag, last: no second one', () => {
    const arrived = { ...contact, tags: ['gd:cnt_STATION', 'vip'] };
    expect(contactCreateBody(arrived, 'cnt_STATION', 'acct_hq').tags).toEqual(['vip', 'gd:cnt_STATION']);
    expect(contactUpdateBody({ ...arrived, tags: ['vip', 'new'] }, 'cnt_STATION', ['tags'])).toEqual({
      tags: ['vip', 'new', 'gd:cnt_STATION'],
    });
  });

  it('what an attempt carried names the record it was sent for', () => {
    expect(sentDonationIdentity('table 4\ngd:don_STATION')).toBe('don_STATION');
    expect(sentDonationIdentity('see gd:don_X above')).toBe(null);
    expect(sentDonationIdentity(undefined)).toBe(null);
    expect(sentContactIdentity(['gd:cnt_A', 'vip', 'GD:cnt_B'])).toBe('cnt_B');
    expect(sentContactIdentity(['vip'])).toBe(null);
    expect(sentContactIdentity(undefined)).toBe(null);
  });
});

describe('identity', () => {
  it('the reference is a whole token', () => {
    expect(withDonationReference(null, 'don_1')).toBe('gd:don_1');
    expect(withDonationReference('hello', 'don_1')).toBe('hello\ngd:don_1');
    expect(hasDonationReference('hello\ngd:don_1', 'don_1')).toBe(true);
    expect(hasDonationReference('gd:don_12', 'don_1')).toBe(false);
    expect(hasDonationReference('xgd:don_1', 'don_1')).toBe(false);
    expect(hasDonationReference('edited by staff (gd:don_1) ok', 'don_1')).toBe(true);
    expect(hasDonationReference(null, 'don_1')).toBe(false);
    expect(hasContactReference(['VIP', 'GD:cnt_9'], 'cnt_9')).toBe(true);
    expect(hasContactReference(['gd:cnt_90'], 'cnt_9')).toBe(false);
  });

  const item = (id: string, contactId: string, notes: string | null, amount = 125.5) => ({
    id,
    contactId,
    contactName: 'x',
    donationAmount: amount,
    donationDate: '2026-03-01T00:00:00.000Z',
    paymentMethod: 'check' as const,
    campaignId: 'hq_cmp',
    campaignName: null,
    notes,
    createdAt: 'x',
  });
  const sent = {
    localId: 'don_01ABC',
    contactId: 'hq_c1',
    donationAmount: 125.5,
    donationDate: '2026-03-01',
    paymentMethod: 'check',
    campaignId: 'hq_cmp',
  };

  it.each([
    [
      'found by reference and contact',
      [item('a', 'hq_c9', 'gd:don_01ABC'), item('b', 'hq_c1', 'x\ngd:don_01ABC')],
      { kind: 'found', remoteId: 'b', duplicates: [] },
    ],
    ['reference under another contact is not it', [item('a', 'hq_c9', 'gd:don_01ABC')], { kind: 'absent' }],
    [
      'copies are reported',
      [item('b', 'hq_c1', 'gd:don_01ABC'), item('c', 'hq_c1', 'gd:don_01ABC')],
      { kind: 'found', remoteId: 'b', duplicates: ['c'] },
    ],
    [
      'same in every field but no reference → lookalike',
      [item('d', 'hq_c1', 'edited')],
      { kind: 'lookalike', remoteId: 'd' },
    ],
    ['another amount → absent', [item('d', 'hq_c1', null, 99)], { kind: 'absent' }],
    ['empty list → absent', [], { kind: 'absent' }],
    [
      "a twin carrying another gift's reference is never a lookalike",
      [item('t', 'hq_c1', 'gd:don_01ZZZ')],
      { kind: 'absent' },
    ],
    [
      "a twin with staff notes and another gift's reference is never a lookalike",
      [item('t', 'hq_c1', 'card sent (gd:don_01ZZZ)')],
      { kind: 'absent' },
    ],
    [
      "a pasted mention of our reference above another gift's own is that gift's, never ours",
      [item('p', 'hq_c1', 'table 4\ngd:don_01ABC\ngd:don_01ZZZ'), item('u', 'hq_c1', 'gd:don_01ABC')],
      { kind: 'found', remoteId: 'u', duplicates: [] },
    ],
    [
      'a mention of our reference alone is not it',
      [item('p', 'hq_c1', 'table 4\ngd:don_01ABC\ngd:don_01ZZZ')],
      { kind: 'absent' },
    ],
    [
      'our reference found past a twin',
      [item('t', 'hq_c1', 'gd:don_01ZZZ'), item('u', 'hq_c1', 'gd:don_01ABC')],
      { kind: 'found', remoteId: 'u', duplicates: [] },
    ],
  ])('%s', (_n, items, want) => {
    expect(matchDonation(items, sent)).toEqual(want);
  });

  it('a gift linked to another local gift is never a lookalike, even with its reference edited away at HQ', () => {
    expect(matchDonation([item('t', 'hq_c1', 'thank-you sent')], sent, new Set(['t']))).toEqual({
      kind: 'absent',
    });
    expect(
      matchDonation(
        [item('t', 'hq_c1', 'thank-you sent'), item('h', 'hq_c1', 'typed at HQ')],
        sent,
        new Set(['t']),
      ),
    ).toEqual({ kind: 'lookalike', remoteId: 'h' });
  });

  it('a gift carrying our reference but linked to another local gift is never found as ours', () => {
    expect(matchDonation([item('u', 'hq_c1', 'gd:don_01ABC')], sent, new Set(['u']))).toEqual({
      kind: 'absent',
    });
  });

  it('searches from the day before to the day after', () => {
    expect(donationSearchWindow('2026-03-01T23:30:00.000Z')).toEqual({
      startDate: '2026-02-28',
      endDate: '2026-03-02',
    });
  });
});
