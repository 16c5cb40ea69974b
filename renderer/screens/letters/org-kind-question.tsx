/**
 * Asked once, on the Letters screen, until someone saves the letter settings: which kind of
 * organisation the letters speak for. A political donor must never read that a gift is
 * tax-deductible, so the choice starts at what the account's own records say (elections or a
 * per-election limit mean political) and says why. Keyboard: the choices are radio buttons
 * (arrows move), Enter saves.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ORG_KINDS, type LetterSettings, type OrgKind } from '#shared/schemas/letters.ts';
import { errorMessage } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button } from '../../ui/index.ts';
import { ORG_KIND_LABEL } from './LettersSettingsSection.tsx';

export function OrgKindQuestion({ settings }: { settings: LetterSettings }) {
  const api = useApi();
  const qc = useQueryClient();
  const [kind, setKind] = useState<OrgKind>(settings.orgKindSuggested);
  const save = useMutation({
    mutationFn: () => api.letters.saveSettings({ orgKind: kind }),
    onSuccess: (saved) => qc.setQueryData(qk.letterSettings, saved),
  });
  return (
    <form
      className="panel letters-org-question"
      aria-labelledby="letters-org-question-title"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h2 id="letters-org-question-title" className="panel-title">
        Which kind of organisation sends these letters?
      </h2>
      <p className="muted">
        {settings.politicalSigns
          ? `This account has ${settings.politicalSigns}, so the letters start with a political committee's wording: contributions are not tax deductible.`
          : 'Nothing in this account speaks of elections, so the letters start with a charity’s wording: a written acknowledgment for the donor’s tax records.'}{' '}
        Asked once; change it later under “Wording, organisation and signer”.
      </p>
      <fieldset className="letters-org-choices">
        <legend className="visually-hidden">Kind of organisation</legend>
        {ORG_KINDS.map((k) => (
          <label key={k} className="letters-org-choice">
            <input type="radio" name="org-kind" value={k} checked={kind === k} onChange={() => setKind(k)} />{' '}
            {ORG_KIND_LABEL[k]}
            {k === settings.orgKindSuggested ? ' — suggested' : ''}
          </label>
        ))}
      </fieldset>
      {save.isError ? (
        <p className="notice notice-error" role="alert">
          Not saved: {errorMessage(save.error)}
        </p>
      ) : null}
      <Button type="submit" tone="primary" busy={save.isPending}>
        Use this wording
      </Button>
    </form>
  );
}
