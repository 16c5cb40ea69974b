/**
 * The contact form's translation to the API (renderer/screens/contacts/form-model.ts and
 * form-issues.ts): a create body carries what was filled in; an update body only what
 * changed (C1), changed collections whole (C3) and changed custom fields alone (C4), ""
 * clearing; errors from the shared schema or the server find the control they name.
 */
import { describe, expect, it } from 'vitest';
import type { Contact } from '#shared/schemas/contacts.ts';
import { checkBody, formPath } from '../../renderer/screens/contacts/form-issues.ts';
import {
  createBody,
  emptyValues,
  updateBody,
  valuesFromContact,
  type CustomFieldDef,
} from '../../renderer/screens/contacts/form-model.ts';

const defs: CustomFieldDef[] = [
  { id: 'cf_text', name: 'Volunteer Interests', type: 'text', archived: false, options: [] },
  { id: 'cf_num', name: 'Wealth Score', type: 'number', archived: false, options: [] },
  { id: 'cf_date', name: 'Last Contacted', type: 'date', archived: false, options: [] },
  {
    id: 'cf_pick',
    name: 'Membership.Level',
    type: 'picklist',
    archived: false,
    options: [
      { id: 'o1', name: 'Gold', retired: false },
      { id: 'o2', name: 'Tin', retired: true },
    ],
  },
  { id: 'cf_old', name: 'Old Field', type: 'text', archived: true, options: [] },
];

const contact: Contact = {
  id: 'cnt_1',
  contactType: 'INDIVIDUAL',
  status: 'ACTIVE',
  firstName: 'Zoë',
  lastName: 'Núñez',
  prefix: null,
  middleName: null,
  suffix: null,
  salutation: null,
  formalSalutation: null,
  primaryEmail: 'zoe@example.org',
  primaryPhone: null,
  organization: 'Fjord',
  title: null,
  employer: null,
  occupation: null,
  industry: null,
  spouse: null,
  birthDate: '1990-02-03',
  gender: null,
  politicalParty: null,
  capacity: null,
  quickNotes: null,
  source: null,
  preferredContactMethod: 'EMAIL',
  tags: ['board'],
  phoneNumbers: [{ id: 'sub_1', phoneNumber: '555 0100', phoneType: 'mobile', isPrimary: true }],
  emailAddresses: [],
  addresses: [],
  education: [{ id: 'sub_2', institution: 'Oslo U', degree: null, fieldOfStudy: null, graduationYear: 2012 }],
  employment: [],
  notes: [],
  customFields: { 'Wealth Score': 7, 'Membership.Level': 'Tin' },
  email: 'zoe@example.org',
  phone: '555 0100',
  address: null,
  lastDonationDate: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  totalDonations: 0,
  totalDonated: 0,
};

describe('createBody', () => {
  it('sends what was filled in, numbers as numbers, and leaves empty fields and archived custom fields out', () => {
    const v = emptyValues(defs);
    Object.assign(v, {
      firstName: 'Ada',
      lastName: 'Byron',
      organization: 'Engines',
      gender: 'FEMALE',
      tags: ['major donor'],
    });
    v.education = [{ institution: 'Home', degree: '', fieldOfStudy: '', graduationYear: '1990' }];
    v.custom = { ...v.custom, cf_num: '12.5', cf_date: '2026-03-01', cf_pick: 'Gold', cf_text: '' };
    expect(v.custom).not.toHaveProperty('cf_old');
    const body = createBody(v, defs);
    expect(body).toEqual({
      contactType: 'INDIVIDUAL',
      status: 'ACTIVE',
      firstName: 'Ada',
      lastName: 'Byron',
      organization: 'Engines',
      gender: 'FEMALE',
      tags: ['major donor'],
      education: [{ institution: 'Home', degree: null, fieldOfStudy: null, graduationYear: 1990 }],
      customFields: { 'Wealth Score': 12.5, 'Last Contacted': '2026-03-01', 'Membership.Level': 'Gold' },
    });
    expect(checkBody(body, 'create', defs)).toEqual([]);
  });
});

