/**
 * Migrations: frozen, named by date, applied in date order; a new one is never dated before
 * the newest; one that fails halfway leaves the database exactly as it was; an existing
 * database is backed up (`vacuum into`) before it is migrated; and one a newer GiftDesk
 * updated is refused.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { NamedMigration } from '../../electron/db/migration-types.ts';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { openSqlite } from '../../electron/db/sqlite/open.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { createContext } from '../../electron/domain/context.ts';
import { tempDir } from '../helpers/server.ts';

const DIR = path.resolve('electron/db/migrations');
const NAME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3])([0-5]\d)-[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Given the migration files grouped by the commit that added them (oldest commit first, files
 * not yet committed last), every file must be dated after every file of an earlier group.
 */
function datedBeforeAnEarlierOne(groups: string[][]): string[] {
  const problems: string[] = [];
  let newest = '';
  for (const group of groups) {
    for (const name of group)
      if (name <= newest) problems.push(`${name} is dated before ${newest}, which was added earlier`);
    for (const name of group) if (name > newest) newest = name;
  }
  return problems;
}

function migrationFiles(): string[] {
  return fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
}

function gitAvailable(): boolean {
  try {
    execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

describe('the list of migrations', () => {
  it('names each by a real date and time, oldest first, with no duplicates', () => {
    const names = MIGRATIONS.map((m) => m.name);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) {
      const m = NAME.exec(n);
      expect(m, `${n} is not named YYYY-MM-DDTHHMM-words`).not.toBeNull();
      const [y, mo, d] = [Number(m![1]), Number(m![2]), Number(m![3])];
      expect(new Date(Date.UTC(y, mo - 1, d)).toISOString().slice(0, 10), `${n} is not a real date`).toBe(
        `${m![1]}-${m![2]}-${m![3]}`,
      );
    }
    expect(names, 'MIGRATIONS must be in date order').toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it('lists every migration file, each under its file name', () => {
    expect(MIGRATIONS.map((m) => m.name).sort()).toEqual(migrationFiles());
  });

  it('spots a migration added with a date before the newest (the check itself)', () => {
    expect(
      datedBeforeAnEarlierOne([['2026-01-01T0900-a'], ['2026-02-01T0900-b', '2026-01-15T0900-c']]),
    ).toEqual([]);
    expect(
      datedBeforeAnEarlierOne([['2026-01-01T0900-a', '2026-02-01T0900-b'], ['2026-01-15T0900-c']]),
    ).toEqual(['2026-01-15T0900-c is dated before 2026-02-01T0900-b, which was added earlier']);
  });

  it.skipIf(!gitAvailable())(
    'never gains a migration dated before one added earlier (git history, then uncommitted files)',
    () => {
      const present = new Set(migrationFiles());
      // Each commit that added migrations, when: `git log` leaves out what a merge added
      // itself (a migration renamed while merging its branch), which the merges' own diffs
      // against the branch they were merged into (--first-parent -m) show.
      const added = (extra: string[]) =>
        execFileSync(
          'git',
          [
            'log',
            ...extra,
            '--no-renames',
            '--diff-filter=A',
            '--format=@%ct',
            '--name-only',
            '--',
            'electron/db/migrations/',
          ],
          { encoding: 'utf8' },
        )
          .split('@')
          .slice(1)
          .map((chunk) => {
            const [when = '0', ...lines] = chunk.split('\n');
            return {
              when: Number(when),
              names: lines
                .map((l) => path.basename(l.trim()).replace(/\.ts$/, ''))
                .filter((n) => present.has(n)),
            };
          })
          .filter((g) => g.names.length > 0);
      const commits = added([]);
      const seen = new Set(commits.flatMap((g) => g.names));
      for (const merge of added(['--first-parent', '-m'])) {
        const names = merge.names.filter((n) => !seen.has(n));
        if (names.length > 0) commits.push({ when: merge.when, names });
        names.forEach((n) => seen.add(n));
      }
      const groups = commits.sort((a, b) => a.when - b.when).map((g) => g.names);
      const fresh = [...present].filter((n) => !seen.has(n));
      if (fresh.length > 0) groups.push(fresh);
      expect(datedBeforeAnEarlierOne(groups)).toEqual([]);
    },
  );
});

/* ---------------- applying migrations to a real SQLite file ---------------- */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function databaseWithData(): Promise<{ file: string; accountId: string; contactId: string }> {
  const dir = tempDir();
  dirs.push(dir);
  const file = path.join(dir, 'giftdesk.sqlite');
  const store = await openSqlite({ file });
  const ctx = createContext(store);
  const { id: accountId } = await createAccount(ctx, 'Friends of the Library');
  const contact = await createContact(ctx, {
    accountId,
    firstName: 'Ada',
    lastName: 'Lovelace',
    tags: ['donor'],
  });
  await store.close();
  return { file, accountId, contactId: contact.id };
}

/** Everything about the file a migration could change: schema, every row of every table. */
function fingerprint(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const schema = db
      .prepare(
        "select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by type, name",
      )
      .all() as Array<{ type: string; name: string }>;
    const rows = schema
      .filter((s) => s.type === 'table')
      .map((s) => ({ table: s.name, rows: db.prepare(`select * from "${s.name}" order by 1`).all() }));
    return JSON.stringify({ schema, rows });
  } finally {
    db.close();
  }
}

const backupsOf = (file: string) =>
  fs
    .readdirSync(path.dirname(file))
    .filter((f) => f.startsWith(`${path.basename(file)}.before-`) && f.endsWith('.bak'));

describe('migrating a SQLite file', () => {
  it('leaves the database exactly as it was when a migration fails halfway', async () => {
    const { file, accountId } = await databaseWithData();
    const before = fingerprint(file);
    const broken: NamedMigration = {
      name: '2999-01-01T0000-broken',
      migration: () => ({
        async up(db) {
          await sql`create table extra (id text primary key)`.execute(db);
          await sql`insert into extra values ('x')`.execute(db);
          await sql`update accounts set name = 'changed'`.execute(db);
          await sql`alter table contacts add column nickname text`.execute(db);
          await sql`drop index contacts_account_email`.execute(db);
          throw new Error('boom halfway');
        },
      }),
    };
    const failed = openSqlite({ file, migrations: [...MIGRATIONS, broken] });
    await expect(failed).rejects.toThrow('boom halfway');
    // The error names the step, says it was undone, and where the copy taken before it is.
    const [backup] = backupsOf(file);
    await expect(failed).rejects.toMatchObject({
      code: 'migration_failed',
      migration: '2999-01-01T0000-broken',
      message: `Updating the database failed at step 2999-01-01T0000-broken: boom halfway. That step was undone: the database is as it was before it. A copy of the file from before this update is at ${path.join(path.dirname(file), backup!)}.`,
    });
    expect(fingerprint(file)).toBe(before);

    // The app opens it as before, with its data, and can write to it.
    const store = await openSqlite({ file });
    const ctx = createContext(store);
    const account = await store.db
      .selectFrom('accounts')
      .select('name')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(account.name).toBe('Friends of the Library');
    await createContact(ctx, { accountId, firstName: 'Grace', lastName: 'Hopper' });
    await store.close();
  });

  it('backs up a database with data before migrating it, and the backup holds the data as it was', async () => {
    const { file, accountId, contactId } = await databaseWithData();
    expect(backupsOf(file)).toEqual([]);
    const next: NamedMigration = {
      name: '2999-01-02T0000-add-nickname',
      migration: () => ({
        async up(db) {
          await sql`alter table contacts add column nickname text`.execute(db);
          await sql`update contacts set nickname = 'Countess'`.execute(db);
        },
      }),
    };
    const store = await openSqlite({ file, migrations: [...MIGRATIONS, next] });
    await store.close();

    const backups = backupsOf(file);
    expect(backups).toHaveLength(1);
    expect(backups[0]).toContain('before-2999-01-02T0000-add-nickname');
    const backup = new BetterSqlite3(path.join(path.dirname(file), backups[0]!), { readonly: true });
    try {
      expect(backup.prepare('select id from accounts').all()).toEqual([{ id: accountId }]);
      expect(backup.prepare('select id, first_name from contacts').all()).toEqual([
        { id: contactId, first_name: 'Ada' },
      ]);
      const columns = (backup.prepare('pragma table_info(contacts)').all() as Array<{ name: string }>).map(
        (c) => c.name,
      );
      expect(columns).not.toContain('nickname'); // taken before the migration ran
      const applied = (
        backup.prepare('select name from giftdesk_migrations').all() as Array<{ name: string }>
      ).map((r) => r.name);
      expect(applied).toEqual(MIGRATIONS.map((m) => m.name));
    } finally {
      backup.close();
    }

    const migrated = new BetterSqlite3(file, { readonly: true });
    try {
      expect(migrated.prepare('select nickname from contacts').all()).toEqual([{ nickname: 'Countess' }]);
    } finally {
      migrated.close();
    }
  });

  it('refuses a database a newer GiftDesk updated, changing nothing; an unknown name dated earlier is left alone', async () => {
    const { file } = await databaseWithData();
    const record = (name: string) => {
      const db = new BetterSqlite3(file);
      db.prepare('insert into giftdesk_migrations (name, applied_at) values (?, ?)').run(
        name,
        new Date().toISOString(),
      );
      db.close();
    };
    record('2026-11-23T0800-renamed-before-release'); // a name this version does not know, dated before its newest
    await (await openSqlite({ file })).close();

    record('2999-06-01T0900-gift-aid-declarations');
    const before = fingerprint(file);
    await expect(openSqlite({ file })).rejects.toMatchObject({
      code: 'database_newer',
      message: expect.stringContaining(
        `it records the update 2999-06-01T0900-gift-aid-declarations, which this version does not know (its newest is ${MIGRATIONS.at(-1)!.name})`,
      ),
    });
    expect(fingerprint(file)).toBe(before);
    expect(backupsOf(file)).toEqual([]);
  });

  it('makes no backup of a new, empty database, nor when nothing is pending', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = path.join(dir, 'giftdesk.sqlite');
    await (await openSqlite({ file })).close();
    await (await openSqlite({ file })).close();
    expect(backupsOf(file)).toEqual([]);
  });
});
