/** JSON trees: bodies that say what JSON.stringify cannot (raw tokens, duplicate keys). */

export interface RawJson {
  kind: 'raw';
  text: string;
}
export interface ObjJson {
  kind: 'obj';
  entries: Array<[string, Json]>;
}
export type Json = null | boolean | number | string | RawJson | ObjJson | Json[];

export const raw = (text: string): RawJson => ({ kind: 'raw', text });
export const obj = (entries: Array<[string, Json]>): ObjJson => ({ kind: 'obj', entries });
export const isObj = (v: Json): v is ObjJson =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && v.kind === 'obj';
export const isRaw = (v: Json): v is RawJson =>
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
