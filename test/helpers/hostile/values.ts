/** Hostile values: strings, keys and numbers that break naive servers. */
import fc from 'fast-check';
import { type Json, type RawJson, fromValue, obj, raw } from './json.ts';

export const nested = (depth: number): RawJson => raw(`${'['.repeat(depth)}${']'.repeat(depth)}`);
export const nestedObj = (depth: number): RawJson => raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\t\n',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '-1',
  '0',
  '0x10',
  '1_000',
  '12.345',
  'true',
  'null',
  'undefined',
  '0000-00-00',
  '2025-02-30',
  '2025-02-29',
  '9999-12-31T23:00:00-02:00',
  '0001-01-01T00:00:00+01:00',
  '2025-01-01T00:00:00',
  '2025-01-01T25:00:00Z',
  '+275760-09-13',
  '1735689600',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202eevil',
  '\u200b',
  '\ufeff',
  'Zoë Ñúñez',
  'ẞ𝕳𝖊𝖑𝖑𝖔',
  '🎉👩‍👩‍👧',
  '東京',
  "'; drop table contacts; --",
  '" OR 1=1 --',
  '"*',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '%',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'cnt_',
  'cnt_00000000000000000000000000',
  'acct_00000000000000000000000000',
  'x'.repeat(65),
  'x'.repeat(201),
  'x'.repeat(10_001),
  'é'.repeat(100_000),
] as const;

export const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '',
  ' ',
  'accountId',
  'ACCOUNTID',
  '\u0000',
  'é',
  'a.b',
  'a/b',
  '0',
  '__defineGetter__',
] as const;

export const specialJson: Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  0.001,
  125.005,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  raw('-0'),
  raw('-0.0'),
  raw('1e308'),
  raw('1e309'),
  raw('-1e400'),
  raw('1E-400'),
  raw('0.1e1'),
  raw('123456789012345678901234567890'),
  raw('0.29'),
  raw('1e9'),
  raw('1000000000.01'),
  [],
  [[[[[]]]]],
  nested(64),
  nested(5000),
  nestedObj(200),
  obj([]),
  obj([['__proto__', obj([['polluted', true]])]]),
  obj([['constructor', obj([['prototype', obj([['polluted', true]])]])]]),
  obj([['toString', 'x']]),
  [null, 1, 'a', obj([])],
];

export const hostileJson: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...specialJson) },
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(fromValue) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
      maxLength: 4,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.double().map((d): Json => (Number.isFinite(d) ? d : raw(d > 0 ? '1e999' : '-1e999'))),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 400_000 }).map((n) => 'x'.repeat(n)) },
);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
);

/** Byte sequences that are not UTF-8: a Latin-1 é, a lone continuation byte, an overlong '/', a surrogate encoded (CESU-8), past U+10FFFF, 0xFF, a cut-off sequence. */
export const INVALID_UTF8: readonly Buffer[] = [
  Buffer.from([0xe9]),
  Buffer.from([0x80]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xff]),
  Buffer.from([0xe2, 0x82]),
];

/** `text` as UTF-8 with one of INVALID_UTF8 inserted right after its `nth` double quote (inside a key or a string, or breaking the JSON). */
export function withInvalidUtf8(text: string, nth: number, bad: Buffer): Buffer {
  const quotes: number[] = [];
  for (let i = 0; i < text.length; i++) if (text[i] === '"') quotes.push(i);
  const at = quotes.length > 0 ? quotes[nth % quotes.length]! + 1 : text.length;
  return Buffer.concat([Buffer.from(text.slice(0, at), 'utf8'), bad, Buffer.from(text.slice(at), 'utf8')]);
}
