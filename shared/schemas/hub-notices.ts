/**
 * A station's notices (GiftDesk extension): its contact edits a later change at another station
 * replaced, listed in Settings → Event and marked read there.
 */
import { z } from 'zod';
import { accountIdField } from './common.ts';

export const HubNotice = z.object({
  id: z.string(),
  contactId: z.string(),
  contactName: z.string(),
  field: z.string(),
  mine: z.string().nullable(),
  theirs: z.string().nullable(),
  createdAt: z.string(),
  /** When the person marked it read (null: not yet; GET /event's `notices` counts those). */
  seenAt: z.string().nullable(),
  /** The notice in a sentence ("Your change to Maria Lopez's phone was replaced by …"). */
  message: z.string(),
});

export const HubNoticeList = z.object({ notices: z.array(HubNotice) }).meta({ id: 'HubNoticeList' });

/** POST /event/notices/{id}/seen and /event/notices/seen-all: the account (optional, as everywhere). */
export const NoticesSeenBody = z
  .object({ accountId: accountIdField.optional() })
  .meta({ id: 'NoticesSeenBody' });

/** POST /event/notices/{id}/seen's answer. */
export const NoticeSeen = z.object({ id: z.string(), notices: z.number().int() }).meta({ id: 'NoticeSeen' });

/** POST /event/notices/seen-all's answer: how many were marked now, and how many are left unread (0). */
export const NoticesSeen = z
  .object({ marked: z.number().int(), notices: z.number().int() })
  .meta({ id: 'NoticesSeen' });
export type HubNotice = z.infer<typeof HubNotice>;
