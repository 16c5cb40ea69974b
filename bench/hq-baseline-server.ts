/**
 * Part `hq`'s baseline: a bare Fastify route that does what POST /api/v1/donations must do on
 * PostgreSQL and nothing more. It validates the body with the same zod schema, then in one
 * transaction inserts the gift, adds it to the donor's total and last gift date (the donor's
 * row lock, a 404 when the donor is not the account's) and appends the change-log row, then
 * commits. The database is made by GiftDesk's own migrations (same tables, indexes, triggers
 * and foreign keys), on the same server with the same synchronous_commit, through a pg pool of
 * the same size as GiftDesk's. Named prepared statements, as a tuned bare route would use.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { newId } from '#shared/ids.ts';
import { DonationCreateBody } from '#shared/schemas/donations.ts';

const INSERT_DONATION = {
  name: 'base_insert_donation',
  text: `insert into donations (id, account_id, contact_id, amount_cents, donation_date, payment_method, status,
    campaign_id, election_type, election_year, notes, created_at, updated_at)
    values ($1, $2, $3, $4, $5, $6, 'completed', $7, 'general', $8, $9, $10, $10)`,
};
const ADD_TO_TOTALS = {
  name: 'base_add_to_totals',
  text: `update contacts set total_cents = total_cents + $3,
    last_donation_date = case when last_donation_date is null or last_donation_date < $4 then $4 else last_donation_date end
    where id = $1 and account_id = $2`,
};
const LOG_CHANGE = {
  name: 'base_log_change',
  text: `insert into change_log (account_id, entity_type, entity_id, op, fields, push, created_at)
    values ($1, 'donation', $2, 'create', null, 1, $3)`,
};

export async function startHqBaselineServer(
  databaseUrl: string,
  poolSize: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, options: '-c TimeZone=UTC' });
  pool.on('error', () => undefined);
  const app = Fastify({ logger: false });
  app.post('/api/v1/donations', async (req, reply) => {
    const parsed = DonationCreateBody.safeParse(req.body);
    if (!parsed.success) return reply.code(400).send({ error: parsed.error.issues[0]?.message });
    const b = parsed.data;
    const id = newId('donation');
    const at = new Date().toISOString();
    const cents = Math.round(b.donationAmount * 100);
    const date = new Date(b.donationDate).toISOString();
    const client = await pool.connect();
    try {
      await client.query('begin');
      const totals = await client.query({
        ...ADD_TO_TOTALS,
        values: [b.contactId, b.accountId, cents, date],
      });
      if (totals.rowCount === 0) {
        await client.query('rollback');
        return reply.code(404).send({ error: 'contactId: no such contact' });
      }
      await client.query({
        ...INSERT_DONATION,
        values: [
          id,
          b.accountId,
          b.contactId,
          cents,
          date,
          b.paymentMethod,
          b.campaignId ?? null,
          Number(date.slice(0, 4)),
          b.notes ?? null,
          at,
        ],
      });
      await client.query({ ...LOG_CHANGE, values: [b.accountId, id, at] });
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    return reply.code(201).send({ id, contactId: b.contactId, donationAmount: b.donationAmount });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await pool.end();
    },
  };
}
