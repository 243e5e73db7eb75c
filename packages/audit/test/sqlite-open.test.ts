/** Opening the embedded SQLite store: what a user gets for a bad path, a foreign file, a newer schema. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openAuditStore } from '@adec/audit';

const dir = mkdtempSync(join(tmpdir(), 'adec-audit-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('opening a SQLite audit store', () => {
  it('creates the file and its schema, in WAL mode, and accepts the sqlite: prefix', async () => {
    const path = join(dir, 'fresh.db');
    const opened = await openAuditStore(`sqlite:${path}`);
    expect(opened).toMatchObject({ ok: true, store: { backend: 'sqlite' } });
    if (opened.ok) await opened.store.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toEqual([{ version: 1, name: 'hash-chained decision records' }, { version: 2, name: 'per-user short-term memory' }, { version: 3, name: 'chain heads only move forward' }, { version: 4, name: 'records only extend their chain to its head' }]);
    db.close();
  });

  it('names the path when its directory does not exist', async () => {
    const path = join(dir, 'missing', 'audit.db');
    expect(await openAuditStore(path)).toMatchObject({ ok: false, code: 'STORE_UNAVAILABLE', message: expect.stringContaining(`the audit database ${path} could not be opened`) });
  });

  it('refuses a file that is not a database, and leaves it as it was', async () => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'these are my notes, not a database\n'.repeat(200));
    expect(await openAuditStore(path)).toMatchObject({ ok: false, code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/file is not a database/) });
  });

  it('refuses a database migrated by a newer adec without changing it', async () => {
    const path = join(dir, 'newer.db');
    const first = await openAuditStore(path);
    if (first.ok) await first.store.close();
    const db = new Database(path);
    db.prepare("INSERT INTO schema_migrations VALUES (7, 'from the future', '2030-01-01T00:00:00Z')").run();
    db.close();
    expect(await openAuditStore(path)).toMatchObject({ ok: false, code: 'SCHEMA_TOO_NEW', message: `${path}: its schema is at version 7, written by a newer adec (this one knows versions up to 4)` });
  });
});
