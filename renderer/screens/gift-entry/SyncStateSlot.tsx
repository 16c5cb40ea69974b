/**
 * A saved gift's sync state, read from the donation itself (`sync` on DonationDetail, kept by
 * the sync engine): not yet sent, sending, sent, or needs attention with HQ's reason. A gift
 * not yet sent can be corrected (a dialog, undo from the toast) or voided here (after a
 * confirmation: nothing is ever sent for it); from its first send attempt it is read-only, and
 * the row says why (HQ's API cannot change a gift) and where a correction is made instead.
 * At a station of an event hub, a gift the hub holds can still be corrected or voided (the
 * station asks the hub): it says "at the event hub", never "sent to HQ". Under it, what was
 * changed since it was saved (gift-changes.tsx), such as a void made at the hub.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DonationDetail } from '#shared/schemas/donations.ts';
import { formatDollars } from '#shared/money.ts';
import { ApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { Button, ConfirmDialog, useToast } from '../../ui/index.ts';
import { CorrectGiftDialog } from './CorrectGiftDialog.tsx';
import { entryRowFocus } from './entry-focus.ts';
import { GiftChangeLines } from './gift-changes.tsx';

const LABEL: Record<DonationDetail['sync']['state'], string> = {
  not_sent: 'not yet sent',
  sending: 'sending to HQ…',
  sent: 'sent to HQ',
  needs_attention: 'needs attention',
};

/** At a station, the hub is where its gifts go: the words name it. */
const HUB_LABEL: Record<DonationDetail['sync']['state'], string> = {
  not_sent: 'not yet at the hub',
  sending: 'sending to the event hub…',
  sent: 'at the event hub',
  needs_attention: 'needs attention',
};

export function SyncStateSlot({ gift }: { gift: DonationDetail }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const [correcting, setCorrecting] = useState(false);
  const sync = gift.sync;
  const voiding = useMutation({
    mutationFn: () => api.donations.void(gift.id),
    onSuccess: async () => {
      setAsking(false);
      toast.show({
        message:
          gift.sync.upstream === 'hub' && gift.sync.state === 'sent'
            ? `Gift of ${formatDollars(gift.donationAmount)} from ${gift.contactName} voided at the event hub.`
            : `Gift of ${formatDollars(gift.donationAmount)} from ${gift.contactName} voided; it will not be sent to HQ.`,
      });
      await queryClient.invalidateQueries();
    },
    onError: (err) => {
      setAsking(false);
      toast.show({
        message: err instanceof ApiError ? err.message : 'The gift could not be voided.',
        tone: 'error',
      });
    },
  });
  const label = sync.upstream === 'hub' ? HUB_LABEL : LABEL;
  if (gift.status === 'voided') {
    return (
      <>
        <span className="badge" data-sync-state="voided" title={sync.reason ?? undefined}>
          {sync.upstream === 'hub' && sync.state === 'sent' ? 'voided' : 'voided: never sent'}
        </span>
        <GiftChangeLines gift={gift} />
      </>
    );
  }
  const tone =
    sync.state === 'needs_attention'
      ? 'badge badge-warn'
      : sync.state === 'sent'
        ? 'badge badge-ok'
        : 'badge';
  return (
    <>
      <span className={tone} data-sync-state={sync.state} title={sync.reason ?? undefined}>
        {sync.state === 'needs_attention' ? (
          <a href="#/settings/sync">{label[sync.state]}</a>
        ) : (
          label[sync.state]
        )}
      </span>
      <GiftChangeLines gift={gift} />
      {sync.readOnly && sync.reason ? (
        <span className="row-notes" data-read-only>
          {sync.reason}
          {sync.state === 'sent'
            ? ' To correct it, change it at HQ (or void it there and enter the right gift here).'
            : ''}
        </span>
      ) : null}
      {!sync.readOnly ? (
        <Button
          tone="quiet"
          onClick={() => setCorrecting(true)}
          aria-label={`Correct the gift of ${formatDollars(gift.donationAmount)} from ${gift.contactName}`}
        >
          Correct
        </Button>
      ) : null}
      {correcting ? <CorrectGiftDialog gift={gift} onClose={() => setCorrecting(false)} /> : null}
      {!sync.readOnly ? (
        <Button
          tone="quiet"
          onClick={() => setAsking(true)}
          aria-label={`Void the gift of ${formatDollars(gift.donationAmount)} from ${gift.contactName}`}
        >
          Void
        </Button>
      ) : null}
      <ConfirmDialog
        open={asking}
        title="Void this gift?"
        confirmLabel="Void gift"
        busy={voiding.isPending}
        onConfirm={() => voiding.mutate()}
        onCancel={() => setAsking(false)}
        focusAfter={entryRowFocus}
      >
        The gift of {formatDollars(gift.donationAmount)} from {gift.contactName} stays on record as voided,
        leaves the totals, and is never sent to HQ
        {sync.upstream === 'hub' && sync.state === 'sent'
          ? ' (the event hub voids it, for every station)'
          : ''}
        .
      </ConfirmDialog>
    </>
  );
}
