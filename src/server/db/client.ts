import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import * as schema from './schema/index.ts';
import { startPgliteThread, type PgliteClient } from './pglite-thread.ts';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

type Handler = (payload: string) => void;

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
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Runs fn while nobody else runs one under the same key: every process on this PostgreSQL (an advisory
   * lock), or every caller in this process on PGlite (which only one process can open).
   */
  exclusively<T>(key: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/** exclusively() for PGlite: callers under one key take turns. */
function createInProcessLocks() {
  const tails = new Map<number, Promise<unknown>>();
  return <T>(key: number, fn: () => Promise<T>): Promise<T> => {
    const result = (tails.get(key) ?? Promise.resolve()).then(fn);
    const tail = result.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  };
}

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

/**
 * One PostgreSQL connection holding every LISTEN of this process. When the server drops it (restart, failover,
 * an idle timeout), it reconnects with backoff and listens again on every channel, so live updates resume.
 */
function createPgListener(url: string, retryMs = { first: 500, max: 30_000 }) {
  const channels = new Map<string, Handler>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;
  let delay = retryMs.first;

  function reconnectLater() {
    if (closed || channels.size === 0) return;
    const timer = setTimeout(() => {
      connect().catch(() => reconnectLater());
    }, delay);
    timer.unref();
    delay = Math.min(retryMs.max, delay * 2);
  }

  function connect(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const fresh = new pg.Client({ connectionString: url });
      let dropped = false;
      const drop = () => {
        if (dropped) return;
        dropped = true;
        if (client === fresh) client = undefined;
        reconnectLater();
      };
      fresh.on('error', drop);
      fresh.on('end', drop);
      fresh.on('notification', (message) => channels.get(message.channel)?.(message.payload ?? ''));
      try {
        await fresh.connect();
        for (const channel of channels.keys()) await fresh.query(`listen ${channel}`);
      } catch (error) {
        dropped = true;
        void fresh.end().catch(() => {});
        throw error;
      }
      client = fresh;
      delay = retryMs.first;
      return fresh;
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  return {
    async listen(channel: string, deliver: Handler) {
      if (!channelPattern.test(channel)) throw new Error(`bad channel ${channel}`);
      channels.set(channel, deliver);
      try {
        const connected = await connect();
        await connected.query(`listen ${channel}`);
      } catch (error) {
        // the fan-out forgets the channel, and the next subscriber tries again
        channels.delete(channel);
        throw error;
      }
    },
    async close() {
      closed = true;
      await client?.end().catch(() => {});
    },
  };
}

// any fixed number, the same in every instance: PostgreSQL's advisory lock around migrations
const migrationLockKey = 731_017_001;

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
    const listener = createPgListener(options.url);
    const listen = createFanOut((channel, deliver) => listener.listen(channel, deliver));
    return {
      db,
      kind: 'postgres',
      url: options.url,
      // instances starting together take turns: the second finds the migrations applied and does nothing
      migrate: async () => {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [migrationLockKey]);
          await migratePg(drizzlePg(client), { migrationsFolder });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [migrationLockKey]).catch(() => {});
          client.release();
        }
      },
      ping: async () => void (await db.execute(sql`select 1`)),
      exclusively: async (key, fn) => {
        const client = await pool.connect();
        let unlocked = false;
        try {
          await client.query('select pg_advisory_lock($1)', [key]);
          try {
            return await fn();
          } finally {
            unlocked = await client.query('select pg_advisory_unlock($1)', [key]).then(() => true, () => false);
          }
        } finally {
          // a connection that may still hold the lock is closed, not handed back to the pool
          client.release(!unlocked);
        }
      },
      listen,
      notify: async (channel, payload) => void (await db.execute(sql`select pg_notify(${channel}, ${payload})`)),
      close: async () => {
        await listener.close();
        await pool.end();
      },
    };
  }
  // PGlite answers from a worker thread: its queries never stop this thread's requests
  const client = await startPgliteThread({ dataDir: options.pgliteDir ?? 'memory://', template: options.pgliteTemplate });
  const db = drizzlePglite(client.asPglite(), { schema, casing: 'snake_case', logger }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    migrate: () => migratePglite(drizzlePglite(client.asPglite()), { migrationsFolder }),
    ping: async () => {
      if (client.closed) throw new Error('database closed');
      await db.execute(sql`select 1`);
    },
    listen: createFanOut(async (channel, deliver) => {
      if (!channelPattern.test(channel)) throw new Error(`bad channel ${channel}`);
      await client.listen(channel, deliver);
    }),
    exclusively: createInProcessLocks(),
    notify: async (channel, payload) => void (await db.execute(sql`select pg_notify(${channel}, ${payload})`)),
    close: () => client.close(),
  };
}
