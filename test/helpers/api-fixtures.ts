/**
 * Fixtures for the API suite (test/api): records made through the real HTTP API, error-body
 * checks, and `snapshot`, which reads every table so a test can prove that a rejected request
 * changed nothing. Engine-agnostic: it works through the harness's store on SQLite or PostgreSQL.
 */
import { expect } from 'vitest';
import type { Database } from '../../electron/db/schema.ts';
import type { Contact } from '#shared/schemas/contacts.ts';
import type { DonationCreated, DonationDetail } from '#shared/schemas/donations.ts';
import { createCustomField } from '../../electron/domain/contacts/custom-fields.ts';
import {
  createCampaign,
  createCommittee,
  createDonationAccount,
} from '../../electron/domain/reference/records.ts';
import { rawRequest, type ApiResponse, type TestServer } from './server.ts';

/**
 * A spec-only server (`serve --spec-only`) has no route to define campaigns, committees,
 * donation accounts or custom fields (staff define them in HQ's application): the fixtures
 * define them through the domain there, as staff would, and serialise them like the route.
 */
const asJson = <T>(x: unknown): T => JSON.parse(JSON.stringify(x)) as T;

type Body = Record<string, unknown>;

/** Asserts the status (showing the body when it differs) and returns the parsed body. */
export function expectStatus(res: ApiResponse, status: number): ApiResponse['body'] {
  expect(res.status, `${res.status} ${res.text}`).toBe(status);
  return res.body;
}

/**
 * The same server seen through a second account and its own key: a `TestServer` whose
 * `accountId` and `request` are that account's, so every fixture works for it unchanged.
 * Tests of account-wide settings (default election) use one each.
 */
export async function asNewAccount(s: TestServer): Promise<TestServer> {
  const a = await s.otherAccount();
  const auth = { 'x-api-key': a.keyId, authorization: `Bearer ${a.secret}` };
  return {
    ...s,
    ...a,
    request: (method, path, body, headers = {}) =>
      rawRequest(`${s.url}${path}`, method, body, { ...auth, ...headers }),
  };
}

/* ---------------- records, made over HTTP ---------------- */

export async function makeContact(s: TestServer, fields: Body = {}): Promise<Contact> {
  const res = await s.request('POST', '/api/v1/contacts', {
    accountId: s.accountId,
    firstName: 'Ada',
    lastName: 'Lovelace',
    ...fields,
  });
  return expectStatus(res, 201);
}

export interface Limits {
  perElection?: number | null;
  perCycle?: number | null;
  perYear?: number | null;
  perDonor?: number | null;
}

export async function makeDonationAccount(
  s: TestServer,
  limits: Limits = {},
  name = 'Federal',
): Promise<{ id: string; name: string; limits: Required<Limits> }> {
  if (s.specOnly)
    return asJson(await createDonationAccount(s.ctx, { accountId: s.accountId, name, ...limits }));
  return expectStatus(
    await s.request('POST', '/api/v1/donation-accounts', { accountId: s.accountId, name, limits }),
    201,
  );
}

export async function makeCampaign(
  s: TestServer,
  name = 'Spring Gala',
  donationAccountIds?: string[],
): Promise<{ id: string; name: string; totalRaised: number; donationCount: number }> {
  if (s.specOnly)
    return asJson(
      await createCampaign(s.ctx, {
        accountId: s.accountId,
        name,
        ...(donationAccountIds ? { donationAccountIds } : {}),
      }),
    );
  const body: Body = { accountId: s.accountId, name };
  if (donationAccountIds) body.donationAccountIds = donationAccountIds;
  return expectStatus(await s.request('POST', '/api/v1/campaigns', body), 201);
}

/** A batch in the test account, through the API: `fields` beside the account (a name at least). */
export async function makeBatch(s: TestServer, fields: Body & { name: string }): Promise<{ id: string }> {
  return expectStatus(await s.request('POST', '/api/v1/batches', { accountId: s.accountId, ...fields }), 201);
}

export async function makeCommittee(
  s: TestServer,
  name = 'Friends Committee',
): Promise<{ id: string; name: string }> {
  if (s.specOnly) return asJson(await createCommittee(s.ctx, { accountId: s.accountId, name }));
  return expectStatus(await s.request('POST', '/api/v1/committees', { accountId: s.accountId, name }), 201);
}

export interface CustomFieldDef {
  id: string;
  name: string;
  type: 'text' | 'number' | 'date' | 'picklist';
  archived: boolean;
  options: Array<{ id: string; name: string; retired: boolean }>;
}

