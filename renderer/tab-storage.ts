/**
 * This tab's sessionStorage (the session, the entry row's draft and the keys of its tries, the
 * last import): a value kept as JSON under a name, read back through its zod schema, and never a
 * throw. Storage turned off or full keeps nothing, and the screen works without it; a value that
 * no longer reads as its schema (kept by an older GiftDesk) reads as nothing.
 */
import type { z } from 'zod';

export function readTab<S extends z.ZodType>(name: string, schema: S): z.infer<S> | null {
  try {
    const raw = sessionStorage.getItem(name);
    if (raw === null) return null;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Keeps `value` under `name` for this tab; null forgets it. */
export function writeTab(name: string, value: unknown): void {
  try {
    if (value === null) sessionStorage.removeItem(name);
    else sessionStorage.setItem(name, JSON.stringify(value));
  } catch {
    /* storage disabled or full: kept in memory only, where the caller keeps it */
  }
}
