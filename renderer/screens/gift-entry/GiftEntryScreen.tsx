/**
 * Gift entry, built for speed at the event table: pick or start a batch, then one row per
 * gift — donor (type-ahead, or new inline), amount, Enter. The batch's defaults fill the
 * rest and stay until changed, said under the amount (StickyValues); "Saved" offers an Undo
 * (a void, the app's correction for a gift HQ does not have yet). Warnings show while
 * typing and never block. At a station the hub removed, a banner says at once that what is
 * typed stays here until it pairs again. This file holds the screen and its batch; the entry row is
 * gift-entry/GiftRow.tsx, the saved gifts gift-entry/GiftRows.tsx.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { batchKey, type ScreenProps } from '../../router.ts';
import { Button, EmptyState, Screen } from '../../ui/index.ts';
import { FirstRun } from './FirstRun.tsx';
import { BatchSummary, OpenBatchList } from './BatchPanel.tsx';
import { NewBatchDialog } from './NewBatchDialog.tsx';
import { RemovedStationBanner } from '../event/EventAlerts.tsx';
import { DepositScreen } from './deposit/DepositScreen.tsx';
import { GiftRow } from './GiftRow.tsx';
import { GiftRows } from './GiftRows.tsx';
import { useReferenceData } from './reference.ts';

/** Gift entry, or a batch's deposit summary (#/gifts/deposit/<batch id>). */
export function GiftEntryScreen({ route }: ScreenProps) {
  const [sub, id] = route.rest;
  return sub === 'deposit' && id ? <DepositScreen batchId={id} /> : <BatchEntry />;
}

function BatchEntry() {
  const api = useApi();
  const [batchId, setBatchId] = useState<string | null>(() => localStorage.getItem(batchKey(api.accountId)));
  const [newBatchOpen, setNewBatchOpen] = useState(false);
  const batches = useQuery({ queryKey: qk.batches, queryFn: () => api.batches.list({ limit: 100 }) });
  const batch = useQuery({
    queryKey: qk.batch(batchId ?? ''),
    queryFn: () => api.batches.get(batchId!),
    enabled: batchId !== null,
    retry: false,
  });

  const choose = (id: string | null) => {
    setBatchId(id);
    if (id) localStorage.setItem(batchKey(api.accountId), id);
    else localStorage.removeItem(batchKey(api.accountId));
  };
  // A remembered batch that is gone (another database, deleted): forget it.
  useEffect(() => {
    if (batch.isError && isApiError(batch.error) && batch.error.status === 404) choose(null);
  });

  // The batch is shown with the campaigns, committees and donation accounts at hand, never
  // before: its entry row's selects show the batch's campaign and the account it credits (a
  // select given its value before its options shows "— none —"), and no gift is saved before
  // the row knows which account its campaign credits (saved without one, it would escape the
  // account's limits). The lists are asked for with the batch, so this is rarely a wait.
  const reference = useReferenceData();
  const openBatches = (batches.data?.data ?? []).filter((b) => !b.closedAt);
  const current = batchId && batch.data && batch.data.id === batchId ? batch.data : null;
  return (
    <Screen title="Gift entry">
      <RemovedStationBanner />
      <NewBatchDialog
        open={newBatchOpen}
        onClose={() => setNewBatchOpen(false)}
        onCreated={(b) => {
          setNewBatchOpen(false);
          choose(b.id);
        }}
      />
      {current && reference.ready ? (
        <>
          <BatchSummary
            batch={current}
            batches={batches.data?.data ?? []}
            onChoose={choose}
            onNew={() => setNewBatchOpen(true)}
          />
          {current.closedAt ? (
            <p className="notice notice-warn">This batch is closed: start a new batch to enter more gifts.</p>
          ) : (
            <GiftRow key={current.id} batch={current} />
          )}
          <GiftRows batchId={current.id} />
        </>
      ) : current && reference.failed ? (
        <div className="notice notice-error" role="alert">
          <p>
            The batch cannot be opened: its campaigns, committees and donation accounts did not load, and gift
            entry needs them to credit each gift to the right account.
          </p>
          <Button onClick={reference.retry}>Try again</Button>
        </div>
      ) : current ? (
        <p className="muted">Opening the batch “{current.name}”…</p>
      ) : batchId && batch.isPending ? (
        <p className="muted">Opening the batch…</p>
      ) : (
        <>
          <FirstRun batches={batches.data?.data.length} />
          <EmptyState
            title="Start a batch to enter gifts"
            action={
              <div className="batch-start">
                <Button tone="primary" data-autofocus onClick={() => setNewBatchOpen(true)}>
                  Start a batch
                </Button>
                {openBatches.length > 0 ? <OpenBatchList batches={openBatches} onChoose={choose} /> : null}
              </div>
            }
          >
            A batch groups the gifts of one sitting — one event, one stack of checks — with its defaults
            (campaign, date, payment method) and, if you know them, the expected number of gifts and total, so
            you can see at once whether everything was entered.
          </EmptyState>
        </>
      )}
    </Screen>
  );
}