/** Defines a custom field through the extension route (the contact API cannot). */
export async function makeCustomField(
  s: TestServer,
  name: string,
  type: CustomFieldDef['type'],
  options?: string[],
): Promise<CustomFieldDef> {
  if (s.specOnly)
    return asJson(
      await createCustomField(s.ctx, { accountId: s.accountId, name, type, ...(options ? { options } : {}) }),
    );
  const body: Body = { accountId: s.accountId, name, type };
  if (options) body.options = options;
  return expectStatus(await s.request('POST', '/api/v1/custom-fields', body), 201);
}

export async function customFieldAction(
  s: TestServer,
  fieldId: string,
  action: Body,
): Promise<CustomFieldDef> {
  return expectStatus(
    await s.request('POST', `/api/v1/custom-fields/${fieldId}/actions`, {
      accountId: s.accountId,
      ...action,
    }),
    200,
  );
}

/** A valid gift body for `contactId`; pass a designation (campaignId, …) in `fields`. */
export function giftBody(s: TestServer, contactId: string, fields: Body = {}): Body {
  return {
    accountId: s.accountId,
    contactId,
    donationAmount: 50,
    donationDate: '2026-03-01',
    paymentMethod: 'check',
    ...fields,
  };
}

export async function makeDonation(
  s: TestServer,
  contactId: string,
  fields: Body = {},
): Promise<DonationCreated> {
  return expectStatus(await s.request('POST', '/api/v1/donations', giftBody(s, contactId, fields)), 201);
}

export async function getContact(s: TestServer, id: string): Promise<Contact> {
  return expectStatus(await s.request('GET', `/api/v1/contacts/${id}?accountId=${s.accountId}`), 200);
}

export async function getDonation(s: TestServer, id: string): Promise<DonationDetail> {
  return expectStatus(await s.request('GET', `/api/v1/donations/${id}?accountId=${s.accountId}`), 200);
}

/* ---------------- error bodies ---------------- */

const ERROR_KEYS = ['statusCode', 'error', 'code', 'message', 'details', 'retryAfter'];

