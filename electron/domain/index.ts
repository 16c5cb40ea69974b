/**
 * The domain's foundation, shared by every feature folder: the context every domain function
 * takes (context.ts), the one error type it throws (errors.ts), and an account's running
 * counts of contacts and gifts (counters.ts). The features are in their folders, each with
 * its own index.ts as its surface: contacts/, donations/, limits/, import-export/, accounts/,
 * reference/, pulled/ (records that came down from HQ, for the sync engine). The server, the CLI and the shell import the domain
 * through these index files only (eslint.config.js).
 */
export { type Actor, type DomainContext, type WriteOptions, actingAs, createContext } from './context.ts';
export { readCounters } from './counters.ts';
export { DomainError, type FieldIssue, invalidField, isDomainError, notFound } from './errors.ts';
