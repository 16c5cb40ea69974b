/**
 * import, export and demo: bulk data in and out of an account.
 *
 *   giftdesk import contacts|donations FILE.csv --account ID [--push|--no-push] [--again] [--json]
 *     --json: {"imported": N, "rejected": [{"row": R, "reason": "…"}…]} (plus "skipped": N
 *     when rows were already imported). Row R is the line of the file the row starts on, the
 *     header being line 1. Exit 0 when the file was read (even with rejected rows); non-zero
 *     when it was refused whole (unknown columns, no such account, unreadable file, or a file
 *     with no externalId column that the account imported before, without --again).
 *   giftdesk export contacts|donations --account ID [--out FILE]
 *     CSV on stdout, or into FILE ({"written": N} with --json).
 *   giftdesk demo: seeds a demo organisation, prints {"accountId", "keyId", "secret"}.
 */
import cliProgress from 'cli-progress';
import { type Command, Option } from 'commander';
import { once } from 'node:events';
import fs from 'node:fs';
import {
  IMPORT_KINDS,
  type ImportKind,
  type ImportProgress,
  type ImportResult,
  checkImportHeader,
  createImportJob,
  csvFileDigest,
  csvHeader,
  exportCsv,
  failInterruptedImports,
  finishImportJob,
  hasExternalIdColumn,
  importCsvFile,
} from '../domain/import-export/index.ts';
import type { DomainContext } from '../domain/index.ts';
import { type CommonOptions, common, withAccount, withContext } from './context.ts';
import { CliError, print } from './output.ts';

interface ImportCliOptions extends CommonOptions {
  account: string;
  push: boolean;
  /** Import a file imported before even though its rows have no externalId. */
  again?: boolean;
}

const kindArgument = (value: string): ImportKind => {
  if ((IMPORT_KINDS as readonly string[]).includes(value)) return value as ImportKind;
  throw new CliError(`the kind must be contacts or donations, not "${value}"`, 64, 'usage');
};

/** A progress bar on a terminal (stderr a TTY, not --json): bytes of the file, rows, rows/s. */
function progressBar(
  o: CommonOptions,
  totalBytes: number,
): { update(p: ImportProgress): void; stop(): void } {
  if (o.json || !process.stderr.isTTY || totalBytes === 0)
    return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      format: 'importing [{bar}] {percentage}% | {rows} rows | {rate} rows/s | {rejected} rejected',
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  bar.start(totalBytes, 0, { rows: 0, rate: 0, rejected: 0 });
  return {
    update(p) {
      const seconds = (performance.now() - started) / 1000;
      bar.update(Math.min(p.bytes, totalBytes), {
        rows: p.processed,
        rate: seconds > 0 ? Math.round(p.processed / seconds) : 0,
        rejected: p.rejected,
      });
    },
    stop() {
      bar.stop();
    },
  };
}

function importSummary(kind: ImportKind, r: ImportResult): string {
  const lines = [
    `Imported ${r.imported} ${kind}${r.skipped > 0 ? `; skipped ${r.skipped} already imported (same externalId)` : ''}; ${r.rejectedCount} row${r.rejectedCount === 1 ? '' : 's'} rejected.`,
  ];
  const shown = r.rejected.slice(0, 50);
  for (const x of shown) lines.push(`  row ${x.row}: ${x.reason}`);
  if (r.rejected.length > shown.length)
    lines.push(`  … and ${r.rejected.length - shown.length} more (use --json for all of them)`);
  return lines.join('\n');
}

/**
 * The CLI's chunks grow until each one's write transaction takes about this long: every commit
 * syncs the pages the chunk touched (index pages spread over the file; donors' totals rows only
 * when they are not deferred to the import's end), so
 * fewer, larger transactions write far less (bench/RESULTS.md: 100,000 gifts into 1,000,000
 * donors, chunks of ~5,000 rows wrote 9.4 s of commits, of ~25,000 rows 4.0 s). A server with
 * the same file open waits for one chunk's transaction at most; its busy timeout (5 s) leaves
 * twice this for a chunk that runs slower than the one before. Reading and checking the rows
 * happen before the transaction and do not count.
 */
const CLI_WRITE_MS = 2500;
/** The import's page cache: a chunk's donors' rows and index pages stay in memory until its commit. */
const CLI_IMPORT_CACHE_MIB = 512;
/**
 * The import's WAL grows to about this before it is copied into the database: each chunk
 * rewrites pages spread over the donors and the indexes, and copying them after every commit
 * (SQLite's default, at 4 MiB) wrote them twice per chunk. Closing the store copies the rest.
 * The cost: a server with the same file open that commits during the import may do that copy
 * itself (up to this much) on its own thread; on a quiet file the CLI does it on close.
 */
const CLI_IMPORT_WAL_MIB = 1024;

/** How the CLI opens the store for an import (bench/import-profile.ts runs the same). */
export const CLI_IMPORT_OPEN = { cacheMiB: CLI_IMPORT_CACHE_MIB, walCheckpointMiB: CLI_IMPORT_WAL_MIB };
/**
 * The CLI's chunking of an import (bench/import-profile.ts runs the same). Donors' totals are
 * moved once, sorted, at the end of the import (deferTotals; docs/design.md, "Bulk import").
 */
export const CLI_IMPORT_OPTIONS = { chunkRows: 5000, targetWriteMs: CLI_WRITE_MS, deferTotals: true };

