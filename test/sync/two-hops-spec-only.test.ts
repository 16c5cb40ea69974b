/**
 * The two-hop suite (two-hops.test.ts) with HQ implementing the donor API alone
 * (`serve --spec-only`): the hub is GiftDesk as ever, HQ creates whatever it is sent.
 */
process.env.GIFTDESK_TEST_HQ = 'spec-only';
await import('./two-hops.test.ts');
