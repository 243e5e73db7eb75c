/**
 * The PostgreSQL schema, as numbered migrations applied in order at open (schema_migrations holds
 * what is applied), with the same tables and columns as the SQLite one (sqlite/sqlite-schema.ts).
 * A database written by a newer adec, with migrations this one does not know, is refused rather
 * than written with assumptions that may no longer hold.
 *
 * Column choices that the chain depends on:
 * - `body` is TEXT, never jsonb: the hash covers the exact text written, and jsonb would reorder
 *   keys and rewrite numbers.
 * - `seq` is BIGINT: a chain may outgrow the 2^31 of an INTEGER.
 * - tenant, decision_id and recorded_at use the "C" collation, so `ORDER BY tenant` is byte order
 *   as in SQLite, whatever the database's locale, and the purge's `recorded_at >= cutoff` compares
 *   ISO-8601 strings character by character.
 *
 * The triggers make the append-only rule part of the database, with SQLite's names and rule: an
 * update is always refused, and a delete only for records after the chain's anchor, which only a
 * retention purge moves (first the anchor, then the delete). TRUNCATE, which skips row triggers,
 * is refused too. They guard against a bug or a stray script, not an attacker with the database:
 * that is what verification is for.
 *
 * Version 3 extends the rule to the chain heads, as in SQLite: a chains row is never deleted (nor
 * truncated), and its head and anchor only move forward (an anchor never past its head). A record
 * whose tenant has no chains row counts as after the anchor.
 *
 * Version 4 makes the head the chain's only end, as in SQLite (sqlite/sqlite-schema.ts says why
 * and how): a record is inserted only after its chain's anchor and at or before its head, and,
 * at the head, with the head's hash; rows past a head (or of a tenant with no chains row) are
 * outside every chain, deletable, and set aside by the writer in decision_records_beyond_head.
 *
 * user_memory (version 2) is each user's short-term memory (user-memory.ts): mutable, one row per
 * signal. `value_json` is TEXT, not jsonb, which refuses a string holding \u0000 that JSON allows.
 * `write_seq` comes from a sequence, so it orders writes across hosts, even two in one millisecond;
 * the index on `updated_at` serves the purge that forgets what was not written since its cutoff.
 */
