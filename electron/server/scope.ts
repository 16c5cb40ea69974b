import type { Role } from '#shared/schemas/roles.ts';
import type { FastifyRequest } from 'fastify';
import type { SessionKind } from '../domain/accounts/index.ts';
import { DomainError } from '../domain/index.ts';

export interface Auth {
  accountId: string;
  keyId: string;
  /** null for a permanent key; the kind of session for a session key. */
  session: SessionKind | null;
  /** What the request may do (route-rules.ts): the key's own role. */
  role: Role;
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
