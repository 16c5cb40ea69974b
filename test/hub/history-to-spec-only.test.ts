/**
 * Who did what and an HQ of the donor API alone (`serve --spec-only`): the suite of
 * history-to-hq.test.ts with that HQ, which must get the records and nothing else.
 */
process.env.HISTORY_HQ = 'spec-only';
await import('./history-to-hq.test.ts');
