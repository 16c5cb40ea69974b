/**
 * The letters routes (receipts, thank-you letters, year-end statements), typed like the rest
 * of the client (./endpoints.ts): the account's letter settings and wording, print runs (start,
 * follow, list, mark as sent) and their PDFs, fetched with this session's key as files.
 * Every JSON answer is parsed with the shared schema the server answers with.
 */
import type { z } from 'zod';
import {
  LetterChoice,
  LetterRun,
  LetterRunCreate,
  LetterRunList,
  LetterSettings,
  LetterSettingsUpdate,
  MarkSentResult,
} from '#shared/schemas/letters.ts';
import type { ApiClient, Query } from './client.ts';

type Body<S extends z.ZodType> = Omit<z.input<S>, 'accountId'>;

/** A choice as query parameters (the preview's): only what is set. */
export function choiceQuery(choice: z.input<typeof LetterChoice>): Query {
  const q: Query = {};
  for (const [k, v] of Object.entries(choice))
    if (v !== undefined && v !== null && v !== '' && v !== false) q[k] = v as string | number | boolean;
  return q;
}

export function letterEndpoints(c: ApiClient) {
  const run = (id: string) => `/letters/runs/${encodeURIComponent(id)}`;
  return {
    /** What the account's letters say: the organisation, the signer, the three kinds' wording. */
    settings: () => c.request('GET', '/letters/settings', { schema: LetterSettings }),
    saveSettings: (body: Body<typeof LetterSettingsUpdate>) =>
      c.request('PUT', '/letters/settings', {
        schema: LetterSettings,
        body: { accountId: c.accountId, ...body },
      }),
    /** Starts a print run: answered at once (status 'rendering'); follow it with run(id). */
    start: (body: Body<typeof LetterRunCreate>) =>
      c.request('POST', '/letters/runs', { schema: LetterRun, body }),
    runs: () => c.request('GET', '/letters/runs', { schema: LetterRunList }),
    run: (id: string) => c.request('GET', run(id), { schema: LetterRun }),
    /** The run's PDF, once written; with `part`, that part of a run printed in several (from 1). */
    pdf: (id: string, part?: number) =>
      c.download(part === undefined ? `${run(id)}/pdf` : `${run(id)}/parts/${part}/pdf`),
    /**
     * The first letter of what a run with this choice would print, as a PDF, and how many
     * letters and gifts the whole run would have (null when the server does not say).
     */
    preview: async (choice: z.input<typeof LetterChoice>) => {
      const { blob, headers } = await c.downloadWithHeaders('/letters/preview', choiceQuery(choice));
      const n = (name: string) => {
        const v = headers.get(name);
        return v !== null && /^\d+$/.test(v) ? Number(v) : null;
      };
      return { pdf: blob, documents: n('x-letter-documents'), gifts: n('x-letter-gifts') };
    },
    /** Marks the run's gifts thanked (idempotent: gifts already marked keep their date). */
    markSent: (id: string) => c.request('POST', `${run(id)}/mark-sent`, { schema: MarkSentResult, body: {} }),
  };
}
