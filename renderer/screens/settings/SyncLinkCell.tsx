/**
 * Settings → Sync, an unlinked campaign, committee or donation account's cell in the table of
 * links: where HQ lists its kind, HQ's records to choose from (the one suggested preselected,
 * those linked to another row shown but not offered), else a box for HQ's id. Either way HQ
 * checks the link before it is kept, and a refusal is said at the field.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type { ReferenceCandidates, ReferenceLink } from '#shared/schemas/sync-pull.ts';
import { isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { sentence } from '../../forms.ts';
import { Button, Select, TextField, useToast } from '../../ui/index.ts';

type Link = z.infer<typeof ReferenceLink>;
type KindCandidates = ReferenceCandidates['kinds'][number];
type Unlinked = ReferenceCandidates['unlinked'][number];
const NOUN: Record<Link['kind'], string> = {
  campaign: 'campaign',
  committee: 'committee',
  donationAccount: 'donation account',
};

/** An unlinked row's way to link: choose HQ's record where HQ lists its kind, else type HQ's id. */
export function LinkCell({
  row,
  kind,
  offer,
  onLinked,
}: {
  row: Link;
  kind: KindCandidates | undefined;
  offer: Unlinked | undefined;
  onLinked: () => Promise<unknown>;
}) {
  if (kind?.listed && kind.hq.length > 0)
    return <LinkChoice row={row} kind={kind} offer={offer} onLinked={onLinked} />;
  return <LinkEntry row={row} hint={offer?.reason} onLinked={onLinked} />;
}

function useLink(row: Link, onLinked: () => Promise<unknown>, onError: (message: string) => void) {
  const api = useApi();
  const toast = useToast();
  return useMutation({
    mutationFn: (remoteId: string) => api.sync.link({ kind: row.kind, localId: row.localId, remoteId }),
    onSuccess: async (r) => {
      toast.show({
        message: `“${row.name}” linked to HQ${r.remoteName ? `’s “${r.remoteName}”` : ''}.`,
        tone: 'success',
        duration: 3500,
      });
      await onLinked();
    },
    onError: (err) =>
      onError(sentence(isApiError(err) ? (err.issueFor('remoteId') ?? err.message) : err.message)),
  });
}

function LinkChoice({
  row,
  kind,
  offer,
  onLinked,
}: {
  row: Link;
  kind: KindCandidates;
  offer: Unlinked | undefined;
  onLinked: () => Promise<unknown>;
}) {
  const noun = NOUN[row.kind];
  const [value, setValue] = useState(offer?.suggestedRemoteId ?? '');
  const [error, setError] = useState<string | undefined>();
  const link = useLink(row, onLinked, setError);
  const sameName = new Map<string, number>();
  for (const c of kind.hq)
    sameName.set(c.name.trim().toLowerCase(), (sameName.get(c.name.trim().toLowerCase()) ?? 0) + 1);
  const options = kind.hq.map((c) => ({
    value: c.remoteId,
    label: `${c.name}${(sameName.get(c.name.trim().toLowerCase()) ?? 0) > 1 ? ` (${c.remoteId})` : ''}${c.linkedTo ? ` — linked to “${c.linkedTo.name}”` : ''}`,
    disabled: c.linkedTo !== null,
  }));
  // A choice that another row has taken since (HQ's list was read again) is no choice.
  const chosen = options.some((o) => o.value === value && !o.disabled) ? value : '';
  return (
    <form
      className="settings-add-option sync-link-choice"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!chosen) return setError(`Choose HQ’s ${noun} for it.`);
        setError(undefined);
        link.mutate(chosen);
      }}
    >
      <Select
        label={`HQ ${noun} for ${row.name}`}
        hideLabel
        placeholder={`— choose HQ’s ${noun} —`}
        options={options}
        value={chosen}
        onChange={(e) => {
          setValue(e.target.value);
          setError(undefined);
        }}
        hint={
          offer && (offer.suggestedRemoteId === null || chosen === offer.suggestedRemoteId)
            ? offer.reason
            : undefined
        }
        error={error}
      />
      <Button type="submit" busy={link.isPending} aria-label={`Link ${row.name}`}>
        Link
      </Button>
    </form>
  );
}

function LinkEntry({
  row,
  hint,
  onLinked,
}: {
  row: Link;
  hint: string | undefined;
  onLinked: () => Promise<unknown>;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const link = useLink(row, onLinked, setError);
  return (
    <form
      className="settings-add-option sync-link-choice"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!value.trim()) return setError('Type HQ’s id for it.');
        setError(undefined);
        link.mutate(value.trim());
      }}
    >
      <TextField
        label={`HQ id for ${row.name}`}
        hideLabel
        placeholder="not linked — HQ id"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        hint={hint}
        error={error}
        autoComplete="off"
      />
      <Button type="submit" busy={link.isPending} aria-label={`Link ${row.name}`}>
        Link
      </Button>
    </form>
  );
}
