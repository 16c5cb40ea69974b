/**
 * The columns of an import (and export) file: the create fields' wire names, plus
 * `externalId` (a reference from the system the rows come from, so a re-run adds nothing
 * twice), `contactExternalId` and kin (a contact by that reference), `address.*` (one primary
 * address in plain columns) and `customFields.<Field Name>`. A cell becomes the value the API
 * would receive: numbers and booleans are converted, an empty cell is a field not sent.
 */
import type { ContactCreateBody } from '#shared/schemas/contacts.ts';
import type { DonationCreateBody } from '#shared/schemas/donations.ts';
import type { CustomFieldDefinition } from '../contacts/custom-fields.ts';
import { DomainError } from '../errors.ts';

import { IMPORT_KINDS, type ImportKind } from '#shared/schemas/imports.ts';

export { IMPORT_KINDS, type ImportKind };

/** The wire body of one row as it is being built, with what is not part of the body. */
export interface RowDraft {
  body: Record<string, unknown>;
  externalId: string | null;
  /** contactExternalId, onBehalfOfContactExternalId, facilitatedByContactExternalId */
  contactRefs: Partial<Record<ContactRefColumn, string>>;
  /** Problems found while reading cells (a value where no column has a name, a bad status). */
  problems: string[];
  /** The cell each body field came from, to quote in a reason. */
  cells: Record<string, string>;
  /** The address.* columns: one primary address. */
  address?: Partial<Record<(typeof ADDRESS_PARTS)[number], string>>;
}

/** Puts one cell into the draft: `cell` is trimmed, `raw` is the cell exactly as written. */
type Apply = (draft: RowDraft, cell: string, raw: string) => void;

const CONTACT_REF_COLUMNS = [
  'contactExternalId',
  'onBehalfOfContactExternalId',
  'facilitatedByContactExternalId',
] as const;
export type ContactRefColumn = (typeof CONTACT_REF_COLUMNS)[number];
/** The body field each contact-reference column resolves to. */
export const CONTACT_REF_FIELD: Record<
  ContactRefColumn,
  'contactId' | 'onBehalfOfContactId' | 'facilitatedByContactId'
> = {
  contactExternalId: 'contactId',
  onBehalfOfContactExternalId: 'onBehalfOfContactId',
  facilitatedByContactExternalId: 'facilitatedByContactId',
};

/* ---------------- cell conversions ---------------- */

const set =
  (name: string, convert: (cell: string) => unknown = (c) => c): Apply =>
  (d, cell) => {
    d.body[name] = convert(cell);
    d.cells[name] = cell;
  };

/** "$1,250.00" and "1250.5" → numbers; anything else stays text, for the schema to refuse. */
export function moneyCell(cell: string): number | string {
  const s = cell.replace(/^(-?)\s*\$\s*/, '$1');
  return /^-?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?$/.test(s) && /\d/.test(s) ? Number(s.replace(/,/g, '')) : cell;
}
export function integerCell(cell: string): number | string {
  return /^-?\d{1,9}$/.test(cell) ? Number(cell) : cell;
}
export function numberCell(cell: string): number | string {
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cell) ? Number(cell) : cell;
}
const TRUE = new Set(['true', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'no', 'n', '0']);
export function booleanCell(cell: string): boolean | string {
  const k = cell.toLowerCase();
  return TRUE.has(k) ? true : FALSE.has(k) ? false : cell;
}
/** "credit card" → credit_card; "do not contact" → DO_NOT_CONTACT (the schema checks the value). */
const enumCell = (upper: boolean) => (cell: string) => {
  const k = cell.replace(/[\s-]+/g, '_');
  return upper ? k.toUpperCase() : k.toLowerCase();
};
/** "a; b" → ["a", "b"] */
const tagsCell = (cell: string) =>
  cell
    .split(';')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);

/**
 * A sub-record collection: a JSON array of the API's objects, or plain text for one item
 * (a phone number, an email address, an institution, an employer, a note's text).
 */
const collectionCell = (mainField: string | null) => (cell: string) => {
  if (cell.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(cell);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: plain text below
    }
  }
  return mainField ? [{ [mainField]: cell }] : cell;
};

/* ---------------- the columns of each kind ---------------- */

