import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { createTestApp, createTestDatabase } from '#server/testing/test-app.ts';
import type { Db } from '#server/db/client.ts';
import { jobs } from '#server/db/schema/index.ts';
import { reportBatchQuery } from '#server/features/accounts/users-report.ts';
import { createJobRunner } from '#server/services/jobs.ts';
import { recurringJobs } from '#server/recurring-jobs.ts';
import { maintainTables, maintenanceJobKind } from './maintenance.ts';

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];

/** Members of the free type, numbered from `from`; the users report reads them by its keyset index. */
async function addMembers(db: Pick<Db, 'execute'>, from: number, count: number) {
  await db.execute(sql`
    insert into users (id, name, email, type)
    select gen_random_uuid()::text, 'Socio ' || i, 'socio' || i || '@mantenimiento.example', 'Gratis'
    from generate_series(${from}::int, ${from + count - 1}::int) as i`);
}

async function usersStatistics(db: Db) {
  const [row] = rowsOf(
    await db.execute(sql`select reltuples::float8 as "rows" from pg_class where relname = 'users' and relkind = 'r'`),
  );
  return Number(row!.rows);
}

/** The plan of one batch of the users report, its query as the report makes it. */
async function reportBatchPlan(db: Db) {
  const plan = rowsOf(
    await db.execute(sql`explain ${reportBatchQuery(db, { rank: 2, type: 'Gratis', userNumber: 100 })}`),
  );
  return plan.map((row) => String(Object.values(row)[0])).join('\n');
}

describe('table maintenance (the embedded database has no autovacuum)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    // on PostgreSQL, autovacuum would otherwise race these tests for the same table
    await database.db.execute(sql`alter table users set (autovacuum_enabled = false)`);
  });
  afterAll(async () => {
    await database.close();
    await database.drop();
  });

  it('analyzes a table never analyzed, and the users report then reads its index instead of sorting every row', async () => {
    await addMembers(database.db, 1, 20_000);
    expect(await usersStatistics(database.db)).toBeLessThan(0);

    expect(await maintainTables(database.db)).toContain('users');

    expect(await usersStatistics(database.db)).toBeGreaterThan(19_000);
    const plan = await reportBatchPlan(database.db);
    expect(plan).toContain('users_report_order_idx');
    expect(plan).not.toMatch(/Sort/);
  });

  it('leaves a table that has not grown since, and takes it again once it has grown by a tenth', async () => {
    await maintainTables(database.db);
    expect(await maintainTables(database.db)).toEqual([]);

    await addMembers(database.db, 20_001, 100);
    expect(await maintainTables(database.db)).not.toContain('users');

    await addMembers(database.db, 20_101, 3_000);
    expect(await maintainTables(database.db)).toEqual(['users']);
    expect(await usersStatistics(database.db)).toBeGreaterThan(22_000);
  });

  it('runs beside a transaction that is writing the same table: both finish, nothing is lost', async () => {
    await addMembers(database.db, 30_000, 5_000);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = database.db.transaction(async (tx) => {
      await addMembers(tx, 40_000, 10);
      await held;
    });
    const maintaining = maintainTables(database.db);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await Promise.all([writing, maintaining]);
    const [row] = rowsOf(
      await database.db.execute(sql`select count(*)::int as n from users where email like '%@mantenimiento.example'`),
    );
    expect(row!.n).toBe(20_000 + 100 + 3_000 + 5_000 + 10);
  });
});

describe('the maintenance job', () => {
  it('runs on the embedded database only (PostgreSQL vacuums and analyzes by itself), and logs what it took', async () => {
    const lines: string[] = [];
    const logStream = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const t = await createTestApp({ logLevel: 'info' }, undefined, { logStream });
    try {
      await t.app.services.jobs.schedule(maintenanceJobKind);
      await t.app.services.jobs.runDue();
      const [job] = await t.db.select().from(jobs).where(eq(jobs.kind, maintenanceJobKind));
      expect(job!.doneAt !== null).toBe(t.database.kind === 'pglite');
      expect(job!.lastError).toBeNull();
      const logged = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => String(line.msg).startsWith('database maintenance'));
      if (t.database.kind === 'pglite') {
        // table names and a duration, nothing of their rows
        expect(logged).toHaveLength(1);
        expect(logged[0]).toMatchObject({
          level: 30,
          msg: 'database maintenance: vacuum and analyze',
          ms: expect.any(Number),
        });
        expect(logged[0]!.tables).toContain('users');
      } else {
        expect(logged).toEqual([]);
      }
    } finally {
      await t.close();
    }
  });

  it('is queued every minute from a minute after the first start on the embedded database, and kept across a restart', async () => {
    const t = await createTestApp();
    try {
      const started = Date.now();
      await t.app.services.jobs.start();
      await t.app.services.jobs.stop();
      const first = await t.db.select().from(jobs).where(eq(jobs.kind, maintenanceJobKind));
      // the next start queues its recurring jobs again: the one waiting keeps its time
      await new Promise((resolve) => setTimeout(resolve, 20));
      await t.app.services.jobs.start();
      await t.app.services.jobs.stop();
      const queued = await t.db.select().from(jobs).where(eq(jobs.kind, maintenanceJobKind));
      expect(queued).toEqual(first);
      if (t.database.kind === 'pglite') {
        expect(queued).toHaveLength(1);
        expect(queued[0]!.doneAt).toBeNull();
        expect(queued[0]!.runAt.getTime() - started).toBeGreaterThanOrEqual(59_000);
        expect(queued[0]!.runAt.getTime() - started).toBeLessThan(70_000);
        // once it has run, the next look comes a minute later, as autovacuum's (decision 060)
        await t.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, queued[0]!.id));
        const ran = Date.now();
        // a runner of its own: the app's has stopped, and a stopped runner claims nothing
        const runner = createJobRunner({
          db: t.db,
          handlers: { [maintenanceJobKind]: () => maintainTables(t.db).then(() => undefined) },
          recurring: recurringJobs({ embedded: true, backupSchedule: 'off' }),
        });
        expect(await runner.runDue()).toBe(1);
        const next = await t.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.kind, maintenanceJobKind), isNull(jobs.doneAt)));
        expect(next).toHaveLength(1);
        expect(next[0]!.runAt.getTime() - ran).toBeGreaterThanOrEqual(59_000);
        expect(next[0]!.runAt.getTime() - ran).toBeLessThan(70_000);
      } else {
        expect(queued).toEqual([]);
      }
    } finally {
      await t.close();
    }
  });
});
