/**
 * Helpers for the import/export tests: CSV files in temp folders, an organisation made over
 * real HTTP, imports run through the same function the CLI and the server use, and the
 * giftdesk command as a child process.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { csvLine } from '../../electron/domain/import-export/csv-reader.ts';
import {
  type ImportOptions,
  type ImportResult,
  importCsv,
} from '../../electron/domain/import-export/imports.ts';
import { type TestServer, tempDir } from '../helpers/server.ts';

/** Writes rows (the header first) as a CSV file, CRLF as spreadsheets write it. */
export function csvFile(
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>,
  name = 'data.csv',
): string {
  const file = path.join(tempDir('giftdesk-csv-'), name);
  fs.writeFileSync(file, rows.map((r) => csvLine(r)).join(''));
  return file;
}

/** Imports a file through the bulk import, as `giftdesk import` does. */
export function importFile(
  s: TestServer,
  file: string,
  opts: Partial<ImportOptions> & Pick<ImportOptions, 'kind'>,
): Promise<ImportResult> {
  return importCsv(s.ctx, { accountId: s.accountId, ...opts }, fs.createReadStream(file));
}

export interface Org {
  campaignId: string;
  committeeId: string;
  /** a donation account limited to $3,300 per donor per election */
  federalId: string;
}

/** A campaign, a committee and a donation account with a per-election limit, over HTTP. */
export async function makeOrg(s: TestServer): Promise<Org> {
  const dac = await s.request('POST', '/api/v1/donation-accounts', {
    accountId: s.accountId,
    name: 'Federal',
    limits: { perElection: 3300 },
  });
  const campaign = await s.request('POST', '/api/v1/campaigns', {
    accountId: s.accountId,
    name: 'Spring Gala',
    donationAccountIds: [dac.body.id],
  });
  const committee = await s.request('POST', '/api/v1/committees', {
    accountId: s.accountId,
    name: 'Victory Committee',
  });
  for (const r of [dac, campaign, committee])
    if (r.status !== 201) throw new Error(`setup failed: ${r.status} ${r.text}`);
  return { campaignId: campaign.body.id, committeeId: committee.body.id, federalId: dac.body.id };
}

/** The contact id an external reference was imported under. */
export async function contactIdOf(s: TestServer, externalId: string): Promise<string> {
  const r = await s.store.db
    .selectFrom('contacts')
    .select('id')
    .where('accountId', '=', s.accountId)
    .where('externalId', '=', externalId)
    .executeTakeFirstOrThrow();
  return r.id;
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `node bin/giftdesk.mjs …` as a child process, with the data folder given. */
export function giftdesk(args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.GIFTDESK_DATA_DIR;
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [path.resolve('bin/giftdesk.mjs'), ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The one JSON object a --json command printed. */
export function jsonOut(r: CliRun): Record<string, unknown> {
  const lines = r.stdout.split('\n').filter((l) => l.length > 0);
  if (lines.length !== 1)
    throw new Error(`expected one line on stdout, got:\n${r.stdout}\nstderr:\n${r.stderr}`);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

/** An account and a campaign made by the command line in a data folder. */
export async function cliOrg(
  dataDir: string,
  name: string,
): Promise<{ accountId: string; campaignId: string }> {
  const accountId = jsonOut(
    await giftdesk(['account', 'create', '--name', name, '--data-dir', dataDir, '--json']),
  ).id as string;
  const campaignId = jsonOut(
    await giftdesk([
      'campaign',
      'create',
      '--account',
      accountId,
      '--name',
      'Gala',
      '--data-dir',
      dataDir,
      '--json',
    ]),
  ).id as string;
  return { accountId, campaignId };
}
