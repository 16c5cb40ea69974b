/**
 * The bench's messy names (accents, a name typed without its apostrophe) and its seeded
 * generator, shared by bench/run.ts and bench/search-sqlite.ts so both build the same people.
 */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const FIRST = [
  'Jane',
  'John',
  'Zoë',
  'José',
  'Siobhán',
  'Amélie',
  'Mohammed',
  'Wei',
  'Olga',
  'Kwame',
  'Priya',
  'Lars',
  'Aoife',
  'Björn',
  'Chloé',
  'Dmitri',
  'Fatima',
  'Hiroshi',
  'Ines',
  'Mateo',
];
export const LAST = [
  'Smith',
  'García',
  'Nguyen',
  'Müller',
  'OBrien',
  'Kowalski',
  'Okafor',
  'Rossi',
  'Dubois',
  'Svensson',
  'Tanaka',
  'Novák',
  'Haddad',
  'Johansson',
  'Fernández',
  'Walker',
  'Patel',
  'Kim',
  'Lopez',
  'Cohen',
];

/**
 * The PostgreSQL benches' 16 × 16 names (filled in SQL: 1,000,000 contacts give each first
 * name and each last name 62,500 times, the totals bench/search-postgres.ts checks).
 */
export const PG_FIRST = FIRST.slice(0, 16);
/** The same last names as LAST's first 16, with O’Brien's apostrophe typed. */
export const PG_LAST = LAST.slice(0, 16).map((n) => (n === 'OBrien' ? 'O’Brien' : n));

/** The searches the PostgreSQL benches time (broad prefixes, namesakes, accents typed without). */
export const PG_SEARCHES = [
  'jane',
  'zoe',
  'jose smi',
  'garc',
  'siob',
  'user12345',
  'example7',
  'org 12',
  'müller',
  'amelie dub',
  'kwame',
  'tanaka5',
  'chloe',
  'walker10',
  'li',
  'wei ng',
];

/**
 * The searches `npm run bench` times on SQLite (bench/run.ts), seven of them two words: the
 * dedicated bench (bench/search-sqlite.ts) times them too, so both tell the same story.
 */
export const SQLITE_SEARCHES = [
  'jane',
  'zoe',
  'jose gar',
  'siob',
  'amelie dub',
  'kwame',
  'müller',
  'tanaka12',
  'example42',
  'org 17',
  'chloe',
  'walker4',
  'wei ng',
  'priya pat',
  'mateo lo',
  'fatima h',
];
