/**
 * The renderer's API session. In Electron the preload bridge hands it over; in a browser
 * the renderer trades the one-time token from the printed URL for it once
 * (POST /api/v1/browser-session).
 */
import { z } from 'zod';

export const BrowserSessionRequest = z.object({
  token: z
    .string({ error: 'is required' })
    .min(1, { error: 'is required' })
    .max(200, { error: 'must be at most 200 characters' }),
});
export type BrowserSessionRequest = z.infer<typeof BrowserSessionRequest>;

export const AppSession = z
  .object({
    accountId: z.string(),
    keyId: z.string(),
    secret: z.string(),
    /**
     * The data folder the server uses, where a `giftdesk` command run on this computer must be
     * told it (`--data-dir`): it is not the per-user default. null or absent when it is the
     * default, or the server does not say (PostgreSQL, the desktop app).
     */
    dataDir: z.string().nullable().optional(),
  })
  .meta({ id: 'AppSession' });
export type AppSession = z.infer<typeof AppSession>;

/**
 * What an open window polls to learn that what it shows changed elsewhere: the server's start
 * (new at every start) and a count of the writes not made by the asking key. When either
 * differs from the last answer, the window reads what is on screen again.
 */
export const LiveVersion = z
  .object({
    instance: z.string(),
    version: z.number().int().min(0),
  })
  .meta({ id: 'LiveVersion' });
export type LiveVersion = z.infer<typeof LiveVersion>;
