/**
 * Correct and Void for a gift listed outside gift entry (the contact page's gifts, a flag on
 * Review), wherever it was typed: at the hub of an event this is how its person changes a
 * station's gift, which never sits in one of the hub's own batches. The gift is read when a
 * button is pressed; one that cannot be changed here (HQ has it) says why instead, in the
 * server's words ("sent to HQ: change it there").
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { formatDollars } from '#shared/money.ts';
import { failedWrite } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { invalidateAfterGift, qk } from '../../api/query-keys.ts';
import { Button, ConfirmDialog, Dialog, useToast } from '../../ui/index.ts';
import { CorrectGiftDialog } from './CorrectGiftDialog.tsx';
import { HistoryLines } from './history-lines.tsx';

export function GiftActions({
  donationId,
  amount,
  donorName,
}: {
  donationId: string;
  amount: number;
  donorName: string;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [mode, setMode] = useState<null | 'correct' | 'void' | 'history'>(null);
  const what = `the gift of ${formatDollars(amount)} from ${donorName}`;
  const gift = useQuery({
    queryKey: qk.donation(donationId),
    queryFn: () => api.donations.get(donationId),
    enabled: mode === 'correct',
  });
  const readOnly = mode === 'correct' && gift.data?.sync.readOnly === true;
  useEffect(() => {
    if (!readOnly || !gift.data) return;
    setMode(null);
    toast.show({
      tone: 'error',
      message: `Not corrected: ${gift.data.sync.reason ?? 'it cannot be changed here.'}`,
    });
  }, [readOnly, gift.data, toast]);
  const voiding = useMutation({
    mutationFn: () => api.donations.void(donationId),
    onSuccess: async () => {
      setMode(null);
      toast.show({ message: `Voided ${what}.` });
      await invalidateAfterGift(queryClient);
    },
    onError: (err) => {
      setMode(null);
      toast.show({ tone: 'error', message: failedWrite('Not voided', err) });
    },
  });
  return (
    <>
      <Button tone="quiet" onClick={() => setMode('correct')} aria-label={`Correct ${what}`}>
        Correct
      </Button>
      <Button tone="quiet" onClick={() => setMode('void')} aria-label={`Void ${what}`}>
        Void
      </Button>
      <Button tone="quiet" onClick={() => setMode('history')} aria-label={`History of ${what}`}>
        History
      </Button>
      {mode === 'history' ? (
        <GiftHistoryDialog donationId={donationId} what={what} onClose={() => setMode(null)} />
      ) : null}
      {mode === 'correct' && gift.data && !gift.data.sync.readOnly ? (
        <CorrectGiftDialog
          gift={gift.data}
          onClose={() => {
            setMode(null);
            void invalidateAfterGift(queryClient);
          }}
        />
      ) : null}
      <ConfirmDialog
        open={mode === 'void'}
        title="Void this gift?"
        confirmLabel="Void gift"
        busy={voiding.isPending}
        onConfirm={() => voiding.mutate()}
        onCancel={() => setMode(null)}
      >
        {what[0]!.toUpperCase()}
        {what.slice(1)} stays on record as voided, leaves the totals, and is never sent to HQ.
      </ConfirmDialog>
    </>
  );
}

/** The History panel of a gift: who entered it, then who changed what, oldest first. */
export function GiftHistoryDialog({
  donationId,
  what,
  onClose,
}: {
  donationId: string;
  what: string;
  onClose: () => void;
}) {
  const api = useApi();
  const history = useQuery({
    queryKey: [...qk.donation(donationId), 'history'],
    queryFn: () => api.donations.history(donationId),
  });
  return (
    <Dialog
      open
      wide
      title={`History of ${what}`}
      onClose={onClose}
      actions={<Button onClick={onClose}>Close</Button>}
    >
      {history.isPending ? <p className="muted">Loading history…</p> : null}
      {history.isError ? (
        <p className="notice notice-error">The history could not be loaded: {history.error.message}</p>
      ) : null}
      {history.data ? (
        <HistoryLines label="Who did what" entered={history.data.entered} entries={history.data.data} />
      ) : null}
    </Dialog>
  );
}
