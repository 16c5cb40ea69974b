/**
 * `giftdesk letters` as a script runs it: a child process over a data folder, exactly one
 * JSON object on stdout with --json, the PDF where --out says (read back with pdf.js), one
 * file per donor on request, --mark-sent marking the run's gifts, and refusals on stderr
 * naming the option, with a non-zero exit and nothing on stdout.
 */
import { formatCents } from '#shared/money.ts';
import { LettersCliResult } from '#shared/schemas/letters.ts';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createDonation, getDonation } from '../../electron/domain/donations/index.ts';
import { createContext } from '../../electron/domain/index.ts';
import { createElection } from '../../electron/domain/limits/index.ts';
import { createCampaign } from '../../electron/domain/reference/index.ts';
import { saveLetterSettings } from '../../electron/letters/index.ts';
import { cliJson, isolatedEnv, runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/server.ts';
import { amountsOn, pdfPages } from './pdf-text.ts';

const cleanup: string[] = [];
let env: NodeJS.ProcessEnv;
let data: string;
let out: string;
let accountId: string;
const gifts2025: string[] = [];
const gifts2026: string[] = [];

beforeAll(async () => {
  data = tempDir('giftdesk-letters-cli-');
  out = tempDir('giftdesk-letters-out-');
  const iso = isolatedEnv({ GIFTDESK_DATA_DIR: data });
  env = iso.env;
  cleanup.push(data, out, iso.home);
  accountId = (await cliJson(['account', 'create', '--name', 'Riverside Food Bank'], env)).id as string;
  const store = await openStore({ dataDir: data });
  try {
    const ctx = createContext(store);
    const campaign = await createCampaign(ctx, { accountId, name: 'Spring appeal' });
    const donor = async (firstName: string, lastName: string, street: string) =>
      (
        await createContact(ctx, {
          accountId,
          firstName,
          lastName,
          addresses: [{ street1: street, city: 'Springfield' }],
        })
      ).id;
    const gift = async (contactId: string, donationAmount: number, donationDate: string) =>
      (
        await createDonation(ctx, {
          accountId,
          contactId,
          donationAmount,
          donationDate,
          paymentMethod: 'check',
          campaignId: campaign.id,
        })
      ).id;
    const khai = await donor('Nguyễn Thị Minh', 'Khai', '1 Lê Lợi');
    const zoe = await donor('Zoë', 'Núñez', '2 Calle Mayor');
    gifts2025.push(
      await gift(khai, 120.5, '2025-05-01'),
      await gift(khai, 19.99, '2025-11-30'),
      await gift(zoe, 1000, '2025-12-31'),
    );
    gifts2026.push(await gift(zoe, 42.42, '2026-01-15'));
  } finally {
    await store.close();
  }
}, 120_000);

afterAll(() => {
  for (const d of cleanup) fs.rmSync(d, { recursive: true, force: true });
});

describe('giftdesk letters', () => {
  it('prints a year-end statement per donor into --out and says so in one JSON object', async () => {
    const file = path.join(out, 'year-end-2025.pdf');
    const r = await cliJson(
      ['letters', '--account', accountId, '--kind', 'year-end', '--year', '2025', '--out', file],
      env,
    );
    expect(r).toMatchObject({ documents: 2, gifts: 3, file, total: 1140.49 });
    expect(LettersCliResult.parse(r)).toEqual({ documents: 2, gifts: 3, file });
    const pages = await pdfPages(file);
    expect(pages).toHaveLength(2);
    const khai = pages.find((p) => p.includes('Nguyễn Thị Minh Khai'))!;
    const zoe = pages.find((p) => p.includes('Zoë Núñez'))!;
    expect(amountsOn(khai)).toEqual([formatCents(12050), formatCents(1999), formatCents(14049)]);
    expect(amountsOn(zoe)).toEqual([formatCents(100000), formatCents(100000)]);
    expect(khai.join('\n')).toContain('Your giving in 2025');
  }, 120_000);

  it('writes a run of more letters than a part holds as one file a part, and lists them', async () => {
    const file = path.join(out, 'year-end-2025-parts.pdf');
    const r = await cliJson(
      ['letters', '--account', accountId, '--kind', 'year-end', '--year', '2025', '--out', file],
      { ...env, GIFTDESK_LETTERS_PER_PART: '1' },
    );
    const parsed = LettersCliResult.parse(r);
    const stem = file.replace(/\.pdf$/, '');
    expect(parsed.parts?.map((p) => [p.file, p.firstLetter, p.lastLetter, p.pages])).toEqual([
      [`${stem}-part-1-of-2.pdf`, 1, 1, 1],
      [`${stem}-part-2-of-2.pdf`, 2, 2, 1],
    ]);
    expect(parsed).toMatchObject({ documents: 2, gifts: 3, file: `${stem}-part-1-of-2.pdf` });
    expect(fs.existsSync(file)).toBe(false);
    const names = await Promise.all(
      parsed.parts!.map(async (p) => (await pdfPages(p.file)).flat().join('\n')),
    );
    expect(names[0]).toContain('Nguyễn Thị Minh Khai');
    expect(names[1]).toContain('Zoë Núñez');
  }, 120_000);

  it('--not-thanked --mark-sent --per-donor: one file per donor, the gifts marked, and a second run finds none', async () => {
    const file = path.join(out, 'thanks.pdf');
    const r = await cliJson(
      [
        'letters',
        '--account',
        accountId,
        '--kind',
        'thank-you',
        '--not-thanked',
        '--mark-sent',
        '--per-donor',
        '--out',
        file,
      ],
      env,
    );
    expect(r).toMatchObject({
      documents: 2,
      gifts: 4,
      file,
      marked: 4,
      perDonorDir: path.join(out, 'thanks'),
    });
    expect(fs.readdirSync(path.join(out, 'thanks')).sort()).toEqual([
      '00001-nguyen-thi-minh-khai.pdf',
      '00002-zoe-nunez.pdf',
    ]);
    expect((await pdfPages(path.join(out, 'thanks', '00002-zoe-nunez.pdf')))[0]).toContain('Zoë Núñez');
    const store = await openStore({ dataDir: data });
    try {
      const ctx = createContext(store);
      for (const id of [...gifts2025, ...gifts2026])
        expect((await getDonation(ctx, accountId, id)).thankYouSent).toBe(true);
    } finally {
      await store.close();
    }
    const again = path.join(out, 'again.pdf');
    const second = await cliJson(
      ['letters', '--account', accountId, '--kind', 'thank-you', '--not-thanked', '--out', again],
      env,
    );
    expect(second).toMatchObject({ documents: 0, gifts: 0, file: null });
    expect(fs.existsSync(again)).toBe(false);
  }, 120_000);

  it('refuses a receipt without --donation, an unknown campaign and a missing folder: stderr, non-zero, nothing on stdout', async () => {
    const file = path.join(out, 'r.pdf');
    const receipt = await runCli(
      ['letters', '--account', accountId, '--kind', 'receipt', '--out', file],
      env,
    );
    expect(receipt.status).not.toBe(0);
    expect(receipt.stdout).toBe('');
    expect(receipt.stderr).toContain('--donation is required for a receipt');
    const campaign = await runCli(
      [
        'letters',
        '--account',
        accountId,
        '--kind',
        'thank-you',
        '--campaign',
        'cmp_nope',
        '--out',
        file,
        '--json',
      ],
      env,
    );
    expect(campaign.status).not.toBe(0);
    expect(campaign.stdout).toBe('');
    expect(JSON.parse(campaign.stderr)).toMatchObject({
      error: { message: expect.stringContaining('cmp_nope was not found') },
    });
    const folder = await runCli(
      [
        'letters',
        '--account',
        accountId,
        '--kind',
        'thank-you',
        '--out',
        path.join(out, 'no', 'such', 'x.pdf'),
      ],
      env,
    );
    expect(folder.status).not.toBe(0);
    expect(folder.stderr).toContain('does not exist');
    expect(fs.existsSync(file)).toBe(false);
  }, 120_000);

  it('a charity’s wording for an organisation with an election needs --confirm-wording', async () => {
    const political = (await cliJson(['account', 'create', '--name', 'Friends of Ana Ruiz'], env))
      .id as string;
    const store = await openStore({ dataDir: data });
    try {
      const ctx = createContext(store);
      await createElection(ctx, {
        accountId: political,
        electionType: 'primary',
        electionYear: 2028,
        electionDate: '2028-03-07',
      });
      await saveLetterSettings(ctx, { accountId: political, orgKind: 'charity' });
      const campaign = await createCampaign(ctx, { accountId: political, name: 'Primary push' });
      for (const street of ['1 Elm St', '2 Oak Ave']) {
        const brown = await createContact(ctx, {
          accountId: political,
          firstName: 'Robert',
          lastName: 'Brown',
          addresses: [{ street1: street }],
        });
        await createDonation(ctx, {
          accountId: political,
          contactId: brown.id,
          donationAmount: 19.99,
          donationDate: '2026-11-30',
          paymentMethod: 'cash',
          campaignId: campaign.id,
        });
      }
    } finally {
      await store.close();
    }
    const file = path.join(out, 'political.pdf');
    const args = ['letters', '--account', political, '--kind', 'thank-you', '--out', file];
    const refused = await runCli(args, env);
    expect(refused.status).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('Primary 2028');
    expect(refused.stderr).toContain('--confirm-wording');
    expect(fs.existsSync(file)).toBe(false);
    const printed = await runCli([...args, '--confirm-wording', '--json'], env);
    expect(printed.status, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout)).toMatchObject({ documents: 2, gifts: 2 });
    expect((await pdfPages(file)).flat().join(' ')).toContain('tax records');
  }, 120_000);
});
