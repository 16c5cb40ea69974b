/**
 * The batch's saved gifts, newest first, each with its sync-state slot and its Receipt button.
 * Namesakes among them (two Zoë Walkers) show what tells them apart beside the name
 * (namesakeTells). Ctrl+P prints a receipt: for the saved gift whose row has the focus, from
 * anywhere else on gift entry (the entry row) for the gift saved last.
 */
import { notesForPeople } from '#shared/sync-reference.ts';
import {
  defaultScheduler,
  notifyManager,
  replaceEqualDeep,
  useQueries,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { memo, useCallback, useEffect, useRef } from 'react';
import { flushSync } from 'react-dom';
import { formatDollars } from '#shared/money.ts';
import type { Batch, BatchGiftSaved, BatchListPage } from '#shared/schemas/batches.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import type { DonationDetail } from '#shared/schemas/donations.ts';
import type { SyncStatus } from '#shared/schemas/sync.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { syncKeys } from '../settings/sync-keys.ts';
import { Button, EmptyState, useToast } from '../../ui/index.ts';
import { RECEIPT_KEYS, usePrintReceipt, type ReceiptGift } from '../letters/receipt.ts';
import { nameKey, namesakeTells } from './donor-lines.ts';
import { summaryOf } from './gift-fields.tsx';
import { METHOD_LABEL, useReferenceData } from './reference.ts';
import { SyncStateSlot } from './SyncStateSlot.tsx';

const SHOWN = 100;

interface ShownRows {
  rows: DonationDetail[];
  total: number;
}

/**
 * Puts a just-saved gift (the save's answer) into the batch's list, the batch's new count and
 * total into its figures and into the list of batches, and the sync status it brought into the
 * sync badge, and has React put them on screen before this returns: no read after the save,
 * and no wait for the query cache's next notification tick (a timer) nor behind the entry
 * row's own reset. A read still on its way (the 5-second sync poll, the badge's) may have been
 * answered before this gift was written, so it is cancelled first (cancelling puts the query
 * back at once) and cannot put the list back without the gift. Each of these writes also
 * restarts that query's timed refresh, so none runs while saves are flowing: the answers
 * bring the news. Idempotent: a row already there is left as it is.
 */
export function showSavedGift(client: QueryClient, saved: BatchGiftSaved): void {
  const batchId = saved.batch.id;
  notifyNow(() => {
    void client.cancelQueries({ queryKey: qk.batchDonations(batchId), exact: true });
    void client.cancelQueries({ queryKey: qk.batch(batchId), exact: true });
    void client.cancelQueries({ queryKey: syncKeys.status, exact: true });
    client.setQueryData<ShownRows>(qk.batchDonations(batchId), (old) => {
      if (!old || old.rows.some((r) => r.id === saved.donation.id)) return old;
      return { rows: [...old.rows, saved.donation].slice(-SHOWN), total: old.total + 1 };
    });
    client.setQueryData<Batch>(qk.batch(batchId), saved.batch);
    client.setQueryData<BatchListPage>(qk.batches, (old) =>
      old ? { ...old, data: old.data.map((b) => (b.id === batchId ? saved.batch : b)) } : old,
    );
    client.setQueryData<SyncStatus>(syncKeys.status, saved.sync);
  });
}

/**
 * Runs `fn`'s query-cache writes with their subscribers told at once (the cache's notifier
 * otherwise tells them on a 0-ms timer) and React's resulting render committed before it
 * returns. The notifier's default scheduling is back when this returns.
 */
function notifyNow(fn: () => void): void {
  notifyManager.setScheduler((cb) => cb());
  try {
    flushSync(() => notifyManager.batch(fn));
  } finally {
    notifyManager.setScheduler(defaultScheduler);
  }
}

/**
 * The list's structural sharing by gift id: a row whose gift is unchanged keeps its object (so
 * its memoised line does not render again) even when the list moved by one, as it does once
 * the batch has more than SHOWN gifts; the default compares position by position, so every
 * row differs from its neighbour and is compared field by field.
 */
function shareRows(old: unknown, next: unknown): unknown {
  const o = old as ShownRows | undefined;
  const n = next as ShownRows;
  if (!o?.rows || !n?.rows) return next;
  const byId = new Map(o.rows.map((r) => [r.id, r]));
  let same = o.total === n.total && o.rows.length === n.rows.length;
  const rows = n.rows.map((r, i) => {
    const prev = byId.get(r.id);
    const kept = prev ? replaceEqualDeep(prev, r) : r;
    if (kept !== o.rows[i]) same = false;
    return kept;
  });
  return same ? o : { rows, total: n.total };
}

/**
 * Memoised: the screen renders again for every change of the batch (its count and total with
 * each save); the list renders for its own query only.
 */
export const GiftRows = memo(function GiftRows({ batchId }: { batchId: string }) {
  const api = useApi();
  const client = useQueryClient();
  const ref = useReferenceData();
  // The sync badge's status, from the cache (this observer never fetches it itself).
  const hqSetUp =
    useQuery<SyncStatus>({ queryKey: syncKeys.status, queryFn: () => api.sync.status(), enabled: false }).data
      ?.configured ?? false;
  const rows = useQuery({
    queryKey: qk.batchDonations(batchId),
    structuralSharing: shareRows,
    // While any gift is on its way to HQ, its state is read again every few seconds; without
    // HQ set up (the sync badge's status says so) nothing would change, so nothing is asked.
    // At a station, a gift the event hub holds may still be corrected or voided there (by the
    // hub's person): read again while one the hub has not sent to HQ is in the batch.
    refetchInterval: (q) =>
      hqSetUp &&
      q.state.data?.rows.some(
        (d) => d.sync.state !== 'sent' || (d.sync.upstream === 'hub' && !d.sync.readOnly),
      )
        ? 5000
        : false,
    queryFn: async (): Promise<ShownRows> => {
      // The last SHOWN gifts: where they start is known from the batch's count when it is at
      // hand (one request); a second one only when the count moved meanwhile.
      const known = client.getQueryData<Batch>(qk.batch(batchId))?.count ?? 0;
      const first = await api.batches.donations(batchId, {
        limit: SHOWN,
        offset: Math.max(0, known - SHOWN),
      });
      const offset = Math.max(0, first.total - SHOWN);
      if (offset === first.offset) return { rows: first.data, total: first.total };
      const last = await api.batches.donations(batchId, { limit: SHOWN, offset });
      return { rows: last.data, total: last.total };
    },
  });
  const list: DonationDetail[] = [...(rows.data?.rows ?? [])].reverse();
  const total = rows.data?.total ?? 0;
  const tells = useNamesakeTells(list);
  const printReceipt = useReceiptKey(list);
  if (rows.isSuccess && list.length === 0) {
    return (
      <EmptyState title="No gifts in this batch yet.">
        Type a donor’s name above, then the amount, and press Enter.
      </EmptyState>
    );
  }
  return (
    <section aria-labelledby="saved-gifts-title" className="saved-gifts">
      <div className="saved-head">
        <h2 id="saved-gifts-title" className="saved-title">
          Saved in this batch{total > SHOWN ? ` (latest ${SHOWN} of ${total})` : ''}
        </h2>
        <p className="saved-hint muted" id="receipt-key-hint">
          {RECEIPT_KEYS.said} prints a receipt: for the saved gift in focus, or from the entry row for the
          gift saved last.
        </p>
      </div>
      <table className="table gift-table">
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            <th scope="col">Donor</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col">Date</th>
            <th scope="col">Method</th>
            <th scope="col" className="gift-credit-head">
              Campaign · credit
            </th>
            <th scope="col">Notes</th>
          </tr>
        </thead>
        <tbody>
          {list.map((d, i) => (
            <GiftRowLine
              key={d.id}
              d={d}
              n={total - i}
              tell={tells.get(d.contactId)}
              onReceipt={printReceipt}
              designation={
                [
                  d.campaignName,
                  ref.nameOf('committee', d.committeeId),
                  ref.nameOf('donationAccount', d.donationAccountId),
                ]
                  .filter(Boolean)
                  .join(' · ') || '—'
              }
            />
          ))}
        </tbody>
      </table>
    </section>
  );
});

/**
 * Ctrl+P (Cmd+P) on gift entry: a receipt for the saved gift whose row holds the focus, else
 * for the gift saved last; never the browser's own print of the screen. Not while a dialog is
 * open (its keys are its own). Gives the rows a print function that keeps its identity, so
 * their memo holds.
 */
function useReceiptKey(list: readonly DonationDetail[]): (gift: ReceiptGift) => void {
  const receipt = usePrintReceipt();
  const toast = useToast();
  const latest = useRef({ list, print: receipt.print });
  latest.current = { list, print: receipt.print };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 'p') return;
      e.preventDefault();
      if (document.querySelector('dialog[open]')) return;
      const { list: shown, print } = latest.current;
      const row = document.activeElement?.closest<HTMLElement>('tr[data-donation-id]');
      const gift = row ? shown.find((d) => d.id === row.dataset.donationId) : shown[0];
      if (gift) print(gift);
      else toast.show({ message: 'No saved gift yet to print a receipt for.' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toast]);
  return useCallback((gift: ReceiptGift) => latest.current.print(gift), []);
}