const CONTACT_TEXT = [
  'firstName',
  'lastName',
  'prefix',
  'middleName',
  'suffix',
  'salutation',
  'formalSalutation',
  'primaryEmail',
  'primaryPhone',
  'organization',
  'title',
  'employer',
  'occupation',
  'industry',
  'spouse',
  'birthDate',
  'politicalParty',
  'capacity',
  'quickNotes',
  'source',
] as const satisfies ReadonlyArray<keyof ContactCreateBody>;
const CONTACT_UPPER = [
  'contactType',
  'status',
  'gender',
  'preferredContactMethod',
] as const satisfies ReadonlyArray<keyof ContactCreateBody>;
const CONTACT_COLLECTION_MAIN = {
  phoneNumbers: 'phoneNumber',
  emailAddresses: 'emailAddress',
  addresses: null,
  education: 'institution',
  employment: 'employer',
  notes: 'content',
} as const satisfies Partial<Record<keyof ContactCreateBody, string | null>>;
export const ADDRESS_PARTS = ['street1', 'street2', 'city', 'state', 'postalCode', 'country'] as const;

const DONATION_TEXT = [
  'contactId',
  'donationDate',
  'campaignId',
  'committeeId',
  'donationAccountId',
  'onBehalfOfContactId',
  'facilitatedByContactId',
  'thankYouSentDate',
] as const satisfies ReadonlyArray<keyof DonationCreateBody>;
const DONATION_LOWER = ['paymentMethod', 'electionType'] as const satisfies ReadonlyArray<
  keyof DonationCreateBody
>;
const DONATION_BOOLEAN = ['isAnonymous', 'isRecurring', 'thankYouSent'] as const satisfies ReadonlyArray<
  keyof DonationCreateBody
>;

const externalIdColumn: Apply = (d, cell) => {
  if (cell.length > 200) d.problems.push('externalId must be at most 200 characters');
  else d.externalId = cell;
};

function contactColumns(): Map<string, Apply> {
  const m = new Map<string, Apply>();
  m.set('externalId', externalIdColumn);
  for (const f of CONTACT_TEXT) m.set(f, set(f));
  for (const f of CONTACT_UPPER) m.set(f, set(f, enumCell(true)));
  m.set('tags', set('tags', tagsCell));
  for (const [f, main] of Object.entries(CONTACT_COLLECTION_MAIN)) m.set(f, set(f, collectionCell(main)));
  for (const part of ADDRESS_PARTS) {
    m.set(`address.${part}`, (d, cell) => {
      (d.address ??= {})[part] = cell;
    });
  }
  return m;
}

/** Only completed gifts can be created; refunds and disputes are recorded in the app. */
const statusColumn: Apply = (d, cell) => {
  if (cell.toLowerCase() !== 'completed') {
    d.problems.push(
      `status ${cell} cannot be imported: only completed gifts can (refunds and disputes are recorded in the app)`,
    );
  }
};

function donationColumns(): Map<string, Apply> {
  const m = new Map<string, Apply>();
  m.set('externalId', externalIdColumn);
  for (const ref of CONTACT_REF_COLUMNS) {
    m.set(ref, (d, cell) => {
      d.contactRefs[ref] = cell;
    });
  }
  for (const f of DONATION_TEXT) m.set(f, set(f));
  // Not trimmed, as the API does not trim it: callers match external references in notes exactly.
  m.set('notes', (d, cell, raw) => {
    d.body.notes = raw;
    d.cells.notes = cell;
  });
  for (const f of DONATION_LOWER) m.set(f, set(f, enumCell(false)));
  for (const f of DONATION_BOOLEAN) m.set(f, set(f, booleanCell));
  m.set('donationAmount', set('donationAmount', moneyCell));
  m.set('electionYear', set('electionYear', integerCell));
  m.set('status', statusColumn);
  return m;
}

const COLUMNS: Record<ImportKind, Map<string, Apply>> = {
  contacts: contactColumns(),
  donations: donationColumns(),
};

/** The column names a kind reads, canonical spelling (custom fields as customFields.<Name>). */
export function columnNames(kind: ImportKind): string[] {
  return [...COLUMNS[kind].keys()];
}

/** Header matching forgives case, spaces, underscores and hyphens: "First Name" is firstName. */
const headerKey = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
const CUSTOM_PREFIX = 'customfields.';

/** How each column of a file's header is read. */
export interface ColumnPlan {
  kind: ImportKind;
  /** per column, in file order; null for a column without a name (its cells must be empty) */
  apply: Array<Apply | null>;
  /** the canonical name of each column (for messages) */
  names: string[];
}

/** Whether a header names the externalId column (rows recognised by it on a re-run). */
export function hasExternalIdColumn(header: readonly string[]): boolean {
  const key = headerKey('externalId');
  return header.some((h) => headerKey(h) === key);
}

/**
 * Reads a header. A file with columns GiftDesk does not know, a column twice, or without the
 * columns every row needs is refused whole, before any row is read.
 */
