/**
 * Vitest global setup: one PostgreSQL server for the whole test run, started before any test
 * file and stopped after the last. Test files read its URL with `inject('postgresUrl')` and make
 * their own database on it with `createDatabase`, so they share the server's startup cost
 * (an initdb plus a start, about a second) but never each other's tables.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared server's `adec` database; any database on it reaches the server. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
