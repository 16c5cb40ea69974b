/**
 * The records a chunk of imported gifts names, resolved for the whole chunk with one query per
 * kind (write.ts writes the chunk): the account's campaigns, committees and donation accounts,
 * and the contacts named by id or by external reference, remembered across the import's chunks.
 * Each gift's references are then checked as the API checks them (D3), without a query each.
 */
import { ID_PREFIX } from '#shared/ids.ts';
import type { DonationCreateBody } from '#shared/schemas/donations.ts';
import type { DonationAccountRow } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { DONATION_REFERENCES, referenceNotFound } from '../donations/rules.ts';
import { inSlices } from '../limits/for-import.ts';
import { CONTACT_REF_FIELD } from './csv-columns.ts';
import type { DonationCandidate } from './rows.ts';

/** Which of `ids` are rows of the account: looked up by primary key, the account checked here. */
export async function idsInAccount(
  trx: Db,
  table: 'contacts' | 'donations',
  accountId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const rows = await inSlices(ids, (s) =>
    trx.selectFrom(table).select(['id', 'accountId']).where('id', 'in', s).execute(),
  );
  return new Set(rows.filter((r) => r.accountId === accountId).map((r) => r.id));
}

/** Contacts an import has found so far, kept across its chunks (forgotten when a chunk is retried). */
export interface ContactCache {
  /** ids of contacts of the account */
  ids: Set<string>;
  /** external reference (or a contact's own id) → contact id */
  refs: Map<string, string>;
}

/** The records a chunk's gifts may name: the account's reference records and the contact cache. */
export interface ReferenceSets {
  campaigns: Set<string>;
  committees: Set<string>;
  donationAccounts: Map<string, DonationAccountRow>;
  contacts: ContactCache;
}

/** Contacts remembered across chunks, at most (a file of a million donors must not hold them all). */
const CONTACT_CACHE_MAX = 100_000;

/** The chunk's references: the account's reference records, and its contacts added to the cache. */
export async function loadReferences(
  trx: Db,
  accountId: string,
  candidates: DonationCandidate[],
  cache: ContactCache,
): Promise<ReferenceSets> {
  if (cache.ids.size + cache.refs.size > CONTACT_CACHE_MAX) {
    cache.ids.clear();
    cache.refs.clear();
  }
  const campaigns = await trx
    .selectFrom('campaigns')
    .select('id')
    .where('accountId', '=', accountId)
    .execute();
  const committees = await trx
    .selectFrom('committees')
    .select('id')
    .where('accountId', '=', accountId)
    .execute();
  const dacs = await trx
    .selectFrom('donationAccounts')
    .selectAll()
    .where('accountId', '=', accountId)
    .execute();
  const ids = new Set<string>();
  const refs = new Set<string>();
  for (const c of candidates) {
    if (!c.contactViaRef && !cache.ids.has(c.input.contactId)) ids.add(c.input.contactId);
    for (const id of [c.input.onBehalfOfContactId, c.input.facilitatedByContactId])
      if (id && !cache.ids.has(id)) ids.add(id);
    for (const v of Object.values(c.refs)) if (v !== undefined && !cache.refs.has(v)) refs.add(v);
  }
  for (const id of await idsInAccount(trx, 'contacts', accountId, [...ids])) cache.ids.add(id);
  if (refs.size > 0) {
    const byExternal = await inSlices([...refs], (s) =>
      trx
        .selectFrom('contacts')
        .select(['id', 'externalId'])
        .where('accountId', '=', accountId)
        .where('externalId', 'in', s)
        .execute(),
    );
    for (const r of byExternal) cache.refs.set(r.externalId as string, r.id);
    const unmatched = [...refs].filter((r) => !cache.refs.has(r) && r.startsWith(`${ID_PREFIX.contact}_`));
    for (const id of await idsInAccount(trx, 'contacts', accountId, unmatched)) cache.refs.set(id, id);
  }
  return {
    campaigns: new Set(campaigns.map((r) => r.id)),
    committees: new Set(committees.map((r) => r.id)),
    donationAccounts: new Map(dacs.map((d) => [d.id, d])),
    contacts: cache,
  };
}

/** Resolves a candidate's contacts and checks every reference, as the API does; a reason or null. */
export function resolveDonation(
  c: DonationCandidate,
  refs: ReferenceSets,
): { input: DonationCreateBody } | { reason: string } {
  const input = { ...c.input };
  // the donor (D3)
  if (c.refs.contactExternalId !== undefined) {
    const id = refs.contacts.refs.get(c.refs.contactExternalId);
    if (id === undefined)
      return { reason: `contactExternalId ${c.refs.contactExternalId} matches no contact in this account` };
    if (!c.contactViaRef && id !== c.input.contactId)
      return {
        reason: `contactId ${c.input.contactId} and contactExternalId ${c.refs.contactExternalId} name different contacts`,
      };
    input.contactId = id;
  } else if (!refs.contacts.ids.has(input.contactId)) {
    return { reason: referenceNotFound('contact', 'contactId', input.contactId).message };
  }
  const viaRef = new Set<string>();
  for (const ref of ['onBehalfOfContactExternalId', 'facilitatedByContactExternalId'] as const) {
    const v = c.refs[ref];
    if (v === undefined) continue;
    const id = refs.contacts.refs.get(v);
    if (id === undefined) return { reason: `${ref} ${v} matches no contact in this account` };
    input[CONTACT_REF_FIELD[ref]] = id;
    viaRef.add(CONTACT_REF_FIELD[ref]);
  }
  for (const [field, table, noun] of DONATION_REFERENCES) {
    const id = input[field];
    if (typeof id !== 'string' || id.length === 0 || viaRef.has(field)) continue;
    const exists =
      table === 'campaigns'
        ? refs.campaigns.has(id)
        : table === 'committees'
          ? refs.committees.has(id)
          : table === 'donationAccounts'
            ? refs.donationAccounts.has(id)
            : refs.contacts.ids.has(id);
    if (!exists) return { reason: referenceNotFound(noun, field, id).message };
  }
  return { input };
}