export function planColumns(
  kind: ImportKind,
  header: readonly string[],
  defs: readonly CustomFieldDefinition[],
): ColumnPlan {
  const known = new Map<string, [string, Apply]>();
  for (const [name, apply] of COLUMNS[kind]) known.set(headerKey(name), [name, apply]);
  const byFieldKey = new Map(defs.map((d) => [d.name.trim().toLowerCase(), d]));
  const unknown: string[] = [];
  const seen = new Map<string, string>();
  const twice: string[] = [];
  const apply: Array<Apply | null> = [];
  const names: string[] = [];
  for (const raw of header) {
    const label = raw.trim();
    if (label === '') {
      apply.push(null);
      names.push('');
      continue;
    }
    let canonical: string | null = null;
    let fn: Apply | null = null;
    if (kind === 'contacts' && label.toLowerCase().startsWith(CUSTOM_PREFIX)) {
      const def = byFieldKey.get(label.slice(CUSTOM_PREFIX.length).trim().toLowerCase());
      if (def) {
        canonical = `customFields.${def.name}`;
        fn = (d, cell) => {
          const custom = (d.body.customFields ??= {}) as Record<string, unknown>;
          custom[def.name] = def.type === 'number' ? numberCell(cell) : cell;
          d.cells[`customFields.${def.name}`] = cell;
        };
      }
    } else {
      const hit = known.get(headerKey(label));
      if (hit) [canonical, fn] = hit;
    }
    if (canonical === null || fn === null) {
      unknown.push(label);
      apply.push(null);
      names.push(label);
      continue;
    }
    const k = canonical.toLowerCase();
    if (seen.has(k)) twice.push(label);
    seen.set(k, label);
    apply.push(fn);
    names.push(canonical);
  }
  const has = (name: string) => seen.has(name.toLowerCase());
  const missing =
    kind === 'contacts'
      ? ['firstName', 'lastName'].filter((c) => !has(c))
      : [
          ...['donationAmount', 'donationDate', 'paymentMethod'].filter((c) => !has(c)),
          ...(has('contactId') || has('contactExternalId') ? [] : ['contactId (or contactExternalId)']),
        ];
  const details = [
    ...unknown.map((c) => ({
      field: c,
      issue:
        kind === 'contacts' && c.toLowerCase().startsWith(CUSTOM_PREFIX)
          ? 'is not a custom field of this account'
          : `is not a column of a ${kind} import`,
    })),
    ...twice.map((c) => ({ field: c, issue: 'appears twice in the header' })),
    ...missing.map((c) => ({ field: c, issue: 'is a required column' })),
  ];
  if (details.length > 0) {
    const parts: string[] = [];
    if (unknown.length > 0)
      parts.push(`unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `"${c}"`).join(', ')}`);
    if (twice.length > 0)
      parts.push(`column${twice.length > 1 ? 's' : ''} ${twice.map((c) => `"${c}"`).join(', ')} given twice`);
    if (missing.length > 0)
      parts.push(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    const hint =
      unknown.length > 0
        ? ` The columns of a ${kind} file are: ${columnNames(kind).join(', ')}${kind === 'contacts' ? ', customFields.<Field Name>' : ''}.`
        : '';
    throw new DomainError(
      'bad_request',
      'invalid_columns',
      `The file was not imported: ${parts.join('; ')}.${hint}`,
      details,
    );
  }
  return { kind, apply, names };
}

/** A record's cells → the row's draft (nothing is checked here but the shape of the cells). */
export function draftRow(plan: ColumnPlan, cells: readonly string[]): RowDraft {
  const d: RowDraft = { body: {}, externalId: null, contactRefs: {}, problems: [], cells: {} };
  const n = cells.length;
  if (n > plan.apply.length) {
    for (let i = plan.apply.length; i < n; i++) {
      if (cells[i]!.trim() !== '') {
        d.problems.push(`has ${n} cells but the header has ${plan.apply.length} columns`);
        return d;
      }
    }
  }
  for (let i = 0; i < n && i < plan.apply.length; i++) {
    const raw = cells[i]!;
    const cell = raw.trim();
    if (cell === '') continue;
    if (cell.includes('\uFFFD')) {
      d.problems.push(
        `${plan.names[i] || `column ${i + 1}`} holds bytes that are not UTF-8 text (save the file as "CSV UTF-8")`,
      );
      continue;
    }
    if (cell.includes('\u0000')) {
      d.problems.push(
        `${plan.names[i] || `column ${i + 1}`} holds a NUL character (U+0000), which is not allowed in text`,
      );
      continue;
    }
    const fn = plan.apply[i];
    if (fn) fn(d, cell, raw);
    else d.problems.push(`has a value in column ${i + 1}, which has no name in the header`);
  }
  if (d.address) {
    if (d.body.addresses !== undefined)
      d.problems.push('addresses and the address.* columns cannot both be filled in on one row');
    else d.body.addresses = [{ ...d.address, isPrimary: true }];
  }
  return d;
}
