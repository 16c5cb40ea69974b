/**
 * Where typing goes on in gift entry: the entry row's donor box (or, while a new donor is typed
 * in the row, its first field). The screen's dialogs (correct, void, new batch) give the focus
 * back here when they close, however they close, so the next keys land where the next gift is
 * typed and not on a button a refresh is about to remove.
 */
export function entryRowFocus(): HTMLElement | null {
  const row = document.querySelector<HTMLFormElement>('form.gift-row');
  return (
    row?.querySelector<HTMLElement>('[data-autofocus]') ?? row?.querySelector<HTMLElement>('input') ?? null
  );
}
