/**
 * Pulling reference data (reference.ts has the rules): HQ's campaigns, committees and
 * donation accounts where HQ lists them, and custom fields matched by name.
 */
import type { DomainContext } from '../../domain/context.ts';
import { createCustomField, listCustomFields } from '../../domain/contacts/custom-fields.ts';
import {
  getReference,
  insertPulledReference,
  linkCampaignDonationAccount,
  referenceByName,
  type ReferenceKind,
  renamePulledReference,
} from '../../domain/pulled/index.ts';
import { listItems, REFERENCE_KINDS, REFERENCE_NOUN, REFERENCE_ROUTE } from './rules.ts';
import { type RemoteReader, getJson, remoteMessage } from '../net/read.ts';
import { linkRemote, localIdFor, remoteIdFor } from '../outbox/links.ts';

/** The pull's note for a kind HQ does not list (a 404 to its list route). */
export function notListedNote(kind: ReferenceKind): string {
  return `HQ does not list ${REFERENCE_NOUN[kind]}s: link each one used by gifts with giftdesk sync link.`;
}

export interface ReferencePullSummary {
  /** Per kind: whether HQ lists them, and what the pull did. */
  kinds: Record<
    ReferenceKind,
    { listed: boolean; created: number; linked: number; renamed: number; unchanged: number }
  >;
  customFields: { listed: boolean; created: string[]; missingAtHq: string[] };
  notes: string[];
}

/**
 * Brings HQ's campaigns, committees and donation accounts down where HQ lists them, and
 * matches custom fields by name. Few requests (one list per kind). A kind HQ does not list
 * (404) is left to linking by hand; any other failure is thrown (the caller retries).
 */
export async function pullReferenceData(
  ctx: DomainContext,
  remote: RemoteReader,
  args: { accountId: string; remoteAccountId: string },
): Promise<ReferencePullSummary> {
  const { accountId } = args;
  const q = { accountId: args.remoteAccountId };
  const empty = () => ({ listed: false, created: 0, linked: 0, renamed: 0, unchanged: 0 });
  const summary: ReferencePullSummary = {
    kinds: { donationAccount: empty(), committee: empty(), campaign: empty() },
    customFields: { listed: false, created: [], missingAtHq: [] },
    notes: [],
  };

  for (const kind of REFERENCE_KINDS) {
    const r = await getJson(remote, REFERENCE_ROUTE[kind], q);
    if (!r.ok) {
      if (r.status === 404 || r.status === 405 || r.status === 501) {
        summary.notes.push(notListedNote(kind));
        continue;
      }
      throw new Error(`HQ's ${REFERENCE_NOUN[kind]} list failed: ${remoteMessage(r)}`);
    }
    if (!Array.isArray((r.body as { data?: unknown } | null)?.data)) {
      summary.notes.push(
        `HQ's answer to GET ${REFERENCE_ROUTE[kind]} is not a list ({"data": [...]}); ${REFERENCE_NOUN[kind]}s were not pulled.`,
      );
      continue;
    }
    const items = listItems(r.body);
    const s = summary.kinds[kind];
    s.listed = true;
    await ctx.store.write(async (trx) => {
      const at = ctx.now();
      for (const item of items) {
        const linked = await localIdFor(trx, accountId, kind, item.id);
        let localId: string;
        if (linked && (await getReference(trx, kind, accountId, linked))) {
          localId = linked;
          if (await renamePulledReference(trx, kind, accountId, linked, item.name, at)) s.renamed++;
          else s.unchanged++;
        } else {
          // An unlinked local record of the same name is the same thing (entered before the
          // first pull); two of them is ambiguous, so HQ's comes in as its own record.
          const same = await referenceByName(trx, kind, accountId, item.name);
          const unlinked: string[] = [];
          for (const x of same) if ((await remoteIdFor(trx, kind, x.id)) === null) unlinked.push(x.id);
          if (unlinked.length === 1) {
            localId = unlinked[0]!;
            s.linked++;
          } else {
            localId = await insertPulledReference(trx, kind, accountId, item.name, at, item.limits);
            s.created++;
          }
          await linkRemote(trx, {
            accountId,
            entityType: kind,
            localId,
            remoteId: item.id,
            source: 'pulled',
            at,
          });
        }
        if (kind === 'campaign') {
          for (const dac of item.donationAccounts ?? []) {
            const localDac = await localIdFor(trx, accountId, 'donationAccount', dac);
            if (localDac) await linkCampaignDonationAccount(trx, localId, localDac);
          }
        }
      }
    });
  }

  const cf = await getJson(remote, '/custom-fields', q);
  if (cf.ok && Array.isArray((cf.body as { data?: unknown } | null)?.data)) {
    summary.customFields.listed = true;
    const theirs = (cf.body as { data: unknown[] }).data.flatMap((x) => {
      if (typeof x !== 'object' || x === null) return [];
      const o = x as Record<string, unknown>;
      if (typeof o.name !== 'string' || typeof o.type !== 'string') return [];
      const options = Array.isArray(o.options)
        ? (o.options as unknown[]).flatMap((p) =>
            typeof p === 'object' &&
            p !== null &&
            typeof (p as { name?: unknown }).name === 'string' &&
            !(p as { retired?: unknown }).retired
              ? [(p as { name: string }).name]
              : [],
          )
        : [];
      return [{ name: o.name, type: o.type, archived: o.archived === true, options }];
    });
    const mine = await listCustomFields(ctx.store.db, accountId);
    const mineByKey = new Map(mine.map((f) => [f.name.toLowerCase(), f]));
    const theirKeys = new Set(theirs.map((f) => f.name.toLowerCase()));
    for (const f of theirs) {
      if (f.archived || mineByKey.has(f.name.toLowerCase())) continue;
      try {
        await createCustomField(ctx, { accountId, name: f.name, type: f.type, options: f.options });
        summary.customFields.created.push(f.name);
      } catch (err) {
        summary.notes.push(
          `HQ's custom field "${f.name}" could not be added here: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    for (const f of mine) {
      if (!f.archived && !theirKeys.has(f.name.toLowerCase())) summary.customFields.missingAtHq.push(f.name);
    }
    if (summary.customFields.missingAtHq.length > 0) {
      summary.notes.push(
        `HQ has no custom field named ${summary.customFields.missingAtHq.map((n) => `"${n}"`).join(', ')}: contacts with values in them will need attention when pushed (HQ refuses unknown fields).`,
      );
    }
  } else if (!cf.ok && cf.status !== 404) {
    summary.notes.push(
      `HQ's custom field list could not be read (${remoteMessage(cf)}); fields are matched by name when contacts are pushed.`,
    );
  }
  return summary;
}
