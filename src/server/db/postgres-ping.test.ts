import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDatabase, type Database } from './client.ts';
import { pingApplicationName } from './client-postgres.ts';

// The liveness ping on PostgreSQL has a connection of its own (decision 053). It stays open while idle, so the first
// check after a quiet spell does not wait for a new backend to start (decision 057).

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('the PostgreSQL ping', () => {
  let database: Database;
  let observer: pg.Client;
  beforeAll(async () => {
    database = await openDatabase({ url: url! });
    observer = new pg.Client({ connectionString: url });
    await observer.connect();
  });
  afterAll(async () => {
    await observer.end();
    await database.close();
  });

  /** The ping connections started since `since`, as PostgreSQL lists them. */
  async function pingBackends(since: Date): Promise<number[]> {
    const { rows } = await observer.query<{ pid: number }>(
      'select pid from pg_stat_activity where application_name = $1 and backend_start >= $2',
      [pingApplicationName, since],
    );
    return rows.map((row) => row.pid);
  }

  it('keeps its connection open past pg’s 10 s idle timeout', async () => {
    const since = new Date(Date.now() - 1000);
    await database.ping();
    const backends = await pingBackends(since);
    expect(backends.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    // another file's ping may start meanwhile: every one this test saw is still there
    expect(await pingBackends(since)).toEqual(expect.arrayContaining(backends));
  }, 20_000);
});
