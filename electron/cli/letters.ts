/**
 * giftdesk letters: a print run from the command line.
 *
 *   giftdesk letters --account ID --kind receipt|thank-you|year-end [--from DATE] [--to DATE]
 *     [--campaign ID] [--batch ID] [--year YYYY] [--not-thanked] [--donation ID] [--contact ID]
 *     --out FILE.pdf [--per-donor] [--mark-sent] [--confirm-wording] [--json]
 *
 * Renders the letters (one per donor; one receipt for --donation) into FILE.pdf, and with
 * --per-donor one PDF per donor in a folder named after FILE (letters.pdf → letters/). With
 * --json it prints exactly one object: {"documents": N, "gifts": N, "file": "…", "runId",
 * "total", "marked"} ("file" is null when no gift matched: nothing is written). --mark-sent
 * marks exactly the run's gifts thanked once the file is written. A charity's wording for an
 * account with elections or per-election limits is refused (exit 1, the sentence says why)
 * unless --confirm-wording.
 */
import { formatCents } from '#shared/money.ts';
import { LETTER_KINDS, LetterRunCreate } from '#shared/schemas/letters.ts';
import { type Command, InvalidArgumentError } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { DomainError, isDomainError } from '../domain/index.ts';
import {
  markRunSent,
  runPartFileName,
  runPerDonorDir,
  startLetterRun,
  waitForRun,
} from '../letters/index.ts';

/** A part of a run printed in several, as written where --out says. */
interface PartWritten {
  file: string;
  firstLetter: number;
  lastLetter: number;
  pages: number | null;
}
import { marksNoteFor } from '../sync/index.ts';
import { type CommonOptions, common, resolveDataDir, withAccount } from './context.ts';
import { CliError, print } from './output.ts';

interface LettersOptions extends CommonOptions {
  account: string;
  kind: string;
  from?: string;
  to?: string;
  campaign?: string;
  batch?: string;
  year?: number;
  notThanked?: boolean;
  donation?: string;
  contact?: string;
  out: string;
  perDonor?: boolean;
  markSent?: boolean;
  confirmWording?: boolean;
}

/** The request's field → the option that sets it, for messages. */
const OPTION: Record<string, string> = {
  kind: '--kind',
  from: '--from',
  to: '--to',
  campaignId: '--campaign',
  batchId: '--batch',
  year: '--year',
  notThanked: '--not-thanked',
  donationId: '--donation',
  contactId: '--contact',
  accountId: '--account',
  confirmWording: '--confirm-wording',
};

function yearOption(value: string): number {
  if (!/^\d{4}$/.test(value.trim())) throw new InvalidArgumentError(`"${value}" is not a year (e.g. 2025).`);
  return Number(value);
}

function request(o: LettersOptions): LetterRunCreate {
  const parsed = LetterRunCreate.safeParse({
    accountId: o.account,
    kind: o.kind,
    from: o.from,
    to: o.to,
    campaignId: o.campaign,
    batchId: o.batch,
    year: o.year,
    notThanked: o.notThanked,
    donationId: o.donation,
    contactId: o.contact,
    perDonor: o.perDonor,
    confirmWording: o.confirmWording,
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? '');
  throw new CliError(`${OPTION[field] ?? field} ${issue.message}`, 64, 'usage');
}

/** A domain refusal naming a field, said with the option instead. */
function withOptionNames(err: unknown): unknown {
  if (!isDomainError(err) || !err.details?.length) return err;
  const field = err.details[0]!.field;
  const option = OPTION[field];
  if (!option) return err;
  const message = err.message.startsWith(field)
    ? `${option}${err.message.slice(field.length)}`
    : `${err.message} (${option})`;
  return new DomainError(err.kind, err.code, message, err.details);
}

function outFile(out: string): string {
  const file = path.resolve(out);
  const dir = path.dirname(file);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
    throw new CliError(`cannot write ${out}: the folder ${dir} does not exist`, 73, 'cant_create');
  return file;
}

function copyDir(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const name of fs.readdirSync(from)) fs.copyFileSync(path.join(from, name), path.join(to, name));
}