/** The contact summaries the query cache holds (the donor box's matches, the contacts lists). */
function cachedSummary(client: QueryClient, id: string): ContactSummary | undefined {
  for (const [, data] of client.getQueriesData<unknown>({ queryKey: qk.contacts })) {
    const list = typeof data === 'object' && data !== null && 'data' in data ? data.data : null;
    if (!Array.isArray(list)) continue;
    const hit = (list as Array<Partial<ContactSummary> | null>).find((c) => c?.id === id);
    if (hit && typeof hit.firstName === 'string' && 'city' in hit) return hit as ContactSummary;
  }
  return undefined;
}

/**
 * Namesakes among the shown gifts (donors with one name, accents and case aside) and what tells
 * them apart, by contact id. Their details come from the query cache when the donor box or a
 * list has them (a donor typed here was one of the box's matches: no request between Enter and
 * the saved row), else from one read each, kept out of the refresh after each gift (what tells
 * namesakes apart rarely changes during a sitting).
 */
function useNamesakeTells(list: readonly DonationDetail[]): Map<string, string> {
  const api = useApi();
  const client = useQueryClient();
  const idsByName = new Map<string, Set<string>>();
  for (const d of list) {
    const k = nameKey(d.contactName);
    idsByName.set(k, (idsByName.get(k) ?? new Set()).add(d.contactId));
  }
  const ids = [...idsByName.values()].filter((s) => s.size > 1).flatMap((s) => [...s]);
  const cached = new Map(ids.map((id) => [id, cachedSummary(client, id)]));
  const fetched = useQueries({
    queries: ids
      .filter((id) => !cached.get(id))
      .map((id) => ({
        queryKey: ['namesake', id] as const,
        queryFn: async () => summaryOf(await api.contacts.get(id)),
        staleTime: Infinity,
      })),
  });
  const found = [
    ...ids.flatMap((id) => cached.get(id) ?? []),
    ...fetched.flatMap((q) => (q.data ? [q.data] : [])),
  ];
  const lines = namesakeTells(found);
  return new Map(found.map((c, i) => [c.id, lines[i]!]));
}

