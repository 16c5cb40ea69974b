/**
 * A contact's custom field values as the hub's feed carries them (the whole set, by field
 * name), written at a station: each field whose value differs here is set to the hub's, or
 * cleared when the hub has none, unless the station keeps its own (a change not pushed yet).
 * A value this station cannot store (a field it does not have, an option retired here) is
 * left as it is. Logged with push = 0, in the caller's transaction.
 */
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import type { ContactCustomValuesTable } from '../../db/schema.ts';
import {
  applyCustomValues,
  checkCustomValues,
  type CustomFieldDefinition,
  type CustomValueWrite,
  listCustomFields,
  readCustomValues,
} from '../contacts/custom-fields.ts';

type Values = Record<string, string | number>;

/** The writes that bring a contact's values (`mine`) to the hub's (`theirs`), field by field. */
function customWrites(
  defs: readonly CustomFieldDefinition[],
  mine: Readonly<Record<string, unknown>>,
  theirs: Values,
  kept: (field: string) => boolean,
): CustomValueWrite[] {
  const byKey = new Map(Object.entries(theirs).map(([k, v]) => [k.trim().toLowerCase(), v]));
  const writes: CustomValueWrite[] = [];
  for (const def of defs) {
    const value = byKey.get(def.name.toLowerCase()) ?? null;
    const here = mine[def.name] ?? null;
    if (value === here || kept(`customFields.${def.name}`)) continue;
    try {
      writes.push(...checkCustomValues(defs, { [def.name]: value === null ? null : value }));
    } catch {
      /* not storable here: left as it is */
    }
  }
  return writes;
}

/** Returns the names of the fields written. */
export async function applyEventCustomValues(
  trx: Db,
  accountId: string,
  contactId: string,
  theirs: Values,
  kept: (field: string) => boolean,
  at: string,
): Promise<string[]> {
  const defs = (await listCustomFields(trx, accountId)).filter((d) => !d.archived);
  const mine = (await readCustomValues(trx, [contactId])).get(contactId) ?? {};
  const writes = customWrites(defs, mine, theirs, kept);
  if (writes.length === 0) return [];
  await applyCustomValues(trx, contactId, writes);
  const fields = writes.map((w) => `customFields.${w.name}`);
  await logChange(trx, {
    accountId,
    entityType: 'contact',
    entityId: contactId,
    op: 'update',
    fields,
    push: false,
    at,
  });
  return fields;
}

/**
 * The custom value rows of a donor new here, as applyEventCustomValues would write them on a
 * contact with none (`defs`: the account's unarchived fields, read once by the caller).
 */
export function newEventCustomRows(
  defs: readonly CustomFieldDefinition[],
  contactId: string,
  theirs: Values,
): ContactCustomValuesTable[] {
  return customWrites(defs, {}, theirs, () => false).flatMap((w) =>
    w.value === null ? [] : [{ contactId, fieldId: w.fieldId, ...w.value }],
  );
}

/** The account's custom fields a donor's values are written to (the unarchived ones). */
export async function eventCustomFields(trx: Db, accountId: string): Promise<CustomFieldDefinition[]> {
  return (await listCustomFields(trx, accountId)).filter((d) => !d.archived);
}
