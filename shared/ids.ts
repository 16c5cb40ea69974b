import { monotonicFactory } from 'ulid';

/** Id prefixes: opaque, typed, time-sortable (DESIGN.md). */
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
  subRecord: 'sub',
  importJob: 'imp',
  request: 'req',
} as const;
export type IdKind = keyof typeof ID_PREFIX;

const next = monotonicFactory();

/** A new id such as `don_01JD3…`: the prefix, then a ULID (time-sortable, monotonic). */
export function newId(kind: IdKind): string {
  return `${ID_PREFIX[kind]}_${next()}`;
}
