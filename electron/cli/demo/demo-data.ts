/**
 * The demo organisation's raw material (demo.ts and its steps write it): a seeded generator
 * and the names, places, employers and other words the donors are drawn from (accents and
 * apostrophes included, as staff meet them).
 */

import { foldText } from '#shared/fold.ts';

/** mulberry32: small, fast, and the same sequence everywhere for a seed. */
export function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const weighted = <T>(xs: ReadonlyArray<readonly [T, number]>): T => {
    const total = xs.reduce((s, [, w]) => s + w, 0);
    let r = next() * total;
    for (const [x, w] of xs) {
      r -= w;
      if (r < 0) return x;
    }
    return xs[xs.length - 1]![0];
  };
  return { next, int, pick, weighted, chance: (p: number) => next() < p };
}

/** The seeded generator every step of the demo draws from, in turn. */
export type DemoRandom = ReturnType<typeof generator>;

/** A timestamp's calendar day (UTC), as the demo writes dates. */
export const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const FIRST = [
  'Zoë',
  'José',
  'Siobhán',
  'Renée',
  'Chloé',
  'Søren',
  'Łukasz',
  'Björn',
  'Anaïs',
  'Darío',
  'Élodie',
  'Ngọc',
  'Maria',
  'James',
  'Aisha',
  'Wei',
  'Priya',
  'Mohammed',
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Lucas',
  'Sofía',
  'Mateo',
  'Hannah',
  'Ethan',
  'Fatima',
  'Kenji',
  'Yuki',
  'Amara',
  'Chinedu',
  'Ingrid',
  'Henrik',
  'Agnieszka',
  'Tomás',
  'Camila',
  'Diego',
  'Grace',
  'Samuel',
  'Leah',
  'Daniel',
  'Rachel',
  'David',
  'Naomi',
  'Isaac',
  'Miriam',
  'Patrick',
  'Bridget',
  'Seán',
  'Aoife',
  'Raúl',
  'Inés',
  'François',
  'Hélène',
  'Jürgen',
  'Müge',
  'Ayşe',
  'Oğuz',
  'Thandiwe',
  'Kwame',
  'Abena',
  'Rosa',
  'Carmen',
  'Luis',
  'Ana',
  'Robert',
  'Linda',
  'Michael',
  'Susan',
  'William',
  'Karen',
  'Joseph',
  'Nancy',
  'Thomas',
  'Betty',
  'Charles',
  'Dorothy',
] as const;
export const LAST = [
  'García',
  'Núñez',
  "O'Brien",
  'Müller',
  'Nguyễn',
  'Kowalski',
  'Ó Ceallaigh',
  "D'Angelo",
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Miller',
  'Davis',
  'Rodríguez',
  'Martínez',
  'Hernández',
  'López',
  'González',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Pérez',
  'Thompson',
  'White',
  'Harris',
  'Sánchez',
  'Clark',
  'Ramírez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Okafor',
  'Mensah',
  'Chen',
  'Wang',
  'Patel',
  'Shah',
  'Kim',
  'Park',
  'Tanaka',
  'Sato',
  'Johansson',
  'Lindqvist',
  'Øvergaard',
  'Dubois',
  'Lefèvre',
  'Schröder',
  'Yılmaz',
  'Nowak',
  'Wiśniewska',
  'Murphy',
  'Kelly',
  'Byrne',
  'Fitzgerald',
  'Cohen',
  'Levi',
] as const;
export const CITIES = [
  ['Springfield', 'IL', '627'],
  ['Riverside', 'CA', '925'],
  ['Franklin', 'TN', '370'],
  ['Greenville', 'SC', '296'],
  ['Madison', 'WI', '537'],
  ['Salem', 'OR', '973'],
  ['Fairview', 'NJ', '070'],
  ['Georgetown', 'TX', '786'],
  ['Clinton', 'IA', '527'],
  ['Arlington', 'VA', '222'],
  ['Ashland', 'OH', '448'],
  ['Burlington', 'VT', '054'],
] as const;
export const STREETS = [
  'Main St',
  'Oak Ave',
  'Maple Dr',
  'Cedar Ln',
  'Elm St',
  'Washington Ave',
  'Lakeview Rd',
  'Park Pl',
  'River Rd',
  'Hillcrest Dr',
  'Church St',
  'Mill Rd',
] as const;
export const EMPLOYERS = [
  'Riverside Health',
  'Acme Logistics',
  'City of Springfield',
  'Self-employed',
  'Greenleaf Bank',
  'State University',
  'Northwind Traders',
  'Retired',
  'Bluebird Software',
  'Harbor Legal LLP',
  'Lakeside School District',
  'Summit Engineering',
] as const;
export const OCCUPATIONS = [
  'Nurse',
  'Engineer',
  'Teacher',
  'Attorney',
  'Retired',
  'Accountant',
  'Physician',
  'Software developer',
  'Small business owner',
  'Professor',
  'Electrician',
  'Consultant',
] as const;
export const INTERESTS = [
  'phone banking',
  'canvassing',
  'event setup',
  'hosting a house party',
  'data entry',
  'driving voters',
] as const;
export const LEVELS = ['Bronze', 'Silver', 'Gold', 'Platinum', 'Founding Member'] as const;
export const DOMAINS = ['example.org', 'example.com', 'example.net', 'mail.example', 'post.example'] as const;

/** "Zoë Núñez" → "zoe.nunez": accents folded for the email's local part. */
export function ascii(s: string): string {
  return foldText(s).replace(/[^a-z]+/g, '');
}