/** The person a gift is credited to and the host who raised it, where set ('': neither). */
function creditedWords(d: Pick<DonationDetail, 'onBehalfOfName' | 'facilitatedByName'>): string {
  const credit = d.onBehalfOfName ? `credited to ${d.onBehalfOfName}` : null;
  const host = d.facilitatedByName ? `raised by ${d.facilitatedByName}` : null;
  return [credit, host].filter(Boolean).join(' · ');
}

/**
 * One saved gift's row. Memoised: a save adds one row and leaves the others' props as they
 * were (the same gift objects, the same numbers), so only the new row renders.
 */
const GiftRowLine = memo(function GiftRowLine({
  d,
  n,
  designation,
  tell,
  onReceipt,
}: {
  d: DonationDetail;
  n: number;
  /** Its campaign, committee and donation account. */
  designation: string;
  onReceipt: (gift: ReceiptGift) => void;
  /** What tells this donor from a namesake in the list (none when the name is the only one). */
  tell: string | undefined;
}) {
  return (
    <tr data-donation-id={d.id}>
      <td className="num muted">{n}</td>
      <td>
        {d.contactName}
        {tell ? <span className="donor-tell muted"> · {tell}</span> : null}
      </td>
      <td className="num">{formatDollars(d.donationAmount)}</td>
      <td>{d.donationDate.slice(0, 10)}</td>
      <td>{METHOD_LABEL[d.paymentMethod]}</td>
      <td>
        {designation}
        {creditedWords(d) ? <div className="gift-credited">{creditedWords(d)}</div> : null}
      </td>
      <td>
        <span className="row-badges">
          {d.flagged ? <span className="badge badge-warn">over a limit: in Review</span> : null}
          {d.isAnonymous ? <span className="badge">anonymous</span> : null}
          {d.isRecurring ? <span className="badge">recurring</span> : null}
          {d.thankYouSent ? <span className="badge">thanked</span> : null}
          {notesForPeople(d.notes) ? <span className="row-notes">{notesForPeople(d.notes)}</span> : null}
          <SyncStateSlot gift={d} />
          {d.status !== 'voided' ? (
            <Button
              tone="quiet"
              onClick={() => onReceipt(d)}
              aria-keyshortcuts={RECEIPT_KEYS.aria}
              aria-describedby="receipt-key-hint"
              title={`Print a receipt for this gift (${RECEIPT_KEYS.said})`}
              aria-label={`Receipt for the gift of ${formatDollars(d.donationAmount)} from ${d.contactName}`}
            >
              Receipt
            </Button>
          ) : null}
        </span>
      </td>
    </tr>
  );
});
