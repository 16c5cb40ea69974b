/**
 * Review: the contribution-limit flags (D6) for the treasurer. Each shows who gave, which
 * limit the gift broke, the window and the donor's total in it; the treasurer marks it
 * reviewed, refunds the gift (asked first: the gift stops counting everywhere) or
 * redesignates it to another election, each with an optional note that the gift's history
 * keeps. Resolved flags stay visible under "All", with what was done. Below them, cash gifts
 * over $100, to look at, in gift entry's own warning words (#shared/cash-rules.ts): they
 * leave the list when the gift is corrected to another method or voided. A flag's card is in
 * FlagCard.tsx, the dialog that acts on it in ActionDialog.tsx, their words in flag-words.ts.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CASH_OVER_WARNING } from '#shared/cash-rules.ts';
import type { ScreenProps } from '../../router.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { hrefFor } from '../../router.ts';
import { money } from '../../ui/format.ts';
import { Button, EmptyState, Screen } from '../../ui/index.ts';
import { ActionDialog } from './ActionDialog.tsx';
import { FlagCard } from './FlagCard.tsx';
import { giftDay, type Action, type Flag } from './flag-words.ts';
import './review.css';

export function ReviewScreen(_props: ScreenProps) {
  const api = useApi();
  const [show, setShow] = useState<'open' | 'all'>('open');
  const flags = useQuery({ queryKey: [...qk.flags, show], queryFn: () => api.flags.list(show) });
  // The same query as the cash list below (one request): "Nothing to review" only when it is empty too.
  const cash = useQuery({ queryKey: [...qk.flags, 'cash'], queryFn: () => api.flags.cash() });
  const hasCash = (cash.data?.gifts.length ?? 0) > 0;
  const [acting, setActing] = useState<{ flag: Flag; action: Action } | null>(null);

  const list = flags.data?.flagged ?? [];
  return (
    <Screen
      title="Review"
      actions={
        <div role="group" aria-label="Which flags" className="seg">
          <Button
            tone={show === 'open' ? 'primary' : 'secondary'}
            aria-pressed={show === 'open'}
            onClick={() => setShow('open')}
          >
            Needs review
          </Button>
          <Button
            tone={show === 'all' ? 'primary' : 'secondary'}
            aria-pressed={show === 'all'}
            onClick={() => setShow('all')}
          >
            All, with what was done
          </Button>
        </div>
      }
    >
      <p className="muted review-intro">
        Gifts that put a donor over a contribution limit are saved as usual and listed here. Mark each
        reviewed, refund it, or count it toward another election.
      </p>
      {flags.isPending ? (
        <p className="muted" role="status">
          Loading flagged gifts…
        </p>
      ) : flags.isError ? (
        <div className="notice notice-error" role="alert">
          The flagged gifts could not be loaded: {flags.error.message}{' '}
          <Button tone="quiet" onClick={() => void flags.refetch()}>
            Try again
          </Button>
        </div>
      ) : list.length === 0 ? (
        <EmptyState
          title={
            show === 'open'
              ? hasCash
                ? 'No gift over a contribution limit'
                : 'Nothing to review'
              : 'No gift has been flagged yet'
          }
        >
          {show === 'open'
            ? 'No gift puts a donor over a contribution limit right now. When one does, it appears here.'
            : 'Gifts to a donation account with limits are checked as they are saved; any that go over appear here.'}
        </EmptyState>
      ) : (
        <>
          <p className="muted" role="status">
            {show === 'open'
              ? `${list.length} gift${list.length === 1 ? '' : 's'} to review`
              : `${list.length} flag${list.length === 1 ? '' : 's'}`}
          </p>
          <ul className="flag-list" aria-label="Flagged gifts">
            {list.map((f) => (
              <FlagCard key={f.id} flag={f} onAct={(action) => setActing({ flag: f, action })} />
            ))}
          </ul>
        </>
      )}
      <CashOverLimit />
      {acting ? (
        <ActionDialog
          key={`${acting.flag.id}-${acting.action}`}
          flag={acting.flag}
          action={acting.action}
          onClose={() => setActing(null)}
        />
      ) : null}
    </Screen>
  );
}

/** Completed cash gifts over $100: to look at (no action here; correct the gift in gift entry). */
function CashOverLimit() {
  const api = useApi();
  const cash = useQuery({ queryKey: [...qk.flags, 'cash'], queryFn: () => api.flags.cash() });
  const gifts = cash.data?.gifts ?? [];
  if (cash.isPending) return null;
  if (cash.isError)
    return (
      <p className="notice notice-error" role="alert">
        The cash gifts over $100 could not be loaded: {cash.error.message}
      </p>
    );
  if (gifts.length === 0) return null;
  const total = cash.data.total;
  return (
    <section aria-labelledby="review-cash" className="review-cash">
      <h2 id="review-cash" className="review-cash-title">
        Cash over $100 ({total})
      </h2>
      <p className="muted">
        Cash gifts over $100, newest first, to look at: gift entry warned at each. One that was a check or
        card after all leaves this list once corrected (or voided).
        {total > gifts.length ? ` The newest ${gifts.length} are shown.` : ''}
      </p>
      <ul className="flag-list" aria-label="Cash gifts over $100">
        {gifts.map((g) => (
          <li
            key={g.donationId}
            className="panel flag"
            aria-label={`${money(g.donationAmount)} cash from ${g.contactName} on ${giftDay(g.donationDate)}`}
          >
            <div className="flag-head">
              <h3 className="flag-who">
                <a href={hrefFor('contacts', g.contactId)}>{g.contactName}</a>{' '}
                <span className="flag-amount">{money(g.donationAmount)}</span>
              </h3>
              <span className="badge flag-state flag-state-open">Cash over $100</span>
            </div>
            <p className="flag-what">
              Cash, {giftDay(g.donationDate)}
              {g.campaignName ? ` · ${g.campaignName}` : ''}. {CASH_OVER_WARNING}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
