/**
 * What a pull run counts (pull.ts keeps them on the run's row, apply-page.ts adds each page's):
 * the contacts created, linked, updated, kept, left for the engine or rejected, and the
 * reference records.
 */
export interface PullCounts {
  /** Contacts added to the local directory. */
  created: number;
  /** Linked contacts brought up to HQ's values. */
  updated: number;
  /** Contacts HQ has that matched an unlinked local one: linked, not copied. */
  linked: number;
  /** Linked contacts with local changes not yet pushed: those fields were kept. */
  kept: number;
  unchanged: number;
  /** HQ contacts that look like a local contact whose create is still to be confirmed. */
  deferred: number;
  /** HQ contacts whose local copy was deleted here (the delete goes to HQ). */
  deletedHere: number;
  /** HQ list items that could not be stored (reason in the notes). */
  rejected: number;
  /** Reference records added, linked or renamed. */
  reference: number;
}

export const zeroCounts = (): PullCounts => ({
  created: 0,
  updated: 0,
  linked: 0,
  kept: 0,
  unchanged: 0,
  deferred: 0,
  deletedHere: 0,
  rejected: 0,
  reference: 0,
});
