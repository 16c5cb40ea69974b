/**
 * The randomised workload at the fault proxy: which local records a request between the laptop
 * and HQ concerns (`recordsOf`), and the rule (`eventRule`) that, at that moment, deletes or
 * edits them locally or rewrites a pushed gift's notes at HQ, as staff do during an event.
 * The writes themselves are in `workload.ts`.
 */
import { isDomainError } from '../../electron/domain/errors.ts';
import { donationSearchWindow } from '../../electron/sync/push/identity.ts';
import type { FaultAction, FaultKind, FaultRule, ProxiedRequest } from './fault-proxy.ts';
import type { SyncRig } from './rig.ts';
import { createRng } from './random.ts';
import {
  contactEdit,
  editContact,
  removeContact,
  staffEdit,
  tag,
  type EventCase,
  type WorkloadState,
} from './workload.ts';

const REF = /gd:((?:cnt|don)_[0-9A-Za-z]+)/g;

/**
 * The local records a request concerns: the `gd:` references in its body, the HQ contact in
 * its path (by the local link, else by its tag at HQ), and for a reconcile's reads the records
 * whose create is unknown and whose attempt they look for.
 */
export async function recordsOf(rig: SyncRig, w: WorkloadState, req: ProxiedRequest): Promise<string[]> {
  const { local } = rig;
  const out = new Set<string>();
  for (const m of req.body.matchAll(REF)) out.add(m[1]!);
  const url = new URL(req.path, 'http://hq');
  const byId = /^\/api\/v1\/contacts\/([^/]+)$/.exec(url.pathname);
  if (byId) {
    const hqId = decodeURIComponent(byId[1]!);
    const link = await local.store.db
      .selectFrom('syncLinks')
      .select('localId')
      .where('accountId', '=', local.accountId)
      .where('entityType', '=', 'contact')
      .where('remoteId', '=', hqId)
      .execute();
    for (const l of link) out.add(l.localId);
    if (link.length === 0) {
      const row = await rig.remote.store.db
        .selectFrom('contacts')
        .select('tags')
        .where('id', '=', hqId)
        .executeTakeFirst();
      for (const t of row ? (JSON.parse(row.tags) as string[]) : [])
        if (t.startsWith('gd:')) out.add(t.slice(3));
    }
  }
  if (req.method === 'GET' && (url.pathname === '/api/v1/contacts' || url.pathname === '/api/v1/donations')) {
    const type = url.pathname.endsWith('contacts') ? 'contact' : 'donation';
    const open = await local.store.db
      .selectFrom('syncItems')
      .select(['entityId', 'attemptBody'])
      .where('accountId', '=', local.accountId)
      .where('entityType', '=', type)
      .where('state', 'in', ['unknown', 'in_flight'])
      .where('op', '=', 'create')
      .execute();
    for (const o of open) {
      if (!o.attemptBody) continue;
      const sent = JSON.parse(o.attemptBody) as {
        firstName?: string;
        lastName?: string;
        primaryEmail?: string;
        body?: { donationDate?: string };
      };
      if (type === 'contact') {
        const search = url.searchParams.get('search');
        if (
          search === null ||
          search ===
            (sent.primaryEmail ? sent.primaryEmail : `${sent.firstName ?? ''} ${sent.lastName ?? ''}`).slice(
              0,
              200,
            )
        )
          out.add(o.entityId);
      } else if (sent.body?.donationDate) {
        const win = donationSearchWindow(sent.body.donationDate);
        if (
          url.searchParams.get('startDate') === win.startDate &&
          url.searchParams.get('endDate') === win.endDate
        )
          out.add(o.entityId);
      }
    }
    // an email match's search, before the create
    const search = url.searchParams.get('search');
    if (type === 'contact' && search?.includes('@'))
      for (const [id, p] of w.people) if (p.email === search) out.add(id);
  }
  return [...out];
}

