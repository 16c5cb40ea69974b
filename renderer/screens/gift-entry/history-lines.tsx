/**
 * Who did what, in words: a gift's or a donor's history as a list, one line per change —
 * "2 Dec, 7:01 pm · Tess Treasurer · Corrected: amount $19.99 → $9.99 — “typed twice”". The
 * gift's list opens with who entered it. Shown by the History panel of a gift (GiftActions)
 * and of a donor (the donor's page).
 */
import type { HistoryEntry, Who } from '#shared/schemas/history.ts';
import { fieldChange } from './gift-changes.tsx';

const ACTION: Record<string, string> = {
  flagged: 'Flagged over a limit',
  reviewed: 'Flag reviewed',
  refunded: 'Refunded',
  redesignated: 'Moved to another election',
  corrected: 'Corrected',
  voided: 'Voided',
  thanked: 'Marked thanked',
  created: 'Added',
  edited: 'Edited',
  merged: 'Merged with a copy of this donor',
};

const stamp = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  });

/** The words for who: the person, else the station or key; GiftDesk itself when no one is recorded. */
export function whoWords(by: Who | null): string {
  return by ? by.label : 'GiftDesk';
}

function entryWords(e: HistoryEntry): string {
  const what = ACTION[e.action] ?? e.action;
  const changes = e.action === 'voided' || e.action === 'refunded' ? [] : e.changes.map(fieldChange);
  return `${what}${changes.length > 0 ? `: ${changes.join(', ')}` : ''}`;
}

/** One line of a history: when, who, what. */
function Line({ at, by, words, note }: { at: string; by: Who | null; words: string; note: string | null }) {
  return (
    <li data-history-line>
      <span className="muted">{stamp(at)}</span> · <strong data-history-who>{whoWords(by)}</strong> · {words}
      {note ? <span className="muted"> — “{note}”</span> : null}
    </li>
  );
}

/** A history as a list; `entered` first when it is a gift's. */
export function HistoryLines({
  label,
  entered,
  entries,
}: {
  label: string;
  entered?: { at: string; by: Who | null };
  entries: readonly HistoryEntry[];
}) {
  return (
    <ol className="history-lines" aria-label={label}>
      {entered ? <Line at={entered.at} by={entered.by} words="Entered" note={null} /> : null}
      {entries.map((e) => (
        <Line key={e.id} at={e.at} by={e.by} words={entryWords(e)} note={e.note} />
      ))}
      {!entered && entries.length === 0 ? <li className="muted">Nothing recorded yet.</li> : null}
    </ol>
  );
}
