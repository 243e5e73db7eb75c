/**
 * The SQLite schema, as numbered migrations (migration.ts).
 *
 * The triggers make the append-only rule part of the database: an update is always refused, and
 * a delete only for records at or before the chain's anchor, which only a retention purge moves
 * (first the anchor, then the delete). They guard against a bug or a stray script, not an
 * attacker with the file: that is what verification is for.
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
];