/** True when a text looks like it carries a stack trace or source location. */
export function looksLikeStack(text: string): boolean {
  return /\n\s+at\s|\bat\s+\S+\s+\(|\.ts:\d+|\.js:\d+|node_modules|"stack"/.test(text);
}

/**
 * Asserts an error response: the status, the documented body shape
 * `{statusCode, error, code, message, details?: [{field, issue}]}`, no stack trace, and
 * (when given) the code and a detail naming `field`.
 */
export function expectError(
  res: ApiResponse,
  status: number,
  want: { code?: string; field?: string } = {},
): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  const body: unknown = res.body;
  expect(body, res.text).toBeTypeOf('object');
  const b = body as Record<string, unknown>;
  expect(
    Object.keys(b).filter((k) => !ERROR_KEYS.includes(k)),
    res.text,
  ).toEqual([]);
  expect(b.statusCode).toBe(status);
  expect(b.error).toBeTypeOf('string');
  expect((b.error as string).length).toBeGreaterThan(0);
  expect(b.code).toMatch(/^[a-z][a-z0-9_]*$/);
  expect(b.message).toBeTypeOf('string');
  expect((b.message as string).length).toBeGreaterThan(0);
  if (b.details !== undefined) {
    expect(Array.isArray(b.details)).toBe(true);
    for (const d of b.details as unknown[]) {
      expect(Object.keys(d as object).sort()).toEqual(['field', 'issue']);
      expect((d as { field: unknown }).field).toBeTypeOf('string');
      expect((d as { issue: unknown }).issue).toBeTypeOf('string');
    }
  }
  expect(looksLikeStack(res.text), res.text).toBe(false);
  if (want.code) expect(b.code, res.text).toBe(want.code);
  if (want.field) {
    const fields = ((b.details as Array<{ field: string }> | undefined) ?? []).map((d) => d.field);
    expect(fields, res.text).toContain(want.field);
    // a 400's sentence names the field too (a 404's names the missing record)
    if (status === 400)
      expect(b.message as string, 'the message names the field').toContain(want.field.split(/[.[]/)[0]);
  }
}

/* ---------------- snapshot: proof that a rejected request changed nothing ---------------- */

/** Every table of the schema; `satisfies` makes a new table a compile error here until listed. */
const TABLES = {
  accounts: true,
  apiKeys: true,
  contacts: true,
  contactPhones: true,
  contactEmails: true,
  contactAddresses: true,
  contactEducation: true,
  contactEmployment: true,
  contactNotes: true,
  customFields: true,
  customFieldOptions: true,
  contactCustomValues: true,
  campaigns: true,
  campaignDonationAccounts: true,
  committees: true,
  donationAccounts: true,
  elections: true,
  donations: true,
  batches: true,
  batchCounts: true,
  batchCountLines: true,
  limitFlags: true,
  donationHistory: true,
  changeLog: true,
  accountCounterSlots: true,
  imports: true,
  importRejections: true,
  syncRemotes: true,
  syncLinks: true,
  syncItems: true,
  syncTrailSent: true,
  syncLease: true,
  syncPullRuns: true,
  syncDirectory: true,
  syncHqContacts: true,
  donationSyncReferences: true,
  contactSyncReferences: true,
  retiredContactReferences: true,
  donorTotalDeltas: true,
  hubSettings: true,
  hubStations: true,
  hubPairingCodes: true,
  hubWrongCodes: true,
  hubNotices: true,
  hubHeldGifts: true,
  eventStations: true,
  hubSentGifts: true,
  letterSettings: true,
  letterTemplates: true,
  letterRuns: true,
  letterRunGifts: true,
  letterRunDonors: true,
  users: true,
  userPasswordTokens: true,
  signInFailures: true,
  contactHistory: true,
  rateBuckets: true,
  appLinks: true,
} satisfies Record<keyof Database, true>;
// The rate limit's buckets (PostgreSQL) are spent by every request, a refused one too: not data.
const TABLE_NAMES = (Object.keys(TABLES) as Array<keyof Database>).filter((t) => t !== 'rateBuckets');

export interface Snapshot {
  /** Row count of every table. */
  counts: Record<string, number>;
  /** Every row of every table, in a stable order (apiKeys without lastUsedAt, which a read touches). */
  rows: Record<string, string[]>;
  /** Whether the API reads below were made (not with `viaApi: false`, e.g. while rate-limited). */
  viaApi: boolean;
  /** The affected records as the API shows them. */
  contacts: Record<string, ApiResponse['body']>;
  donationList: ApiResponse['body'];
}

/**
 * Reads every table (counts and rows) and, through the API, the given contacts and the
 * first page of donations. Compare two with `expectUnchanged`.
 */
export async function snapshot(
  s: TestServer,
  affected: { contacts?: string[]; viaApi?: boolean } = {},
): Promise<Snapshot> {
  const counts: Record<string, number> = {};
  const rows: Record<string, string[]> = {};
  for (const table of TABLE_NAMES) {
    const all: Array<Record<string, unknown>> = await s.store.db.selectFrom(table).selectAll().execute();
    counts[table] = all.length;
    rows[table] = all
      .map((r) => {
        const { lastUsedAt: _ignored, ...rest } = r;
        return JSON.stringify(table === 'apiKeys' ? rest : r);
      })
      .sort();
  }
  const contacts: Record<string, ApiResponse['body']> = {};
  if (affected.viaApi === false) return { counts, rows, viaApi: false, contacts, donationList: null };
  for (const id of affected.contacts ?? []) {
    const r = await s.request('GET', `/api/v1/contacts/${id}?accountId=${s.accountId}`);
    contacts[id] = { status: r.status, body: r.body };
  }
  const list = await s.request('GET', `/api/v1/donations?accountId=${s.accountId}&limit=100`);
  return { counts, rows, viaApi: true, contacts, donationList: list.body };
}

/** Takes a new snapshot and asserts it equals `before` in every table and record. */
export async function expectUnchanged(s: TestServer, before: Snapshot): Promise<void> {
  const after = await snapshot(s, { contacts: Object.keys(before.contacts), viaApi: before.viaApi });
  expect(after.counts).toEqual(before.counts);
  expect(after.rows).toEqual(before.rows);
  expect(after.contacts).toEqual(before.contacts);
  expect(after.donationList).toEqual(before.donationList);
}

/**
 * Sends a request that must be refused: asserts the error (status, shape, code, field) and
 * that nothing in the database or in the named contacts changed.
 */
export async function expectRejected(
  s: TestServer,
  send: () => Promise<ApiResponse>,
  status: number,
  want: { code?: string; field?: string; contacts?: string[] } = {},
): Promise<ApiResponse> {
  const before = await snapshot(s, { contacts: want.contacts });
  const res = await send();
  expectError(res, status, want);
  await expectUnchanged(s, before);
  return res;
}
