import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '#server/testing/test-app.ts';
import type { Database } from './client.ts';
import { startPgliteThread } from './pglite-thread.ts';

// PGlite in its worker thread, as the app sees it through Drizzle (on PostgreSQL these run against the pool)
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`create table thread_probe (id int primary key, note text)`);
});
afterAll(async () => database.close());

const codeOf = (error: unknown): unknown =>
  (error as { code?: unknown; cause?: { code?: unknown } }).cause?.code ?? (error as { code?: unknown }).code;

describe('the database client', () => {
  it('gives the same values as PostgreSQL clients: timestamps as Date, json parsed, numeric and bigint as before', async () => {
    const [row] = await database.db
      .select({
        at: sql<Date>`now()`.mapWith((value: string) => new Date(value)),
        json: sql`'{"a":[1,2]}'::jsonb`,
        count: sql`count(*)`.mapWith(Number),
      })
      .from(sql`(select 1) as one`);
    expect(row!.at).toBeInstanceOf(Date);
    expect(row!.json).toEqual({ a: [1, 2] });
    expect(row!.count).toBe(1);
  });

  it('keeps the database error code, so unique violations are still recognised', async () => {
    await database.db.execute(sql`insert into thread_probe values (1, 'uno')`);
    const failure = await database.db
      .execute(sql`insert into thread_probe values (1, 'otra vez')`)
      .catch((error: unknown) => error);
    expect(codeOf(failure)).toBe('23505');
  });

  it('rolls a transaction back when its callback throws, and a query outside waits until it ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const transaction = database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into thread_probe values (2, 'dentro')`);
        await held;
        order.push('transaction');
        throw new Error('deshacer');
      })
      .catch((error: Error) => error.message);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outside = database.db
      .execute(sql`select count(*)::int as n from thread_probe where id = 2`)
      .then((result) => {
        order.push('outside');
        return (result as unknown as { rows: { n: number }[] }).rows[0];
      });
    release();
    expect(await transaction).toBe('deshacer');
    expect(await outside).toEqual({ n: 0 });
    expect(order).toEqual(['transaction', 'outside']);
  });

  it('delivers NOTIFY to listeners', async () => {
    const received: string[] = [];
    await database.listen('thread_probe', (payload) => received.push(payload));
    await database.notify('thread_probe', 'hola');
    for (let attempt = 0; attempt < 50 && received.length === 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toEqual(['hola']);
  });

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'keeps this thread free while PGlite works on a long query',
    async () => {
      let ticks = 0;
      const timer = setInterval(() => (ticks += 1), 5);
      await database.db.execute(sql`select count(*) from generate_series(1, 3000000)`);
      clearInterval(timer);
      // with PGlite on this thread the query ran synchronously and no timer could fire in between
      expect(ticks).toBeGreaterThan(1);
    },
  );
});

const startBuffersLimit = 32 * 1024 * 1024;

/** The thread's buffers once V8 has freed what was collected (it frees them in the background, a moment later). */
async function settledArrayBuffers(client: Awaited<ReturnType<typeof startPgliteThread>>): Promise<number> {
  let { arrayBuffers } = await client.memory();
  for (let tries = 0; tries < 50 && arrayBuffers >= startBuffersLimit; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    ({ arrayBuffers } = await client.memory());
  }
  return arrayBuffers;
}

describe('the database thread', () => {
  it("keeps none of its start-up buffers once ready (the WebAssembly file, initdb's cluster)", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-thread-'));
    const client = await startPgliteThread({ dataDir });
    try {
      // a first start in a new folder left ~300 MB of garbage buffers in the thread until a collection came, minutes later
      expect(await settledArrayBuffers(client)).toBeLessThan(startBuffersLimit);
    } finally {
      await client.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('starts beside other database threads starting at the same moment, each collecting its own start-up buffers', async () => {
    // V8's flags are the process's: one thread switching --expose-gc off left another without `gc`, and its start failed
    const dataDirs = await Promise.all([1, 2, 3].map(() => mkdtemp(path.join(tmpdir(), 'cxvet-thread-'))));
    const started = await Promise.allSettled(dataDirs.map((dataDir) => startPgliteThread({ dataDir })));
    const clients = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      expect(started.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      for (const client of clients) expect(await settledArrayBuffers(client)).toBeLessThan(startBuffersLimit);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await Promise.all(dataDirs.map((dataDir) => rm(dataDir, { recursive: true, force: true })));
    }
  }, 120_000);
});
