/**
 * Contribution limits (D6) and the elections they are measured over (D5): which election a
 * gift counts toward (elections.ts), the checks that flag a gift over a limit (checks.ts; an
 * import chunk's at once in for-import.ts), the flags' review (flags.ts) and the gift's history
 * that every flag and resolution is kept in (history.ts). The folder's surface: the server,
 * the CLI and the shell import from here (eslint.config.js).
 */
export { createElection, federalGeneralElectionDay, listElections, setDefaultElection } from './elections.ts';
export { listFlags, resolveFlag } from './flags.ts';
export { donationHistory } from './history.ts';
export { takeHistoryTrail } from './trail.ts';
