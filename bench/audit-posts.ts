/**
 * The check after a POST load run against GiftDesk (its HTTP server closed first, so no
 * request is in flight): every answer 201 is a gift stored under the id answered, with the
 * notes of the request that got that answer; no two requests were answered with one id; no
 * request's gift is stored twice; and the only other gifts stored are requests sent whose
 * answers the load generator stopped waiting for when its time was up. Works on both engines.
 */
import type { Store } from '../electron/db/store.ts';

export interface LoadResult {
  rps: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  ok: number;
  /** requests built and sent (each with unique notes `<tag> <n>`, n from 1) */
  sent: number;
  /** answers other than 201 that the load generator read */
  otherAnswers: number;
  /** [id answered 201, notes of the request that got that answer] */
  acknowledged: Array<[string, string]>;
}

export interface Audit {
  ok: boolean;
  text: string;
}

const count = (n: number) => n.toLocaleString('en-US');

export async function auditPosts(store: Store, tag: string, load: LoadResult): Promise<Audit> {
  const rows = await store.db
    .selectFrom('donations')
    .select(['id', 'notes'])
    .where('notes', 'like', `${tag} %`)
    .execute();
  const notesById = new Map<string, string>();
  const timesByNotes = new Map<string, number>();
  for (const r of rows) {
    notesById.set(r.id, r.notes ?? '');
    timesByNotes.set(r.notes ?? '', (timesByNotes.get(r.notes ?? '') ?? 0) + 1);
  }
  const storedTwice = [...timesByNotes.values()].filter((c) => c > 1).length;

  const answeredIds = new Set<string>();
  let idAnsweredTwice = 0;
  let missing = 0;
  let wrongGift = 0;
  const answeredNotes = new Set<string>();
  for (const [id, notes] of load.acknowledged) {
    if (answeredIds.has(id)) idAnsweredTwice += 1;
    answeredIds.add(id);
    answeredNotes.add(notes);
    const stored = notesById.get(id);
    if (stored === undefined) missing += 1;
    else if (stored !== notes) wrongGift += 1;
  }

  // Gifts stored that no answer 201 covers: each must be a request that was sent.
  let unknown = 0;
  let extra = 0;
  for (const r of rows) {
    if (answeredIds.has(r.id)) continue;
    extra += 1;
    const k = Number(/ (\d+)$/.exec(r.notes ?? '')?.[1] ?? NaN);
    if (!(k >= 1 && k <= load.sent) || answeredNotes.has(r.notes ?? '')) unknown += 1;
  }
  const unanswered = load.sent - load.acknowledged.length - load.otherAnswers;

  const defects: string[] = [];
  if (missing > 0) defects.push(`${count(missing)} ANSWERED 201 BUT NOT STORED`);
  if (wrongGift > 0) defects.push(`${count(wrongGift)} ANSWERED WITH THE ID OF ANOTHER REQUEST'S GIFT`);
  if (idAnsweredTwice > 0) defects.push(`${count(idAnsweredTwice)} IDS ANSWERED TO TWO REQUESTS`);
  if (storedTwice > 0) defects.push(`${count(storedTwice)} GIFTS STORED TWICE`);
  if (unknown > 0) defects.push(`${count(unknown)} STORED GIFTS MATCHING NO REQUEST SENT`);
  if (extra > unanswered)
    defects.push(
      `${count(extra)} UNANSWERED GIFTS STORED, MORE THAN THE ${count(unanswered)} SENT UNANSWERED`,
    );
  const ok = defects.length === 0;
  const text = ok
    ? `${count(load.sent)} sent, ${count(load.acknowledged.length)} answered 201, each stored once under the id answered with its own request's notes; ${count(extra)} more stored of the ${count(unanswered)} sent whose answers the load generator stopped waiting for`
    : `${count(load.sent)} sent, ${count(load.acknowledged.length)} answered 201 — DEFECT: ${defects.join('; ')}`;
  return { ok, text };
}
