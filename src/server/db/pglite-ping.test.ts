import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from './client.ts';

// The embedded database's liveness ping: on a busy evening its one connection queues the class's queries, and a
// `select 1` behind them measured the queue, not whether the database lives (decision 055). A thread that answered
// within the last second is alive; otherwise the ping asks, and a thread that is away fails it at once.
const queries: string[] = [];
let database: Database;
beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory://', onQuery: (query) => queries.push(query) });
});
afterAll(async () => database.close());

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the PGlite ping', () => {
  it('asks nothing while the thread has just answered, and asks again once it has been quiet for a second', async () => {
    await database.db.execute(sql`select 2`);
    queries.length = 0;
    await database.ping();
    expect(queries).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await database.ping();
    expect(queries).toEqual(['select 1']);
  });

  it('answers at once while a long statement holds the thread, since it answered just before', async () => {
    await database.db.execute(sql`select 3`);
    // started now (a Drizzle query runs when it is awaited or then'd), and posted to the thread before the ping
    const long = database.db.execute(sql`select count(*) from generate_series(1, 3000000)`).then((result) => result);
    await new Promise(setImmediate);
    const started = performance.now();
    await database.ping();
    const pinged = performance.now() - started;
    await long;
    const longTook = performance.now() - started;
    // the statement held the thread for longer than the ping took
    expect(longTook).toBeGreaterThan(200);
    expect(pinged).toBeLessThan(50);
  });

  // last: an in-memory database is not started again
  it('fails once the thread is gone, however recently it answered', async () => {
    await database.db.execute(sql`select 4`);
    await database.pglite!.terminateThread();
    await expect(database.ping()).rejects.toThrow();
  });
});