async function runImport(kind: ImportKind, file: string, o: ImportCliOptions): Promise<void> {
  let size: number;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    throw new CliError(`cannot read ${file}: no such file`, 66, 'no_input');
  }
  const result = await withAccount(
    o,
    async (ctx) => {
      // An import job, as the app's uploads are: the same file without externalIds is refused
      // the next time (here or in the app) unless asked for again.
      const header = await csvHeader(file);
      if (!header) throw new CliError(`${file} is empty: it has no header row`, 65, 'empty_file');
      await checkImportHeader(ctx, kind, o.account, header);
      const { sha256, records } = await csvFileDigest(file);
      await failInterruptedImports(ctx);
      const job = await createImportJob(ctx, {
        accountId: o.account,
        kind,
        push: o.push,
        totalRows: Math.max(0, records - 1),
        file: {
          sha256,
          byExternalId: hasExternalIdColumn(header),
          again: o.again === true,
        },
      });
      const bar = progressBar(o, size);
      try {
        const r = await importCsvFile(
          ctx,
          {
            kind,
            accountId: o.account,
            push: o.push,
            jobId: job.id,
            ...CLI_IMPORT_OPTIONS,
            onProgress: (p) => bar.update(p),
          },
          file,
        );
        await finishImportJob(ctx, job.id, { status: 'done' });
        return r;
      } catch (err) {
        // Recorded as the server records a failed upload's (loaded only on this path: it
        // brings the server's error mapping, which no other command needs).
        const { failureMessage } = await import('../server/imports/jobs.ts');
        const error = failureMessage(err, false);
        await finishImportJob(ctx, job.id, { status: 'failed', error }).catch(() => undefined);
        throw err;
      } finally {
        bar.stop();
      }
    },
    CLI_IMPORT_OPEN,
  );
  const out: { imported: number; rejected: ImportResult['rejected']; skipped?: number } = {
    imported: result.imported,
    rejected: result.rejected,
  };
  if (result.skipped > 0) out.skipped = result.skipped;
  print(o, out, () => importSummary(kind, result));
}

/** Writes the export to stdout or a file, with backpressure; returns the rows written. */
async function runExport(
  ctx: DomainContext,
  kind: ImportKind,
  accountId: string,
  out: NodeJS.WritableStream,
): Promise<number> {
  let rows = 0;
  for await (const page of exportCsv(ctx, kind, accountId)) {
    rows += page.rows;
    if (!out.write(page.text)) await once(out, 'drain');
  }
  return rows;
}

/** Said in `import --help` (and, in other words, on the app's import screen). */
export const IMPORT_RERUN_WARNING = [
  'Running an import again (after an interruption, or by mistake):',
  '  rows with an externalId the account already has are skipped, so a re-run adds nothing twice;',
  '  rows WITHOUT an externalId are added again: every such row becomes a duplicate. A file with',
  '  no externalId column that the account imported before (here or in the app) is refused;',
  '  --again imports it anyway.',
  '  Give each row an externalId (your own reference) before importing a file you may run twice.',
].join('\n');

export function registerDataCommands(program: Command): void {
  common(
    program
      .command('import')
      .description(
        "import contacts or donations from a CSV file (columns: the API's field names, plus externalId; custom fields as customFields.<Name>). Row numbers in the report are the line of the file a row starts on, the header being line 1",
      )
      .argument('<kind>', 'contacts | donations', kindArgument)
      .argument('<file>', 'the CSV file (UTF-8)')
      .requiredOption('--account <id>', 'account id')
      .addOption(new Option('--push', 'queue the imported records for sync to HQ (default)').default(true))
      .addOption(new Option('--no-push', 'history HQ already has: do not queue it for sync'))
      .option(
        '--again',
        'import a file imported before although its rows have no externalId (adds them again)',
      )
      .addHelpText('after', `\n${IMPORT_RERUN_WARNING}`),
  ).action(async (kind: ImportKind, file: string, o: ImportCliOptions) => runImport(kind, file, o));

  common(
    program
      .command('export')
      .description(
        'export contacts or donations as CSV, in the columns import reads (a round trip adds nothing twice)',
      )
      .argument('<kind>', 'contacts | donations', kindArgument)
      .requiredOption('--account <id>', 'account id')
      .option('--out <file>', 'write to this file instead of stdout'),
  ).action(async (kind: ImportKind, o: CommonOptions & { account: string; out?: string }) => {
    if (!o.out) {
      await withAccount(o, (ctx) => runExport(ctx, kind, o.account, process.stdout));
      return;
    }
    const target = o.out;
    const written = await withAccount(o, async (ctx) => {
      const file = fs.createWriteStream(target, { mode: 0o600 }); // donor data: readable by this user only
      const opened = once(file, 'open');
      opened.catch(() => undefined);
      const failed = once(file, 'error').then(([err]: unknown[]) => {
        throw new CliError(`cannot write ${target}: ${(err as Error).message}`, 73, 'cannot_write');
      });
      const rows = await Promise.race([runExport(ctx, kind, o.account, file), failed]);
      file.end();
      await Promise.race([once(file, 'finish'), failed]);
      return rows;
    });
    print(o, { written }, () => `Wrote ${written} ${kind} to ${target}`);
  });

  common(
    program
      .command('demo')
      .description(
        'seed a demo organisation (campaigns, limits, custom fields, ~3,000 contacts, ~6,000 gifts)',
      ),
  ).action(async (o: CommonOptions) => {
    const r = await withContext(
      o,
      async (ctx) => {
        const { seedDemo } = await import('./demo/demo.ts');
        return seedDemo(ctx);
      },
      { create: true },
    );
    print(
      o,
      r,
      () =>
        `Demo organisation ${r.accountId}\n  X-API-Key: ${r.keyId}\n  Authorization: Bearer ${r.secret}\n(The secret is shown only now.)`,
    );
  });
}
