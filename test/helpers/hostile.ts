/**
 * Hostile requests for property-based tests, built from the server's own OpenAPI document:
 * every documented operation gets near-valid requests (so they reach the domain rules) with
 * a few fields swapped for hostile values, plus outright garbage.
 *
 * Bodies are JSON trees that can say what JSON.stringify cannot: raw number tokens (1e400,
 * -0), `__proto__` and duplicate keys, very deep nesting.
 */
import fc from 'fast-check';

/* ---------------- JSON trees ---------------- */

export interface RawJson {
  kind: 'raw';
  text: string;
}
export interface ObjJson {
  kind: 'obj';
  entries: Array<[string, Json]>;
}
export type Json = null | boolean | number | string | RawJson | ObjJson | Json[];

const raw = (text: string): RawJson => ({ kind: 'raw', text });
const obj = (entries: Array<[string, Json]>): ObjJson => ({ kind: 'obj', entries });
const isObj = (v: Json): v is ObjJson =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && v.kind === 'obj';
const isRaw = (v: Json): v is RawJson =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && v.kind === 'raw';

export function toJsonText(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(toJsonText).join(',')}]`;
  if (isRaw(v)) return v.text;
  if (isObj(v)) return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${toJsonText(x)}`).join(',')}}`;
  if (typeof v === 'number' && !Number.isFinite(v)) return 'null';
  return JSON.stringify(v);
}

/** A plain JS value (from fc.jsonValue and friends) as a tree. */
export function fromValue(v: unknown): Json {
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(fromValue);
  if (typeof v === 'object')
    return obj(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, fromValue(x)]));
  return null;
}

/* ---------------- hostile values ---------------- */

const nested = (depth: number): RawJson => raw(`${'['.repeat(depth)}${']'.repeat(depth)}`);
const nestedObj = (depth: number): RawJson => raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

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

const specialJson: Json[] = [
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

/* ---------------- requests from the OpenAPI document ---------------- */

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
}

interface OpenApiParameter {
  in: 'query' | 'path' | 'header';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Operation {
  method: string;
  /** e.g. /api/v1/contacts/{id} */
  path: string;
  query: OpenApiParameter[];
  pathParams: string[];
  /** The JSON body's schema (null: no JSON body). */
  body: JsonSchema | null;
  /** A body of another type the route documents (e.g. text/csv), or null. */
  textBody: string | null;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function listOperations(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const params = op.parameters ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        query: params.filter((p) => p.in === 'query'),
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        textBody: Object.keys(op.requestBody?.content ?? {}).find((t) => t !== 'application/json') ?? null,
      });
    }
  }
  return ops;
}

/** What the generators know about the test account, so near-valid requests are valid. */
export interface Fixtures {
  accountId: string;
  otherAccountId: string;
  /** Known ids by the first path segment that reads them ("contacts", "flags", …). */
  ids: Record<string, string[]>;
  customFields: Record<string, Json[]>;
  options: string[];
}

/**
 * Which known ids fit a path like /api/v1/donations/{id}/history: those of its first segment
 * ("donations"). Null for DELETE: real deletes would eat the fixtures.
 */
export function idKindOf(op: Operation): string | null {
  if (op.method === 'DELETE') return null;
  return op.path.replace(/^\/api\/v1\//, '').split('/')[0] ?? null;
}

/**
 * Real dates outside the years a stored date may have (1900–2200; HQ refuses the rest), in
 * every form a date field takes: refused at entry with a 400 naming the field. An offset can
 * carry a date over the edge (2200-12-31T23:30-01:00 is 2201 in UTC).
 */
export const FAR_DATES = [
  '9026-03-01',
  '0026-03-01',
  '1899-12-31',
  '2201-01-01',
  '0001-01-01',
  '9999-12-31',
  '9999-12-31T23:59:59Z',
  '0001-01-01T00:00:00+01:00',
  '1899-12-31T23:59:59.999Z',
  '2200-12-31T23:30:00-01:00',
  '3000-02-29',
] as const;

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

const realDate = fc.oneof(
  fc
    .date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2030-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().slice(0, 10)),
  fc
    .date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2030-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
);
/** Mostly a real date of these years; now and then one outside 1900–2200. */
const date = fc.oneof(
  { weight: 6, arbitrary: realDate },
  { weight: 1, arbitrary: fc.constantFrom(...FAR_DATES) },
);
const dollars = fc.integer({ min: 1, max: 500_000 }).map((c) => c / 100);
const email = fc
  .tuple(fc.stringMatching(/^[a-z]{1,8}$/), fc.constantFrom('example.org', 'mail.example.com'))
  .map(([u, d]) => `${u}@${d}`);
const word = fc.stringMatching(/^[A-Z][a-z]{1,10}$/);

function hint(name: string, fx: Fixtures): fc.Arbitrary<Json> | undefined {
  const pick = (kind: 'contacts' | 'campaigns' | 'committees' | 'donation-accounts') => {
    const ids = fx.ids[kind] ?? [];
    return ids.length > 0 ? fc.constantFrom(...ids) : undefined;
  };
  if (name === 'accountId')
    return fc.oneof(
      { weight: 12, arbitrary: fc.constant(fx.accountId) },
      { weight: 1, arbitrary: fc.constant(fx.otherAccountId) },
    );
  if (/^(contactId|onBehalfOfContactId|facilitatedByContactId)$/.test(name)) return pick('contacts');
  if (name === 'campaignId') return pick('campaigns');
  if (name === 'committeeId') return pick('committees');
  if (name === 'donationAccountId' || name === 'donationAccountIds[]') return pick('donation-accounts');
  if (/Date$/.test(name)) return date;
  if (name === 'donationAmount') return dollars;
  if (/^per(Election|Cycle|Year|Donor)$/.test(name)) return fc.oneof(dollars, fc.constant(null));
  if (name === 'electionYear') return fc.integer({ min: 2022, max: 2030 });
  if (name === 'graduationYear') return fc.integer({ min: 1950, max: 2030 });
  if (name === 'option') return fx.options.length ? fc.oneof(fc.constantFrom(...fx.options), word) : word;
  if (name === 'firstName' || name === 'lastName' || name === 'name') return word;
  if (name === 'customFields') {
    const entries = Object.entries(fx.customFields);
    if (entries.length === 0) return undefined;
    return fc
      .subarray(entries, { maxLength: 3 })
      .chain((chosen) =>
        fc.tuple(
          ...chosen.map(([k, values]) => fc.constantFrom(...values).map((v): [string, Json] => [k, v])),
        ),
      )
      .map((pairs) => obj(pairs));
  }
  return undefined;
}

function resolve(schema: JsonSchema, doc: OpenApiDocument): JsonSchema {
  let s = schema;
  for (let i = 0; s.$ref && i < 10; i++) {
    const name = s.$ref.split('/').pop() ?? '';
    s = doc.components?.schemas?.[name] ?? {};
  }
  return s;
}

/** Values the schema (and the name's hint) would accept, mostly. */
export function validish(
  schema: JsonSchema,
  name: string,
  fx: Fixtures,
  doc: OpenApiDocument,
  depth = 0,
): fc.Arbitrary<Json> {
  const s = resolve(schema, doc);
  const h = hint(name, fx);
  if (h && !s.properties) return h;
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => validish(a, name, fx, doc, depth)));
  if ('const' in s) return fc.constant(fromValue(s.const));
  if (s.enum) return fc.constantFrom(...s.enum.map(fromValue));
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ['string'];
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<Json> => {
      switch (type) {
        case 'object': {
          if (depth > 4) return fc.constant(obj([]));
          const props = Object.entries(s.properties ?? {});
          const required = new Set(s.required ?? []);
          const entries = props.map(([k, p]) =>
            required.has(k)
              ? validish(p, k, fx, doc, depth + 1).map((v): Array<[string, Json]> => [[k, v]])
              : fc
                  .option(validish(p, k, fx, doc, depth + 1), { freq: 2 })
                  .map((v): Array<[string, Json]> => (v === null ? [] : [[k, v]])),
          );
          if (props.length === 0 && s.additionalProperties && typeof s.additionalProperties === 'object') {
            return fc
              .dictionary(word, validish(s.additionalProperties, '', fx, doc, depth + 1), { maxKeys: 3 })
              .map(fromValue);
          }
          return fc.tuple(...entries).map((parts) => obj(parts.flat()));
        }
        case 'array':
          return fc.array(validish(s.items ?? {}, `${name}[]`, fx, doc, depth + 1), {
            maxLength: Math.min(s.maxItems ?? 3, 3),
          });
        case 'integer':
          return fc.integer({ min: s.minimum ?? 0, max: s.maximum ?? 1000 });
        case 'number':
          return fc.integer({ min: 0, max: 100_000 }).map((n) => n / 100);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        default:
          if (s.format === 'email') return email;
          return fc.string({
            minLength: Math.max(1, s.minLength ?? 0),
            maxLength: Math.max(1, Math.min(s.maxLength ?? 20, 20)),
          });
      }
    }),
  );
}

/* ---------------- mutations ---------------- */

export type Mutation =
  | { op: 'replace'; at: number; value: Json }
  | { op: 'delete'; at: number }
  | { op: 'addKey'; at: number; key: string; value: Json }
  | { op: 'duplicateKey'; at: number; value: Json };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: hostileJson }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('addKey' as const),
      at: fc.nat(),
      key: fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 10 })),
      value: hostileJson,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('duplicateKey' as const), at: fc.nat(), value: hostileJson }),
  },
);

interface Slot {
  get(): Json;
  set(v: Json): void;
  remove(): void;
  /** the object this slot is in, for adding keys */
  parent: ObjJson | null;
  key: string | null;
}

function slots(root: Json): Slot[] {
  const out: Slot[] = [];
  const walk = (v: Json) => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        out.push({
          get: () => v[i]!,
          set: (x) => (v[i] = x),
          remove: () => v.splice(i, 1),
          parent: null,
          key: null,
        });
        walk(item);
      });
    } else if (isObj(v)) {
      v.entries.forEach((entry, i) => {
        out.push({
          get: () => entry[1],
          set: (x) => (entry[1] = x),
          remove: () => v.entries.splice(i, 1),
          parent: v,
          key: entry[0],
        });
        walk(entry[1]);
      });
    }
  };
  walk(root);
  return out;
}

function clone(v: Json): Json {
  if (Array.isArray(v)) return v.map(clone);
  if (isObj(v)) return obj(v.entries.map(([k, x]) => [k, clone(x)]));
  return v;
}

/** Applies mutations one after another; indexes wrap around the slots there are. */
export function mutate(body: Json, mutations: Mutation[]): Json {
  const root = clone(body);
  for (const m of mutations) {
    const all = slots(root);
    if (m.op === 'addKey') {
      const objects = [root, ...all.map((s) => s.get())].filter(isObj);
      objects[m.at % objects.length]?.entries.push([m.key, m.value]);
      continue;
    }
    if (all.length === 0) continue;
    const slot = all[m.at % all.length]!;
    if (m.op === 'replace') slot.set(m.value);
    else if (m.op === 'delete') slot.remove();
    else if (slot.parent && slot.key !== null) slot.parent.entries.push([slot.key, m.value]);
  }
  return root;
}

/* ---------------- query strings and paths ---------------- */

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

/* ---------------- whole bodies ---------------- */

export interface BodyPlan {
  /** text to send, or undefined for no body */
  text: string | undefined;
  contentType: string | undefined;
  /** When set, these bytes are sent instead of `text` (bytes a string cannot hold: invalid UTF-8). */
  bytes?: Buffer;
}

/** A body plan whose text gets invalid UTF-8 bytes inserted. */
const corrupted = (plan: fc.Arbitrary<BodyPlan>): fc.Arbitrary<BodyPlan> =>
  fc
    .tuple(plan, fc.nat(), fc.constantFrom(...INVALID_UTF8))
    .map(([p, nth, bad]) => ({ ...p, bytes: withInvalidUtf8(p.text ?? '', nth, bad) }));

/** Column names a CSV import might know, and some it cannot. */
const CSV_COLUMNS = [
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
const csvCell = fc.oneof(
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
const csvText: fc.Arbitrary<string> = fc
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
