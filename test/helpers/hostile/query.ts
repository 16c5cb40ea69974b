/** Query strings and path ids, near-valid and hostile. */
import fc from 'fast-check';
import { type Fixtures, type OpenApiDocument, type Operation, date, resolve } from './openapi.ts';
import { HOSTILE_KEYS, hostileString } from './values.ts';

/** encodeURIComponent that survives lone surrogates (they become U+FFFD, as a browser sends them). */
export function encode(s: string): string {
  return encodeURIComponent(
    s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );
}

export type QueryPart = { key: string; value: string; rawValue?: boolean };

export function queryArb(op: Operation, fx: Fixtures, doc: OpenApiDocument): fc.Arbitrary<QueryPart[]> {
  const perParam = op.query.map((p) => {
    const valid: fc.Arbitrary<string> = (() => {
      if (p.name === 'accountId')
        return fc.oneof(
          { weight: 10, arbitrary: fc.constant(fx.accountId) },
          { weight: 1, arbitrary: fc.constant(fx.otherAccountId) },
        );
      if (p.name === 'limit') return fc.integer({ min: 1, max: 100 }).map(String);
      if (p.name === 'offset') return fc.integer({ min: 0, max: 50 }).map(String);
      if (/Date$/.test(p.name)) return date.map(String);
      const s = resolve(p.schema ?? {}, doc);
      if (s.enum) return fc.constantFrom(...s.enum.map(String));
      return fc.string({ maxLength: 12 });
    })();
    const required = p.required === true;
    return fc.oneof(
      { weight: required ? 10 : 4, arbitrary: valid.map((v): QueryPart[] => [{ key: p.name, value: v }]) },
      { weight: required ? 1 : 4, arbitrary: fc.constant<QueryPart[]>([]) },
      { weight: 2, arbitrary: hostileString.map((v): QueryPart[] => [{ key: p.name, value: v }]) },
      {
        weight: 1,
        arbitrary: fc.tuple(valid, fc.oneof(valid, hostileString)).map(([a, b]): QueryPart[] => [
          { key: p.name, value: a },
          { key: p.name, value: b },
        ]),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(
            '%',
            '%zz',
            '%E0%A4%A',
            '+',
            '&',
            '=',
            '#',
            '%00',
            '%FF',
            '%E9',
            '%C0%AF',
            '%ED%A0%80',
            '%F4%90%80%80',
            'a%00b',
          )
          .map((v): QueryPart[] => [{ key: p.name, value: v, rawValue: true }]),
      },
    );
  });
  const extra = fc.array(
    fc.record({
      key: fc.oneof(
        fc.constantFrom(...HOSTILE_KEYS, 'accountId[]', 'a[b][c]', 'limit[]'),
        fc.string({ maxLength: 8 }),
      ),
      value: hostileString,
    }),
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...perParam), extra).map(([parts, more]) => [...parts.flat(), ...more]);
}

export function pathIdArb(kindIds: string[]): fc.Arbitrary<{ id: string; raw: boolean }> {
  const odd = fc.oneof(
    fc.constantFrom(
      '..',
      '.',
      '%',
      '%2F',
      '%00',
      '%ZZ',
      ' ',
      '\u0000',
      '?',
      '#',
      '/',
      '\\',
      'a/b',
      'x'.repeat(65),
      'x'.repeat(5000),
      '__proto__',
      'constructor',
      "1' or '1'='1",
      '🎉',
      'cnt_%2e%2e',
    ),
    hostileString,
  );
  const choices = [
    { weight: 3, arbitrary: odd.map((id) => ({ id, raw: false })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '%',
          '%zz',
          '%E0%A4%A',
          '..',
          'a/b',
          '?x=1',
          '#frag',
          '%2e%2e',
          '%00',
          '%FF',
          '%ED%A0%80',
          '%C0%AF',
        )
        .map((id) => ({ id, raw: true })),
    },
  ];
  if (kindIds.length > 0)
    choices.push({ weight: 4, arbitrary: fc.constantFrom(...kindIds).map((id) => ({ id, raw: false })) });
  return fc.oneof(...choices);
}

export function buildUrl(
  op: Operation,
  pathId: { id: string; raw: boolean } | null,
  query: QueryPart[],
): string {
  let p = op.path;
  if (pathId) p = p.replace(/\{\w+\}/g, pathId.raw ? pathId.id : encode(pathId.id));
  const qs = query.map((q) => `${encode(q.key)}=${q.rawValue ? q.value : encode(q.value)}`).join('&');
  return qs ? `${p}?${qs}` : p;
}
