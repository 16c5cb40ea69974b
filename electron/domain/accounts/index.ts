/**
 * Accounts and the keys that open them: an account, its API keys (hashed secrets), and the
 * session keys of the desktop app and browser windows. The folder's surface: the server, the
 * CLI and the shell import accounts from here (eslint.config.js).
 */
export {
  type SessionKind,
  authenticateApiKey,
  createAccount,
  createApiKey,
  forgetEndedSessionKeys,
  getAccount,
  listAccounts,
  listApiKeys,
  requireAccount,
  revokeApiKey,
  revokeOrphanedSessionKeys,
} from './accounts.ts';
