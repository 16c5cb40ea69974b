/**
 * One event, several stations: the tables of the event hub and of a station. Frozen once
 * shipped.
 *
 * At the hub:
 * - `hub_settings`: one row per account this GiftDesk hosts an event for: the certificate's
 *   SHA-256 fingerprint (the certificate and its key are files in the data folder, 0600) and
 *   the address it last served on (what `hub code` prints beside a running hub).
 * - `hub_stations`: the paired stations: each has its own API key (revoked with the station),
 *   when it last spoke, and what it last reported of itself (its own gift count, its last
 *   change's sequence, what it still has waiting), for the close-out.
 * - `hub_pairing_codes`: one-time codes, stored hashed, each with its expiry and its use.
 * - `donations.station_id`: at the hub, the station a gift was entered at (null: at the hub
 *   itself, or before any event); at a station, the same, for gifts that came from the hub.
 *
 * At a station:
 * - `sync_remotes` gains `kind` ('hq' | 'hub'), the hub certificate's pinned fingerprint,
 *   this station's id and name at the hub, the hub's change cursor (how far the station has
 *   read the hub's feed) and when the hub said this station was revoked.
 * - `hub_notices`: a contact field this station changed that another station's later change
 *   replaced at the hub (said to the volunteer, never dropped silently).
 */
import type { Kysely } from 'kysely';
import type { Engine, Migration } from '../migration-types.ts';

export const name = '2026-11-27T1600-event-hub';

export function migration(engine: Engine): Migration {
  const int = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('hub_settings')
        .addColumn('account_id', 'text', (c) => c.primaryKey())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('hub_stations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('api_key_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('last_seen_at', 'text')
        .addColumn('reported_entered', int)
        .addColumn('reported_last_seq', int)
        .addColumn('reported_waiting', int)
        .addColumn('reported_at', 'text')
        .execute();
      await db.schema.createIndex('hub_stations_key').on('hub_stations').column('api_key_id').execute();
      await db.schema
        .createTable('hub_pairing_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('station_id', 'text')
        .execute();
      await db.schema.alterTable('donations').addColumn('station_id', 'text').execute();
      await db.schema
        .alterTable('sync_remotes')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('hq'))
        .execute();
      await db.schema.alterTable('sync_remotes').addColumn('pinned_fingerprint', 'text').execute();
      await db.schema.alterTable('sync_remotes').addColumn('station_id', 'text').execute();
      await db.schema.alterTable('sync_remotes').addColumn('station_name', 'text').execute();
      await db.schema.alterTable('sync_remotes').addColumn('hub_cursor', 'text').execute();
      await db.schema.alterTable('sync_remotes').addColumn('revoked_at', 'text').execute();
      await db.schema
        .createTable('hub_notices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('contact_id', 'text', (c) => c.notNull())
        .addColumn('field', 'text', (c) => c.notNull())
        .addColumn('mine', 'text')
        .addColumn('theirs', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('seen_at', 'text')
        .execute();
    },
  };
}
