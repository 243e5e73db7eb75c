/**
 * Opens the audit store a location names: `postgres://…` (or `postgresql://…`) for a shared
 * PostgreSQL database, anything else a SQLite file (`sqlite:` prefix optional).
 */
import { openSqliteAuditStore } from './sqlite/sqlite-audit-store.js';
import type { OpenedStore, StoreOptions } from './store-options.js';

export async function openAuditStore(location: string, options: StoreOptions = {}): Promise<OpenedStore> {
  if (/^postgres(ql)?:\/\//i.test(location)) {
    const { openPostgresAuditStore } = await import('./postgres/postgres-audit-store.js');
    return openPostgresAuditStore(location, options);
  }
  return openSqliteAuditStore(location.replace(/^sqlite:/i, ''), options);
}
