/**
 * The kill -9 and lease suite (crash-and-lease.test.ts) with HQ implementing the donor API alone
 * (`serve --spec-only`): a create re-posted after a death is a second record there, so only the
 * engine's own look-before-resend keeps each record once.
 */
process.env.GIFTDESK_TEST_HQ = 'spec-only';
await import('./crash-and-lease.test.ts');
