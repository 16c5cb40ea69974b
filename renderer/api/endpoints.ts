/**
 * One typed function per API route the app uses. Request types come from the shared zod
 * schemas (without accountId: the client adds this session's), responses are parsed with
 * the shared response schemas. Screens call these through TanStack Query (see ./queries.ts).
 */
import { ContactHistory, DonationHistory } from '#shared/schemas/history.ts';
import { z } from 'zod';
import { LiveVersion } from '#shared/schemas/session.ts';
import {
  Contact,
  ContactCreateRequest,
  ContactDeleted,
  ContactList,
  ContactListQuery,
  ContactUpdateBody,
} from '#shared/schemas/contacts.ts';
import {
  Batch,
  BatchCreate,
  BatchDonationList,
  BatchGiftBody,
  BatchGiftSaved,
  BatchList,
  BatchUpdate,
} from '#shared/schemas/batches.ts';
import { BatchCountBody, DepositSummary } from '#shared/schemas/batch-balance.ts';
import {
  ContactDeletePreview,
  ContactDonationList,
  ContactDonationsQuery,
  ContactSummaryList,
  ContactSummaryQuery,
} from '#shared/schemas/contact-views.ts';
import {
  DonationCreated,
  DonationCreateRequest,
  DonationDetail,
  DonationList,
  DonationListQuery,
  DonationPatchBody,
  DonationVoidBody,
} from '#shared/schemas/donations.ts';
import { GiftCheck, GiftCheckQuery } from '#shared/schemas/gift-checks.ts';
import { Me, PasswordLinkIssued, User, UserCreate, UserCreated, UserPatch } from '#shared/schemas/people.ts';
import { ContactCredits, RaisedByQuery, RaisedByReport } from '#shared/schemas/raised-by.ts';
import { DonationStats, DonationStatsQuery } from '#shared/schemas/stats.ts';
import {
  Account,
  ApiKey,
  ApiKeyCreate,
  ApiKeyCreated,
  ApiKeyRevoked,
  Campaign,
  CampaignCreate,
  CampaignUpdate,
  CashGiftList,
  Committee,
  CommitteeCreate,
  CommitteeUpdate,
  CustomFieldAction,
  CustomFieldCreate,
  CustomFieldDefinition,
  DefaultElection,
  DonationAccount,
  DonationAccountCreate,
  DonationAccountUpdate,
  Election,
  ElectionCreate,
  Flag,
  FlagActionBody,
  FlagList,
} from '#shared/schemas/extensions.ts';
import { ImportJob } from '#shared/schemas/imports.ts';
import {
  LinkBody,
  LinkResult,
  PullRun,
  PullStatus,
  ReferenceCandidates,
  ReferenceLinkList,
} from '#shared/schemas/sync-pull.ts';
import {
  SyncAttentionList,
  SyncRecordState,
  SyncRunResult,
  SyncSettings,
  SyncSettingsBody,
  SyncStatus,
} from '#shared/schemas/sync.ts';
import type { ApiClient } from './client.ts';
import { ApiError } from './errors.ts';
import { eventEndpoints, hubEndpoints } from './event-endpoints.ts';
import { letterEndpoints } from './letter-endpoints.ts';

type Body<S extends z.ZodType> = Omit<z.input<S>, 'accountId'>;
/** Query parameters: strings on the wire, so numbers (limit, offset, year) are welcome too. */
type Q<S extends z.ZodType> = {
  [K in keyof Omit<z.input<S>, 'accountId'>]: z.input<S>[K] extends string | undefined
    ? z.input<S>[K] | number
    : z.input<S>[K];
};
const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

export type { Account, Campaign, Committee, DonationAccount };

