/**
 * The baseline the issue names: a bare Fastify route that validates a donation with zod and
 * inserts one row with a raw better-sqlite3 prepared statement, on its own SQLite file with
 * the same durability (WAL, synchronous=FULL). One commit per request.
 */
import BetterSqlite3 from 'better-sqlite3';
import Fastify from 'fastify';
import { DonationCreateBody } from '#shared/schemas/donations.ts';

export async function startBaselineServer(
  file: string,
): Promise<{ url: string; count(): number; close(): Promise<void> }> {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`create table if not exists donations (
    id integer primary key, account_id text not null, contact_id text not null, amount_cents integer not null,
    donation_date text not null, payment_method text not null, campaign_id text, notes text, created_at text not null)`);
  const insert = db.prepare(
    'insert into donations (account_id, contact_id, amount_cents, donation_date, payment_method, campaign_id, notes, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const app = Fastify({ logger: false });
  app.post('/api/v1/donations', async (req, reply) => {
    const parsed = DonationCreateBody.safeParse(req.body);
    if (!parsed.success) return reply.code(400).send({ error: parsed.error.issues[0]?.message });
    const b = parsed.data;
    const r = insert.run(
      b.accountId,
      b.contactId,
      Math.round(b.donationAmount * 100),
      b.donationDate,
      b.paymentMethod,
      b.campaignId ?? null,
      b.notes ?? null,
      new Date().toISOString(),
    );
    return reply.code(201).send({ id: Number(r.lastInsertRowid) });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => (db.prepare('select count(*) as n from donations').get() as { n: number }).n,
    async close() {
      await app.close();
      db.close();
    },
  };
}
