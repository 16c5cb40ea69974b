/**
 * Letters, receipts and year-end statements (GiftDesk extension): what an account's letters
 * say, a print run chosen by kind and filters, its progress and PDF, "mark as sent", and the
 * route a GiftDesk HQ takes thank-you marks on (the spec has no donation update).
 */
import { z } from 'zod';
import { accountIdField, dateOnly, entryKeyField, optionalText, requiredText, typeError } from './common.ts';

export const LETTER_KINDS = ['receipt', 'thank-you', 'year-end'] as const;
export type LetterKind = (typeof LETTER_KINDS)[number];
export const ORG_KINDS = ['charity', 'political'] as const;
export type OrgKind = (typeof ORG_KINDS)[number];
export const LETTER_RUN_STATUSES = ['rendering', 'done', 'failed'] as const;
export type LetterRunStatus = (typeof LETTER_RUN_STATUSES)[number];

const letterKind = z.enum(LETTER_KINDS, { error: typeError(`must be one of: ${LETTER_KINDS.join(', ')}`) });
const orgKind = z.enum(ORG_KINDS, { error: typeError(`must be one of: ${ORG_KINDS.join(', ')}`) });
const idText = z
  .string({ error: typeError('must be an id') })
  .trim()
  .min(1)
  .max(64);

/** One kind's wording: a heading and a body with merge fields (`{{donor.name}}`, `{{gifts}}`…). */
export const LetterTemplate = z.object({
  kind: letterKind,
  heading: z.string(),
  body: z.string(),
  /** True while the account has not edited it: the default for its organisation's kind. */
  isDefault: z.boolean(),
});
export type LetterTemplate = z.infer<typeof LetterTemplate>;

export const LetterSettings = z
  .object({
    orgKind,
    organizationName: z.string().nullable(),
    organizationAddress: z.string().nullable(),
    signerName: z.string().nullable(),
    signerTitle: z.string().nullable(),
    templates: z.array(LetterTemplate),
    /** The merge fields a template may use, with what each stands for. */
    mergeFields: z.array(z.object({ name: z.string(), description: z.string() })),
    /**
     * False until someone saves the letter settings: `orgKind` is then `orgKindSuggested`, and
     * the Letters screen asks once which kind the organisation is.
     */
    orgKindChosen: z.boolean(),
    /**
     * What the account's own records say: `political` when it has elections or a donation
     * account with a per-election limit, else `charity`.
     */
    orgKindSuggested: orgKind,
    /** Why `orgKindSuggested` is political, in words ("elections Primary 2028, General 2028"); null for charity. */
    politicalSigns: z.string().nullable(),
  })
  .meta({ id: 'LetterSettings' });
export type LetterSettings = z.infer<typeof LetterSettings>;

export const LetterSettingsUpdate = z.object({
  accountId: accountIdField,
  orgKind: orgKind.optional(),
  organizationName: optionalText(200),
  organizationAddress: optionalText(500),
  signerName: optionalText(200),
  signerTitle: optionalText(200),
  /** A kind's new wording; `reset: true` goes back to the default. */
  templates: z
    .array(
      z.object({
        kind: letterKind,
        heading: requiredText(300).optional(),
        body: requiredText(20000).optional(),
        reset: z.boolean().optional(),
      }),
    )
    .max(3)
    .optional(),
});
export type LetterSettingsUpdate = z.infer<typeof LetterSettingsUpdate>;

/**
 * Which gifts a run covers. receipt: `donationId` (one gift, one document). thank-you: the
 * completed gifts matching the filters, one letter per donor. year-end: every completed gift
 * of `year` (default: last calendar year), one statement per donor.
 */
export const LetterChoice = z.object({
  kind: letterKind,
  from: dateOnly.optional(),
  to: dateOnly.optional(),
  campaignId: idText.optional(),
  batchId: idText.optional(),
  year: z
    .number({ error: typeError('must be a year') })
    .int()
    .min(1900)
    .max(2200)
    .optional(),
  notThanked: z.boolean().optional(),
  donationId: idText.optional(),
  contactId: idText.optional(),
});
export type LetterChoice = z.infer<typeof LetterChoice>;

export const LetterRunCreate = LetterChoice.extend({
  accountId: accountIdField,
  /** Also write one PDF per donor beside the run's file. */
  perDonor: z.boolean().optional(),
  /** Mark the run's gifts thanked once the PDF is written. */
  markSent: z.boolean().optional(),
  /**
   * Print a charity's wording ("keep this letter for your tax records") although the account
   * takes gifts toward elections: without it such a run is refused (409 `charity_wording_political`).
   */
  confirmWording: z.boolean().optional(),
  /** The key of this try (entryKeyField): the same key again answers the run it started. */
  entryKey: entryKeyField,
});
export type LetterRunCreate = z.infer<typeof LetterRunCreate>;

/**
 * One PDF file of a run. A run of more letters than a part holds (15,000 by default) is
 * printed as several complete PDFs, each of consecutive letters: "Part 1 of 7 (letters
 * 1–15,000)". A run of fewer is one part, its one PDF.
 */
