/**
 * Who may use which route: one rule per API route, keyed by its method and the route pattern
 * Fastify matched (`request.routeOptions.url`, e.g. `GET /api/v1/contacts/:id`; a HEAD is its
 * GET). One hook (`roleGate`, registered after authentication in app.ts) checks every /api/
 * request against this table: a role the rule does not name gets 403 `role_forbidden`, with a
 * sentence naming the role and what it may not do ("A volunteer cannot export donors").
 *
 * A route without a rule is open to an administrator only, and fails the route-rules test
 * (test/api/route-rules.test.ts lists every route the server registered): a new route gets its
 * rule here in the same change. The same table, in words, is in docs/design.md ("Roles").
 *
 * The roles (shared/schemas/roles.ts), in short:
 * - volunteer: gift entry, donors (add, find, edit), batches and their gifts' corrections.
 * - coordinator: a volunteer's, plus review and flags, the event (hosting, codes, stations,
 *   close-out), letters, reports.
 * - treasurer: a volunteer's, plus balancing and counts, deposits, exports, letters, reports.
 * - administrator: everything, including keys, imports, settings and sync.
 *
 * `own`: the route reads or changes one person's batch or gift. A volunteer uses it only for
 * their own: for a route of one record (`:id`) the gate (gates.ts) reads who started the batch
 * or entered the gift and answers another's with 403 `not_own_record`; `GET /batches` lists a
 * volunteer's own only (routes/batches.ts). The person, or for a key with no person the key.
 */
import { ROLES, type Role } from '#shared/schemas/roles.ts';

export interface RouteRule {
  /** The roles that may use the route. */
  roles: readonly Role[];
  /** What the route does, finishing "A volunteer cannot …". */
  what: string;
  /** A volunteer may use it only for their own batch or gift (see above). */
  own?: 'batch' | 'gift';
}

const EVERYONE: readonly Role[] = ROLES;
/** Review, flags and the event. */
const COORDINATING: readonly Role[] = ['coordinator', 'administrator'];
/** Balancing, counts, deposits and exports. */
const MONEY: readonly Role[] = ['treasurer', 'administrator'];
/** Letters and reports. */
const OFFICE: readonly Role[] = ['coordinator', 'treasurer', 'administrator'];
const ADMIN: readonly Role[] = ['administrator'];

const V1 = '/api/v1';

