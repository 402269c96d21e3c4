import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import * as schema from './schema/index.ts';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

type Handler = (payload: string) => void;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded client (PGlite only): backups snapshot its data folder. */
  pglite?: PGlite;
  /** The connection string (PostgreSQL only): backups hand it to pg_dump. */
  url?: string;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** PostgreSQL LISTEN, fanned out to in-process handlers; live updates work across instances. */
  listen(channel: string, handler: Handler): Promise<() => void>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
};

/** One real LISTEN per channel, shared by every handler of this process. */
function createFanOut(startListening: (channel: string, deliver: Handler) => Promise<void>) {
  const handlers = new Map<string, Set<Handler>>();
  return async (channel: string, handler: Handler) => {
    let set = handlers.get(channel);
    if (!set) {
      const created = new Set<Handler>();
      handlers.set(channel, created);
      set = created;
      try {
        await startListening(channel, (payload) => {
          for (const each of created) each(payload);
        });
      } catch (error) {
        // the next subscriber tries LISTEN again instead of joining a channel nobody listens on
        handlers.delete(channel);
        throw error;
      }
    }
    set.add(handler);
    return () => void set.delete(handler);
  };
}

const channelPattern = /^[a-z_]+$/;

/** Folder of the SQL migrations that `migrate()` applies. */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

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
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // an idle connection dropped by the server (restart, failover) must not crash the process
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema, casing: 'snake_case', logger }) as unknown as Db;
    let listener: pg.Client | undefined;
    const listen = createFanOut(async (channel, deliver) => {
      if (!channelPattern.test(channel)) throw new Error(`bad channel ${channel}`);
      if (!listener) {
        const client = new pg.Client({ connectionString: options.url });
        client.on('error', () => {});
        listener = client;
        // a client that never connected is dropped, so the next LISTEN connects anew
        await client.connect().catch((error: unknown) => {
          if (listener === client) listener = undefined;
          throw error;
        });
      }
      listener.on('notification', (message) => {
        if (message.channel === channel) deliver(message.payload ?? '');
      });
      await listener.query(`listen ${channel}`);
    });
    return {
      db,
      kind: 'postgres',
      url: options.url,
      migrate: () => migratePg(drizzlePg(pool), { migrationsFolder }),
      ping: async () => void (await db.execute(sql`select 1`)),
      listen,
      notify: async (channel, payload) => void (await db.execute(sql`select pg_notify(${channel}, ${payload})`)),
      close: async () => {
        await listener?.end();
        await pool.end();
      },
    };
  }
  const client = await PGlite.create(options.pgliteDir ?? 'memory://', {
    extensions: { pg_trgm },
    ...(options.pgliteTemplate ? { loadDataDir: options.pgliteTemplate } : {}),
  });
  const db = drizzlePglite(client, { schema, casing: 'snake_case', logger }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    ping: async () => {
      if (client.closed) throw new Error('database closed');
      await db.execute(sql`select 1`);
    },
    listen: createFanOut(async (channel, deliver) => {
      if (!channelPattern.test(channel)) throw new Error(`bad channel ${channel}`);
      await client.listen(channel, deliver);
    }),
    notify: async (channel, payload) => void (await db.execute(sql`select pg_notify(${channel}, ${payload})`)),
    close: () => client.close(),
  };
}
