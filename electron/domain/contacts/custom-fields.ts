/**
 * Custom field definitions (managed in the app and the CLI, never through the contact API)
 * and the reading and writing of their values on contacts, exactly as the spec says:
 * case-insensitive keys, type checks, retired options and archived fields refused,
 * "" or null clears, all or nothing.
 */
import { inYearRange, isDateOnly, YEAR_RANGE_ISSUE } from '#shared/dates.ts';
import type { CustomFieldType } from '#shared/enums.ts';
import { CUSTOM_FIELD_TYPES } from '#shared/enums.ts';
import { newId } from '#shared/ids.ts';
import type { CustomFieldValuesInput } from '#shared/schemas/contacts.ts';
import type { Db } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, type FieldIssue } from '../errors.ts';

export interface CustomFieldOption {
  id: string;
  name: string;
  retired: boolean;
}
export interface CustomFieldDefinition {
  id: string;
  name: string;
  type: CustomFieldType;
  archived: boolean;
  options: CustomFieldOption[];
  createdAt: string;
}

function badField(issue: string, field = 'name'): DomainError {
  return new DomainError('bad_request', 'validation_failed', `${field} ${issue}`, [{ field, issue }]);
}

export async function listCustomFields(db: Db, accountId: string): Promise<CustomFieldDefinition[]> {
  const fields = await db
    .selectFrom('customFields')
    .selectAll()
    .where('accountId', '=', accountId)
    .orderBy('position')
    .execute();
  if (fields.length === 0) return [];
  const options = await db
    .selectFrom('customFieldOptions')
    .selectAll()
    .where(
      'fieldId',
      'in',
      fields.map((f) => f.id),
    )
    .orderBy('position')
    .execute();
  return fields.map((f) => ({
    id: f.id,
    name: f.name,
    type: f.fieldType,
    archived: f.archivedAt !== null,
    createdAt: f.createdAt,
    options: options
      .filter((o) => o.fieldId === f.id)
      .map((o) => ({ id: o.id, name: o.name, retired: o.retiredAt !== null })),
  }));
}

async function fieldByName(db: Db, accountId: string, name: string): Promise<CustomFieldDefinition> {
  const all = await listCustomFields(db, accountId);
  const f = all.find((x) => x.name.toLowerCase() === name.trim().toLowerCase());
  if (!f)
    throw new DomainError('not_found', 'custom_field_not_found', `Custom field "${name}" was not found`, [
      { field: 'name', issue: 'is not a custom field of this account' },
    ]);
  return f;
}

const isFieldType = (t: string): t is CustomFieldType =>
  (CUSTOM_FIELD_TYPES as readonly string[]).includes(t);

export async function createCustomField(
  ctx: DomainContext,
  input: { accountId: string; name: string; type: string; options?: string[] },
): Promise<CustomFieldDefinition> {
  const name = input.name.trim();
  if (!name) throw badField('must not be empty');
  if (name.length > 100) throw badField('must be at most 100 characters');
  const type = input.type;
  if (!isFieldType(type)) throw badField(`must be one of: ${CUSTOM_FIELD_TYPES.join(', ')}`, 'type');
  const options = (input.options ?? []).map((o) => o.trim()).filter(Boolean);
  if (input.type === 'picklist' && options.length === 0)
    throw badField('a pick list needs at least one option', 'options');
  if (input.type !== 'picklist' && options.length > 0)
    throw badField('only pick lists have options', 'options');
  if (new Set(options.map((o) => o.toLowerCase())).size !== options.length)
    throw badField('must not repeat an option', 'options');
  const id = newId('customField');
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const clash = await trx
      .selectFrom('customFields')
      .select('id')
      .where('accountId', '=', input.accountId)
      .where('nameKey', '=', name.toLowerCase())
      .executeTakeFirst();
    if (clash)
      throw new DomainError(
        'conflict',
        'custom_field_exists',
        `A custom field named "${name}" already exists`,
        [{ field: 'name', issue: 'is already used by another field' }],
      );
    const pos = await trx
      .selectFrom('customFields')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('accountId', '=', input.accountId)
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('customFields')
      .values({
        id,
        accountId: input.accountId,
        name,
        nameKey: name.toLowerCase(),
        fieldType: type,
        position: Number(pos.n),
        archivedAt: null,
        createdAt: at,
      })
      .execute();
    for (const [i, o] of options.entries()) {
      await trx
        .insertInto('customFieldOptions')
        .values({ id: newId('customFieldOption'), fieldId: id, name: o, position: i, retiredAt: null })
        .execute();
    }
  });
  // Read back by id: the stored name can differ from the sent one (a lone surrogate is stored as U+FFFD).
  return (await listCustomFields(ctx.store.db, input.accountId)).find((f) => f.id === id)!;
}

