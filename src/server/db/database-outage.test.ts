import { describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from '#server/db/client.ts';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';

// A database that goes away and comes back must never sign a member out: while it is away every answer is 503 with
// Retry-After (never 401, 403 or 500), and once it is back the same session works again.

const serverUrl = process.env.TEST_DATABASE_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A member asking for their profile every 20 ms until stopped; every status is kept. */
function keepAsking(t: TestApp, cookie: string) {
  const statuses: number[] = [];
  const retryAfter = new Set<string | undefined>();
  let running = true;
  const done = (async () => {
    while (running) {
      const response = await t.app.inject({ url: '/api/profile', headers: { cookie } });
      statuses.push(response.statusCode);
      if (response.statusCode === 503) retryAfter.add(response.headers['retry-after'] as string | undefined);
      await sleep(20);
    }
  })();
  return {
    statuses,
    retryAfter,
    async stop() {
      running = false;
      await done;
    },
  };
}

function expectOnlyOkOrUnavailable(statuses: number[]) {
  expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
}

/** A test app on its own database, and an administrator's connection that can end its connections or refuse new ones. */
async function appWithAdmin() {
  const t = await createTestApp();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const name = new URL(t.database.url!).pathname.slice(1);
  const terminate = () =>
    admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
  return { t, admin, name, terminate };
}

describe.skipIf(!serverUrl)('PostgreSQL going away under requests', () => {
  it('answers 503 with Retry-After while it is away, retries reads on fresh connections, and keeps the session', async () => {
    const { t, admin, name, terminate } = await appWithAdmin();
    try {
      const member = await signedInAs(t, { type: 'Premium' });
      const asking = keepAsking(t, member.cookie);
      await sleep(200);
      // every connection of the pool killed at once: the reads go again on fresh ones
      await terminate();
      await sleep(400);
      const afterKill = asking.statuses.length;
      // the database stopped: no connection accepted until it starts again
      await admin.query(`alter database ${name} allow_connections false`);
      await terminate();
      await sleep(800);
      const stopped = asking.statuses.slice(afterKill);
      await admin.query(`alter database ${name} allow_connections true`);
      await sleep(1500);
      await asking.stop();

      expectOnlyOkOrUnavailable(asking.statuses);
      expect(asking.statuses.slice(0, afterKill)).not.toContain(503);
      expect(stopped).toContain(503);
      expect([...asking.retryAfter]).toEqual(['2']);
      expect(asking.statuses.at(-1)).toBe(200);
      const again = await t.app.inject({ url: '/api/profile', headers: { cookie: member.cookie } });
      expect(again.statusCode).toBe(200);
    } finally {
      await admin.query(`alter database ${name} allow_connections true`).catch(() => {});
      await admin.end();
      await t.close();
    }
  }, 60_000);
});

describe.skipIf(!serverUrl)('a PostgreSQL connection killed under a query', () => {
  it('sends a read again on a fresh connection, and never a write', async () => {
    const t = await createTestApp();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const name = new URL(t.database.url!).pathname.slice(1);
    const killSoon = () =>
      sleep(300).then(() =>
        admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query like $2', [
          name,
          '%pg_sleep(1)%',
        ]),
      );
    try {
      const [read] = await Promise.all([t.db.execute(sql`select pg_sleep(1), 1 as one`), killSoon()]);
      expect((read as { rows: unknown[] }).rows).toEqual([{ pg_sleep: '', one: 1 }]);
      const [write] = await Promise.allSettled([
        // a NOTIFY is a write: sending it twice would announce twice
        t.db.execute(sql`select pg_sleep(1), pg_notify('outage_test', 'once')`),
        killSoon(),
      ]);
      expect(write.status).toBe('rejected');
    } finally {
      await admin.end();
      await t.close();
    }
  }, 60_000);
});

describe.skipIf(Boolean(serverUrl))('the embedded database thread dying under requests', () => {
  it('answers 503 while the thread is restarted on the same folder, then serves the same session again', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'cxvet-outage-'));
    const database = await openDatabase({ pgliteDir: folder });
    await database.migrate();
    const t = await createTestApp({}, { database });
    try {
      const member = await signedInAs(t, { type: 'Premium' });
      const asking = keepAsking(t, member.cookie);
      await sleep(200);
      await database.pglite!.terminateThread();
      for (let waited = 0; asking.statuses.at(-1) !== 200 || !asking.statuses.includes(503); waited += 100) {
        if (waited > 30_000) break;
        await sleep(100);
      }
      await sleep(300);
      await asking.stop();

      expectOnlyOkOrUnavailable(asking.statuses);
      expect(asking.statuses).toContain(503);
      expect([...asking.retryAfter]).toEqual(['2']);
      expect(asking.statuses.at(-1)).toBe(200);
      const ready = await t.app.inject({ url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
    } finally {
      await t.close();
      await database.close();
      await rm(folder, { recursive: true, force: true });
    }
  }, 90_000);
});

describe.skipIf(!serverUrl)('the health check beside a busy pool', () => {
  it('answers while every pool connection is held, and 503 once the database is really away', async () => {
    const { t, admin, name, terminate } = await appWithAdmin();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    try {
      // the pool's ten connections, each inside a transaction waiting for the test
      let started = 0;
      const holders = Array.from({ length: 10 }, () =>
        t.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          started++;
          await held;
        }),
      );
      while (started < 10) await sleep(10);
      let queued = false;
      const waiting = t.db.execute(sql`select 1`).then(() => (queued = true));

      const health = await t.app.inject({ url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect((await t.app.inject({ url: '/api/ready' })).statusCode).toBe(200);
      // the pool really was full: an ordinary query was still waiting for a connection
      expect(queued).toBe(false);
      release();
      await Promise.all([...holders, waiting]);
      expect(queued).toBe(true);

      await admin.query(`alter database ${name} allow_connections false`);
      await terminate();
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(503);
      await admin.query(`alter database ${name} allow_connections true`);
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    } finally {
      release();
      await admin.query(`alter database ${name} allow_connections true`).catch(() => {});
      await admin.end();
      await t.close();
    }
  });
});
