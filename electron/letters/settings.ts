/**
 * What an account's letters say of the organisation (its kind, name, address, signer) and
 * the wording of each kind of document. An account that never saved them gets the kind its
 * own records suggest — political when it has elections or a per-election limit (a political
 * donor must never read that a gift is tax-deductible), a charity otherwise; a template it
 * never edited is the default for its organisation's kind, so changing the kind changes those
 * at once.
 */
import {
  LETTER_KINDS,
  type LetterKind,
  type LetterSettings,
  type LetterSettingsUpdate,
  type LetterTemplate,
} from '#shared/schemas/letters.ts';
import type { Db } from '../db/store.ts';
import { getAccount, requireAccount } from '../domain/accounts/index.ts';
import { DomainError, type DomainContext } from '../domain/index.ts';
import { MERGE_FIELDS, defaultTemplate } from './defaults.ts';
import type { LetterSet } from './select.ts';

const ELECTION_WORD: Record<string, string> = { primary: 'Primary', general: 'General', runoff: 'Runoff' };

/**
 * What in the account's records says it raises money toward elections, in words ("elections
 * Primary 2028, General 2028; a per-election limit on Federal"), or null when nothing does.
 */
export async function politicalSigns(db: Db, accountId: string): Promise<string | null> {
  const [elections, limited] = await Promise.all([
    db
      .selectFrom('elections')
      .select(['electionType', 'electionYear'])
      .where('accountId', '=', accountId)
      .orderBy('electionDate')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('donationAccounts')
      .select('name')
      .where('accountId', '=', accountId)
      .where('limitPerElectionCents', 'is not', null)
      .orderBy('name')
      .orderBy('id')
      .execute(),
  ]);
  const parts: string[] = [];
  if (elections.length > 0) {
    const names = elections
      .slice(0, 3)
      .map(
        (e) =>
          `${ELECTION_WORD[e.electionType] ?? e.electionType.replace(/^./, (c) => c.toUpperCase())} ${e.electionYear}`,
      );
    const more = elections.length > 3 ? ` and ${elections.length - 3} more` : '';
    parts.push(`${elections.length === 1 ? 'an election' : 'elections'} (${names.join(', ')}${more})`);
  }
  if (limited.length > 0)
    parts.push(
      `a per-election limit on ${limited
        .slice(0, 2)
        .map((a) => a.name)
        .join(', ')}${limited.length > 2 ? ` and ${limited.length - 2} more` : ''}`,
    );
  return parts.length === 0 ? null : parts.join(' and ');
}

/** The account's letter settings, with every kind's template (its own or the default). */
export async function loadLetterSettings(db: Db, accountId: string): Promise<LetterSettings> {
  const [row, own, signs] = await Promise.all([
    db.selectFrom('letterSettings').selectAll().where('accountId', '=', accountId).executeTakeFirst(),
    db
      .selectFrom('letterTemplates')
      .select(['kind', 'heading', 'body'])
      .where('accountId', '=', accountId)
      .execute(),
    politicalSigns(db, accountId),
  ]);
  const orgKindSuggested = signs === null ? 'charity' : 'political';
  const orgKind = row?.orgKind ?? orgKindSuggested;
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
    orgKindChosen: row !== undefined,
    orgKindSuggested,
    politicalSigns: signs,
  };
}

/**
 * Refuses (409 `charity_wording_political`) a run that would print a charity's wording for an
 * account whose records say it raises money toward elections, unless the person confirmed it.
 */
export function requireFitWording(settings: LetterSettings, confirmed: boolean | undefined): void {
  if (confirmed || settings.orgKind !== 'charity' || settings.politicalSigns === null) return;
  throw new DomainError(
    'conflict',
    'charity_wording_political',
    `These letters use a charity's wording (a gift "for your tax records"), but this organisation takes gifts toward ${settings.politicalSigns}: contributions to a political committee are not tax deductible. Choose "Political committee" as the kind of organisation in the letter settings, or confirm the charity's wording for this run.`,
    [
      {
        field: 'confirmWording',
        issue: 'must be true to print a charity’s wording for an organisation with elections',
      },
    ],
  );
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

/** The wording a set's letters are merged with: the account's, its organisation named. */
export async function mergeContext(
  ctx: DomainContext,
  accountId: string,
  set: Pick<LetterSet, 'kind' | 'choice' | 'period'>,
) {
  const loaded = await loadLetterSettings(ctx.store.db, accountId);
  // Until Settings name the organisation, its letters use the account's name.
  const settings = loaded.organizationName?.trim()
    ? loaded
    : { ...loaded, organizationName: (await getAccount(ctx, accountId))?.name ?? null };
  return { template: templateOf(settings, set.kind), merge: { settings, set, today: ctx.now() } };
}