import type { ClientBase } from 'pg';
import { GENESIS_HASH } from '../chain.js';
import { CREATE_MIGRATIONS_TABLE, pendingMigrations, type Migration } from '../migration.js';

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'hash-chained decision records',
    sql: `
      CREATE TABLE decision_records (
        tenant       TEXT COLLATE "C" NOT NULL,
        seq          BIGINT           NOT NULL,
        decision_id  TEXT COLLATE "C" NOT NULL,
        kind         TEXT             NOT NULL,
        recorded_at  TEXT COLLATE "C" NOT NULL,
        request_hash TEXT             NOT NULL,
        body         TEXT             NOT NULL,
        prev_hash    TEXT             NOT NULL,
        hash         TEXT             NOT NULL,
        PRIMARY KEY (tenant, seq),
        UNIQUE (tenant, decision_id)
      );
      CREATE TABLE chains (
        tenant      TEXT COLLATE "C" PRIMARY KEY,
        head_seq    BIGINT NOT NULL,
        head_hash   TEXT   NOT NULL,
        anchor_seq  BIGINT NOT NULL DEFAULT 0,
        anchor_hash TEXT   NOT NULL DEFAULT '${GENESIS_HASH}'
      );
      CREATE FUNCTION decision_records_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'decision records are append-only';
      END $$;
      CREATE FUNCTION decision_records_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.seq > (SELECT anchor_seq FROM chains WHERE tenant = OLD.tenant) THEN
          RAISE EXCEPTION 'decision records are append-only: only a retention purge removes them';
        END IF;
        RETURN OLD;
      END $$;
      CREATE TRIGGER decision_records_no_update BEFORE UPDATE ON decision_records
        FOR EACH ROW EXECUTE FUNCTION decision_records_refuse_change();
      CREATE TRIGGER decision_records_no_truncate BEFORE TRUNCATE ON decision_records
        FOR EACH STATEMENT EXECUTE FUNCTION decision_records_refuse_change();
      CREATE TRIGGER decision_records_no_delete BEFORE DELETE ON decision_records
        FOR EACH ROW EXECUTE FUNCTION decision_records_refuse_delete();
    `,
  },
  {
    version: 2,
    name: 'per-user short-term memory',
    sql: `
      CREATE SEQUENCE user_memory_write_seq;
      CREATE TABLE user_memory (
        tenant      TEXT COLLATE "C" NOT NULL,
        user_id     TEXT COLLATE "C" NOT NULL,
        scenario    TEXT COLLATE "C" NOT NULL,
        signal      TEXT COLLATE "C" NOT NULL,
        value_json  TEXT             NOT NULL,
        outcome_id  TEXT             NOT NULL,
        updated_at  TEXT COLLATE "C" NOT NULL,
        write_seq   BIGINT           NOT NULL,
        PRIMARY KEY (tenant, user_id, scenario, signal)
      );
      CREATE INDEX user_memory_updated_at ON user_memory (updated_at);
    `,
  },
  {
    version: 3,
    name: 'chain heads only move forward',
    sql: `
      CREATE OR REPLACE FUNCTION decision_records_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.seq > COALESCE((SELECT anchor_seq FROM chains WHERE tenant = OLD.tenant), 0) THEN
          RAISE EXCEPTION 'decision records are append-only: only a retention purge removes them';
        END IF;
        RETURN OLD;
      END $$;
      CREATE FUNCTION chains_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'chains are never deleted: verification checks the records against them';
      END $$;
      CREATE FUNCTION chains_refuse_backward() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.tenant IS DISTINCT FROM OLD.tenant
          OR NEW.head_seq < OLD.head_seq OR (NEW.head_seq = OLD.head_seq AND NEW.head_hash IS DISTINCT FROM OLD.head_hash)
          OR NEW.anchor_seq < OLD.anchor_seq OR (NEW.anchor_seq = OLD.anchor_seq AND NEW.anchor_hash IS DISTINCT FROM OLD.anchor_hash)
          OR NEW.anchor_seq > NEW.head_seq THEN
          RAISE EXCEPTION 'a chain only moves forward: its head and anchor never go back, and the anchor never passes the head';
        END IF;
        RETURN NEW;
      END $$;
      DROP TRIGGER IF EXISTS decision_records_no_delete ON decision_records;
      CREATE TRIGGER decision_records_no_delete BEFORE DELETE ON decision_records
        FOR EACH ROW EXECUTE FUNCTION decision_records_refuse_delete();
      CREATE TRIGGER chains_no_delete BEFORE DELETE ON chains
        FOR EACH ROW EXECUTE FUNCTION chains_refuse_delete();
      CREATE TRIGGER chains_no_truncate BEFORE TRUNCATE ON chains
        FOR EACH STATEMENT EXECUTE FUNCTION chains_refuse_delete();
      CREATE TRIGGER chains_forward_only BEFORE UPDATE ON chains
        FOR EACH ROW EXECUTE FUNCTION chains_refuse_backward();
    `,
  },
  {
    version: 4,
    name: 'records only extend their chain to its head',
    sql: `
      CREATE TABLE decision_records_beyond_head (
        tenant       TEXT COLLATE "C" NOT NULL,
        seq          BIGINT           NOT NULL,
        decision_id  TEXT COLLATE "C" NOT NULL,
        kind         TEXT             NOT NULL,
        recorded_at  TEXT COLLATE "C" NOT NULL,
        request_hash TEXT             NOT NULL,
        body         TEXT             NOT NULL,
        prev_hash    TEXT             NOT NULL,
        hash         TEXT             NOT NULL,
        set_aside_at TEXT             NOT NULL
      );
      CREATE INDEX decision_records_beyond_head_tenant ON decision_records_beyond_head (tenant, seq);
      CREATE FUNCTION decision_records_refuse_off_chain() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT EXISTS (
          SELECT 1 FROM chains c WHERE c.tenant = NEW.tenant
            AND NEW.seq > c.anchor_seq AND NEW.seq <= c.head_seq
            AND (NEW.seq < c.head_seq OR NEW.hash = c.head_hash)) THEN
          RAISE EXCEPTION 'a decision record only extends its chain: after its anchor, at or before its head, and at the head with the hash the head names';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER decision_records_extend_head BEFORE INSERT ON decision_records
        FOR EACH ROW EXECUTE FUNCTION decision_records_refuse_off_chain();
      CREATE OR REPLACE FUNCTION decision_records_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.seq > COALESCE((SELECT anchor_seq FROM chains WHERE tenant = OLD.tenant), 0)
          AND OLD.seq <= COALESCE((SELECT head_seq FROM chains WHERE tenant = OLD.tenant), 0) THEN
          RAISE EXCEPTION 'decision records are append-only: only a retention purge removes them';
        END IF;
        RETURN OLD;
      END $$;
    `,
  },
];

/**
 * Held while migrating, so that hosts starting at once on one database migrate one after the
 * other: the second finds the migrations applied. Any constant shared by every adec would do;
 * this one is 'adec' in ASCII followed by 1.
 */
const MIGRATION_LOCK = '7017845595226243073';

/**
 * Applies the migrations this database lacks, in one transaction on `client`; the reason it
 * cannot, if it cannot (then nothing was changed). When a statement fails it throws, and the
 * caller rolls the transaction back.
 */
export async function migratePostgres(client: ClientBase): Promise<string | undefined> {
  await client.query('BEGIN');
  await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
  await client.query(CREATE_MIGRATIONS_TABLE);
  const { rows } = await client.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
  const migrations = pendingMigrations(POSTGRES_MIGRATIONS, rows[0]?.version ?? 0);
  if ('refused' in migrations) {
    await client.query('ROLLBACK');
    return migrations.refused;
  }
  for (const migration of migrations.pending) {
    await client.query(migration.sql);
    await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, new Date().toISOString()]);
  }
  await client.query('COMMIT');
  return undefined;
}
