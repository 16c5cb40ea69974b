/**
 * Contribution limits (D6) and the elections they are measured over (D5): which election a
 * gift counts toward (elections.ts), the checks that flag a gift over a limit (limits.ts; an
 * import chunk's at once in for-import.ts), and the flags' review. The folder's surface: the
 * server, the CLI and the shell import from here (eslint.config.js).
 */
export { createElection, federalGeneralElectionDay, listElections, setDefaultElection } from './elections.ts';
export { donationHistory, listFlags, resolveFlag } from './limits.ts';
