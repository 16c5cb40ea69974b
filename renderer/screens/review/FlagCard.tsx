/**
 * A flagged gift on the Review screen: who gave, which limit the gift broke, the window and
 * the donor's total in it; the actions while it is open (the gift's Correct and Void among
 * them, wherever it was typed), what was done once it is not; and
 * the gift's history, on request.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { LimitKind } from '#shared/enums.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { hrefFor } from '../../router.ts';
import { electionLabel, money } from '../../ui/format.ts';
import { Button } from '../../ui/index.ts';
import { GiftActions } from '../gift-entry/GiftActions.tsx';
import {
  ACTION_LABEL,
  describeMove,
  giftDay,
  LIMIT_LABEL,
  STATE_LABEL,
  when,
  windowLabel,
  type Action,
  type Flag,
} from './flag-words.ts';

export function FlagCard({ flag: f, onAct }: { flag: Flag; onAct: (a: Action) => void }) {
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
          <GiftActions donationId={f.donationId} amount={f.donationAmount} donorName={f.contactName} />
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

/** The gift's history: each action, when, and its note. */
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