describe('updateBody', () => {
  it('sends nothing when nothing changed', () => {
    const initial = valuesFromContact(contact, defs);
    expect(updateBody(structuredClone(initial), initial, defs)).toEqual({});
  });

  it('sends only the changed fields; "" clears; a changed collection goes whole; one changed custom field alone', () => {
    const initial = valuesFromContact(contact, defs);
    expect(initial.custom).toEqual({ cf_text: '', cf_num: '7', cf_date: '', cf_pick: 'Tin' });
    const v = structuredClone(initial);
    v.lastName = 'Ångström';
    v.organization = '';
    v.preferredContactMethod = '';
    v.phoneNumbers.push({ phoneNumber: '555 0199', phoneType: '', isPrimary: false });
    v.custom.cf_num = '';
    expect(updateBody(v, initial, defs)).toEqual({
      lastName: 'Ångström',
      organization: null,
      preferredContactMethod: null,
      phoneNumbers: [
        { phoneNumber: '555 0100', phoneType: 'mobile', isPrimary: true },
        { phoneNumber: '555 0199', phoneType: null, isPrimary: false },
      ],
      customFields: { 'Wealth Score': null },
    });
  });

  it('keeps a retired pick-list value untouched unless it is changed', () => {
    const initial = valuesFromContact(contact, defs);
    const v = structuredClone(initial);
    v.firstName = 'Zoe';
    expect(updateBody(v, initial, defs)).toEqual({ firstName: 'Zoe' });
  });
});

describe('checkBody and formPath', () => {
  it('puts the shared schema’s issues at their controls', () => {
    const v = emptyValues(defs);
    v.firstName = '  ';
    v.lastName = 'X';
    v.emailAddresses = [{ emailAddress: 'not-an-email', emailType: '', isPrimary: true }];
    v.phoneNumbers = [
      { phoneNumber: '1', phoneType: '', isPrimary: true },
      { phoneNumber: '2', phoneType: '', isPrimary: true },
    ];
    const issues = checkBody(createBody(v, defs), 'create', defs);
    const paths = issues.map((i) => i.path);
    expect(paths).toContain('firstName');
    expect(paths).toContain('emailAddresses.0.emailAddress');
    expect(paths).toContain('phoneNumbers.1.isPrimary');
    v.emailAddresses = [];
    v.phoneNumbers = [];
    v.education = [{ institution: 'Old School', degree: '', fieldOfStudy: '', graduationYear: '1833' }];
    v.firstName = 'Ada';
    expect(checkBody(createBody(v, defs), 'create', defs)).toEqual([
      { path: 'education.0.graduationYear', message: 'must be at least 1900' },
    ]);
  });

  it('maps the server’s field names, custom field names with dots included', () => {
    expect(formPath('phoneNumbers[0].phoneNumber', defs)).toBe('phoneNumbers.0.phoneNumber');
    expect(formPath('customFields.membership.level', defs)).toBe('custom.cf_pick');
    expect(formPath('customFields.Old Field', defs)).toBeNull(); // archived: not on the form
    expect(formPath('customFields.Nope', defs)).toBeNull();
    expect(formPath('lastName', defs)).toBe('lastName');
    expect(formPath('(body)', defs)).toBeNull();
    expect(formPath(['education', 0, 'graduationYear'], defs)).toBe('education.0.graduationYear');
  });
});

describe('the sync reference tag', () => {
  it('is not shown in the form, and an edit of the tags keeps it', () => {
    const withRef: Contact = { ...contact, tags: ['board', 'gd:cnt_01STATIONA'] };
    const initial = valuesFromContact(withRef, defs);
    expect(initial.tags).toEqual(['board']);
    expect(updateBody(structuredClone(initial), initial, defs, withRef.tags)).toEqual({});
    const v = { ...structuredClone(initial), tags: ['board', 'VIP'] };
    expect(updateBody(v, initial, defs, withRef.tags)).toEqual({
      tags: ['board', 'VIP', 'gd:cnt_01STATIONA'],
    });
  });
});