/** `METHOD /api/v1/path` → its rule. */
export const ROUTE_RULES: Readonly<Record<string, RouteRule>> = {
  // Donors
  [`GET ${V1}/contacts`]: { roles: EVERYONE, what: 'find donors' },
  [`POST ${V1}/contacts`]: { roles: EVERYONE, what: 'add donors' },
  [`GET ${V1}/contacts/:id`]: { roles: EVERYONE, what: 'read donors' },
  [`PUT ${V1}/contacts/:id`]: { roles: EVERYONE, what: 'edit donors' },
  [`DELETE ${V1}/contacts/:id`]: { roles: COORDINATING, what: 'delete donors' },
  [`GET ${V1}/contacts/:id/delete-preview`]: { roles: COORDINATING, what: 'delete donors' },
  [`GET ${V1}/contact-summaries`]: { roles: EVERYONE, what: 'find donors' },
  [`GET ${V1}/contacts/:id/donations`]: { roles: EVERYONE, what: "see a donor's gifts" },
  [`GET ${V1}/contacts/:id/gift-check`]: { roles: EVERYONE, what: "check a donor's gift" },
  [`GET ${V1}/contacts/:id/credits`]: { roles: EVERYONE, what: "see a donor's credits" },
  [`GET ${V1}/contacts/:id/history`]: { roles: EVERYONE, what: "read a donor's history" },
  [`POST ${V1}/history`]: { roles: ADMIN, what: 'carry history on to HQ' },

  // Gifts
  [`GET ${V1}/donations`]: { roles: EVERYONE, what: 'list gifts', own: 'gift' },
  [`POST ${V1}/donations`]: { roles: EVERYONE, what: 'enter gifts' },
  [`GET ${V1}/donations/:id`]: { roles: EVERYONE, what: 'read gifts', own: 'gift' },
  [`PATCH ${V1}/donations/:id`]: { roles: EVERYONE, what: 'correct gifts', own: 'gift' },
  [`POST ${V1}/donations/:id/void`]: { roles: EVERYONE, what: 'void gifts', own: 'gift' },
  [`GET ${V1}/donations/:id/history`]: { roles: EVERYONE, what: "read a gift's history", own: 'gift' },
  [`POST ${V1}/donations/thank-you`]: { roles: OFFICE, what: 'mark gifts thanked' },

  // Batches
  [`GET ${V1}/batches`]: { roles: EVERYONE, what: 'list batches', own: 'batch' },
  [`POST ${V1}/batches`]: { roles: EVERYONE, what: 'start batches' },
  [`GET ${V1}/batches/:id`]: { roles: EVERYONE, what: 'read batches', own: 'batch' },
  [`PUT ${V1}/batches/:id`]: { roles: EVERYONE, what: 'change batches', own: 'batch' },
  [`GET ${V1}/batches/:id/donations`]: { roles: EVERYONE, what: "read a batch's gifts", own: 'batch' },
  [`POST ${V1}/batches/:id/donations`]: { roles: EVERYONE, what: 'enter gifts in batches', own: 'batch' },
  [`GET ${V1}/batches/:id/deposit`]: { roles: MONEY, what: "see a batch's deposit" },
  [`POST ${V1}/batches/:id/count`]: { roles: MONEY, what: 'count and balance batches' },

  // Review
  [`GET ${V1}/flags`]: { roles: COORDINATING, what: 'review flagged gifts' },
  [`POST ${V1}/flags/:id/actions`]: { roles: COORDINATING, what: 'act on flagged gifts' },
  [`GET ${V1}/review/cash`]: { roles: COORDINATING, what: 'review cash gifts' },

  // Reports and exports
  [`GET ${V1}/stats/donations`]: { roles: OFFICE, what: 'see gift totals' },
  [`GET ${V1}/reports/raised-by`]: { roles: OFFICE, what: 'see what hosts raised' },
  [`GET ${V1}/reports/raised-by.csv`]: { roles: OFFICE, what: 'see what hosts raised' },
  [`GET ${V1}/exports/contacts.csv`]: { roles: MONEY, what: 'export donors' },
  [`GET ${V1}/exports/donations.csv`]: { roles: MONEY, what: 'export gifts' },
  [`POST ${V1}/imports`]: { roles: ADMIN, what: 'import donors or gifts' },
  [`GET ${V1}/imports/:id`]: { roles: ADMIN, what: 'follow imports' },
  [`GET ${V1}/imports/:id/rejected.csv`]: { roles: ADMIN, what: "read an import's rejected rows" },

  // Letters
  [`GET ${V1}/letters/settings`]: { roles: OFFICE, what: 'read the letter settings' },
  [`PUT ${V1}/letters/settings`]: { roles: OFFICE, what: 'change the letter settings' },
  [`POST ${V1}/letters/runs`]: { roles: OFFICE, what: 'print letters' },
  [`GET ${V1}/letters/runs`]: { roles: OFFICE, what: 'list letter runs' },
  [`GET ${V1}/letters/runs/:id`]: { roles: OFFICE, what: 'read letter runs' },
  [`GET ${V1}/letters/runs/:id/pdf`]: { roles: OFFICE, what: 'open printed letters' },
  [`GET ${V1}/letters/runs/:id/parts/:part/pdf`]: { roles: OFFICE, what: 'open printed letters' },
  [`GET ${V1}/letters/preview`]: { roles: OFFICE, what: 'preview letters' },
  [`POST ${V1}/letters/runs/:id/mark-sent`]: { roles: OFFICE, what: 'mark letters sent' },

  // The account, its keys and its settings
  [`GET ${V1}/account`]: { roles: EVERYONE, what: 'read the account' },
  [`GET ${V1}/live`]: { roles: EVERYONE, what: 'hear of changes' },
  [`GET ${V1}/api-keys`]: { roles: ADMIN, what: 'see API keys' },
  [`POST ${V1}/api-keys`]: { roles: ADMIN, what: 'create API keys' },
  [`DELETE ${V1}/api-keys/:id`]: { roles: ADMIN, what: 'revoke API keys' },

  // People who sign in (sign-in and set-password are public: gates.ts)
  [`GET ${V1}/me`]: { roles: EVERYONE, what: 'see who this key is' },
  [`POST ${V1}/sign-out`]: { roles: EVERYONE, what: 'sign out' },
  [`GET ${V1}/users`]: { roles: ADMIN, what: 'see the people' },
  [`POST ${V1}/users`]: { roles: ADMIN, what: 'add people' },
  [`PATCH ${V1}/users/:id`]: { roles: ADMIN, what: "change people's roles or disable them" },
  [`POST ${V1}/users/:id/password-link`]: { roles: ADMIN, what: 'make set-password links' },
  [`GET ${V1}/campaigns`]: { roles: EVERYONE, what: 'list campaigns' },
  [`POST ${V1}/campaigns`]: { roles: ADMIN, what: 'create campaigns' },
  [`GET ${V1}/campaigns/:id`]: { roles: EVERYONE, what: 'read campaigns' },
  [`PUT ${V1}/campaigns/:id`]: { roles: ADMIN, what: 'change campaigns' },
  [`GET ${V1}/committees`]: { roles: EVERYONE, what: 'list committees' },
  [`POST ${V1}/committees`]: { roles: ADMIN, what: 'create committees' },
  [`GET ${V1}/committees/:id`]: { roles: EVERYONE, what: 'read committees' },
  [`PUT ${V1}/committees/:id`]: { roles: ADMIN, what: 'change committees' },
  [`GET ${V1}/donation-accounts`]: { roles: EVERYONE, what: 'list donation accounts' },
  [`POST ${V1}/donation-accounts`]: { roles: ADMIN, what: 'create donation accounts' },
  [`GET ${V1}/donation-accounts/:id`]: { roles: EVERYONE, what: 'read donation accounts' },
  [`PUT ${V1}/donation-accounts/:id`]: { roles: ADMIN, what: 'change donation accounts' },
  [`GET ${V1}/custom-fields`]: { roles: EVERYONE, what: 'list custom fields' },
  [`POST ${V1}/custom-fields`]: { roles: ADMIN, what: 'define custom fields' },
  [`POST ${V1}/custom-fields/:id/actions`]: { roles: ADMIN, what: 'change custom fields' },
  [`GET ${V1}/elections`]: { roles: EVERYONE, what: 'read the election calendar' },
  [`POST ${V1}/elections`]: { roles: ADMIN, what: 'change the election calendar' },
  [`PUT ${V1}/elections/default`]: { roles: ADMIN, what: 'set the default election' },

  // Sync to HQ
  [`GET ${V1}/sync/settings`]: { roles: ADMIN, what: 'read the sync settings' },
  [`PUT ${V1}/sync/settings`]: { roles: ADMIN, what: 'change the sync settings' },
  [`GET ${V1}/sync/status`]: { roles: EVERYONE, what: 'see the sync status' },
  [`POST ${V1}/sync/run`]: { roles: EVERYONE, what: 'sync now' },
  [`GET ${V1}/sync/records/:entityType/:id`]: { roles: EVERYONE, what: "see a record's sync state" },
  [`GET ${V1}/sync/attention`]: { roles: ADMIN, what: 'handle records that failed to sync' },
  [`POST ${V1}/sync/items/:entityType/:id/retry`]: {
    roles: ADMIN,
    what: 'retry records that failed to sync',
  },
  [`POST ${V1}/sync/items/:entityType/:id/discard`]: { roles: ADMIN, what: 'discard unsent changes' },
  [`POST ${V1}/sync/pull`]: { roles: ADMIN, what: 'pull from HQ' },
  [`GET ${V1}/sync/pull`]: { roles: ADMIN, what: 'follow a pull from HQ' },
  [`GET ${V1}/sync/links`]: { roles: ADMIN, what: 'link records to HQ' },
  [`POST ${V1}/sync/links`]: { roles: ADMIN, what: 'link records to HQ' },
  [`GET ${V1}/sync/links/candidates`]: { roles: ADMIN, what: 'link records to HQ' },

  // The event
  [`GET ${V1}/event`]: { roles: EVERYONE, what: 'see the event' },
  [`POST ${V1}/event/join`]: { roles: COORDINATING, what: 'join this computer to an event' },
  [`GET ${V1}/event/join/progress`]: { roles: COORDINATING, what: 'follow a join under way' },
  [`GET ${V1}/event/notices`]: { roles: EVERYONE, what: "read the event's notices" },
  [`POST ${V1}/event/notices/:id/seen`]: { roles: EVERYONE, what: "read the event's notices" },
  [`POST ${V1}/event/notices/seen-all`]: { roles: EVERYONE, what: "read the event's notices" },
  [`GET ${V1}/hub`]: { roles: COORDINATING, what: "see the event hub's address" },
  [`POST ${V1}/hub/host`]: { roles: COORDINATING, what: 'host an event' },
  [`POST ${V1}/hub/codes`]: { roles: COORDINATING, what: 'make pairing codes' },
  [`GET ${V1}/hub/stations`]: { roles: COORDINATING, what: "see the event's stations" },
  [`POST ${V1}/hub/stations/:id/revoke`]: { roles: COORDINATING, what: 'remove stations from the event' },
  [`GET ${V1}/hub/close-out`]: { roles: OFFICE, what: 'close out the event' },
  // What a station's own key does at its hub (a station's key is an administrator's, narrowed by station-gate.ts).
  [`GET ${V1}/hub/changes`]: { roles: COORDINATING, what: "read the hub's changes as a station" },
  [`GET ${V1}/hub/donors/:id`]: { roles: COORDINATING, what: 'read a donor again as a station' },
  [`POST ${V1}/hub/report`]: { roles: COORDINATING, what: 'report as a station' },
  [`POST ${V1}/hub/join/confirm`]: { roles: COORDINATING, what: 'confirm a pairing as a station' },
};

/** The rule of a request: by its method (HEAD as GET) and the route pattern Fastify matched. */
export function ruleOf(method: string, routeUrl: string): RouteRule | undefined {
  return ROUTE_RULES[`${method === 'HEAD' ? 'GET' : method} ${routeUrl}`];
}

/** A route with no rule: an administrator's only. */
const UNRULED: RouteRule = { roles: ADMIN, what: 'use this route' };

/** The roles that may use a route: its rule's, or an administrator alone for a route with none. */
export function rolesOf(method: string, routeUrl: string): readonly Role[] {
  return (ruleOf(method, routeUrl) ?? UNRULED).roles;
}

/** Whether `role` may use the route; the refusal's sentence when not. */
export function roleMay(
  role: Role,
  method: string,
  routeUrl: string,
): { allowed: true } | { allowed: false; message: string } {
  const rule = ruleOf(method, routeUrl) ?? UNRULED;
  if (rule.roles.includes(role)) return { allowed: true };
  return { allowed: false, message: `A ${role} cannot ${rule.what} (allowed: ${rule.roles.join(', ')})` };
}
