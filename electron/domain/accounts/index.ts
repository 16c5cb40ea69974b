/**
 * Accounts and the keys that open them: an account (accounts.ts), its API keys with hashed
 * secrets (api-keys.ts), and the session keys of the desktop app and browser windows
 * (sessions.ts). The folder's surface: the server, the CLI and the shell import accounts from
 * here (eslint.config.js).
 */
export { createAccount, getAccount, listAccounts, requireAccount } from './accounts.ts';
export {
  authenticateApiKey,
  createApiKey,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  revokedKeyOf,
  secretOfKey,
} from './api-keys.ts';
export {
  type SessionKind,
  THIS_PROCESS,
  forgetEndedSessionKeys,
  ownerMayBeAlive,
  revokeOrphanedSessionKeys,
} from './sessions.ts';