export const LetterRunPart = z
  .object({
    /** 1, 2, … in the order of the letters. */
    part: z.number().int(),
    /** The first and last letter in it, counted from 1 over the whole run. */
    firstLetter: z.number().int(),
    lastLetter: z.number().int(),
    /** Pages in this PDF (a letter with many gifts takes more than one); null for a run printed before pages were counted. */
    pages: z.number().int().nullable(),
    /** Where to fetch it: `/api/v1/letters/runs/{id}/parts/{part}/pdf`. */
    pdfUrl: z.string(),
  })
  .meta({ id: 'LetterRunPart' });
export type LetterRunPart = z.infer<typeof LetterRunPart>;

export const LetterRun = z
  .object({
    id: z.string(),
    kind: letterKind,
    choice: LetterChoice,
    status: z.enum(LETTER_RUN_STATUSES),
    documents: z.number().int(),
    rendered: z.number().int(),
    gifts: z.number().int(),
    total: z.number(),
    /**
     * Where to fetch the PDF (`/api/v1/letters/runs/{id}/pdf`), once written. For a run printed
     * in several parts that route answers 409 `run_in_parts` rather than a part of the letters:
     * fetch each of `parts` instead.
     */
    pdfUrl: z.string().nullable(),
    /** The run's PDF files, in the order of its letters: one for most runs; empty until written. */
    parts: z.array(LetterRunPart),
    error: z.string().nullable(),
    /**
     * True while the run waits for its turn to render (a process renders a run or two at a
     * time; the rest wait, first come, first served). Its status is 'rendering' meanwhile.
     */
    queued: z.boolean(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    markedSentAt: z.string().nullable(),
  })
  .meta({ id: 'LetterRun' });
export type LetterRun = z.infer<typeof LetterRun>;

export const LetterRunList = z.object({ runs: z.array(LetterRun) });

export const MarkSentResult = z.object({
  id: z.string(),
  /** Gifts newly marked thanked (those already marked keep their date). */
  marked: z.number().int(),
  markedSentAt: z.string(),
  /**
   * The one sentence saying HQ will not get these marks (an HQ of the donor API alone, or an
   * event hub whose HQ is one); null when it takes them or it is not known. Absent from an
   * earlier version.
   */
  marksNote: z.string().nullable().optional(),
});
export type MarkSentResult = z.infer<typeof MarkSentResult>;

/**
 * What the CLI prints with --json (and the run's figures). `file` is null when no gift matched
 * (nothing is written); the CLI adds `runId`, `total`, and `perDonorDir` / `marked` when asked.
 */
export const LettersCliResult = z.object({
  documents: z.number().int(),
  gifts: z.number().int(),
  /** The PDF written (a run printed in parts: its first part's), null when nothing matched. */
  file: z.string().nullable(),
  /** A run printed in parts: every file written (`FILE-part-1-of-7.pdf`, …), with its letters and pages. */
  parts: z
    .array(
      z.object({
        file: z.string(),
        firstLetter: z.number().int(),
        lastLetter: z.number().int(),
        pages: z.number().int().nullable(),
      }),
    )
    .optional(),
});

/** A GiftDesk HQ (or hub) taking thank-you marks for gifts it holds, by its own ids. */
export const ThankYouMarks = z.object({
  accountId: accountIdField,
  donations: z
    .array(z.object({ id: idText, thankYouSentDate: z.string().max(40) }))
    .min(1)
    .max(500),
});
export type ThankYouMarks = z.infer<typeof ThankYouMarks>;
export const ThankYouMarksResult = z.object({ marked: z.number().int(), unknown: z.array(z.string()) });

/** `GET /letters/preview`: a choice (LetterChoice) as query parameters. */
export const LetterPreviewQuery = z.object({
  accountId: accountIdField,
  kind: letterKind,
  from: dateOnly.optional(),
  to: dateOnly.optional(),
  campaignId: idText.optional(),
  batchId: idText.optional(),
  year: z
    .string()
    .regex(/^\d{4}$/, { error: 'must be a year from 1900 to 2200' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1900, { error: 'must be a year from 1900 to 2200' })
        .max(2200, { error: 'must be a year from 1900 to 2200' }),
    )
    .optional(),
  notThanked: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  donationId: idText.optional(),
  contactId: idText.optional(),
});
export type LetterPreviewQuery = z.infer<typeof LetterPreviewQuery>;

/** `GET /letters/runs`: the account's runs, newest first. */
export const LetterRunListQuery = z.object({
  accountId: accountIdField,
  limit: z
    .string()
    .regex(/^\d+$/, { error: 'must be an integer from 1 to 100' })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, { error: 'must be an integer from 1 to 100' })
        .max(100, { error: 'must be an integer from 1 to 100' }),
    )
    .optional(),
});

/** `GET /letters/runs/{id}/parts/{part}/pdf`: the run and which of its parts, from 1. */
export const LetterRunPartParams = z.object({
  id: z.string().min(1).max(64),
  part: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, { error: 'must be a part number, from 1' })
    .transform(Number),
});

/** `POST /letters/runs/{id}/mark-sent`. */
export const MarkSentBody = z.object({ accountId: accountIdField });

/** A PDF answer (application/pdf). */
export const LetterPdf = z.string().describe('A PDF document (application/pdf)');
