/**
 * What the treasurer does with a flag, asked in a dialog: mark it reviewed, refund the gift
 * (asked first, the focus on Cancel: the gift stops counting everywhere) or redesignate it to
 * another election (one on the calendar, or any type and year typed in), each with an
 * optional note that the gift's history keeps.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ELECTION_TYPES, type ElectionType } from '#shared/enums.ts';
import { isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { invalidateAfterGift, qk } from '../../api/query-keys.ts';
import { electionLabel, money } from '../../ui/format.ts';
import { Button, Dialog, Select, TextArea, TextField, useToast } from '../../ui/index.ts';
import { giftDay, LIMIT_LABEL, windowLabel, type Action, type Flag } from './flag-words.ts';

const TITLES: Record<Action, string> = {
  review: 'Mark reviewed',
  refund: 'Refund this gift?',
  redesignate: 'Redesignate to another election',
};

/** The dialog for one action on one flag; closes when the action is done (the toast says what was done). */
export function ActionDialog({
  flag: f,
  action,
  onClose,
}: {
  flag: Flag;
  action: Action;
  onClose: () => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  const choice = useElectionChoice(f, action === 'redesignate');
  const [note, setNote] = useState('');
  // The dialog focuses its first control when it opens (the choice, or the note); a refund
  // puts the focus on the safe choice instead. (This effect runs after the dialog opened.)
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (action === 'refund') cancelRef.current?.focus();
  }, [action]);

  const act = useMutation({
    mutationFn: () => {
      const n = note.trim() || null;
      if (action === 'redesignate')
        return api.flags.act(f.id, { accountId: api.accountId, action, note: n, ...choice.chosen() });
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
        {action === 'redesignate' ? <RedesignateFields choice={choice} fieldError={fieldError} /> : null}
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

/**
 * The election a redesignated gift moves to: one on the calendar (other than the one it
 * counts toward now), or any type and year typed in (chosen() says which).
 */
function useElectionChoice(f: Flag, enabled: boolean) {
  const api = useApi();
  const elections = useQuery({ queryKey: qk.elections, queryFn: () => api.elections.list(), enabled });
  const calendar = (elections.data?.data ?? []).filter(
    (e) => !(e.electionType === f.electionType && e.electionYear === f.electionYear),
  );
  const [pick, setPick] = useState<string>('');
  const [type, setType] = useState<ElectionType>(f.electionType === 'primary' ? 'general' : 'primary');
  const [year, setYear] = useState(String(f.electionYear));
  const chosen = () => {
    const c = pick ? calendar.find((e) => e.id === pick) : null;
    return { electionType: c ? c.electionType : type, electionYear: c ? c.electionYear : Number(year) };
  };
  return { calendar, pick, setPick, type, setType, year, setYear, chosen };
}

/** The calendar's elections to choose from, and, when none is chosen, a type and year to type in. */
function RedesignateFields({
  choice: c,
  fieldError,
}: {
  choice: ReturnType<typeof useElectionChoice>;
  fieldError: (field: string) => string | undefined;
}) {
  return (
    <div className="redesignate">
      {c.calendar.length > 0 ? (
        <Select
          label="Election on the calendar"
          placeholder="Another election (type it below)"
          value={c.pick}
          onChange={(e) => c.setPick(e.target.value)}
          options={c.calendar.map((e) => ({
            value: e.id,
            label: `${electionLabel(e.electionType, e.electionYear)} (${e.electionDate})`,
          }))}
        />
      ) : null}
      {!c.pick ? (
        <div className="redesignate-free">
          <Select
            label="Election type"
            value={c.type}
            onChange={(e) => c.setType(e.target.value as ElectionType)}
            options={ELECTION_TYPES.map((t) => ({
              value: t,
              label: `${t[0]!.toUpperCase()}${t.slice(1)}`,
            }))}
            error={fieldError('electionType')}
          />
          <TextField
            label="Year"
            inputMode="numeric"
            value={c.year}
            onChange={(e) => c.setYear(e.target.value)}
            error={fieldError('electionYear')}
          />
        </div>
      ) : null}
    </div>
  );
}
