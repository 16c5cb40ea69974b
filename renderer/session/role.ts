/**
 * What this session's role shows: the screens and Settings sections a role may use, so a
 * volunteer is not offered exports, keys, sync or the event's controls. The server decides
 * (electron/server/route-rules.ts, docs/design.md "Roles"); this only keeps from the screen
 * what it would refuse. The role comes with the account (GET /account).
 */
import { useQuery } from '@tanstack/react-query';
import type { Role } from '#shared/schemas/roles.ts';
import { useApi } from '../api/provider.tsx';
import { qk } from '../api/query-keys.ts';

/** Review and flags, the event's controls. */
export const COORDINATING: readonly Role[] = ['coordinator', 'administrator'];
/** Counts, deposits and exports. */
export const MONEY: readonly Role[] = ['treasurer', 'administrator'];
/** Letters and reports. */
export const OFFICE: readonly Role[] = ['coordinator', 'treasurer', 'administrator'];
export const ADMIN: readonly Role[] = ['administrator'];

/** This session's role; null until the account has answered. */
export function useRole(): Role | null {
  const api = useApi();
  const account = useQuery({ queryKey: qk.account, queryFn: () => api.account() });
  return account.data?.role ?? null;
}

/**
 * Whether a role sees something meant for `roles` (everyone when left out). Until the role is
 * known everything shows, as before roles: the server refuses what the role may not do anyway.
 */
export function roleSees(role: Role | null, roles: readonly Role[] | undefined): boolean {
  return role === null || roles === undefined || roles.includes(role);
}
