/**
 * The SQLite schema, as numbered migrations (migration.ts).
 *
 * The triggers make the append-only rule part of the database: an update is always refused, and
 * a delete only for records at or before the chain's anchor, which only a retention purge moves
 * (first the anchor, then the delete). They guard against a bug or a stray script, not an
 * attacker with the file: that is what verification is for.
 *
 * Version 3 extends the rule to the chain heads: a chains row is never deleted, and its head and
 * anchor only move forward (an anchor never past its head), so a record cannot be made deletable
 * by first deleting its chain's row or moving the anchor back. A record whose tenant has no
 * chains row (a database edited by hand before version 3) counts as after the anchor.
 *
 * Version 4 makes the head the chain's only end (SECURITY.md, "Records past a chain's head": a plain INSERT past the
 * head was taken for a record). A record is inserted only after its chain's anchor and at or
 * before its head, and, at the head, with the hash the head names: so the writer moves the head
 * first, then inserts the records up to it (sqlite-chain-writer.ts). Every seq from the anchor to
 * the head already holds a record (the primary key) that no trigger lets go, so this leaves an
 * INSERT nowhere to go. The trigger does not check a record's link to the one before it: a head
 * record changed by hand would then refuse every later record of its tenant; `verify` and `get`
 * check links. Rows already past a head (a database edited before version 4, or
 * with its triggers dropped), like rows of a tenant with no chains row, are not part of any
 * chain: they may be deleted, and the writer moves them to decision_records_beyond_head, where
 * `verify` still reports them.
 *
 * user_memory (version 2) is each user's short-term memory (user-memory.ts): mutable, one row per
 * signal, the value as JSON text. `write_seq` orders a user's writes, even two in one millisecond;
 * the index on `updated_at` serves the purge that forgets what was not written since its cutoff.
 */
import { GENESIS_HASH } from '../chain.js';
import type { Migration } from '../migration.js';

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'hash-chained decision records',
    sql: `
      CREATE TABLE decision_records (
        tenant       TEXT    NOT NULL,
        seq          INTEGER NOT NULL,
        decision_id  TEXT    NOT NULL,
        kind         TEXT    NOT NULL,
        recorded_at  TEXT    NOT NULL,
        request_hash TEXT    NOT NULL,
        body         TEXT    NOT NULL,
        prev_hash    TEXT    NOT NULL,
        hash         TEXT    NOT NULL,
        PRIMARY KEY (tenant, seq),
        UNIQUE (tenant, decision_id)
      );
      CREATE TABLE chains (
        tenant      TEXT    PRIMARY KEY,
        head_seq    INTEGER NOT NULL,
        head_hash   TEXT    NOT NULL,
        anchor_seq  INTEGER NOT NULL DEFAULT 0,
        anchor_hash TEXT    NOT NULL DEFAULT '${GENESIS_HASH}'
      );
      CREATE TRIGGER decision_records_no_update BEFORE UPDATE ON decision_records
      BEGIN SELECT RAISE(ABORT, 'decision records are append-only'); END;
      CREATE TRIGGER decision_records_no_delete BEFORE DELETE ON decision_records
      WHEN OLD.seq > (SELECT anchor_seq FROM chains WHERE tenant = OLD.tenant)
      BEGIN SELECT RAISE(ABORT, 'decision records are append-only: only a retention purge removes them'); END;
    `,
  },
  {
    version: 2,
    name: 'per-user short-term memory',
    sql: `
      CREATE TABLE user_memory (
        tenant      TEXT    NOT NULL,
        user_id     TEXT    NOT NULL,
        scenario    TEXT    NOT NULL,
        signal      TEXT    NOT NULL,
        value_json  TEXT    NOT NULL,
        outcome_id  TEXT    NOT NULL,
        updated_at  TEXT    NOT NULL,
        write_seq   INTEGER NOT NULL,
        PRIMARY KEY (tenant, user_id, scenario, signal)
      );
      CREATE INDEX user_memory_updated_at ON user_memory (updated_at);
    `,
  },
  {
    version: 3,
    name: 'chain heads only move forward',
    sql: `
      DROP TRIGGER IF EXISTS decision_records_no_delete;
      CREATE TRIGGER decision_records_no_delete BEFORE DELETE ON decision_records
      WHEN OLD.seq > COALESCE((SELECT anchor_seq FROM chains WHERE tenant = OLD.tenant), 0)
      BEGIN SELECT RAISE(ABORT, 'decision records are append-only: only a retention purge removes them'); END;
      CREATE TRIGGER chains_no_delete BEFORE DELETE ON chains
      BEGIN SELECT RAISE(ABORT, 'chains are never deleted: verification checks the records against them'); END;
      CREATE TRIGGER chains_forward_only BEFORE UPDATE ON chains
      WHEN NEW.tenant IS NOT OLD.tenant
        OR NEW.head_seq < OLD.head_seq OR (NEW.head_seq = OLD.head_seq AND NEW.head_hash IS NOT OLD.head_hash)
        OR NEW.anchor_seq < OLD.anchor_seq OR (NEW.anchor_seq = OLD.anchor_seq AND NEW.anchor_hash IS NOT OLD.anchor_hash)
        OR NEW.anchor_seq > NEW.head_seq
      BEGIN SELECT RAISE(ABORT, 'a chain only moves forward: its head and anchor never go back, and the anchor never passes the head'); END;
    `,
  },
  {
    version: 4,
    name: 'records only extend their chain to its head',
    sql: `
      CREATE TABLE decision_records_beyond_head (
        tenant       TEXT    NOT NULL,
        seq          INTEGER NOT NULL,
        decision_id  TEXT    NOT NULL,
        kind         TEXT    NOT NULL,
        recorded_at  TEXT    NOT NULL,
        request_hash TEXT    NOT NULL,
        body         TEXT    NOT NULL,
        prev_hash    TEXT    NOT NULL,
        hash         TEXT    NOT NULL,
        set_aside_at TEXT    NOT NULL
      );
      CREATE INDEX decision_records_beyond_head_tenant ON decision_records_beyond_head (tenant, seq);
      CREATE TRIGGER decision_records_extend_head BEFORE INSERT ON decision_records
      WHEN NOT EXISTS (
        SELECT 1 FROM chains c WHERE c.tenant = NEW.tenant
          AND NEW.seq > c.anchor_seq AND NEW.seq <= c.head_seq
          AND (NEW.seq < c.head_seq OR NEW.hash = c.head_hash))
      BEGIN SELECT RAISE(ABORT, 'a decision record only extends its chain: after its anchor, at or before its head, and at the head with the hash the head names'); END;
      DROP TRIGGER IF EXISTS decision_records_no_delete;
      CREATE TRIGGER decision_records_no_delete BEFORE DELETE ON decision_records
      WHEN OLD.seq > COALESCE((SELECT anchor_seq FROM chains WHERE tenant = OLD.tenant), 0)
        AND OLD.seq <= COALESCE((SELECT head_seq FROM chains WHERE tenant = OLD.tenant), 0)
      BEGIN SELECT RAISE(ABORT, 'decision records are append-only: only a retention purge removes them'); END;
    `,
  },
];
