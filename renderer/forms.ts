/**
 * Forms check what they send with the same shared zod schema the server uses, and put each
 * issue — theirs or the server's `details` — at the field it names.
 */
import type { z } from 'zod';
import type { FieldIssue } from './api/errors.ts';

/** zod path → the server's field notation: ["addresses", 0, "city"] → "addresses[0].city". */
export function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(body)';
}

/** The issues `schema` finds in `value`, in the server's { field, issue } form (first per field). */
export function schemaIssues(schema: z.ZodType, value: unknown): FieldIssue[] {
  const r = schema.safeParse(value);
  if (r.success) return [];
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const i of r.error.issues) {
    const field = fieldOf(i.path);
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, issue: i.message });
  }
  return out;
}

/**
 * Wire field → form field. Unmapped issues come back as `rest` (for a message at the top of
 * the form, so none is lost).
 */
export function mapIssues<F extends string>(
  issues: FieldIssue[],
  map: Record<string, F>,
): { fields: Array<{ name: F; message: string }>; rest: FieldIssue[] } {
  const fields: Array<{ name: F; message: string }> = [];
  const rest: FieldIssue[] = [];
  for (const i of issues) {
    const name = map[i.field];
    if (name) fields.push({ name, message: humanIssue(i.issue) });
    else rest.push(i);
  }
  return { fields, rest };
}

const WIRE_WORDS: Array<[RegExp, string]> = [
  [/\bdonationAccountId\b/g, 'donation account'],
  [/\bcampaignId\b/g, 'campaign'],
  [/\bcommitteeId\b/g, 'committee'],
  [/\bcontactId\b/g, 'donor'],
  [/\belectionType\b/g, 'election type'],
  [/\belectionYear\b/g, 'election year'],
];

/** A server issue in people's words: wire names ("campaignId") become what the screen calls them. */
export function humanIssue(issue: string): string {
  return WIRE_WORDS.reduce((s, [re, word]) => s.replace(re, word), issue);
}

/** "" → null for optional text sent to the API. */
export const orNull = (s: string | undefined | null): string | null => {
  const t = s?.trim() ?? '';
  return t === '' ? null : t;
};

/** Today's date, YYYY-MM-DD, in the user's own time zone (what "today" means at the event). */
export function localToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
