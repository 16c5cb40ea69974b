/**
 * The push path's sentences name the remote a person deals with: "HQ" where this GiftDesk
 * pushes to HQ, "the event hub" at a station (sync_remotes.kind 'hub'). Every sentence of the
 * push path that is written for a person (a record's lastError and attention reason, the
 * remote's lastError, a pass's stop reason) goes through `saidOf`.
 */
export type RemoteKind = 'hq' | 'hub';

/** An HQ sentence said of the event hub: "HQ" becomes "the event hub" (capitalised where a sentence starts). */
export function saidOfTheHub(sentence: string): string {
  return sentence
    .replace(/\b[Tt]he HQ\b/g, 'the event hub')
    .replace(/\bHQ's\b/g, "the event hub's")
    .replace(/\bHQ\b/g, 'the event hub')
    .replace(/(^|[.!?]\s+|")the event hub/g, (_m, lead: string) => `${lead}The event hub`);
}

/** `sentence` in the words of the remote's kind (undefined: HQ). */
export function saidOf(kind: RemoteKind | undefined, sentence: string): string;
export function saidOf(kind: RemoteKind | undefined, sentence: string | null): string | null;
export function saidOf(kind: RemoteKind | undefined, sentence: string | null): string | null {
  if (sentence === null || kind !== 'hub') return sentence;
  return saidOfTheHub(sentence);
}
