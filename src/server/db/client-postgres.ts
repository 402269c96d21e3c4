import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { isDatabaseUnavailable } from './unavailable.ts';
import type { Database, Db } from './client.ts';
import { anyChange, channelPattern, createFanOut, type Handler } from './channels.ts';
import { migrationsFolder } from './migrations-folder.ts';

// The PostgreSQL half of openDatabase (client.ts), loaded only when DATABASE_URL is set: a PGlite server never
// loads pg and its Drizzle driver, a PostgreSQL one never loads PGlite's (idle memory and start time).

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
  let queue: Promise<unknown> = Promise.resolve();
  let hadConnection = false;

  function announceGap() {
    for (const deliver of channels.values()) deliver(anyChange);
  }

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
        if (client === fresh) {
          client = undefined;
          announceGap();
        }
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
      const reconnected = hadConnection;
      client = fresh;
      hadConnection = true;
      delay = retryMs.first;
      // what was announced while no connection listened is lost: every subscriber starts afresh
      if (reconnected) announceGap();
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
        // one statement at a time on this client: services subscribe together at start, and pg refuses
        // (deprecated now, an error in pg 9) a query while the client is still running another
        const turn = queue.then(() => connected.query(`listen ${channel}`));
        queue = turn.catch(() => {});
        await turn;
      } catch (error) {
        // the fan-out forgets the channel, and the next subscriber tries again
        channels.delete(channel);
        throw error;
      }
    },
    /** The connection is up and listens on every channel (set only once all its LISTENs succeeded). */
    listening: () => !closed && client !== undefined,
    async close() {
      closed = true;
      await client?.end().catch(() => {});
    },
  };
}

const readOnly = /^\s*(select|with)\b/i;
const writes =
  /\b(insert|update|delete|for\s+(update|share|no\s+key\s+update)|nextval|pg_notify|pg_advisory\w*|set_config)\b/i;

// a read whose connection died is sent again this many times, a short pause apart
const readRetries = 2;
const readRetryPauseMs = 25;

/**
 * A read that failed because its connection died (a restart, a failover, a terminated backend) is sent again. The
 * pause lets the pool see the other connections killed with it (their sockets close in the same instant but are
 * noticed one event at a time), so the next try runs on a fresh one rather than on an idle one already dead; a
 * second retry covers a kill that lands a moment later. Writes and transactions are never sent twice.
 */
function retryReads(pool: pg.Pool) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const textOf = (first: unknown) =>
    typeof first === 'string' ? first : ((first as { text?: unknown } | null)?.text ?? '');
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = async (...args: unknown[]) => {
    if (typeof args.at(-1) === 'function') return query(...args);
    for (let attempt = 0; ; attempt++) {
      try {
        return await query(...args);
      } catch (error) {
        const text = String(textOf(args[0]));
        const retryable = isDatabaseUnavailable(error) && readOnly.test(text) && !writes.test(text);
        if (!retryable || attempt === readRetries) throw error;
        await new Promise((resolve) => setTimeout(resolve, readRetryPauseMs));
      }
    }
  };
}

/** How the health check's connection is named in pg_stat_activity. */
export const pingApplicationName = 'cxvet-health';

// any fixed number, the same in every instance: PostgreSQL's advisory lock around migrations
const migrationLockKey = 731_017_001;

/** PostgreSQL at `url`: a pool of 10 connections, one more for LISTEN and one for the health check's ping. */
export function openPostgres(options: { url: string; logger?: { logQuery(query: string): void } }): Database {
  const { logger } = options;
  const pool = new pg.Pool({ connectionString: options.url, max: 10 });
  // an idle connection dropped by the server (restart, failover) must not crash the process
  pool.on('error', () => {});
  retryReads(pool);
  // the liveness ping has a connection of its own: behind the pool's ten (sign-ins, exams, the users report) it
  // waited up to a second under load, and a health check that queues says nothing about the database
  // (decision 053); kept open while idle: pg closes an idle connection after 10 s, and the first check after a quiet
  // spell waited for a new backend to start, with the checks behind it queued (decision 057)
  const pingPool = new pg.Pool({
    connectionString: options.url,
    max: 1,
    idleTimeoutMillis: 0,
    application_name: pingApplicationName,
  });
  pingPool.on('error', () => {});
  retryReads(pingPool);
  const db = drizzle(pool, { schema, casing: 'snake_case', logger }) as unknown as Db;
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
        await migrate(drizzle(client), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [migrationLockKey]).catch(() => {});
        client.release();
      }
    },
    ping: async () => void (await pingPool.query('select 1')),
    exclusively: async (key, fn) => {
      const client = await pool.connect();
      let unlocked = false;
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        try {
          return await fn();
        } finally {
          unlocked = await client.query('select pg_advisory_unlock($1)', [key]).then(
            () => true,
            () => false,
          );
        }
      } finally {
        // a connection that may still hold the lock is closed, not handed back to the pool
        client.release(!unlocked);
      }
    },
    listen,
    listening: listener.listening,
    notify: async (channel, payload) => void (await db.execute(sql`select pg_notify(${channel}, ${payload})`)),
    close: async () => {
      await listener.close();
      await Promise.all([pool.end(), pingPool.end()]);
    },
  };
}
