/**
 * The throwaway PostgreSQL server the audit store's tests run against: it is a real server, a
 * database made for one test file is invisible from another's, and stopping it leaves nothing
 * behind. The whole file shares one server, so it pays for one initdb.
 */
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, startPostgres, type PostgresServer } from '../../../test/support/postgres-server.js';

let server: PostgresServer;
// Generous because the first run on a machine without PostgreSQL installs it through apt.
beforeAll(async () => {
  server = await startPostgres();
}, 300_000);
// eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
afterAll(() => server?.kill());

async function query(url: string, sql: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe('a test PostgreSQL server', () => {
  it('is a real PostgreSQL on loopback, with its database named in the URL', async () => {
    expect(server.url).toBe(`postgres://adec@127.0.0.1:${server.port}/adec`);
    const [row] = await query(server.url, 'SELECT version(), current_database(), current_user');
    expect(row).toMatchObject({ current_database: 'adec', current_user: 'adec' });
    expect(row?.version).toContain('PostgreSQL');
  });

  it('stores what it is given and reads it back', async () => {
    await query(server.url, 'CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL)');
    await query(server.url, 'INSERT INTO notes VALUES ($1, $2), ($3, $4)', [1, 'first', 2, 'zweite – ünïcode']);
    expect(await query(server.url, 'SELECT id, body FROM notes ORDER BY id')).toEqual([
      { id: 1, body: 'first' },
      { id: 2, body: 'zweite – ünïcode' },
    ]);
  });

  it('makes databases that do not see each other’s tables', async () => {
    const first = await createDatabase(server.url, 'isolation');
    const second = await createDatabase(server.url, 'isolation');
    expect(first).not.toBe(second);
    expect(first).toMatch(new RegExp(`^postgres://adec@127\\.0\\.0\\.1:${server.port}/isolation_[0-9a-f]{12}$`));
    await query(first, 'CREATE TABLE only_in_first (id integer)');
    const tables = 'SELECT table_name FROM information_schema.tables WHERE table_schema = $1';
    expect(await query(first, tables, ['public'])).toEqual([{ table_name: 'only_in_first' }]);
    expect(await query(second, tables, ['public'])).toEqual([]);
  });

  it('refuses a database label that would need quoting', async () => {
    await expect(createDatabase(server.url, 'Robert"; DROP')).rejects.toThrow('database label `Robert"; DROP` must be 1–40 lowercase letters');
  });

  // Last: the server is gone afterwards.
  it('leaves no data directory and no listener once stopped, and stops only once', async () => {
    expect(existsSync(server.dataDir)).toBe(true);
    await server.stop();
    await server.stop();
    expect(existsSync(server.dataDir)).toBe(false);
    await expect(query(server.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  });
});
