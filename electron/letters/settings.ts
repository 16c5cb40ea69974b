/**
 * What an account's letters say of the organisation (its kind, name, address, signer) and
 * the wording of each kind of document. An account that never edited them gets a charity's
 * defaults; a template it never edited is the default for its organisation's kind, so
 * changing the kind changes those at once.
 */
import {
  LETTER_KINDS,
  type LetterKind,
  type LetterSettings,
  type LetterSettingsUpdate,
  type LetterTemplate,
} from '#shared/schemas/letters.ts';
import type { Db } from '../db/store.ts';
import { requireAccount } from '../domain/accounts/index.ts';
import type { DomainContext } from '../domain/index.ts';
import { MERGE_FIELDS, defaultTemplate } from './defaults.ts';

/** The account's letter settings, with every kind's template (its own or the default). */
export async function loadLetterSettings(db: Db, accountId: string): Promise<LetterSettings> {
  const row = await db
    .selectFrom('letterSettings')
    .selectAll()
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  const own = await db
    .selectFrom('letterTemplates')
    .select(['kind', 'heading', 'body'])
    .where('accountId', '=', accountId)
    .execute();
  const orgKind = row?.orgKind ?? 'charity';
  const templates: LetterTemplate[] = LETTER_KINDS.map((kind) => {
    const edited = own.find((t) => t.kind === kind);
    return edited
      ? { kind, heading: edited.heading, body: edited.body, isDefault: false }
      : { kind, ...defaultTemplate(orgKind, kind), isDefault: true };
  });
  return {
    orgKind,
    organizationName: row?.organizationName ?? null,
    organizationAddress: row?.organizationAddress ?? null,
    signerName: row?.signerName ?? null,
    signerTitle: row?.signerTitle ?? null,
    templates,
    mergeFields: MERGE_FIELDS.map((f) => ({ ...f })),
  };
}

/** One kind's template from loaded settings. */
export function templateOf(settings: LetterSettings, kind: LetterKind): LetterTemplate {
  return settings.templates.find((t) => t.kind === kind)!;
}

/** `undefined` keeps the stored value; null or '' clears it. */
function pick(value: string | null | undefined, stored: string | null | undefined): string | null {
  if (value === undefined) return stored ?? null;
  return value === null || value.trim() === '' ? null : value;
}

/**
 * Saves what `input` gives (a field left out keeps its value) and returns the settings as
 * now stored. A template given with `reset: true` goes back to the default; one given with a
 * heading or a body keeps the other part as it was.
 */
export async function saveLetterSettings(
  ctx: DomainContext,
  input: LetterSettingsUpdate,
): Promise<LetterSettings> {
  await requireAccount(ctx, input.accountId);
  const current = await loadLetterSettings(ctx.store.db, input.accountId);
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const row = {
      orgKind: input.orgKind ?? current.orgKind,
      organizationName: pick(input.organizationName, current.organizationName),
      organizationAddress: pick(input.organizationAddress, current.organizationAddress),
      signerName: pick(input.signerName, current.signerName),
      signerTitle: pick(input.signerTitle, current.signerTitle),
      updatedAt: at,
    };
    await trx
      .insertInto('letterSettings')
      .values({ accountId: input.accountId, ...row })
      .onConflict((oc) => oc.column('accountId').doUpdateSet(row))
      .execute();
    for (const t of input.templates ?? []) {
      const where = trx
        .deleteFrom('letterTemplates')
        .where('accountId', '=', input.accountId)
        .where('kind', '=', t.kind);
      if (t.reset) {
        await where.execute();
        continue;
      }
      if (t.heading === undefined && t.body === undefined) continue;
      // A default template edited in part takes the rest from the default of the kind saved now.
      const stored = templateOf(current, t.kind);
      const was = stored.isDefault ? defaultTemplate(row.orgKind, t.kind) : stored;
      const text = { heading: t.heading ?? was.heading, body: t.body ?? was.body, updatedAt: at };
      await trx
        .insertInto('letterTemplates')
        .values({ accountId: input.accountId, kind: t.kind, ...text })
        .onConflict((oc) => oc.columns(['accountId', 'kind']).doUpdateSet(text))
        .execute();
    }
  });
  return loadLetterSettings(ctx.store.db, input.accountId);
}
