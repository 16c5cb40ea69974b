/**
 * The roles a person (or an API key) acts in. Each route's rule (which roles it admits) is
 * kept in one place on the server; this is the list those rules and the app's screens share.
 *
 * - volunteer: gift entry, donors (create, find, edit), their own batches and their own gifts'
 *   corrections while not sent to HQ.
 * - coordinator: review and flags, the event (hosting, codes, stations, close-out), letters, reports.
 * - treasurer: balancing and counts, deposits, exports, letters.
 * - administrator: everything, including people, keys and sync.
 */
import { z } from 'zod';

export const ROLES = ['volunteer', 'coordinator', 'treasurer', 'administrator'] as const;

export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;
