import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import * as schema from './schema/index.ts';
import { startPgliteThread } from './pglite-thread.ts';
import type { Database, Db } from './client.ts';
import { channelPattern, createFanOut } from './channels.ts';
import { migrationsFolder } from './migrations-folder.ts';

// The PGlite half of openDatabase (client.ts), loaded only without DATABASE_URL.

/** How recent an answer from the database thread stands for a liveness ping. */
const livenessMs = 1000;

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

/** PGlite at `dataDir` ('memory://' for tests), optionally from a `dumpDataDir()` tarball, in its own thread. */
export async function openPglite(options: {
  dataDir: string;
  template?: Blob;
  logger?: { logQuery(query: string): void };
}): Promise<Database> {
  const { logger } = options;
  // PGlite answers from a worker thread: its queries never stop this thread's requests
  const client = await startPgliteThread({ dataDir: options.dataDir, template: options.template });
  const db = drizzle(client.asPglite(), { schema, casing: 'snake_case', logger }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    migrate: () => migrate(drizzle(client.asPglite()), { migrationsFolder }),
    ping: async () => {
      if (client.closed) throw new Error('database closed');
      // a thread that answered within the last second is alive: the ping need not wait behind a busy evening's
      // queries on the one connection, where it said how long the queue was, not whether the database lives (decision 055)
      if (client.answeredWithin(livenessMs)) return;
      await db.execute(sql`select 1`);
    },
    listen: createFanOut(async (channel, deliver) => {
      if (!channelPattern.test(channel)) throw new Error(`bad channel ${channel}`);
      await client.listen(channel, deliver);
    }),
    listening: () => client.listening,
    // only one process can open a PGlite data folder, so taking turns within it is enough
    exclusively: createInProcessLocks(),
    notify: async (channel, payload) => void (await db.execute(sql`select pg_notify(${channel}, ${payload})`)),
    close: () => client.close(),
  };
}