export async function addCustomFieldOption(
  ctx: DomainContext,
  accountId: string,
  fieldName: string,
  option: string,
) {
  const f = await fieldByName(ctx.store.db, accountId, fieldName);
  const name = option.trim();
  if (f.type !== 'picklist') throw badField('only pick lists have options', 'option');
  if (!name) throw badField('must not be empty', 'option');
  const existing = f.options.find((o) => o.name.toLowerCase() === name.toLowerCase());
  await ctx.store.write(async (trx) => {
    if (existing) {
      await trx
        .updateTable('customFieldOptions')
        .set({ retiredAt: null })
        .where('id', '=', existing.id)
        .execute();
    } else {
      await trx
        .insertInto('customFieldOptions')
        .values({
          id: newId('customFieldOption'),
          fieldId: f.id,
          name,
          position: f.options.length,
          retiredAt: null,
        })
        .execute();
    }
  });
  return fieldByName(ctx.store.db, accountId, f.name);
}

export async function retireCustomFieldOption(
  ctx: DomainContext,
  accountId: string,
  fieldName: string,
  option: string,
) {
  const f = await fieldByName(ctx.store.db, accountId, fieldName);
  const o = f.options.find((x) => x.name.toLowerCase() === option.trim().toLowerCase());
  if (!o)
    throw new DomainError('not_found', 'option_not_found', `"${fieldName}" has no option "${option}"`, [
      { field: 'option', issue: 'is not an option of this field' },
    ]);
  const at = ctx.now();
  await ctx.store.write((trx) =>
    trx
      .updateTable('customFieldOptions')
      .set({ retiredAt: at })
      .where('id', '=', o.id)
      .where('retiredAt', 'is', null)
      .execute(),
  );
  return fieldByName(ctx.store.db, accountId, f.name);
}

export async function archiveCustomField(
  ctx: DomainContext,
  accountId: string,
  fieldName: string,
  archived = true,
) {
  const f = await fieldByName(ctx.store.db, accountId, fieldName);
  const at = ctx.now();
  await ctx.store.write((trx) =>
    trx
      .updateTable('customFields')
      .set({ archivedAt: archived ? at : null })
      .where('id', '=', f.id)
      .execute(),
  );
  return fieldByName(ctx.store.db, accountId, f.name);
}

/* ---------------- values ---------------- */

export interface CustomValueWrite {
  fieldId: string;
  /** null: clear the value */
  value: { valueText: string | null; valueNumber: number | null; optionId: string | null } | null;
  /** The canonical field name, for the change log. */
  name: string;
}

/**
 * Checks every sent value against the account's definitions and returns the writes, or
 * throws one 400 listing every problem. Nothing is written here.
 */
export async function resolveCustomValues(
  db: Db,
  accountId: string,
  input: CustomFieldValuesInput,
): Promise<CustomValueWrite[]> {
  return checkCustomValues(await listCustomFields(db, accountId), input);
}

