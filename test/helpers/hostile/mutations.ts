/** Mutations: a near-valid body with a few fields swapped for hostile values. */
import fc from 'fast-check';
import { type Json, type ObjJson, isObj, obj } from './json.ts';
import { HOSTILE_KEYS, hostileJson } from './values.ts';

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

export interface Slot {
  get(): Json;
  set(v: Json): void;
  remove(): void;
  /** the object this slot is in, for adding keys */
  parent: ObjJson | null;
  key: string | null;
}

export function slots(root: Json): Slot[] {
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

export function clone(v: Json): Json {
  if (Array.isArray(v)) return v.map(clone);
  if (isObj(v)) return obj(v.entries.map(([k, x]) => [k, clone(x)]));
  return v;
}

/**
 * Applies mutations one after another; indexes wrap around the slots there are. Every value put
 * in is a copy: a generator's constant (one object shared by every run) must never be changed by
 * a later mutation adding a key into it, or it grows across runs, even into a cycle.
 */
export function mutate(body: Json, mutations: Mutation[]): Json {
  const root = clone(body);
  for (const m of mutations) {
    const all = slots(root);
    if (m.op === 'addKey') {
      const objects = [root, ...all.map((s) => s.get())].filter(isObj);
      objects[m.at % objects.length]?.entries.push([m.key, clone(m.value)]);
      continue;
    }
    if (all.length === 0) continue;
    const slot = all[m.at % all.length]!;
    if (m.op === 'replace') slot.set(clone(m.value));
    else if (m.op === 'delete') slot.remove();
    else if (slot.parent && slot.key !== null) slot.parent.entries.push([slot.key, clone(m.value)]);
  }
  return root;
}
