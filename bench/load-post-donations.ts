/**
 * A load generator in its own process (so it never shares the server's event loop):
 * POST /api/v1/donations through autocannon, each request for the next donor in turn.
 * Reads its job as JSON from argv[2]; prints autocannon's summary as JSON on stdout, with
 * the requests sent and the ids of the donations answered 201 (the bench checks each one).
 * Every request's notes are unique (`<tag> <n>`), so a gift saved twice would show.
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
  /** makes the notes of this run unique among runs on the same database */
  tag: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
let n = 0;
const acknowledged: string[] = [];
let otherAnswers = 0;
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
          notes: `${job.tag} ${n}`,
        }),
      }),
      onResponse: (status, body) => {
        if (status === 201) acknowledged.push((JSON.parse(body) as { id: string }).id);
        else otherAnswers += 1;
      },
    },
  ],
});
process.stdout.write(`${JSON.stringify({ rps: result.requests.average, non2xx: result.non2xx, errors: result.errors, ok: result['2xx'], p99: result.latency.p99, sent: n, otherAnswers, acknowledged })}\n`);
