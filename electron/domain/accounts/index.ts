/**
 * Accounts and the keys that open them: an account (accounts.ts), its API keys with hashed
 * secrets (api-keys.ts), and the session keys of the desktop app and browser windows
 * (sessions.ts); the people who sign in with an email and a password (users.ts, passwords.ts,
 * password-links.ts, sign-in.ts). The folder's surface: the server, the CLI and the shell import accounts from
 * here (eslint.config.js).
 */
export { createAccount, getAccount, listAccounts, requireAccount } from './accounts.ts';
export {
  type KeyHolder,
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
export {
  type User,
  PASSWORD_MAX,
  PASSWORD_MIN,
  addUser,
  emailKey,
  getUser,
  lastAdministratorMessage,
  listUsers,
  updateUser,
  userByEmail,
} from './users.ts';
export { PASSWORD_LINK_TTL_MS, issuePasswordToken, setPasswordWithToken } from './password-links.ts';
export { type SignInResult, type SignedIn, signIn } from './sign-in.ts';
