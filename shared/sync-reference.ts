/**
 * GiftDesk's sync reference, `gd:<local id>`: the one parser of it, for the sync engine
 * (electron/sync/push/identity.ts: what it sends, what it looks for at HQ) and for the server
 * (electron/domain: a create that carries a reference the account already holds answers with
 * that record instead of adding one).
 *
 * - A reference is `gd:` then an id (letters, digits, `_`), a whole token: not preceded by a
 *   letter, digit, `_` or `:`, not followed by a letter, digit or `_`.
 * - A donation's reference is its notes' LAST line when that line is a reference and nothing
 *   else (spaces, tabs and a carriage return around it aside): the sync puts it there. A
 *   reference elsewhere in the notes ("see gd:x above") is a mention, not the gift's reference.
 * - A contact's reference is its last tag that is a reference and nothing else (`gd:` in any
 *   case; tags are stored trimmed): the sync appends its own tag last.
 *
 * The migration sync-reference-unique backfills the same rule in SQL (frozen there; its test
 * checks it agrees with this file).
 */

export const REFERENCE_PREFIX = 'gd:';

/**
 * The name a GiftDesk server gives, among its extensions (`X-GiftDesk-Extensions`), to
 * `DELETE /contacts/gd:<id>`: the contact created with that reference deleted, and the
 * reference retired, so that a create carrying it afterwards creates nothing.
 */
export const RETIRE_EXTENSION = 'contact-reference-retire';

/** The reference that names a local record. */
export function referenceFor(localId: string): string {
  return `${REFERENCE_PREFIX}${localId}`;
}

/** Every reference in a text, whole tokens only, in order (the local ids they name). */
const ANY_REFERENCE = /(?<![0-9A-Za-z_:])gd:([0-9A-Za-z_]+)/g;

/** The local ids of every `gd:` reference anywhere in a text (whole tokens), in order. */
export function referencesIn(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...text.matchAll(ANY_REFERENCE)].map((m) => m[1]!);
}

const LAST_LINE_REFERENCE = /(?:^|\n)[ \t\r]*(gd:[0-9A-Za-z_]+)[ \t\r]*$/;

/** A donation's reference (`gd:<id>`): its notes' last line, when that line is one; else null. */
export function donationReferenceOf(notes: string | null | undefined): string | null {
  if (!notes) return null;
  return LAST_LINE_REFERENCE.exec(notes)?.[1] ?? null;
}

const REFERENCE_TAG = /^gd:([0-9A-Za-z_]+)$/i;

/** The local id a tag names when the tag is a reference (`gd:` in any case, surrounding spaces aside); else null. */
export function referenceTagOwner(tag: unknown): string | null {
  if (typeof tag !== 'string') return null;
  return REFERENCE_TAG.exec(tag.trim())?.[1] ?? null;
}

/** A contact's reference (`gd:<id>`): its last tag that is a reference; else null. */
export function contactReferenceOf(tags: readonly unknown[] | null | undefined): string | null {
  for (let i = (tags?.length ?? 0) - 1; i >= 0; i--) {
    const owner = referenceTagOwner(tags![i]);
    if (owner !== null) return referenceFor(owner);
  }
  return null;
}

/**
 * A gift's notes as a person reads them: without the sync's reference line (what the sync
 * appended is not a note anybody wrote). null when nothing else is left.
 */
export function notesForPeople(notes: string | null | undefined): string | null {
  if (!notes) return null;
  const ref = LAST_LINE_REFERENCE.exec(notes);
  const rest = ref ? notes.slice(0, ref.index).replace(/[ \t\r\n]+$/, '') : notes;
  return rest === '' ? null : rest;
}

/**
 * Notes a person edited (seen without the reference line) put back with the reference line
 * the stored notes had, so a correction keeps the gift's identity at HQ.
 */
export function notesKeepingReference(
  stored: string | null | undefined,
  edited: string | null,
): string | null {
  const ref = donationReferenceOf(stored);
  if (ref === null) return edited;
  const text = edited?.replace(/[ \t\r\n]+$/, '') ?? '';
  return text === '' ? ref : `${text}\n${ref}`;
}

/** A contact's tags as a person reads them: without the sync's reference tags. */
export function tagsForPeople(tags: readonly string[]): string[] {
  return tags.filter((t) => referenceTagOwner(t) === null);
}

/** Tags a person edited (seen without references) put back with the stored reference tags, last. */
export function tagsKeepingReferences(stored: readonly string[], edited: readonly string[]): string[] {
  return [...tagsForPeople(edited), ...stored.filter((t) => referenceTagOwner(t) !== null)];
}
