/**
 * Choosing instead of typing (reference.ts has the rules): for each local campaign, committee
 * and donation account not linked yet, HQ's records of its kind and a suggestion by name.
 */
import { foldText } from '#shared/fold.ts';
import { DomainError } from '../../domain/errors.ts';
import type { DomainContext } from '../../domain/context.ts';
import type { ReferenceKind } from '../../domain/pulled/index.ts';
import { listItems, listReferenceLinks, REFERENCE_KINDS, REFERENCE_NOUN, REFERENCE_ROUTE } from './rules.ts';
import { type RemoteReader, getJson, remoteMessage } from '../net/read.ts';
import { listLinks } from '../outbox/links.ts';

/** A name as compared for suggestions: case, accents and runs of spaces aside ("Fonds général" = "fonds  general"). */
export function nameKey(name: string): string {
  return foldText(name).replace(/\s+/g, ' ').trim();
}

export interface ReferenceCandidate {
  remoteId: string;
  name: string;
  linkedTo: { localId: string; name: string } | null;
}

export interface ReferenceCandidatesResult {
  kinds: Array<{ kind: ReferenceKind; listed: boolean; note: string | null; hq: ReferenceCandidate[] }>;
  unlinked: Array<{
    kind: ReferenceKind;
    localId: string;
    name: string;
    suggestedRemoteId: string | null;
    reason: string;
  }>;
}

/** How long the candidates may take at most (HQ that does not answer is said so, not waited on for minutes). */
export const CANDIDATES_DEADLINE_MS = 15_000;

const hqFailed = (code: string, message: string) => new DomainError('bad_gateway', code, message);

/**
 * For each local campaign, committee and donation account not linked yet: HQ's records of its
 * kind to choose from, and a suggestion where exactly one HQ record has the same name (case
 * and accents aside), no other local record is linked to it, and no other unlinked local
 * record has that name too. HQ is read (through the remote's client and its pacer) only for
 * the kinds that have unlinked records, one list each. A kind HQ does not list (the spec's
 * HQ lists none) comes back `listed: false`: its ids are typed, and checked when linked.
 * Nothing is linked here. HQ unreachable, refusing the key or answering nonsense is a 502
 * naming what went wrong.
 */
