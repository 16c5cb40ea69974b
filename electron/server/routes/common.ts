import { z } from 'zod';
import { ErrorBody } from '#shared/schemas/common.ts';

/** Error responses documented on a route (the body is always ErrorBody). */
export function errors(...codes: number[]): Record<number, typeof ErrorBody> {
  const out: Record<number, typeof ErrorBody> = {};
  for (const c of [401, 429, ...codes]) out[c] = ErrorBody;
  return out;
}

export const IdParams = z.object({ id: z.string().min(1).max(64) });

/** The OpenAPI tag of GiftDesk's routes beyond the spec. */
export const tags = ['Extensions'];

/** A list answer: `{ data: [item…] }`. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/**
 * The response serializer of the hottest routes (POST and GET /donations): JSON.stringify of
 * what the handler returns, without zod parsing the answer a second time. Safe only where the
 * domain builds the answer's keys itself, typed by the same zod schema (toCreated,
 * listDonations), so the parse would change nothing; error answers are errorBody's. The
 * schema stays on the route for the OpenAPI document, and the request is still validated.
 */
export const domainTypedSerializer = () => (data: unknown) => JSON.stringify(data);
