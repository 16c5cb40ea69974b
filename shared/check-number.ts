/**
 * A check's number, as a volunteer types it into a gift's notes: "check 1021", "ck #1021",
 * "chk# 1021", "check no. 1021", "check number 1021" (case aside). The donor API's donation has
 * no check-number field, so GiftDesk keeps it where HQ keeps it too, in the notes; the deposit
 * summary reads it from there. A number not after one of those words (a pledge card's, a
 * table's) is not taken for one.
 */
const CHECK_NUMBER = /\b(?:check|chk|ck)(?![a-z])\.?\s*(?:no\.?|num\.?|number)?\s*#?\s*(\d{1,20})\b/i;

/** The check number in `notes`, or null when none is written there. */
export function checkNumberIn(notes: string | null | undefined): string | null {
  if (!notes) return null;
  return CHECK_NUMBER.exec(notes)?.[1] ?? null;
}