export async function referenceCandidates(
  ctx: DomainContext,
  remote: RemoteReader,
  args: { accountId: string; remoteAccountId: string; signal?: AbortSignal },
): Promise<ReferenceCandidatesResult> {
  const { accountId } = args;
  const rows = await listReferenceLinks(ctx, accountId);
  const out: ReferenceCandidatesResult = { kinds: [], unlinked: [] };
  const deadline = AbortSignal.timeout(CANDIDATES_DEADLINE_MS);
  const signal = args.signal ? AbortSignal.any([args.signal, deadline]) : deadline;
  for (const kind of REFERENCE_KINDS) {
    const unlinked = rows.filter((r) => r.kind === kind && r.remoteId === null);
    if (unlinked.length === 0) continue;
    const noun = REFERENCE_NOUN[kind];
    const route = REFERENCE_ROUTE[kind];
    const r = await getJson(
      remote,
      route,
      { accountId: args.remoteAccountId },
      { attempts: 2, baseMs: 300, signal },
    );
    if (!r.ok) {
      if (r.status === 404 || r.status === 405 || r.status === 501) {
        const note = `HQ does not list ${noun}s (GET /api/v1${route} answered ${r.status}): type HQ’s id for each one; it is checked at HQ before it is kept.`;
        out.kinds.push({ kind, listed: false, note, hq: [] });
        for (const u of unlinked)
          out.unlinked.push({
            kind,
            localId: u.localId,
            name: u.name,
            suggestedRemoteId: null,
            reason: `HQ does not list ${noun}s: type HQ’s id.`,
          });
        continue;
      }
      if (deadline.aborted)
        throw hqFailed(
          'remote_unreachable',
          `HQ did not answer within ${CANDIDATES_DEADLINE_MS / 1000} s when asked for its ${noun}s (GET /api/v1${route}): nothing was linked. Try again when HQ answers.`,
        );
      if (r.status === 401 || r.status === 403)
        throw hqFailed(
          'remote_refused',
          `HQ refused to list its ${noun}s (${remoteMessage(r)}): check the key in the sync settings. Nothing was linked.`,
        );
      if (r.status === undefined)
        throw hqFailed(
          'remote_unreachable',
          `Could not reach HQ to read its ${noun}s (${remoteMessage(r).replace(/^could not reach HQ \((.*)\)$/, '$1')}): nothing was linked. Try again when HQ answers.`,
        );
      throw hqFailed(
        'remote_failed',
        `HQ could not list its ${noun}s (GET /api/v1${route} answered ${remoteMessage(r)}): nothing was linked. Try again later.`,
      );
    }
    if (!Array.isArray((r.body as { data?: unknown } | null)?.data)) {
      throw hqFailed(
        'remote_bad_answer',
        `HQ’s answer to GET /api/v1${route} is not a list ({"data": [...]}), so its ${noun}s cannot be offered to choose from.`,
      );
    }
    const names = new Map(rows.filter((x) => x.kind === kind).map((x) => [x.localId, x.name]));
    const linkedBy = new Map<string, string>();
    for (const x of rows) if (x.kind === kind && x.remoteId !== null) linkedBy.set(x.remoteId, x.localId);
    // A link whose local record is gone still holds its HQ id (linking it again is refused).
    for (const l of await listLinks(ctx.store.db, accountId, kind))
      if (!linkedBy.has(l.remoteId)) linkedBy.set(l.remoteId, l.localId);
    const hq: ReferenceCandidate[] = listItems(r.body)
      .map((item) => {
        const other = linkedBy.get(item.id);
        return {
          remoteId: item.id,
          name: item.name,
          linkedTo: other ? { localId: other, name: names.get(other) ?? other } : null,
        };
      })
      .sort(
        (a, b) =>
          a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) ||
          a.remoteId.localeCompare(b.remoteId),
      );
    out.kinds.push({
      kind,
      listed: true,
      note:
        hq.length === 0 ? `HQ lists no ${noun}s yet: add them at HQ first, then read HQ’s list again.` : null,
      hq,
    });

    const byKey = new Map<string, ReferenceCandidate[]>();
    for (const c of hq) byKey.set(nameKey(c.name), [...(byKey.get(nameKey(c.name)) ?? []), c]);
    const localCount = new Map<string, number>();
    for (const u of unlinked) localCount.set(nameKey(u.name), (localCount.get(nameKey(u.name)) ?? 0) + 1);
    for (const u of unlinked) {
      const key = nameKey(u.name);
      const same = byKey.get(key) ?? [];
      const free = same.filter((c) => c.linkedTo === null);
      let suggested: string | null = null;
      let reason: string;
      if (hq.length === 0) reason = `HQ lists no ${noun}s yet.`;
      else if (same.length === 0) reason = `HQ has no ${noun} named “${u.name}”: choose the one it is.`;
      else if (same.length > 1)
        reason = `HQ has ${same.length} ${noun}s named “${same[0]!.name}”: choose the one it is (their ids differ).`;
      else if (free.length === 0)
        reason = `HQ’s “${same[0]!.name}” is linked already to “${same[0]!.linkedTo!.name}” here: choose another, or unlink that one first.`;
      else if ((localCount.get(key) ?? 0) > 1)
        reason = `${localCount.get(key)} ${noun}s here are named “${u.name}” and HQ has one: choose which one it is.`;
      else {
        suggested = free[0]!.remoteId;
        reason =
          free[0]!.name === u.name
            ? 'Suggested: the same name at HQ.'
            : `Suggested: HQ’s “${free[0]!.name}” (the same name but for case or accents).`;
      }
      out.unlinked.push({ kind, localId: u.localId, name: u.name, suggestedRemoteId: suggested, reason });
    }
  }
  return out;
}
