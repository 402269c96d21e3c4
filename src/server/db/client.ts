import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.ts';
import type { PgliteClient } from './pglite-thread.ts';
import type { Handler } from './channels.ts';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded client (PGlite only), running in its own thread: backups snapshot its data folder. */
  pglite?: PgliteClient;
  /** The connection string (PostgreSQL only): backups hand it to pg_dump. */
  url?: string;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** PostgreSQL LISTEN, fanned out to in-process handlers; live updates work across instances. */
  listen(channel: string, handler: Handler): Promise<() => void>;
  /**
   * Whether every LISTEN of this process is established now (the PostgreSQL listener's connection is up, the
   * embedded database's thread is running). While false, notifications are being missed: nothing may be remembered
   * on the strength of one. It turns true again just before `anyChange` is delivered to every subscriber.
   */
  listening(): boolean;
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Runs fn while nobody else runs one under the same key: every process on this PostgreSQL (an advisory
   * lock), or every caller in this process on PGlite (which only one process can open).
   */
  exclusively<T>(key: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/**
 * Opens PostgreSQL when a URL is given, else PGlite at `pgliteDir` ('memory://' for tests).
 * `pgliteTemplate` starts PGlite from a `dumpDataDir()` tarball instead of an empty cluster.
 */
export async function openDatabase(options: {
  url?: string;
  pgliteDir?: string;
  pgliteTemplate?: Blob;
  onQuery?: (query: string) => void;
}): Promise<Database> {
  const { onQuery } = options;
  const logger = onQuery ? { logQuery: (query: string) => onQuery(query) } : undefined;
  if (options.url) {
    const { openPostgres } = await import('./client-postgres.ts');
    return openPostgres({ url: options.url, logger });
  }
  const { openPglite } = await import('./client-pglite.ts');
  return openPglite({ dataDir: options.pgliteDir ?? 'memory://', template: options.pgliteTemplate, logger });
}
