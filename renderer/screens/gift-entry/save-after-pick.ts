/**
 * The entry row's save when the volunteer types ahead of the donor search: "name Enter 50
 * Enter" typed before the matches arrived. The Enter in the donor box is kept (DonorPicker)
 * and the focus is already in the amount; a save asked for meanwhile is kept too, and done once
 * the donor is on the row, or dropped (and said at the donor box) if the matches found no one.
 */
import { useEffect, useRef, type BaseSyntheticEvent } from 'react';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { useGiftSubmit, type SubmitOptions } from './use-gift-submit.ts';

/** The row's save (useGiftSubmit) behind a pick still on its way. */
export function useSave(o: SubmitOptions) {
  const { submit: saveNow, busy } = useGiftSubmit(o);
  const { submit, pick } = useSaveAfterPick(saveNow, o.choice.donor);
  return { submit, busy, pick };
}

export type PickState = ReturnType<typeof useSaveAfterPick>['pick'];

/** A save asked for while the donor box waits for the matches of an Enter: kept for the donor. */
function useSaveAfterPick(saveNow: (e?: BaseSyntheticEvent) => Promise<void>, donor: ContactSummary | null) {
  const state = useRef({ pending: false, save: false });
  useEffect(() => {
    if (!state.current.save || state.current.pending || !donor) return;
    state.current.save = false;
    void saveNow();
  });
  // The event goes along: the save keeps the browser from submitting the form itself (a click
  // on Save would reload the page, dropping the save on its way).
  const submit = (e?: BaseSyntheticEvent) => {
    if (!state.current.pending) return saveNow(e);
    e?.preventDefault();
    state.current.save = true;
    return Promise.resolve();
  };
  const pick = {
    /** An Enter kept for the matches: a save asked for meanwhile waits for the donor. */
    waiting: () => {
      state.current.pending = true;
    },
    /** The donor chosen: the save asked for meanwhile (if any) goes once it is on the row. */
    picked: () => {
      state.current.pending = false;
    },
    /** No one chosen (no match, the text changed, the search failed): a kept save is dropped. Had one? */
    forgotten: () => {
      const had = state.current.save;
      state.current = { pending: false, save: false };
      return had;
    },
  };
  return { submit, pick };
}
