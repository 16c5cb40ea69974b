/** Whole bodies: JSON, CSV and corrupted bytes, per operation. */
import fc from 'fast-check';
import { toJsonText } from './json.ts';
import { mutate, mutation } from './mutations.ts';
import { type Fixtures, type OpenApiDocument, type Operation, validish } from './openapi.ts';
import { INVALID_UTF8, hostileJson, hostileString, withInvalidUtf8 } from './values.ts';

export interface BodyPlan {
  /** text to send, or undefined for no body */
  text: string | undefined;
  contentType: string | undefined;
  /** When set, these bytes are sent instead of `text` (bytes a string cannot hold: invalid UTF-8). */
  bytes?: Buffer;
}

/** A body plan whose text gets invalid UTF-8 bytes inserted. */
export const corrupted = (plan: fc.Arbitrary<BodyPlan>): fc.Arbitrary<BodyPlan> =>
  fc
    .tuple(plan, fc.nat(), fc.constantFrom(...INVALID_UTF8))
    .map(([p, nth, bad]) => ({ ...p, bytes: withInvalidUtf8(p.text ?? '', nth, bad) }));

/** Column names a CSV import might know, and some it cannot. */
export const CSV_COLUMNS = [
  'firstName',
  'lastName',
  'primaryEmail',
  'tags',
  'externalId',
  'contactId',
  'contactExternalId',
  'donationAmount',
  'donationDate',
  'paymentMethod',
  'campaignId',
  'notes',
  'customFields.Tier',
  'address.city',
  'accountId',
  'id',
  '__proto__',
  '',
];
export const csvCell = fc.oneof(
  fc.constantFrom(
    'Ada',
    'Lovelace',
    '12.50',
    '2026-03-01',
    'cash',
    'a;b',
    '',
    '"',
    '""',
    '"unclosed',
    'x\ny',
    'x\r\ny',
    '=cmd|"/c calc"!A1',
    '\ufeff',
    '\u0000',
    '1e400',
    '-0',
  ),
  hostileString.map((v) => (v.length > 2000 ? v.slice(0, 2000) : v)),
);
export const csvText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '\ufeff'),
    fc.oneof(
      fc.array(fc.constantFrom(...CSV_COLUMNS), { minLength: 1, maxLength: 5 }),
      fc.constantFrom(
        ['firstName', 'lastName'],
        ['firstName', 'lastName', 'primaryEmail', 'tags'],
        ['contactId', 'donationAmount', 'donationDate', 'paymentMethod', 'campaignId', 'notes'],
      ),
    ),
    fc.array(fc.array(csvCell, { maxLength: 6 }), { maxLength: 5 }),
    fc.constantFrom('\n', '\r\n', '\r'),
    fc.boolean(),
  )
  .map(([bom, header, rows, eol, quoted]) => {
    const cell = (v: string) => (quoted ? `"${v.replace(/"/g, '""')}"` : v);
    return bom + [header.map(cell).join(','), ...rows.map((r) => r.map(cell).join(','))].join(eol);
  });

export function bodyArb(op: Operation, fx: Fixtures, doc: OpenApiDocument): fc.Arbitrary<BodyPlan> {
  const json = (text: string): BodyPlan => ({ text, contentType: 'application/json' });
  if (op.textBody) {
    const type = op.textBody;
    return fc.oneof(
      {
        weight: 6,
        arbitrary: (type === 'text/csv' ? csvText : hostileString).map((text): BodyPlan => ({
          text,
          contentType: type,
        })),
      },
      { weight: 2, arbitrary: hostileString.map((text): BodyPlan => ({ text, contentType: type })) },
      { weight: 1, arbitrary: hostileJson.map((v) => json(toJsonText(v))) },
      { weight: 1, arbitrary: fc.constant<BodyPlan>({ text: undefined, contentType: undefined }) },
      { weight: 1, arbitrary: fc.constant<BodyPlan>({ text: '', contentType: type }) },
      {
        weight: 1,
        arbitrary: corrupted(
          (type === 'text/csv' ? csvText : hostileString).map((text): BodyPlan => ({
            text,
            contentType: type,
          })),
        ),
      },
    );
  }
  if (!op.body) {
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant<BodyPlan>({ text: undefined, contentType: undefined }) },
      { weight: 1, arbitrary: hostileJson.map((v) => json(toJsonText(v))) },
    );
  }
  const base = validish(op.body, '', fx, doc);
  return fc.oneof(
    { weight: 3, arbitrary: base.map((v) => json(toJsonText(v))) },
    {
      weight: 8,
      arbitrary: fc
        .tuple(base, fc.array(mutation, { minLength: 1, maxLength: 3 }))
        .map(([v, ms]) => json(toJsonText(mutate(v, ms)))),
    },
    { weight: 1, arbitrary: hostileJson.map((v) => json(toJsonText(v))) },
    { weight: 1, arbitrary: base.map((v) => json(toJsonText([v]))) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          base,
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json; charset=utf-16',
            'application/xml',
            'application/JSON',
            '',
          ),
        )
        .map(([v, ct]) => ({ text: toJsonText(v), contentType: ct })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '',
          '{',
          '{"a":1,}',
          'nul',
          '\u0000',
          '{"accountId":"x"}}',
          "{'a':1}",
          '[1,2',
          '"\\ud800"',
          '{"a":"\\u0000"}',
          '1e400',
        )
        .map(json),
    },
    { weight: 1, arbitrary: fc.constant(json(`{"name":"${'x'.repeat(1_100_000)}"}`)) },
    { weight: 2, arbitrary: corrupted(base.map((v) => json(toJsonText(v)))) },
  );
}
