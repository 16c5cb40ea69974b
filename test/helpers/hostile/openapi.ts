/** Near-valid requests from the server's OpenAPI document: operations, fixtures, values a schema accepts. */
import fc from 'fast-check';
import { type Json, fromValue, obj } from './json.ts';

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

export interface OpenApiParameter {
  in: 'query' | 'path' | 'header';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}
export interface OpenApiOperation {
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

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

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

export const realDate = fc.oneof(
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
export const date = fc.oneof(
  { weight: 6, arbitrary: realDate },
  { weight: 1, arbitrary: fc.constantFrom(...FAR_DATES) },
);
export const dollars = fc.integer({ min: 1, max: 500_000 }).map((c) => c / 100);
export const email = fc
  .tuple(fc.stringMatching(/^[a-z]{1,8}$/), fc.constantFrom('example.org', 'mail.example.com'))
  .map(([u, d]) => `${u}@${d}`);
export const word = fc.stringMatching(/^[A-Z][a-z]{1,10}$/);

export function hint(name: string, fx: Fixtures): fc.Arbitrary<Json> | undefined {
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

export function resolve(schema: JsonSchema, doc: OpenApiDocument): JsonSchema {
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