export interface EventRuleOptions {
  /** Draws for requests that concern no event case. */
  draw: () => { kind: FaultKind; action: FaultAction };
  /** Draws for requests of records in an event case (a higher fault rate, every kind). */
  caseDraw: () => { kind: FaultKind; action: FaultAction };
  /**
   * The first request of a record in this case hangs (no answer until the client's deadline;
   * forwarded or not, half each): one per run at most, since each costs a whole deadline.
   */
  hangCase?: EventCase;
  /** Each faulted request: its kind and the cases of the records it concerns. */
  onFault?: (kind: FaultKind, cases: ReadonlySet<EventCase>) => void;
  /**
   * Once the faults are over: every request is forwarded and only the events the workload still
   * owes (`forceRace`, `forceDelete`) happen, so a seed whose last contacts were not sent while
   * faults were on still produces them (how many passes that takes depends on the machine's pace).
   */
  onlyOwed?: boolean;
}

const HEALTHY: ReadonlySet<FaultKind> = new Set(['forward', 'slow']);

/**
 * The proxy's rule for a workload run: the seeded faults, with requests of records in an event
 * case drawn from `caseDraw`, and the events that happen while a request is on the wire — an
 * edit or a delete of the contact being created, staff editing a twin's notes at HQ.
 */
export function eventRule(rig: SyncRig, w: WorkloadState, seed: number, opts: EventRuleOptions): FaultRule {
  const rng = createRng(seed ^ 0xca5e);
  const { local } = rig;
  let hung = false;
  const chance = (p: number): boolean => !opts.onlyOwed && rng.chance(p);
  return async (req: ProxiedRequest): Promise<FaultAction> => {
    const records = await recordsOf(rig, w, req);
    let beforeAnswer: (() => Promise<void>) | undefined;
    const url = new URL(req.path, 'http://hq');
    if (req.method === 'POST' && url.pathname === '/api/v1/contacts' && records.length === 1) {
      const id = records[0]!;
      // a contact created for an owed race is not taken by a chance delete (then no race would follow)
      if (w.contacts.get(id) === 0 && !w.busy.has(id) && (w.forceDelete || (!w.forceRace && chance(0.08)))) {
        // deleted here while its create is on the wire
        w.forceDelete = false;
        w.contacts.delete(id);
        w.people.delete(id);
        tag(w, id, 'deleteUnknown');
        w.seen.deleteUnknown++;
        await removeContact(local, w, id);
      } else if (w.contacts.has(id) && (w.forceRace || chance(0.12))) {
        // edited here while its create is on the wire: before HQ has it, or between HQ's commit and its answer
        w.forceRace = false;
        tag(w, id, 'racingEdit');
        w.seen.racingEdit++;
        const body = contactEdit(rng, w);
        const edit = async () => {
          if (!w.contacts.has(id)) return;
          await editContact(local, w, id, body).catch((e: unknown) => {
            if (!isDomainError(e) || e.status !== 404) throw e;
          });
        };
        if (rng.chance(0.5)) await edit();
        else beforeAnswer = edit;
      }
    }
    if (req.method === 'POST' && url.pathname === '/api/v1/donations' && records.length === 1) {
      // staff open a twin of this gift at HQ while this one is on the wire
      const siblings = (w.twins.get(records[0]!) ?? []).filter((g) => g !== records[0]);
      if (siblings.length > 0 && chance(0.35))
        for (const s of siblings) if (await staffEdit(local, rng, w, s)) break;
    }
    const cases = new Set<EventCase>();
    for (const r of records) for (const c of w.cases.get(r) ?? []) cases.add(c);
    let hangNow = false;
    if (opts.onlyOwed) {
      if (beforeAnswer) return { kind: 'forward', beforeAnswer };
      return { kind: 'forward' };
    }
    if (opts.hangCase && !hung && cases.has(opts.hangCase)) {
      hung = true;
      hangNow = true;
    }
    const { kind, action }: { kind: FaultKind; action: FaultAction } = hangNow
      ? { kind: 'hang', action: rng.chance(0.5) ? { kind: 'hang' } : { kind: 'hangAfterCommit' } }
      : cases.size > 0
        ? opts.caseDraw()
        : opts.draw();
    if (!HEALTHY.has(kind)) opts.onFault?.(kind, cases);
    if (beforeAnswer && action.kind === 'forward') return { ...action, beforeAnswer };
    if (beforeAnswer) await beforeAnswer();
    return action;
  };
}
