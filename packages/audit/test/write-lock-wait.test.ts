/**
 * The writer thread waits for SQLite's write lock in short steps of its own
 * (write-lock-wait.ts): a write meets a file another process has locked, and goes through once
 * the lock is released, however long that takes within the timeout; past the timeout it fails
 * with SQLite's busy error; any other error is not retried.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { whileLockedTryAgain } from '../src/sqlite/write-lock-wait.js';

const dir = mkdtempSync(join(tmpdir(), 'adec-write-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Another process holds `path`'s write lock for `holdMs`; resolves once it has it. */
function lockedByAnotherProcess(path: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const script = `const D = require(${JSON.stringify(require.resolve('better-sqlite3'))}); const db = new D(${JSON.stringify(path)}); db.exec('BEGIN IMMEDIATE'); console.log('locked'); setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${holdMs});`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const released = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve) => child.stdout.once('data', () => resolve({ released })));
}

function database(name: string) {
  const db = new Database(join(dir, name), { timeout: 0 });
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE IF NOT EXISTS t (n INTEGER)');
  return db;
}

describe('waiting for the write lock', () => {
  it.each([50, 200, 600])('writes once another process releases a lock held %i ms', async (holdMs) => {
    const db = database(`held-${holdMs}.db`);
    const insert = db.transaction((n: number) => db.prepare('INSERT INTO t VALUES (?)').run(n));
    const { released } = await lockedByAnotherProcess(join(dir, `held-${holdMs}.db`), holdMs);
    // The first try meets the lock: SQLite would say "database is locked" at once.
    expect(() => insert.immediate(1)).toThrow(/database is locked/);
    whileLockedTryAgain(() => insert.immediate(2), 5_000);
    await released;
    expect(db.prepare('SELECT n FROM t').pluck().all()).toEqual([2]);
    db.close();
  });

  it('fails with the busy error once the timeout is spent', async () => {
    const db = database('timeout.db');
    const insert = db.transaction(() => db.prepare('INSERT INTO t VALUES (1)').run());
    const { released } = await lockedByAnotherProcess(join(dir, 'timeout.db'), 1_500);
    expect(() => whileLockedTryAgain(() => insert.immediate(), 200)).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    await released;
    db.close();
  });

  it('does not retry an error that is not the lock', () => {
    let tries = 0;
    expect(() =>
      whileLockedTryAgain(() => {
        tries += 1;
        throw Object.assign(new Error('constraint failed'), { code: 'SQLITE_CONSTRAINT' });
      }, 1_000),
    ).toThrow('constraint failed');
    expect(tries).toBe(1);
  });
});
