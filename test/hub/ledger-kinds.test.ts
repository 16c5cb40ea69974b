/**
 * The event's ledger is declared once and covers the whole database: every table of a real
 * migrated SQLite file is either mirrored by a named kind or a GiftDesk's own with a reason;
 * each kind's tables exist; the station has an apply for every kind, in the hub's order; and
 * the test switch GIFTDESK_LEDGER_SKIP leaves a kind out of the hub's feed. Over real HTTPS: a
 * snapshot kind comes when it changed and not again, and a long poll wakes when it changes (it
 * is not in the change log).
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContext, type DomainContext } from '../../electron/domain/context.ts';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { readChanges } from '../../electron/hub/feed.ts';
import { createFeedWaiters } from '../../electron/hub/feed-waiters.ts';
import { createElection, setDefaultElection } from '../../electron/domain/limits/index.ts';
import { LEDGER_KIND_NAMES, ledgerKinds } from '../../electron/hub/ledger-kinds.ts';
import { LEDGER_TABLES, engineTableReason } from '../../electron/hub/ledger-tables.ts';
import { LEDGER_APPLY } from '../../electron/sync/station/ledger-apply.ts';
import { HubChanges } from '#shared/schemas/hub.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { tempDir } from '../helpers/server.ts';
import { type Hub, type Station, startHub } from './hub-rig.ts';

let store: Store;
let ctx: DomainContext;

/** camelCase, as the schema names the tables. */
const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

beforeAll(async () => {
  store = await openStore({ dataDir: tempDir('giftdesk-ledger-') });
  ctx = createContext(store);
});
afterAll(async () => {
  await store?.close();
});

async function tablesOfTheDatabase(): Promise<string[]> {
  const r = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' order by name`.execute(store.db);
  return r.rows.map((x) => x.name);
}

describe('the ledger’s kinds', () => {
  it('every table of a migrated database is mirrored by a kind or is a GiftDesk’s own, with a reason', async () => {
    const tables = await tablesOfTheDatabase();
    expect(tables.length).toBeGreaterThan(40);
    const unclassified = tables.filter((t) => !(camel(t) in LEDGER_TABLES) && engineTableReason(t) === null);
    expect(unclassified).toEqual([]);
    for (const [table, c] of Object.entries(LEDGER_TABLES)) {
      if ('own' in c) expect(c.own.length, table).toBeGreaterThan(10);
      else expect(LEDGER_KIND_NAMES, table).toContain(c.kind);
    }
  });

  it('each kind’s tables exist, and each is classified under that kind', async () => {
    const tables = new Set((await tablesOfTheDatabase()).map(camel));
    for (const kind of ledgerKinds(async () => []))
      for (const t of kind.tables) {
        expect(tables.has(t), `${kind.name}: ${t}`).toBe(true);
        expect(LEDGER_TABLES[t], `${kind.name}: ${t}`).toMatchObject({ kind: kind.name });
      }
    // …and a table classified under a kind is one that kind names.
    for (const [table, c] of Object.entries(LEDGER_TABLES))
      if ('kind' in c)
        expect(ledgerKinds(async () => []).find((k) => k.name === c.kind)?.tables, table).toContain(table);
  });

  it('the station has an apply for every kind, and applies them in the hub’s order', () => {
    expect(Object.keys(LEDGER_APPLY).sort()).toEqual([...LEDGER_KIND_NAMES].sort());
    expect(new Set(LEDGER_KIND_NAMES).size).toBe(LEDGER_KIND_NAMES.length);
    // What a record names comes before it: donation accounts before campaigns, donors before gifts.
    const at = (n: string) => LEDGER_KIND_NAMES.indexOf(n as (typeof LEDGER_KIND_NAMES)[number]);
    expect(at('donationAccounts')).toBeLessThan(at('campaigns'));
    expect(at('customFields')).toBeLessThan(at('contacts'));
    expect(at('contacts')).toBeLessThan(at('gifts'));
  });
});

