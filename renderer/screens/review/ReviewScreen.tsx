/**
 * Review: the contribution-limit flags (D6) for the treasurer. Each shows who gave, which
 * limit the gift broke, the window and the donor's total in it; the treasurer marks it
 * reviewed, refunds the gift (asked first: the gift stops counting everywhere) or
 * redesignates it to another election, each with an optional note that the gift's history
 * keeps. Resolved flags stay visible under "All", with what was done. Below them, cash gifts
 * over $100, to look at, in gift entry's own warning words (#shared/cash-rules.ts): they
 * leave the list when the gift is corrected to another method or voided.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { CASH_OVER_WARNING } from '#shared/cash-rules.ts';
import { ELECTION_TYPES, type ElectionType, type LimitKind } from '#shared/enums.ts';
import type { ScreenProps } from '../../router.ts';
import { isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { invalidateAfterGift, qk } from '../../api/query-keys.ts';
import { hrefFor } from '../../router.ts';
import { electionLabel, money } from '../../ui/format.ts';
import { Button, Dialog, EmptyState, Screen, Select, TextArea, TextField, useToast } from '../../ui/index.ts';
import './review.css';

type Api = ReturnType<typeof useApi>;
type Flag = Awaited<ReturnType<Api['flags']['list']>>['flagged'][number];
type Action = 'review' | 'refund' | 'redesignate';

export const LIMIT_LABEL: Record<LimitKind, string> = {
  per_election: 'per-election limit',
  per_cycle: 'two-year cycle limit',
  per_year: 'calendar-year limit',
  per_donor: 'lifetime limit per donor',
};

const STATE_LABEL: Record<Flag['state'], string> = {
  open: 'Needs review',
  reviewed: 'Reviewed',
  refunded: 'Refunded',
  redesignated: 'Redesignated',
};

const ACTION_LABEL: Record<string, string> = {
  flagged: 'Flagged over a limit',
  reviewed: 'Marked reviewed',
  refunded: 'Refunded',
  redesignated: 'Redesignated',
};

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const giftDay = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

function windowLabel(f: Flag): string {
  switch (f.limitKind) {
    case 'per_election': {
      // The window is the election the flag was raised for ("primary-2026"), which a
      // redesignated gift no longer counts toward.
      const m = /^(.+)-(\d{4})$/.exec(f.window);
      return `toward the ${m ? electionLabel(m[1]!, Number(m[2])) : electionLabel(f.electionType, f.electionYear)} election`;
    }
    case 'per_cycle':
      return `in the ${f.window.replace('-', '–')} cycle`;
    case 'per_year':
      return `in ${f.window}`;
    case 'per_donor':
      return 'over all time';
  }
}

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

function FlagCard({ flag: f, onAct }: { flag: Flag; onAct: (a: Action) => void }) {
  const [historyOpen, setHistoryOpen] = useState(false);
  const headingId = `flag-${f.id}`;
  return (
    <li className="panel flag" aria-labelledby={headingId}>
      <div className="flag-head">
        <h2 id={headingId} className="flag-who">
          <a href={hrefFor('contacts', f.contactId)}>{f.contactName || 'Unnamed donor'}</a>
          <span className="flag-amount">{money(f.donationAmount)}</span>
        </h2>
        <span className={`badge flag-state flag-state-${f.state}`}>{STATE_LABEL[f.state]}</span>
      </div>
      <p className="flag-what">
        Over the <strong>{LIMIT_LABEL[f.limitKind]}</strong> of {money(f.limit)} at {f.donationAccountName}{' '}
        {windowLabel(f)}.
      </p>
      <dl className="flag-figures">
        <div>
          <dt>Donor’s total</dt>
          <dd>{money(f.donorTotal)}</dd>
        </div>
        <div>
          <dt>Limit</dt>
          <dd>{money(f.limit)}</dd>
        </div>
        <div>
          <dt>Over by</dt>
          <dd className="flag-over">{money(f.overBy)}</dd>
        </div>
        <div>
          <dt>Gift</dt>
          <dd>
            {money(f.donationAmount)} on {giftDay(f.donationDate)}
          </dd>
        </div>
        <div>
          <dt>Counts toward</dt>
          <dd>{electionLabel(f.electionType, f.electionYear)}</dd>
        </div>
      </dl>
      {f.state !== 'open' ? (
        <p className="muted">
          {STATE_LABEL[f.state]}
          {f.resolvedAt ? ` ${when(f.resolvedAt)}` : ''}
          {f.resolutionNote ? ` — “${f.resolutionNote}”` : ''}
        </p>
      ) : (
        <div
          className="flag-actions"
          role="group"
          aria-label={`Actions for ${f.contactName}’s gift of ${money(f.donationAmount)}`}
        >
          <Button tone="primary" onClick={() => onAct('review')}>
            Mark reviewed…
          </Button>
          <Button onClick={() => onAct('redesignate')}>Redesignate…</Button>
          <Button tone="danger" onClick={() => onAct('refund')}>
            Refund…
          </Button>
        </div>
      )}
      <Button
        tone="quiet"
        aria-expanded={historyOpen}
        aria-controls={`${headingId}-history`}
        onClick={() => setHistoryOpen((o) => !o)}
      >
        {historyOpen ? 'Hide history' : 'Show history'}
      </Button>
      {historyOpen ? <History id={`${headingId}-history`} donationId={f.donationId} /> : null}
    </li>
  );
}

function History({ id, donationId }: { id: string; donationId: string }) {
  const api = useApi();
  const history = useQuery({
    queryKey: [...qk.donation(donationId), 'history'],
    queryFn: () => api.donations.history(donationId),
  });
  if (history.isPending)
    return (
      <p id={id} className="muted">
        Loading history…
      </p>
    );
  if (history.isError)
    return (
      <p id={id} className="notice notice-error">
        The history could not be loaded: {history.error.message}
      </p>
    );
  return (
    <ol id={id} className="flag-history" aria-label="History of this gift">
      {history.data.data.map((h) => (
        <li key={h.id}>
          <span className="flag-history-when">{when(h.at)}</span>{' '}
          <strong>{ACTION_LABEL[h.action] ?? h.action}</strong>
          {h.action === 'redesignated' && h.detail ? ` ${describeMove(h.detail)}` : ''}
          {h.action === 'flagged' && h.detail && typeof h.detail.limitKind === 'string'
            ? ` (${LIMIT_LABEL[h.detail.limitKind as LimitKind] ?? h.detail.limitKind})`
            : ''}
          {h.note ? <span className="flag-history-note"> — “{h.note}”</span> : null}
        </li>
      ))}
    </ol>
  );
}

function describeMove(detail: Record<string, unknown>): string {
  const from = detail.from as { electionType?: string; electionYear?: number } | undefined;
  const to = detail.to as { electionType?: string; electionYear?: number } | undefined;
  if (!from?.electionType || !to?.electionType || !from.electionYear || !to.electionYear) return '';
  return `from ${electionLabel(from.electionType, from.electionYear)} to ${electionLabel(to.electionType, to.electionYear)}`;
}

const TITLES: Record<Action, string> = {
  review: 'Mark reviewed',
  refund: 'Refund this gift?',
  redesignate: 'Redesignate to another election',
};

function ActionDialog({ flag: f, action, onClose }: { flag: Flag; action: Action; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  const elections = useQuery({
    queryKey: qk.elections,
    queryFn: () => api.elections.list(),
    enabled: action === 'redesignate',
  });
  const [note, setNote] = useState('');
  // The dialog focuses its first control when it opens (the choice, or the note); a refund
  // puts the focus on the safe choice instead. (This effect runs after the dialog opened.)
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (action === 'refund') cancelRef.current?.focus();
  }, [action]);
  // Redesignation: a calendar election, or any type and year typed in.
  const calendar = (elections.data?.data ?? []).filter(
    (e) => !(e.electionType === f.electionType && e.electionYear === f.electionYear),
  );
  const [pick, setPick] = useState<string>('');
  const [type, setType] = useState<ElectionType>(f.electionType === 'primary' ? 'general' : 'primary');
  const [year, setYear] = useState(String(f.electionYear));

  const act = useMutation({
    mutationFn: () => {
      const n = note.trim() || null;
      if (action === 'redesignate') {
        const chosen = pick ? calendar.find((e) => e.id === pick) : null;
        return api.flags.act(f.id, {
          accountId: api.accountId,
          action,
          note: n,
          electionType: chosen ? chosen.electionType : type,
          electionYear: chosen ? chosen.electionYear : Number(year),
        });
      }
      return api.flags.act(
        f.id,
        action === 'review'
          ? { accountId: api.accountId, action, note: n }
          : { accountId: api.accountId, action, note: n },
      );
    },
    onSuccess: async (done) => {
      await invalidateAfterGift(queryClient);
      await queryClient.invalidateQueries({ queryKey: qk.donation(f.donationId) });
      const what =
        action === 'review'
          ? 'marked reviewed'
          : action === 'refund'
            ? 'refunded'
            : `now counts toward ${electionLabel(done.electionType, done.electionYear)}`;
      toast.show({
        tone: 'success',
        message: `${f.contactName}’s gift of ${money(f.donationAmount)} ${what}.`,
      });
      onClose();
    },
  });
  const err = act.error && isApiError(act.error) ? act.error : null;
  const fieldError = (field: string) => err?.issueFor(field);
  const general =
    act.error &&
    !(err && (err.issueFor('electionType') || err.issueFor('electionYear') || err.issueFor('note')))
      ? act.error.message
      : null;

  return (
    <Dialog
      open
      title={TITLES[action]}
      onClose={onClose}
      actions={
        <>
          <Button ref={cancelRef} onClick={onClose}>
            Cancel
          </Button>
          <Button
            tone={action === 'refund' ? 'danger' : 'primary'}
            busy={act.isPending}
            onClick={() => act.mutate()}
          >
            {action === 'review'
              ? 'Mark reviewed'
              : action === 'refund'
                ? `Refund ${money(f.donationAmount)}`
                : 'Redesignate'}
          </Button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          act.mutate();
        }}
      >
        <p>
          {f.contactName}’s gift of <strong>{money(f.donationAmount)}</strong> on {giftDay(f.donationDate)} —{' '}
          {money(f.overBy)} over the {LIMIT_LABEL[f.limitKind]} {windowLabel(f)}.
        </p>
        {action === 'refund' ? (
          <p className="notice notice-warn">
            The gift will be marked refunded: it leaves the donor’s total, the campaign’s and the limit’s.
            Return the money to the donor separately. This cannot be undone here.
          </p>
        ) : null}
        {action === 'redesignate' ? (
          <div className="redesignate">
            {calendar.length > 0 ? (
              <Select
                label="Election on the calendar"
                placeholder="Another election (type it below)"
                value={pick}
                onChange={(e) => setPick(e.target.value)}
                options={calendar.map((e) => ({
                  value: e.id,
                  label: `${electionLabel(e.electionType, e.electionYear)} (${e.electionDate})`,
                }))}
              />
            ) : null}
            {!pick ? (
              <div className="redesignate-free">
                <Select
                  label="Election type"
                  value={type}
                  onChange={(e) => setType(e.target.value as ElectionType)}
                  options={ELECTION_TYPES.map((t) => ({
                    value: t,
                    label: `${t[0]!.toUpperCase()}${t.slice(1)}`,
                  }))}
                  error={fieldError('electionType')}
                />
                <TextField
                  label="Year"
                  inputMode="numeric"
                  value={year}
                  onChange={(e) => setYear(e.target.value)}
                  error={fieldError('electionYear')}
                />
              </div>
            ) : null}
          </div>
        ) : null}
        <TextArea
          label="Note (optional)"
          hint="Kept in the gift’s history."
          value={note}
          onChange={(e) => setNote(e.target.value)}
          error={fieldError('note')}
          maxLength={2000}
        />
        {general ? (
          <p className="notice notice-error" role="alert">
            {general}
          </p>
        ) : null}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      </form>
    </Dialog>
  );
}
