/**
 * Records HQ would not take and that retrying alone cannot fix: each with HQ's own message,
 * what it holds back, "Retry" (after fixing it here) and "Discard" (asks first, and says
 * what discarding means: HQ keeps what it has, this record's unsent changes are dropped).
 * The list is the sync status's own (`attention`), so it always agrees with the counts.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type { SyncAttentionCode } from '#shared/enums.ts';
import type { SyncAttentionItem } from '#shared/schemas/sync.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { hrefFor } from '../../router.ts';
import { Button, ConfirmDialog, EmptyState, Loaded } from '../../ui/index.ts';
import { useAction } from './saving.ts';
import { syncKeys } from './sync-keys.ts';

type Item = z.infer<typeof SyncAttentionItem>;

const TITLES: Record<SyncAttentionCode, string> = {
  remote_refused: 'HQ refused it',
  deleted_at_hq: 'Deleted at HQ',
  confirm_delete: 'Delete at HQ?',
  reference_not_linked: 'Not linked to HQ',
  not_linked: 'Not linked to HQ',
  possible_duplicate: 'Maybe already at HQ',
  duplicate_at_hq: 'Already at HQ',
  not_completed: 'Not completed',
  hq_has_no_donation_update: 'HQ cannot change gifts',
  kept_at_hub: 'Kept at the event hub',
};

/** The code's title; a code this version does not know is listed as `unknown` and shown so. */
const titleOf = (code: Item['code']) => (code === 'unknown' ? code : TITLES[code]);

function blocks(item: Item): string {
  return item.entityType === 'contact'
    ? 'This contact and the gifts that need it wait; everything else keeps going.'
    : 'Only this gift waits; everything else keeps going.';
}

function fixHint(item: Item): string | null {
  if (item.code === 'reference_not_linked' || item.code === 'not_linked')
    return 'Link the campaign, committee or donation account to its HQ id, then retry.';
  if (item.code === 'confirm_delete') return 'Retry confirms the delete at HQ (its gifts there go too).';
  if (item.code === 'kept_at_hub') return 'Nothing to do: the donor comes back here from the event hub.';
  if (item.code === 'possible_duplicate')
    return 'Check HQ first: retry sends it again only when it is truly absent.';
  if (item.entityType === 'contact') return 'Fix the contact (Contacts screen), then retry.';
  return 'Fix what HQ names, then retry.';
}

export function SyncAttention() {
  const api = useApi();
  const [discarding, setDiscarding] = useState<Item | null>(null);
  // The same answer as the status panel's and the badge's counts: the list and its number agree.
  const list = useQuery({
    queryKey: syncKeys.status,
    queryFn: () => api.sync.status(),
    refetchInterval: 15_000,
  });
  const retry = useAction({
    mutationFn: (item: Item) => api.sync.retry(item.entityType, item.entityId),
    invalidate: [qk.sync],
    done: (_s, item) => `“${item.label}” goes to HQ again with the next pass.`,
  });
  const discard = useAction({
    mutationFn: (item: Item) => api.sync.discard(item.entityType, item.entityId),
    invalidate: [qk.sync],
    onSaved: () => setDiscarding(null),
    done: (_s, item) => `“${item.label}”: unsent changes discarded.`,
  });
  const rows = list.data?.attention ?? [];
  return (
    <div className="panel sync-attention" id="sync-attention" aria-labelledby="sync-attention-title">
      <h3 id="sync-attention-title" className="panel-title">
        Needs attention{rows.length > 0 ? ` (${rows.length})` : ''}
      </h3>
      <Loaded
        query={list}
        noun="list"
        loading="Loading…"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState title="Nothing needs attention.">
            Everything HQ was sent, it took (or it is still on its way).
          </EmptyState>
        }
      >
        <ul className="sync-attention-list">
          {rows.map((item) => (
            <li
              key={`${item.entityType}:${item.entityId}`}
              className="sync-attention-item"
              aria-label={`${item.label}: ${titleOf(item.code)}`}
            >
              <div className="sync-attention-head">
                <span className="badge">{item.entityType === 'contact' ? 'Contact' : 'Gift'}</span>
                <strong>{item.label}</strong>
                <span className="badge badge-warn">{titleOf(item.code)}</span>
                {item.remoteStatus ? <span className="muted">HQ answered {item.remoteStatus}</span> : null}
              </div>
              <p className="sync-attention-reason">
                <span className="visually-hidden">HQ’s message: </span>
                {item.reason}
              </p>
              <p className="muted sync-attention-blocks">
                {blocks(item)} {fixHint(item)}
                {item.entityType === 'contact' ? (
                  <>
                    {' '}
                    <a href={hrefFor('contacts')}>Open Contacts</a>
                  </>
                ) : null}
              </p>
              <div className="settings-form-actions">
                <Button
                  tone="primary"
                  busy={retry.isPending && retry.variables?.entityId === item.entityId}
                  onClick={() => retry.mutate(item)}
                  aria-label={`Retry ${item.label}`}
                >
                  Retry
                </Button>
                <Button
                  tone="quiet"
                  className="btn-quiet-danger"
                  onClick={() => setDiscarding(item)}
                  aria-label={`Discard ${item.label}`}
                >
                  Discard…
                </Button>
              </div>
            </li>
          ))}
        </ul>
      </Loaded>
      <ConfirmDialog
        open={discarding !== null}
        title={discarding ? `Discard “${discarding.label}”?` : ''}
        confirmLabel="Discard unsent changes"
        busy={discard.isPending}
        onConfirm={() => discarding && discard.mutate(discarding)}
        onCancel={() => setDiscarding(null)}
      >
        {discarding ? (
          <p>
            {discarding.entityType === 'donation'
              ? 'This gift will not be sent to HQ. It stays in this laptop’s records, but HQ will never have it unless it is entered there by hand.'
              : 'This contact’s unsent changes will not be sent to HQ; HQ keeps what it already has. The contact stays here.'}{' '}
            This cannot be undone from here.
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}
