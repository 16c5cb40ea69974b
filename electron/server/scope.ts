import type { Role } from '#shared/schemas/roles.ts';
import type { FastifyRequest } from 'fastify';
import type { SessionKind } from '../domain/accounts/index.ts';
import { type DomainContext, DomainError, actingAs } from '../domain/index.ts';

export interface Auth {
  accountId: string;
  keyId: string;
  /** null for a permanent key; the kind of session for a session key. */
  session: SessionKind | null;
  /**
   * What the request may do (route-rules.ts): a person's session acts in the person's role (read
   * at this request); any other key in its own role.
   */
  role: Role;
  /** The person a sign-in session belongs to (read at this request); null for every other key. */
  user: { id: string; name: string } | null;
}

/**
 * The account a request acts for: the key's own. An accountId that names another account
 * is a 403; absent (allowed only on PUT, C5) means the key's account.
 */
export function scopedAccount(request: FastifyRequest, sent: string | undefined): string {
  const auth = request.auth;
  if (!auth) throw new DomainError('unauthorized', 'unauthorized', 'Authentication required');
  if (sent !== undefined && sent !== auth.accountId) {
    throw new DomainError('forbidden', 'account_forbidden', `This API key cannot act for account ${sent}`, [
      { field: 'accountId', issue: 'is not the account of this API key' },
    ]);
  }
  return auth.accountId;
}

/**
 * A volunteer's own (the person, or with none the key): what a volunteer's list is narrowed to
 * (route-rules.ts `own`); undefined for every other role.
 */
export function volunteerOwner(
  request: FastifyRequest,
): { userId: string | null; keyId: string } | undefined {
  const auth = request.auth;
  if (!auth || auth.role !== 'volunteer') return undefined;
  return { userId: auth.user?.id ?? null, keyId: auth.keyId };
}

/**
 * The domain context acting for the request's key: the person signed in (their id and name,
 * read at this request), else the key, and the event station whose key it is. What the request
 * changes records who made it (the gift's enteredBy, each history entry's `by`).
 */
export function acting(ctx: DomainContext, request: FastifyRequest): DomainContext {
  const auth = request.auth;
  if (!auth) return ctx;
  const station = request.station ?? null;
  return actingAs(ctx, {
    userId: auth.user?.id ?? null,
    keyId: auth.keyId,
    name: auth.user?.name ?? null,
    stationId: station?.id ?? null,
    stationName: station?.name ?? null,
  });
}
