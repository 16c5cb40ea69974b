import { monotonicFactory } from 'ulid';

/** Id prefixes: opaque, typed, time-sortable (docs/design.md). */
export const ID_PREFIX = {
  account: 'acct',
  apiKey: 'gdk',
  contact: 'cnt',
  donation: 'don',
  campaign: 'cmp',
  committee: 'cmt',
  donationAccount: 'dac',
  customField: 'cf',
  customFieldOption: 'cfo',
  election: 'elc',
  flag: 'flg',
  history: 'dhe',
  hubNotice: 'hnt',
  subRecord: 'sub',
  importJob: 'imp',
  batch: 'bat',
  batchCount: 'bcn',
  syncPull: 'pull',
  station: 'stn',
  request: 'req',
  letterRun: 'ltr',
  user: 'usr',
  /** The key a form mints for the record it tries to save (`entryKey`: a batch's gift, a contact). */
  entry: 'ent',
} as const;
export type IdKind = keyof typeof ID_PREFIX;

/**
 * ULID's default source asks the OS for randomness once per character; draw from a pooled
 * buffer instead (Web Crypto, so this file runs in Node and in the browser alike).
 */
const pool = new Uint32Array(1024);
let used = pool.length;
function pooledRandom(): number {
  if (used === pool.length) {
    globalThis.crypto.getRandomValues(pool);
    used = 0;
  }
  return (pool[used++] as number) / 0x1_0000_0000;
}

const next = monotonicFactory(pooledRandom);

/** A new id such as `don_01JD3…`: the prefix, then a ULID (time-sortable, monotonic). */
export function newId(kind: IdKind): string {
  return `${ID_PREFIX[kind]}_${next()}`;
}
