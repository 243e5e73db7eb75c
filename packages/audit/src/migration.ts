/**
 * Numbered schema migrations, applied in order at open (schema_migrations records what is
 * applied). A database written by a newer adec, with migrations this one does not know, is
 * refused rather than written with assumptions that may no longer hold.
 */

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const CREATE_MIGRATIONS_TABLE = 'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)';

/** The migrations a database at version `applied` lacks, or why it cannot be migrated. */
export function pendingMigrations(migrations: readonly Migration[], applied: number): { readonly pending: readonly Migration[] } | { readonly refused: string } {
  const latest = migrations[migrations.length - 1]!.version;
  if (applied > latest) return { refused: `its schema is at version ${applied}, written by a newer adec (this one knows versions up to ${latest})` };
  return { pending: migrations.filter((migration) => migration.version > applied) };
}
