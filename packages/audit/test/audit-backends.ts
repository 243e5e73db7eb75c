/**
 * The audit store backends the shared suite runs against, each with raw access to its database
 * for the tampering tests (triggers bypassed, as someone editing the database by hand would).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
import { openAuditStore, type AuditStore, type StoreOptions, type StoredRecord } from '@adec/audit';
import { createDatabase } from '../../../test/support/postgres-server.js';

/** A change made to a stored record behind the store's back. */
export interface RecordEdit {
  readonly body?: string;
  readonly hash?: string;
  readonly prevHash?: string;
  readonly seq?: number;
  readonly tenant?: string;
}

export interface AuditBackend {
  readonly name: 'sqlite' | 'postgres';
  /** The location `openAuditStore` takes. */
  readonly location: string;
  open(options?: StoreOptions): Promise<AuditStore>;
  editRecord(tenant: string, seq: number, edit: RecordEdit): Promise<void>;
  deleteRecord(tenant: string, seq: number): Promise<void>;
  setAnchor(tenant: string, seq: number, hash: string): Promise<void>;
  /** Moves a chain's head by hand (back, too): as someone rolling a chain back would. */
  setHead(tenant: string, seq: number, hash: string): Promise<void>;
  /** Inserts a row with the triggers bypassed. */
  insertRecord(row: StoredRecord): Promise<void>;
  /** Runs SQL as a client would, triggers in force; the database's error message, if any. */
  refusal(sql: string): Promise<string | undefined>;
  dispose(): Promise<void>;
}

const INSERT_RECORD = 'INSERT INTO decision_records (tenant, seq, decision_id, kind, recorded_at, request_hash, body, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)';

function recordValues(row: StoredRecord): unknown[] {
  return [row.tenant, row.seq, row.decisionId, row.kind, row.recordedAt, row.requestHash, row.body, row.prevHash, row.hash];
}

async function opened(location: string, options?: StoreOptions): Promise<AuditStore> {
  const result = await openAuditStore(location, options);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.store;
}

export function sqliteBackend(): AuditBackend {
  const dir = mkdtempSync(join(tmpdir(), 'adec-audit-'));
  const location = join(dir, 'audit.db');
  const raw = (run: (db: Database.Database) => void) => {
    const db = new Database(location);
    try {
      for (const trigger of ['decision_records_no_update', 'decision_records_no_delete', 'decision_records_extend_head', 'chains_no_delete', 'chains_forward_only']) db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
      run(db);
    } finally {
      db.close();
    }
  };
  return {
    name: 'sqlite',
    location,
    open: (options) => opened(location, options),
    async editRecord(tenant, seq, edit) {
      raw((db) => {
        const columns = Object.entries({ body: edit.body, hash: edit.hash, prev_hash: edit.prevHash, seq: edit.seq, tenant: edit.tenant }).filter(([, value]) => value !== undefined);
        db.prepare(`UPDATE decision_records SET ${columns.map(([name]) => `${name} = ?`).join(', ')} WHERE tenant = ? AND seq = ?`).run(...columns.map(([, value]) => value), tenant, seq);
      });
    },
    async deleteRecord(tenant, seq) {
      raw((db) => db.prepare('DELETE FROM decision_records WHERE tenant = ? AND seq = ?').run(tenant, seq));
    },
    async setAnchor(tenant, seq, hash) {
      raw((db) => db.prepare('UPDATE chains SET anchor_seq = ?, anchor_hash = ? WHERE tenant = ?').run(seq, hash, tenant));
    },
    async setHead(tenant, seq, hash) {
      raw((db) => db.prepare('UPDATE chains SET head_seq = ?, head_hash = ? WHERE tenant = ?').run(seq, hash, tenant));
    },
    async insertRecord(row) {
      raw((db) => db.prepare(INSERT_RECORD.replaceAll(/\$\d/g, '?')).run(...recordValues(row)));
    },
    async refusal(sql) {
      const db = new Database(location);
      try {
        db.exec(sql);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      } finally {
        db.close();
      }
    },
    async dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh database on the run's PostgreSQL server (test/support/postgres-global-setup.ts). */
export async function postgresBackend(): Promise<AuditBackend> {
  const location = await createDatabase(inject('postgresUrl'), 'audit');
  const client = async <T>(run: (db: pg.Client) => Promise<T>): Promise<T> => {
    const db = new pg.Client({ connectionString: location });
    await db.connect();
    try {
      return await run(db);
    } finally {
      await db.end();
    }
  };
  // Triggers do not fire for a session in replica mode: as someone editing by hand would do.
  const raw = (sql: string, values: unknown[]) => client(async (db) => {
    await db.query("SET session_replication_role = 'replica'");
    await db.query(sql, values);
  });
  return {
    name: 'postgres',
    location,
    open: (options) => opened(location, options),
    async editRecord(tenant, seq, edit) {
      const columns = Object.entries({ body: edit.body, hash: edit.hash, prev_hash: edit.prevHash, seq: edit.seq, tenant: edit.tenant }).filter(([, value]) => value !== undefined);
      await raw(`UPDATE decision_records SET ${columns.map(([name], i) => `${name} = $${i + 1}`).join(', ')} WHERE tenant = $${columns.length + 1} AND seq = $${columns.length + 2}`, [...columns.map(([, value]) => value), tenant, seq]);
    },
    deleteRecord: (tenant, seq) => raw('DELETE FROM decision_records WHERE tenant = $1 AND seq = $2', [tenant, seq]),
    setAnchor: (tenant, seq, hash) => raw('UPDATE chains SET anchor_seq = $1, anchor_hash = $2 WHERE tenant = $3', [seq, hash, tenant]),
    setHead: (tenant, seq, hash) => raw('UPDATE chains SET head_seq = $1, head_hash = $2 WHERE tenant = $3', [seq, hash, tenant]),
    insertRecord: (row) => raw(INSERT_RECORD, recordValues(row)),
    refusal: (sql) => client(async (db) => {
      try {
        await db.query(sql);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    }),
    async dispose() {},
  };
}

/**
 * Every backend the shared audit suites run against, by name: a new backend joins them all
 * (record integrity, chain ends, anchors, user memory, the store's contract, the service's
 * handling of tampered records) with one line here.
 */
export const AUDIT_BACKENDS: readonly (readonly [string, () => Promise<AuditBackend>])[] = [
  ['sqlite', async () => sqliteBackend()],
  ['postgres', postgresBackend],
];
