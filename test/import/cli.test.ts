/**
 * The command-line contract of import, export and demo, run as `node bin/giftdesk.mjs …`
 * child processes over a temp data folder: what scripts parse on stdout, exit codes, and
 * errors on stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server.ts';
import { cliOrg, csvFile, giftdesk, jsonOut } from './fixtures.ts';

let dataDir: string;
let accountId: string;
let campaignId: string;
const dirs: string[] = [];

beforeAll(async () => {
  dataDir = tempDir('giftdesk-cli-import-');
  dirs.push(dataDir);
  ({ accountId, campaignId } = await cliOrg(dataDir, 'CLI Org'));
});
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function pushCounts(): Array<{ entityType: string; push: number; n: number }> {
  const db = new BetterSqlite3(path.join(dataDir, 'giftdesk.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        "select entity_type as entityType, push, count(*) as n from change_log where entity_type in ('contact', 'donation') group by 1, 2 order by 1, 2",
      )
      .all() as Array<{ entityType: string; push: number; n: number }>;
  } finally {
    db.close();
  }
}

describe('giftdesk import / export', () => {
  it('import --help says that a re-run without externalId adds every row again', async () => {
    const r = await giftdesk(['import', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(
      /rows WITHOUT an externalId are added again: every such row becomes a duplicate\. A file with no externalId column that the account imported before \(here or in the app\) is refused; --again imports it anyway/,
    );
    expect(r.stdout).toMatch(/externalId the account already has are skipped/);
  });

  it('imports contacts and donations, prints {"imported", "rejected"} with row numbers, and a re-run adds nothing', async () => {
    const contacts = csvFile([
      ['externalId', 'firstName', 'lastName', 'primaryEmail'],
      ['c1', 'Zoë', 'Núñez', 'zoe@example.org'],
      ['c2', 'José', '', ''],
      ['c3', 'Siobhán', "O'Brien", 'siobhan@'],
    ]);
    const first = await giftdesk([
      'import',
      'contacts',
      contacts,
      '--account',
      accountId,
      '--no-push',
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect(first.status).toBe(0);
    expect(jsonOut(first)).toEqual({
      imported: 1,
      rejected: [
        { row: 3, reason: 'lastName is required' },
        { row: 4, reason: expect.stringMatching(/^primaryEmail must be a valid email address/) },
      ],
    });

    const gifts = csvFile([
      ['externalId', 'contactExternalId', 'donationAmount', 'donationDate', 'paymentMethod', 'campaignId'],
      ['g1', 'c1', '100', '2025-03-01', 'check', campaignId],
      ['g2', 'c1', '25.50', '2025-03-02', 'cash', campaignId],
      ['g3', 'c2', '10', '2025-03-02', 'cash', campaignId],
    ]);
    const imported = await giftdesk([
      'import',
      'donations',
      gifts,
      '--account',
      accountId,
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect(imported.status).toBe(0);
    expect(jsonOut(imported)).toEqual({
      imported: 2,
      rejected: [{ row: 4, reason: 'contactExternalId c2 matches no contact in this account' }],
    });
    // --no-push: the contacts' outbox rows are not for HQ; the gifts (default --push) are
    expect(pushCounts()).toEqual([
      { entityType: 'contact', push: 0, n: 1 },
      { entityType: 'donation', push: 1, n: 2 },
    ]);

    const again = await giftdesk([
      'import',
      'donations',
      gifts,
      '--account',
      accountId,
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect(jsonOut(again)).toEqual({
      imported: 0,
      rejected: [{ row: 4, reason: 'contactExternalId c2 matches no contact in this account' }],
      skipped: 2,
    });

    const words = await giftdesk([
      'import',
      'donations',
      gifts,
      '--account',
      accountId,
      '--data-dir',
      dataDir,
    ]);
    expect(words.status).toBe(0);
    expect(words.stdout).toMatch(
      /^Imported 0 donations; skipped 2 already imported \(same externalId\); 1 row rejected\.\n  row 4: contactExternalId c2 matches no contact/,
    );
  });

  it('refuses a file without externalIds that the account imported before, the day named, until --again; the import is recorded as an upload is', async () => {
    // An account of its own (the others' exports are checked below).
    const { accountId: account, campaignId: campaign } = await cliOrg(dataDir, 'Twice Org');
    // Two identical $19.99 cash gifts from one donor: two rows, no externalId to tell them apart.
    const donors = csvFile([
      ['externalId', 'firstName', 'lastName'],
      ['rb-twice', 'Robert', 'Brown'],
    ]);
    expect(
      (await giftdesk(['import', 'contacts', donors, '--account', account, '--data-dir', dataDir, '--json']))
        .status,
    ).toBe(0);
    const gifts = csvFile([
      ['contactExternalId', 'donationAmount', 'donationDate', 'paymentMethod', 'campaignId'],
      ['rb-twice', '19.99', '2025-03-01', 'cash', campaign],
      ['rb-twice', '19.99', '2025-03-01', 'cash', campaign],
    ]);
    const run = (...more: string[]) =>
      giftdesk([
        'import',
        'donations',
        gifts,
        '--account',
        account,
        '--data-dir',
        dataDir,
        '--json',
        ...more,
      ]);
    const giftsOf = () => {
      const db = new BetterSqlite3(path.join(dataDir, 'giftdesk.sqlite'), { readonly: true });
      try {
        return Number(
          db
            .prepare(
              "select count(*) from donations d join contacts c on c.id = d.contact_id where c.external_id = 'rb-twice'",
            )
            .pluck()
            .get(),
        );
      } finally {
        db.close();
      }
    };
    const first = await run();
    expect(first.status).toBe(0);
    expect(jsonOut(first)).toEqual({ imported: 2, rejected: [] });
    expect(giftsOf()).toBe(2);

    const twice = await run();
    expect(twice.status).not.toBe(0);
    const refused = JSON.parse(twice.stderr) as { error: { code: string; message: string } };
    expect(refused.error.code).toBe('imported_before');
    expect(refused.error.message).toMatch(
      /^This file was imported on \d{4}-\d{2}-\d{2} at \d{2}:\d{2} UTC \(2 rows added\)/,
    );
    expect(giftsOf()).toBe(2);

    // Recorded as the app's uploads are: the app's list shows it, and an upload of the same
    // file is refused there too.
    const db = new BetterSqlite3(path.join(dataDir, 'giftdesk.sqlite'), { readonly: true });
    const jobs = db
      .prepare(
        "select status, imported_rows as imported from imports where kind = 'donations' and file_sha256 is not null",
      )
      .all();
    db.close();
    expect(jobs).toContainEqual({ status: 'done', imported: 2 });

    const forced = await run('--again');
    expect(forced.status).toBe(0);
    expect(jsonOut(forced)).toEqual({ imported: 2, rejected: [] });
    expect(giftsOf()).toBe(4);
  });

  it('exports CSV to stdout, or to a file with {"written": N}', async () => {
    const stdout = await giftdesk(['export', 'donations', '--account', accountId, '--data-dir', dataDir]);
    expect(stdout.status).toBe(0);
    const lines = stdout.stdout.split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(/^externalId,contactExternalId,donationAmount,donationDate,/);
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
      'g1,c1,100.00',
      'g2,c1,25.50',
    ]);

    const out = path.join(tempDir('giftdesk-cli-export-'), 'contacts.csv');
    dirs.push(path.dirname(out));
    const written = await giftdesk([
      'export',
      'contacts',
      '--account',
      accountId,
      '--out',
      out,
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect(written.status).toBe(0);
    expect(jsonOut(written)).toEqual({ written: 1 });
    expect(fs.readFileSync(out, 'utf8')).toMatch(
      /^externalId,firstName,lastName,.*\r\nc1,Zoë,Núñez,INDIVIDUAL,ACTIVE,/s,
    );
  });

  it('refuses a file with unknown columns as a whole: non-zero exit, the columns named on stderr, nothing imported', async () => {
    const file = csvFile([
      ['externalId', 'first', 'lastName', 'Shoe Size'],
      ['z9', 'Ana', 'Ok', '39'],
    ]);
    const r = await giftdesk([
      'import',
      'contacts',
      file,
      '--account',
      accountId,
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const err = JSON.parse(r.stderr) as { error: { code: string; message: string } };
    expect(err.error.code).toBe('invalid_columns');
    expect(err.error.message).toMatch(/unknown columns "first", "Shoe Size"; missing column firstName/);
    expect(pushCounts().find((c) => c.entityType === 'contact')?.n).toBe(1);
  });

  it('says clearly what is wrong with the command itself', async () => {
    const file = csvFile([['firstName', 'lastName']]);
    const [noFile, badKind, noAccount] = await Promise.all([
      giftdesk([
        'import',
        'contacts',
        path.join(dataDir, 'missing.csv'),
        '--account',
        accountId,
        '--data-dir',
        dataDir,
        '--json',
      ]),
      giftdesk(['import', 'people', file, '--account', accountId, '--data-dir', dataDir, '--json']),
      giftdesk(['import', 'contacts', file, '--account', 'acct_nope', '--data-dir', dataDir, '--json']),
    ]);
    expect(noFile.status).toBe(66);
    expect(noFile.stderr).toMatch(/cannot read .*missing\.csv/);
    expect(badKind.status).toBe(64);
    expect(badKind.stderr).toMatch(/contacts or donations/);
    expect(noAccount.status).toBe(1);
    expect(noAccount.stderr).toMatch(/Account acct_nope was not found/);
  });
});

describe('giftdesk demo', () => {
  it('seeds a demo organisation and prints {"accountId", "keyId", "secret"}', async () => {
    const dir = tempDir('giftdesk-cli-demo-');
    dirs.push(dir);
    const r = await giftdesk(['demo', '--data-dir', dir, '--json']);
    expect(r.status).toBe(0);
    const out = jsonOut(r);
    expect(Object.keys(out).sort()).toEqual(['accountId', 'keyId', 'secret']);
    expect(out).toMatchObject({
      accountId: expect.stringMatching(/^acct_/),
      keyId: expect.stringMatching(/^gdk_/),
      secret: expect.stringMatching(/^gds_/),
    });
    const flags = await giftdesk([
      'flags',
      '--account',
      out.accountId as string,
      '--data-dir',
      dir,
      '--json',
    ]);
    expect((jsonOut(flags).flagged as unknown[]).length).toBeGreaterThan(0);
  });
});
