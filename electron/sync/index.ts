/**
 * The sync engine's surface: what the server, the CLI and the shell use of it, and nothing
 * else (eslint.config.js refuses an import past this file). Inside, a folder per stretch of
 * the path a change travels to HQ:
 *
 * - outbox/: the changes still to go (the domain's change_log), the id map and push items,
 *   the one-engine-per-database lease
 * - push/: the engine's pass — lanes, prepare, coalesce, payloads, identity, the answers
 *   written down, the email match before a contact's create
 * - reconcile/: finding at HQ the creates whose answer was lost
 * - pull/: HQ's directory coming down for gift entry
 * - net/: the one client, its pacer, what an attempt did (outcome), retries and waits,
 *   whether HQ answers
 * - reference-data/: campaigns, committees and donation accounts linked to HQ's
 * - remote/: where an account pushes to, its secret sealed at rest
 * - status/: the one sync status and the records that need a person
 * - station/: this GiftDesk as a station of an event hub — joining, the hub's feed applied,
 *   the station's report, its notices, its view of the event
 * - scheduler.ts: when a pass runs in a server process
 */
export { checkConnection } from './net/connection-check.ts';
export type { RemoteClient } from './net/http-client.ts';
export { recordingAnswers } from './net/reachability.ts';
export { type PullProgress, type PullRun, beginPull, latestPull, pullFromHq, runPull } from './pull/pull.ts';
export { defaultClient } from './push/default-client.ts';
export { matchContactByEmail } from './push/email-match.ts';
export { markMayBeUpstream } from './outbox/resend.ts';
export { pullHqNote, saidByHqNote } from './pull/hq-words.ts';
export { hqTakesMarks, noteMarksTaken } from './push/marks.ts';
export { type PassProgress, createSyncEngine } from './push/engine.ts';
export { referenceCandidates } from './reference-data/candidates.ts';
export {
  type ReferenceKind,
  linkReference,
  listReferenceLinks,
  unlinkReference,
} from './reference-data/rules.ts';
export { openRemote, resolveSyncAccount } from './remote/for-account.ts';
export { KEY_ENV, type KeySource, defaultKeySource } from './remote/secret-box.ts';
export {
  type RemoteConfig,
  getRemoteSettings,
  loadRemoteConfig,
  normaliseBaseUrl,
  saveRemoteSettings,
} from './remote/settings.ts';
export { type SyncScheduler, createSyncScheduler } from './scheduler.ts';
export { discardItem, listAttention, recordSyncState, retryItem } from './status/attention.ts';
export { marksNoteFor, syncStatus } from './status/status.ts';
export { stationAccounts } from './remote/hub-remote.ts';
export { type EventStatusView, eventStatus } from './station/event-status.ts';
export { type JoinInput, type JoinResult, joinHub } from './station/join.ts';
export {
  type JoinPhase,
  type JoinProgress,
  joinProgressOf,
  onJoinProgress,
} from './station/join-progress.ts';
export { type ReplaceResult, replaceHub } from './station/replace.ts';
export { type HqTarget, type LeaveResult, leaveEvent } from './station/leave.ts';
export {
  type NoticeView,
  countNotices,
  listNotices,
  markAllNoticesSeen,
  markNoticeSeen,
} from './station/notices.ts';
export { type HubChange, type HubHold, askHub, hubHold } from './station/ask-hub.ts';