async function runLetters(o: LettersOptions): Promise<void> {
  const input = request(o);
  const file = outFile(o.out);
  const dataDir = resolveDataDir(o);
  const result = await withAccount(o, async (ctx) => {
    try {
      const started = await startLetterRun(ctx, dataDir, input);
      const run = await waitForRun(ctx, o.account, started.id);
      if (run.status === 'failed')
        throw new CliError(run.error ?? 'the letters could not be printed', 1, 'render_failed');
      let written: string | null = null;
      let perDonorDir: string | null = null;
      let parts: PartWritten[] | null = null;
      if (run.documents > 0 && run.parts.length > 1) {
        // A run in parts: FILE-part-1-of-7.pdf, … beside where FILE would be.
        const stem = file.replace(/\.pdf$/i, '');
        parts = [];
        for (const p of run.parts) {
          const to = `${stem}-part-${p.part}-of-${run.parts.length}.pdf`;
          fs.copyFileSync(path.join(dataDir, runPartFileName(run.id, p.part)), to);
          parts.push({ file: to, firstLetter: p.firstLetter, lastLetter: p.lastLetter, pages: p.pages });
        }
        written = parts[0]!.file;
      } else if (run.documents > 0) {
        fs.copyFileSync(path.join(dataDir, 'letters', `${run.id}.pdf`), file);
        written = file;
      }
      if (run.documents > 0) {
        if (o.perDonor) {
          perDonorDir = file.replace(/\.pdf$/i, '') + (file.toLowerCase().endsWith('.pdf') ? '' : '-letters');
          copyDir(path.join(dataDir, runPerDonorDir(run.id)), perDonorDir);
        }
      }
      const marked = o.markSent && run.documents > 0 ? (await markRunSent(ctx, o.account, run.id)).marked : 0;
      // Marks HQ will not get (an HQ of the donor API alone, or through a hub whose HQ is one): said once for the run.
      const marksNote = o.markSent ? await marksNoteFor(ctx.store.db, o.account) : null;
      return { run, written, parts, perDonorDir, marked, marksNote };
    } catch (err) {
      throw withOptionNames(err);
    }
  });
  const { run, written, parts, perDonorDir, marked, marksNote } = result;
  print(
    o,
    {
      documents: run.documents,
      gifts: run.gifts,
      file: written,
      runId: run.id,
      total: run.total,
      ...(parts ? { parts } : {}),
      ...(perDonorDir ? { perDonorDir } : {}),
      ...(o.markSent ? { marked, marksNote } : {}),
    },
    () =>
      run.documents === 0
        ? 'No completed gifts match: nothing was printed.'
        : [
            `Printed ${run.documents} ${run.documents === 1 ? 'document' : 'documents'} for ${run.gifts} ${run.gifts === 1 ? 'gift' : 'gifts'} (${formatCents(Math.round(run.total * 100))}) to ${parts ? `${parts.length} PDFs, one a part:` : written}`,
            ...(parts ?? []).map(
              (p, i) =>
                `  Part ${i + 1} of ${parts!.length} (letters ${p.firstLetter}–${p.lastLetter}): ${p.file}`,
            ),
            ...(perDonorDir ? [`One file per donor in ${perDonorDir}`] : []),
            ...(o.markSent ? [`Marked ${marked} ${marked === 1 ? 'gift' : 'gifts'} as thanked.`] : []),
            ...(marksNote ? [marksNote] : []),
          ].join('\n'),
  );
}

export function registerLettersCommand(program: Command): void {
  common(
    program
      .command('letters')
      .description('print receipts, thank-you letters or year-end statements into one PDF')
      .requiredOption('--account <id>', 'account id')
      .requiredOption('--kind <kind>', `what to print: ${LETTER_KINDS.join(', ')}`)
      .option('--from <date>', 'thank-you: gifts from this date (YYYY-MM-DD)')
      .option('--to <date>', 'thank-you: gifts up to this date (YYYY-MM-DD)')
      .option('--campaign <id>', "thank-you: one campaign's gifts")
      .option('--batch <id>', "thank-you: one entry batch's gifts")
      .option('--year <yyyy>', 'year-end: the calendar year (default: last year)', yearOption)
      .option('--not-thanked', 'thank-you: only gifts not yet marked thanked')
      .option('--donation <id>', 'receipt: the gift (thank-you: that gift only)')
      .option('--contact <id>', "one donor's gifts only")
      .requiredOption('--out <file>', 'the PDF to write')
      .option('--per-donor', 'also write one PDF per donor, in a folder named after --out')
      .option('--mark-sent', "mark the run's gifts thanked once the PDF is written")
      .option(
        '--confirm-wording',
        "print a charity's tax wording although the organisation takes gifts toward elections",
      ),
  ).action(runLetters);
}
