/**
 * The contact form's errors, each at the form control it names: a body checked with the
 * shared zod schema (and the one-primary rule the server applies too), in the API's words,
 * and an error's field — a zod path or the server's — turned into the form's path. Pure: no
 * React, no DOM.
 */
import { ContactCreateBody, ContactUpdateBody } from '#shared/schemas/contacts.ts';
import {
  COLLECTIONS,
  TEXT_FIELDS,
  type CreateInput,
  type CustomFieldDef,
  type UpdateInput,
} from './form-model.ts';

export interface FormIssue {
  /** A react-hook-form path ("firstName", "phoneNumbers.0.phoneNumber", "custom.cf_…"), or null for the form as a whole. */
  path: string | null;
  message: string;
}

/**
 * The form control an error names: a zod path (["phoneNumbers", 0, "phoneNumber"]) or the
 * server's field ("phoneNumbers[0].phoneNumber", "customFields.Wealth Score").
 */
export function formPath(
  field: string | ReadonlyArray<PropertyKey>,
  defs: readonly CustomFieldDef[],
): string | null {
  const parts: string[] = typeof field === 'string' ? parseField(field) : field.map((p) => String(p));
  if (parts.length === 0) return null;
  const [head, ...rest] = parts;
  if (head === 'customFields') {
    const name = rest.join('.').toLowerCase();
    const def = defs.find((d) => d.name.toLowerCase() === name);
    return def && !def.archived ? `custom.${def.id}` : null;
  }
  if ((COLLECTIONS as readonly string[]).includes(head!)) {
    if (rest.length === 0) return null; // the collection as a whole: shown with the form's message
    return [head, ...rest].join('.');
  }
  if (
    (TEXT_FIELDS as readonly string[]).includes(head!) ||
    ['contactType', 'status', 'gender', 'preferredContactMethod'].includes(head!)
  )
    return head!;
  if (head === 'tags') return 'tags';
  return null;
}

/** `phoneNumbers[0].phoneNumber` → ["phoneNumbers", "0", "phoneNumber"]; custom field names keep their dots. */
function parseField(field: string): string[] {
  if (field.startsWith('customFields.')) return ['customFields', field.slice('customFields.'.length)];
  return field
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((p) => p !== '');
}

/** Checks a body with the shared schema; the issues, each at its form control. */
export function checkBody(
  body: CreateInput | UpdateInput,
  mode: 'create' | 'edit',
  defs: readonly CustomFieldDef[],
): FormIssue[] {
  const schema = mode === 'create' ? ContactCreateBody.omit({ accountId: true }) : ContactUpdateBody;
  const r = schema.safeParse(body);
  if (r.success) return [...primaryIssues(body)];
  return r.error.issues
    .map((i) => ({ path: formPath(i.path, defs), message: humanMessage(i.message) }))
    .concat([...primaryIssues(body)]);
}

/** At most one primary phone, email and address (the server says so too). */
function* primaryIssues(body: CreateInput | UpdateInput): Generator<FormIssue> {
  for (const key of ['phoneNumbers', 'emailAddresses', 'addresses'] as const) {
    const items = body[key] ?? [];
    const primaries = items.map((x, i) => (x.isPrimary ? i : -1)).filter((i) => i >= 0);
    if (primaries.length > 1)
      yield { path: `${key}.${primaries[1]}.isPrimary`, message: 'only one can be primary' };
  }
}

/** zod's wording → the API's ("must be at least 1900"), as the server words the same checks. */
function humanMessage(m: string): string {
  if (/expected number, received string/i.test(m)) return 'must be a number';
  if (/received undefined/i.test(m)) return 'is required';
  const size = /^Too (big|small): expected \w+ to (be|have) (<=|>=|<|>)(\S+)(?: (\w+))?$/i.exec(m);
  if (size) {
    const [, , verb = 'be', op = '', bound = '', unit] = size;
    const words: Record<string, string> = {
      '<=': 'at most',
      '>=': 'at least',
      '<': 'less than',
      '>': 'more than',
    };
    return `must ${verb === 'have' ? 'have' : 'be'} ${words[op] ?? op} ${bound}${unit ? ` ${unit}` : ''}`;
  }
  return m.replace(/^Invalid input: /i, '');
}
