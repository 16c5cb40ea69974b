/**
 * The host ("raised by") a batch's gifts start with, kept with the batch at GiftDesk's server
 * (`raisedByContactId`): the batch remembers it when it is opened again in another window or
 * tab, or on another day. This window's storage keeps the host with the name the box shows
 * (sticky-store.ts), for a start without a request; a batch whose host is only at the server
 * reads the host's record once, and the box shows them when it arrives.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Batch } from '#shared/schemas/batches.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { summaryOf } from './gift-fields.tsx';
import { keptHost, keptSticky, useKeepHost } from './sticky-store.ts';
import type { StickyValuesOf } from './StickyValues.tsx';

/** The host the entry row starts with: this window's, unless the batch has another at the server. */
export function startingHost(accountId: string, batch: Batch): ContactSummary | null {
  const local = keptHost(accountId, batch.id);
  if (batch.raisedByContactId === null) return local; // kept here before the batch had a place for it
  return local?.id === batch.raisedByContactId ? local : null;
}

/** The values kept until changed for this batch, its host the one the row starts with. */
export function keptForBatch(accountId: string, batch: Batch): Partial<StickyValuesOf> {
  const { facilitatedByContactId: _local, ...kept } = keptSticky(accountId, batch.id);
  const host = startingHost(accountId, batch);
  return host ? { ...kept, facilitatedByContactId: host.id } : kept;
}

/**
 * Keeps the batch's host: in this window, and at the server whenever it changes; puts back the
 * server's when this window did not know it.
 */
export function useBatchHost(
  accountId: string,
  batch: Batch,
  host: ContactSummary | null,
  setHost: (c: ContactSummary) => void,
): void {
  const api = useApi();
  const client = useQueryClient();
  useKeepHost(accountId, batch.id, host);
  // What the server has; while its host is being read, nothing is sent.
  const atServer = useRef<string | null | undefined>(batch.raisedByContactId);
  const restoring = useRef(batch.raisedByContactId !== null && host === null);
  const restoreSet = useRef(setHost);
  restoreSet.current = setHost;
  useEffect(() => {
    if (!restoring.current || batch.raisedByContactId === null) return;
    let live = true;
    api.contacts
      .get(batch.raisedByContactId)
      .then((c) => {
        if (!live || !restoring.current) return;
        restoring.current = false;
        restoreSet.current(summaryOf(c));
      })
      .catch(() => {
        restoring.current = false; // gone or unreadable: no host shown, none sent
      });
    return () => {
      live = false;
    };
  }, [api, batch.raisedByContactId]);

  const hostId = host?.id ?? null;
  useEffect(() => {
    if (restoring.current && hostId === null) return;
    restoring.current = false; // a host chosen meanwhile wins over the one being read
    if (hostId === atServer.current) return;
    atServer.current = hostId;
    api.batches
      .update(batch.id, { raisedByContactId: hostId })
      .then(() => client.invalidateQueries({ queryKey: qk.batches }))
      .catch(() => {
        atServer.current = undefined; // not kept there: sent again at the next change
      });
  }, [api, client, batch.id, hostId]);
}
