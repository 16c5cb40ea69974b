/**
 * The demo's donors as import rows (demo.ts imports them): ~3,000 generated people and a few
 * organisations, with addresses, tags and custom-field values, and over them the namesake mess
 * of a real event. Drawn from the seeded generator before the gifts are: the order of the draws
 * here is what makes the demo the same every time.
 */
import {
  ascii,
  CITIES,
  day,
  type DemoRandom,
  DOMAINS,
  EMPLOYERS,
  FIRST,
  INTERESTS,
  LAST,
  LEVELS,
  OCCUPATIONS,
  STREETS,
} from './demo-data.ts';

export const CONTACT_HEADER = [
  'externalId',
  'firstName',
  'lastName',
  'contactType',
  'organization',
  'primaryEmail',
  'primaryPhone',
  'employer',
  'occupation',
  'address.street1',
  'address.city',
  'address.state',
  'address.postalCode',
  'address.country',
  'tags',
  'source',
  'customFields.Volunteer Interests',
  'customFields.Wealth Score',
  'customFields.Last Contacted',
  'customFields.Membership Level',
  'customFields.Legacy Donor ID',
];

/** The external id of the i-th donor (from 0), which the gifts refer to. */
export const donorRef = (i: number) => `demo-c${String(i + 1).padStart(4, '0')}`;

/** `count` donors' rows, in CONTACT_HEADER's columns, the namesakes written over the first. */
export function donorRows(rnd: DemoRandom, now: number, count: number): string[][] {
  const contacts: string[][] = [];
  for (let i = 0; i < count; i++) contacts.push(donorRow(rnd, now, i));
  addNamesakes(contacts);
  return contacts;
}

function donorRow(rnd: DemoRandom, now: number, i: number): string[] {
  const first = rnd.pick(FIRST);
  const last = rnd.pick(LAST);
  const isOrg = rnd.chance(0.04);
  const [city, state, zip] = rnd.pick(CITIES);
  const tags = [
    rnd.chance(0.3) ? 'volunteer' : '',
    rnd.chance(0.15) ? 'major donor' : '',
    rnd.chance(0.2) ? 'monthly' : '',
    rnd.chance(0.1) ? 'event host' : '',
  ].filter(Boolean);
  return [
    donorRef(i),
    first,
    last,
    isOrg ? 'ORGANIZATION' : 'INDIVIDUAL',
    isOrg ? `${last} ${rnd.pick(['Family Foundation', 'Hardware', '& Sons', 'Dental Group'])}` : '',
    rnd.chance(0.9) ? `${ascii(first)}.${ascii(last)}${i + 1}@${rnd.pick(DOMAINS)}` : '',
    rnd.chance(0.7) ? `(555) ${String(rnd.int(200, 999))}-${String(rnd.int(0, 9999)).padStart(4, '0')}` : '',
    rnd.pick(EMPLOYERS),
    rnd.pick(OCCUPATIONS),
    `${rnd.int(1, 9999)} ${rnd.pick(STREETS)}`,
    city,
    state,
    `${zip}${String(rnd.int(0, 99)).padStart(2, '0')}`,
    'US',
    tags.join(';'),
    rnd.pick(['Website', 'Event', 'Referral', 'Mailing list', 'Canvass']),
    rnd.chance(0.2) ? rnd.pick(INTERESTS) : '',
    rnd.chance(0.5) ? String(rnd.int(1, 100)) : '',
    rnd.chance(0.4) ? day(now - rnd.int(0, 400) * 86_400_000) : '',
    rnd.chance(0.35) ? rnd.pick(LEVELS) : '',
    rnd.chance(0.25) ? `L-${rnd.int(10000, 99999)}` : '',
  ];
}

/**
 * The namesake mess of a real event, over generated donors (so the totals stay the same):
 * a William Williams among Williamsons who give more often (low numbers get more gifts),
 * three Robert Browns (one without an email), a José Núñez beside a Josefina
 * Núñez-Ortiz and a José Nunes (volunteers type "jose nunez"), a couple sharing an email.
 */
function addNamesakes(contacts: string[][]): void {
  const mess: Array<[number, string, string, string]> = [
    [0, 'William', 'Williamson', 'bill.williamson@example.org'],
    [1, 'Williams', 'Williamson', 'w.williamson@example.net'],
    [2, 'William', 'Williamsen', 'will.williamsen@example.com'],
    [3, 'Willa', 'Williamson', 'willa.w@example.org'],
    [4, 'William', 'Williamson', 'william.williamson2@example.com'],
    [2_950, 'William', 'Williams', 'bill.williams@example.org'],
    [5, 'Robert', 'Brown', 'robert.brown@example.org'],
    [1_500, 'Robert', 'Brown', 'rbrown@example.net'],
    [2_900, 'Robert', 'Brown', ''],
    [6, 'Roberta', 'Browning', 'roberta.browning@example.com'],
    [2_850, 'José', 'Núñez', 'jose.nunez@example.org'],
    [7, 'Josefina', 'Núñez-Ortiz', 'josefina.nunez@example.net'],
    [8, 'José', 'Nunes', 'jnunes@example.com'],
    [9, 'Pat', 'Kim', 'kim.family@example.org'],
    [10, 'Patricia', 'Kim', 'kim.family@example.org'],
  ];
  for (const [i, first, last, email] of mess)
    Object.assign(contacts[i]!, { 1: first, 2: last, 3: 'INDIVIDUAL', 4: '', 5: email });
}
