/**
 * A load generator in its own process (so it never shares the server's event loop):
 * POST /api/v1/donations through autocannon, each request for the next donor in turn.
 * Reads its job as JSON from argv[2] (or from the file `@path` names there: a long plan); prints autocannon's summary as JSON on stdout, with
 * the requests sent and, for each answer 201, the id answered paired with the notes of the
 * request that got it (the bench checks each pair against the database).
 * Every request's notes are unique (`<tag> <n>`), so a gift saved twice would show.
 */
import fs from 'node:fs';
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
  /**
   * Optional: the gifts to send, in turn (donor, amount, method), e.g. a weekend of events'
   * spread (bench/hq-post.ts); without it each request is $25 cash for the next donor.
   */
  plan?: Array<[contactIndex: number, dollars: number, method: string]>;
}

/** autocannon's per-connection context */
interface Ctx {
  notes?: string;
}

const arg = process.argv[2] ?? '{}';
const job = JSON.parse(arg.startsWith('@') ? fs.readFileSync(arg.slice(1), 'utf8') : arg) as Job;
let n = 0;
/** [id answered 201, notes of the request that got that answer] */
const acknowledged: Array<[string, string]> = [];
let otherAnswers = 0;
const result = await autocannon({
  url: `${job.url}/api/v1/donations`,
  method: 'POST',
  connections: job.connections,
  // one request in flight per connection: the response handler below runs before the
  // connection's next request is built, so `context.notes` is the answered request's notes
  pipelining: 1,
  duration: job.seconds,
  headers: {
    'content-type': 'application/json',
    'x-api-key': job.keyId,
    authorization: `Bearer ${job.secret}`,
  },
  requests: [
    {
      setupRequest: (req, context) => {
        n += 1;
        const notes = `${job.tag} ${n}`;
        (context as Ctx).notes = notes;
        const [donor, dollars, method] = job.plan?.[n % job.plan.length] ?? [n, 25, 'cash'];
        return {
          ...req,
          body: JSON.stringify({
            accountId: job.accountId,
            contactId: job.contactIds[donor % job.contactIds.length],
            donationAmount: dollars,
            donationDate: '2026-11-21',
            paymentMethod: method,
            campaignId: job.campaignId,
            notes,
          }),
        };
      },
      onResponse: (status, body, context) => {
        if (status === 201)
          acknowledged.push([(JSON.parse(body) as { id: string }).id, (context as Ctx).notes ?? '']);
        else otherAnswers += 1;
      },
    },
  ],
});
process.stdout.write(
  `${JSON.stringify({ rps: result.requests.average, non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts, ok: result['2xx'], p99: result.latency.p99, sent: n, otherAnswers, acknowledged })}\n`,
);