/** resolveCustomValues against definitions already loaded (bulk imports load them once). */
export function checkCustomValues(
  defs: readonly CustomFieldDefinition[],
  input: CustomFieldValuesInput,
): CustomValueWrite[] {
  const byKey = new Map(defs.map((d) => [d.name.toLowerCase(), d]));
  const issues: FieldIssue[] = [];
  const writes: CustomValueWrite[] = [];
  const seen = new Set<string>();
  for (const [key, raw] of Object.entries(input)) {
    const field = `customFields.${key}`;
    const def = byKey.get(key.trim().toLowerCase());
    if (!def) {
      issues.push({ field, issue: 'is not a custom field of this account' });
      continue;
    }
    if (seen.has(def.id)) {
      issues.push({ field, issue: `is sent twice (field names are case-insensitive)` });
      continue;
    }
    seen.add(def.id);
    if (def.archived) {
      issues.push({ field, issue: 'is archived and cannot be changed' });
      continue;
    }
    if (raw === null || raw === '') {
      writes.push({ fieldId: def.id, value: null, name: def.name });
      continue;
    }
    switch (def.type) {
      case 'text':
        if (typeof raw !== 'string') issues.push({ field, issue: 'must be text (a string)' });
        else
          writes.push({
            fieldId: def.id,
            name: def.name,
            value: { valueText: raw, valueNumber: null, optionId: null },
          });
        break;
      case 'number':
        if (typeof raw !== 'number' || !Number.isFinite(raw))
          issues.push({ field, issue: 'must be a number' });
        else
          writes.push({
            fieldId: def.id,
            name: def.name,
            value: { valueText: null, valueNumber: raw, optionId: null },
          });
        break;
      case 'date':
        if (typeof raw !== 'string' || !isDateOnly(raw))
          issues.push({ field, issue: 'must be a date written YYYY-MM-DD' });
        else if (!inYearRange(raw)) issues.push({ field, issue: YEAR_RANGE_ISSUE });
        else
          writes.push({
            fieldId: def.id,
            name: def.name,
            value: { valueText: raw, valueNumber: null, optionId: null },
          });
        break;
      case 'picklist': {
        const option =
          typeof raw === 'string'
            ? def.options.find((o) => o.name.toLowerCase() === raw.trim().toLowerCase())
            : undefined;
        const active = def.options.filter((o) => !o.retired).map((o) => o.name);
        if (!option) issues.push({ field, issue: `must be one of: ${active.join(', ')}` });
        else if (option.retired) issues.push({ field, issue: `option "${option.name}" is retired` });
        else
          writes.push({
            fieldId: def.id,
            name: def.name,
            value: { valueText: null, valueNumber: null, optionId: option.id },
          });
        break;
      }
    }
  }
  if (issues.length > 0) {
    const first = issues[0] as FieldIssue;
    throw new DomainError('bad_request', 'invalid_custom_field', `${first.field} ${first.issue}`, issues);
  }
  return writes;
}

export async function applyCustomValues(
  trx: Db,
  contactId: string,
  writes: CustomValueWrite[],
): Promise<void> {
  for (const w of writes) {
    if (w.value === null) {
      await trx
        .deleteFrom('contactCustomValues')
        .where('contactId', '=', contactId)
        .where('fieldId', '=', w.fieldId)
        .execute();
    } else {
      await trx
        .insertInto('contactCustomValues')
        .values({ contactId, fieldId: w.fieldId, ...w.value })
        .onConflict((oc) => oc.columns(['contactId', 'fieldId']).doUpdateSet(w.value ?? {}))
        .execute();
    }
  }
}

/** Values of unarchived fields, keyed by the field's name, typed as the spec says. */
export async function readCustomValues(
  db: Db,
  contactIds: string[],
): Promise<Map<string, Record<string, string | number>>> {
  const out = new Map<string, Record<string, string | number>>();
  if (contactIds.length === 0) return out;
  const rows = await db
    .selectFrom('contactCustomValues as v')
    .innerJoin('customFields as f', 'f.id', 'v.fieldId')
    .leftJoin('customFieldOptions as o', 'o.id', 'v.optionId')
    .select(['v.contactId', 'f.name', 'f.fieldType', 'v.valueText', 'v.valueNumber', 'o.name as optionName'])
    .where('v.contactId', 'in', contactIds)
    .where('f.archivedAt', 'is', null)
    .orderBy('f.position')
    .execute();
  for (const r of rows) {
    const rec = out.get(r.contactId) ?? {};
    const value =
      r.fieldType === 'number' ? r.valueNumber : r.fieldType === 'picklist' ? r.optionName : r.valueText;
    if (value !== null && value !== undefined) rec[r.name] = value;
    out.set(r.contactId, rec);
  }
  return out;
}