describe('GIFTDESK_LEDGER_SKIP (a test switch)', () => {
  afterEach(() => {
    delete process.env.GIFTDESK_LEDGER_SKIP;
  });

  it('leaves the named kinds out of the hub’s feed, and only those', async () => {
    const account = await createAccount(ctx, 'Gala Org');
    await createContact(ctx, { accountId: account.id, firstName: 'Robert', lastName: 'Brown' });
    const whole = await readChanges(ctx, account.id, undefined);
    expect(whole.contacts.map((c) => c.lastName)).toEqual(['Brown']);
    expect(Object.keys(whole.snapshots ?? {})).toEqual(
      expect.arrayContaining(['elections', 'letters', 'customFields', 'stations']),
    );

    process.env.GIFTDESK_LEDGER_SKIP = 'contacts, elections';
    const skipped = await readChanges(ctx, account.id, undefined);
    expect(skipped.contacts).toEqual([]);
    expect(skipped.snapshots?.elections).toBeUndefined();
    expect(skipped.snapshots?.letters).toBeDefined();
    expect(skipped.cursor).toBe(whole.cursor.replace(/^(\d+)\.[0-9a-f]+/, '$1.0'));
  });
});

describe('the long poll and the snapshot kinds', () => {
  it('a waiting read is woken when a snapshot kind changes (it is not in the change log)', async () => {
    const account = await createAccount(ctx, 'Gala Org');
    const { cursor } = await readChanges(ctx, account.id, undefined);
    const waiters = createFeedWaiters(store, { intervalMs: 100 });
    let woken = false;
    // Longer than a poll's patience: only the change can wake it in time.
    void waiters.wait(account.id, cursor, 120_000).then(() => (woken = true));
    await createElection(ctx, {
      accountId: account.id,
      electionType: 'general',
      electionYear: 2028,
      electionDate: '2028-11-07',
    });
    await expect.poll(() => woken).toBe(true);
    const next = await readChanges(ctx, account.id, cursor);
    let again = false;
    void waiters.wait(account.id, next.cursor, 120_000).then(() => (again = true));
    await setDefaultElection(ctx, account.id, { electionType: 'general', electionYear: 2028 });
    await expect.poll(() => again).toBe(true);
    waiters.close();
  });
});

describe('snapshot kinds over the feed', () => {
  let hub: Hub;
  let st: Station;
  beforeAll(async () => {
    hub = await startHub();
    st = await hub.join('Table A');
  });
  afterAll(async () => {
    await hub?.close();
  });
  const changes = async (query: string) =>
    HubChanges.parse(expectStatus(await st.request('GET', `/api/v1/hub/changes${query}`), 200));

  it('a list comes whole when it changed, not again, and a long poll wakes when it changes', async () => {
    let cursor = '';
    for (;;) {
      const p = await changes(`?after=${encodeURIComponent(cursor)}`);
      cursor = p.cursor;
      if (!p.more) break;
    }
    const quiet = await changes(`?after=${cursor}`);
    expect(quiet.snapshots).toEqual({});

    const held = changes(`?after=${cursor}&wait=30`);
    await expect.poll(() => hub.running.hub!.feed.waiting).toBe(1);
    expectStatus(
      await hub.request('POST', '/api/v1/elections', {
        accountId: hub.accountId,
        electionType: 'primary',
        electionYear: 2028,
        electionDate: '2028-03-07',
        isDefault: true,
      }),
      201,
    );
    const page = await held;
    expect(Object.keys(page.snapshots ?? {})).toEqual(['elections']);
    expect(page.snapshots?.elections).toMatchObject({
      elections: [{ electionType: 'primary', electionYear: 2028, electionDate: '2028-03-07' }],
      defaultElection: { electionType: 'primary', electionYear: 2028 },
    });
    expect((await changes(`?after=${page.cursor}`)).snapshots).toEqual({});
  });
});