export function endpoints(c: ApiClient) {
  return {
    accountId: c.accountId,
    /** The API key this window uses (Settings marks it and does not offer to revoke it). */
    keyId: c.keyId,
    /** The data folder a `giftdesk` command needs (--data-dir), or null: the default one. */
    dataDir: c.dataDir,
    raw: c,

    account: () => c.request('GET', '/account', { schema: Account }),
    /** Whether anyone else wrote since this window last asked (./live-refresh.ts). */
    live: () => c.request('GET', '/live', { schema: LiveVersion }),

    contacts: {
      list: (q: Q<typeof ContactListQuery> = {}, signal?: AbortSignal) =>
        c.request('GET', '/contacts', { schema: ContactList, query: q, signal }),
      get: (id: string) => c.request('GET', `/contacts/${encodeURIComponent(id)}`, { schema: Contact }),
      create: (body: Body<typeof ContactCreateRequest>) =>
        c.request('POST', '/contacts', { schema: Contact, body }),
      update: (id: string, body: Body<typeof ContactUpdateBody>) =>
        c.request('PUT', `/contacts/${encodeURIComponent(id)}`, { schema: Contact, body }),
      delete: (id: string) =>
        c.request('DELETE', `/contacts/${encodeURIComponent(id)}`, { schema: ContactDeleted }),
      /** Who added the donor and who changed what, oldest first. */
      history: (id: string) =>
        c.request('GET', `/contacts/${encodeURIComponent(id)}/history`, { schema: ContactHistory }),
      summaries: (q: Q<typeof ContactSummaryQuery> = {}, signal?: AbortSignal) =>
        c.request('GET', '/contact-summaries', { schema: ContactSummaryList, query: q, signal }),
      donations: (id: string, q: Q<typeof ContactDonationsQuery> = {}) =>
        c.request('GET', `/contacts/${encodeURIComponent(id)}/donations`, {
          schema: ContactDonationList,
          query: q,
        }),
      deletePreview: (id: string) =>
        c.request('GET', `/contacts/${encodeURIComponent(id)}/delete-preview`, {
          schema: ContactDeletePreview,
        }),
      giftCheck: (id: string, q: Q<typeof GiftCheckQuery>, signal?: AbortSignal) =>
        c.request('GET', `/contacts/${encodeURIComponent(id)}/gift-check`, {
          schema: GiftCheck,
          query: q,
          signal,
        }),
    },

    donations: {
      list: (q: Q<typeof DonationListQuery> = {}) =>
        c.request('GET', '/donations', { schema: DonationList, query: q }),
      get: (id: string) =>
        c.request('GET', `/donations/${encodeURIComponent(id)}`, { schema: DonationDetail }),
      create: (body: Body<typeof DonationCreateRequest>) =>
        c.request('POST', '/donations', { schema: DonationCreated, body }),
      history: (id: string) =>
        c.request('GET', `/donations/${encodeURIComponent(id)}/history`, {
          schema: DonationHistory,
        }),
      /** Correct a gift not yet sent to HQ: the fields given change, every create rule applies again (409 once it was sent). */
      correct: (id: string, body: Body<typeof DonationPatchBody>) =>
        c.request('PATCH', `/donations/${encodeURIComponent(id)}`, { schema: DonationDetail, body }),
      /** Void a gift not yet sent to HQ (409 with the reason once it was sent). */
      void: (id: string, body: Body<typeof DonationVoidBody> = {}) =>
        c.request('POST', `/donations/${encodeURIComponent(id)}/void`, {
          schema: DonationDetail,
          body: { accountId: c.accountId, ...body },
        }),
    },

    batches: {
      list: (q: { limit?: number; offset?: number } = {}) =>
        c.request('GET', '/batches', { schema: BatchList, query: q }),
      get: (id: string) => c.request('GET', `/batches/${encodeURIComponent(id)}`, { schema: Batch }),
      donations: (id: string, q: { limit?: number; offset?: number } = {}) =>
        c.request('GET', `/batches/${encodeURIComponent(id)}/donations`, {
          schema: BatchDonationList,
          query: q,
        }),
      create: (body: Body<typeof BatchCreate>) => c.request('POST', '/batches', { schema: Batch, body }),
      /** Save a gift typed in this batch: the answer is the gift in full and the batch's new figures. */
      addGift: (id: string, body: Body<typeof BatchGiftBody>) =>
        c.request('POST', `/batches/${encodeURIComponent(id)}/donations`, { schema: BatchGiftSaved, body }),
      update: (id: string, body: Body<typeof BatchUpdate>) =>
        c.request('PUT', `/batches/${encodeURIComponent(id)}`, { schema: Batch, body }),
      /** The deposit summary: by payment method, the cash total, every check, the last count. */
      deposit: (id: string) =>
        c.request('GET', `/batches/${encodeURIComponent(id)}/deposit`, { schema: DepositSummary }),
      /** Close the batch with what was counted (a difference only with acceptDifference). */
      count: (id: string, body: Body<typeof BatchCountBody>) =>
        c.request('POST', `/batches/${encodeURIComponent(id)}/count`, { schema: DepositSummary, body }),
    },
    stats: {
      donations: (q: Q<typeof DonationStatsQuery> = {}) =>
        c.request('GET', '/stats/donations', { schema: DonationStats, query: q }),
    },
    reports: {
      /** What each host raised in a scope (gifts naming them as facilitatedByContactId). */
      raisedBy: (q: Q<typeof RaisedByQuery> = {}) =>
        c.request('GET', '/reports/raised-by', { schema: RaisedByReport, query: q }),
      raisedByCsv: (q: Q<typeof RaisedByQuery> = {}) => c.download('/reports/raised-by.csv', q),
      /** A contact's soft credits and what they raised as a host. */
      credits: (id: string) =>
        c.request('GET', `/contacts/${encodeURIComponent(id)}/credits`, { schema: ContactCredits }),
    },

    campaigns: {
      list: () => c.request('GET', '/campaigns', { schema: listOf(Campaign) }),
      create: (body: Body<typeof CampaignCreate>) =>
        c.request('POST', '/campaigns', { schema: Campaign, body }),
      update: (id: string, body: Body<typeof CampaignUpdate>) =>
        c.request('PUT', `/campaigns/${encodeURIComponent(id)}`, { schema: Campaign, body }),
    },
    committees: {
      list: () => c.request('GET', '/committees', { schema: listOf(Committee) }),
      create: (body: Body<typeof CommitteeCreate>) =>
        c.request('POST', '/committees', { schema: Committee, body }),
      update: (id: string, body: Body<typeof CommitteeUpdate>) =>
        c.request('PUT', `/committees/${encodeURIComponent(id)}`, { schema: Committee, body }),
    },
    donationAccounts: {
      list: () => c.request('GET', '/donation-accounts', { schema: listOf(DonationAccount) }),
      create: (body: Body<typeof DonationAccountCreate>) =>
        c.request('POST', '/donation-accounts', { schema: DonationAccount, body }),
      update: (id: string, body: Body<typeof DonationAccountUpdate>) =>
        c.request('PUT', `/donation-accounts/${encodeURIComponent(id)}`, { schema: DonationAccount, body }),
    },
    customFields: {
      list: () => c.request('GET', '/custom-fields', { schema: listOf(CustomFieldDefinition) }),
      create: (body: Body<typeof CustomFieldCreate>) =>
        c.request('POST', '/custom-fields', { schema: CustomFieldDefinition, body }),
      action: (id: string, body: z.input<typeof CustomFieldAction>) =>
        c.request('POST', `/custom-fields/${encodeURIComponent(id)}/actions`, {
          schema: CustomFieldDefinition,
          body,
        }),
    },
    elections: {
      list: () => c.request('GET', '/elections', { schema: listOf(Election) }),
      create: (body: Body<typeof ElectionCreate>) =>
        c.request('POST', '/elections', { schema: Election, body }),
      setDefault: (body: Body<typeof DefaultElection>) =>
        c.request('PUT', '/elections/default', {
          schema: z.unknown(),
          body: { accountId: c.accountId, ...body },
        }),
    },
    flags: {
      list: (state: 'open' | 'all' = 'open') =>
        c.request('GET', '/flags', { schema: FlagList, query: { state } }),
      act: (id: string, body: z.input<typeof FlagActionBody>) =>
        c.request('POST', `/flags/${encodeURIComponent(id)}/actions`, { schema: Flag, body }),
      /** Completed cash gifts over the cash limit, for Review. */
      cash: () => c.request('GET', '/review/cash', { schema: CashGiftList }),
    },
    apiKeys: {
      list: () => c.request('GET', '/api-keys', { schema: listOf(ApiKey) }),
      create: (body: Body<typeof ApiKeyCreate>) =>
        c.request('POST', '/api-keys', { schema: ApiKeyCreated, body }),
      revoke: (keyId: string) =>
        c.request('DELETE', `/api-keys/${encodeURIComponent(keyId)}`, { schema: ApiKeyRevoked }),
    },
    /** The people who sign in (administrators: Settings → People). */
    users: {
      /** Who this window's key is (a person's sign-in carries the person). */
      me: () => c.request('GET', '/me', { schema: Me }),
      list: () => c.request('GET', '/users', { schema: listOf(User) }),
      create: (body: Body<typeof UserCreate>) => c.request('POST', '/users', { schema: UserCreated, body }),
      update: (id: string, body: Body<typeof UserPatch>) =>
        c.request('PATCH', `/users/${encodeURIComponent(id)}`, { schema: User, body }),
      passwordLink: (id: string) =>
        c.request('POST', `/users/${encodeURIComponent(id)}/password-link`, {
          schema: PasswordLinkIssued,
          body: {},
        }),
    },
    imports: {
      /** `again`: import a file imported before even though its rows have no externalId (a 409 otherwise). */
      start: (kind: 'contacts' | 'donations', file: Blob | string, push = true, again = false) =>
        c.upload('/imports', file, 'text/csv', {
          schema: ImportJob,
          query: { kind, push: String(push), ...(again ? { again: 'true' } : {}) },
        }),
      get: (id: string) => c.request('GET', `/imports/${encodeURIComponent(id)}`, { schema: ImportJob }),
      rejectedCsv: (id: string) => c.download(`/imports/${encodeURIComponent(id)}/rejected.csv`),
    },
    sync: {
      /** The HQ settings (never the secret: only whether one is stored); null when sync is not configured. */
      settings: async () => {
        try {
          return await c.request('GET', '/sync/settings', { schema: SyncSettings });
        } catch (err) {
          if (err instanceof ApiError && err.status === 404) return null;
          throw err;
        }
      },
      saveSettings: (body: Body<typeof SyncSettingsBody>) =>
        c.request('PUT', '/sync/settings', {
          schema: SyncSettings,
          body: { accountId: c.accountId, ...body },
          wait: 'long', // testConnection: answered once HQ has
        }),
      status: () => c.request('GET', '/sync/status', { schema: SyncStatus }),
      attention: () => c.request('GET', '/sync/attention', { schema: SyncAttentionList }),
      retry: (entityType: 'contact' | 'donation', id: string) =>
        c.request('POST', `/sync/items/${entityType}/${encodeURIComponent(id)}/retry`, {
          schema: SyncRecordState,
          body: {},
        }),
      discard: (entityType: 'contact' | 'donation', id: string) =>
        c.request('POST', `/sync/items/${entityType}/${encodeURIComponent(id)}/discard`, {
          schema: SyncRecordState,
          body: {},
        }),
      run: () => c.request('POST', '/sync/run', { schema: SyncRunResult, body: {}, wait: 'long' }),
      /** Starts a pull of HQ's contacts and reference data (answered at once; follow it with pullStatus). */
      pull: () => c.request('POST', '/sync/pull', { schema: PullRun, body: {}, wait: 'long' }),
      pullStatus: () => c.request('GET', '/sync/pull', { schema: PullStatus }),
      links: () => c.request('GET', '/sync/links', { schema: ReferenceLinkList }),
      link: (body: Body<typeof LinkBody>) =>
        c.request('POST', '/sync/links', { schema: LinkResult, body, wait: 'long' }),
      /** HQ's records to link each unlinked one to, with suggestions by name (reads HQ; links nothing). */
      linkCandidates: () =>
        c.request('GET', '/sync/links/candidates', { schema: ReferenceCandidates, wait: 'long' }),
    },
    exports: {
      csv: (kind: 'contacts' | 'donations') => c.download(`/exports/${kind}.csv`),
    },
    /** This GiftDesk in the account's event (./event-endpoints.ts). */
    event: eventEndpoints(c),
    /** The event's hub, when this GiftDesk hosts it (./event-endpoints.ts). */
    hub: hubEndpoints(c),
    /** Receipts, thank-you letters and year-end statements (./letter-endpoints.ts). */
    letters: letterEndpoints(c),
  };
}

export type Api = ReturnType<typeof endpoints>;
