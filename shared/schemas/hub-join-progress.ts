/**
 * A station's join as it goes (GiftDesk extension), for the join form's progress bar.
 */
import { z } from 'zod';

/**
 * What the join under way on this GiftDesk is doing (GET /event/join/progress): connecting to the
 * hub and checking its certificate, bringing its donors and gifts (so many of what the hub said
 * it holds), finishing; then done or failed. `joining: false` with nothing else: no join ran here
 * since this server started.
 */
export const EventJoinProgress = z
  .object({
    joining: z.boolean(),
    phase: z.enum(['connecting', 'bringing', 'finishing', 'done', 'failed']).nullable(),
    startedAt: z.string().nullable(),
    donors: z.number().int(),
    gifts: z.number().int(),
    donorsAtHub: z.number().int().nullable(),
    giftsAtHub: z.number().int().nullable(),
  })
  .meta({ id: 'EventJoinProgress' });
export type EventJoinProgress = z.infer<typeof EventJoinProgress>;
