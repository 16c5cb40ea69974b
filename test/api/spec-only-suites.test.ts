/**
 * The donor API's list suites run again against a spec-only server (`serve --spec-only`): the
 * same requests and answers, with campaigns and the like defined as staff define them at HQ
 * (through the domain: the API cannot). The other suites of test/api lean on extension routes.
 */
process.env.GIFTDESK_TEST_SPEC_ONLY = '1';
await import('./contacts-list.test.ts');
await import('./donations-list.test.ts');

const { it, expect } = await import('vitest');
const { startTestServer } = await import('../helpers/server.ts');
it('those suites get spec-only servers (an extension route is a 404)', async () => {
  const s = await startTestServer();
  try {
    expect(s.specOnly).toBe(true);
    expect((await s.request('GET', `/api/v1/flags?accountId=${s.accountId}`)).status).toBe(404);
  } finally {
    await s.close();
  }
});
