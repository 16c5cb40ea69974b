/**
 * A load generator in its own process (so it never shares the server's event loop):
 * POST /api/v1/donations through autocannon, each request for the next donor in turn.
 * Reads its job as JSON from argv[2]; prints autocannon's summary as JSON on stdout.
 */
import autocannon from 'autocannon';

interface Job {
  url: string;
  connections: number;
  seconds: number;
  accountId: string;
  keyId: string;
  secret: string;
  contactIds: string[];
  campaignId: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
let n = 0;
const result = await autocannon({
  url: `${job.url}/api/v1/donations`,
  method: 'POST',
  connections: job.connections,
  duration: job.seconds,
  headers: { 'content-type': 'application/json', 'x-api-key': job.keyId, authorization: `Bearer ${job.secret}` },
  requests: [
    {
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({
          accountId: job.accountId,
          contactId: job.contactIds[n++ % job.contactIds.length],
          donationAmount: 25,
          donationDate: '2026-11-21',
          paymentMethod: 'cash',
          campaignId: job.campaignId,
          notes: `bench ${n}`,
        }),
      }),
    },
  ],
});
process.stdout.write(`${JSON.stringify({ rps: result.requests.average, non2xx: result.non2xx, errors: result.errors, ok: result['2xx'], p99: result.latency.p99 })}\n`);
