/**
 * What a pull says, once, of an HQ that speaks only the donor API (the hosted service many
 * accounts sync to): what it brought, what such an HQ cannot give (its lists of campaigns,
 * committees and donation accounts, gifts) and what it will not take (thank-you marks of a gift
 * it already has). One sentence for the whole run, in place of a line per kind.
 */
import { REFERENCE_KINDS, REFERENCE_NOUN, type ReferenceKind } from '../reference-data/rules.ts';
import { notListedNote } from '../reference-data/pull.ts';
import type { PullRun } from './pull.ts';

/** The pull's notes this sentence says already (a kind HQ does not list). */
export function saidByHqNote(note: string): boolean {
  return REFERENCE_KINDS.some((k) => notListedNote(k) === note);
}

/**
 * The sentence, or null when HQ is not known to be of the donor API alone: it takes no
 * thank-you marks (asked by this pull), or lists none of the reference kinds.
 */
export function pullHqNote(
  run: Pick<PullRun, 'status' | 'notes'>,
  takesMarks: boolean | null,
): string | null {
  if (run.status !== 'done') return null;
  const said: ReferenceKind[] = ['campaign', 'committee', 'donationAccount'];
  const unlisted = said.filter((k) => run.notes.includes(notListedNote(k)));
  if (takesMarks !== false && unlisted.length < REFERENCE_KINDS.length) return null;
  const nouns = unlisted.map((k) => `${REFERENCE_NOUN[k]}s`);
  const lists =
    nouns.length === 0
      ? ''
      : ` It does not list ${nouns.length === 1 ? nouns[0] : `${nouns.slice(0, -1).join(', ')} or ${nouns.at(-1)}`}: link each one gifts use with giftdesk sync link.`;
  const marks =
    takesMarks === false
      ? ' It takes no thank-you marks for gifts it already has: those stay marked in GiftDesk only (mark them thanked at HQ if HQ needs them).'
      : '';
  return `HQ speaks only the donor API: this pull brought its donors (names, emails, phones, organisations), and gifts are never pulled down.${lists}${marks} Nothing is lost here.`;
}
