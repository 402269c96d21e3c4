import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestDatabase } from '#server/testing/test-app.ts';
import { jobs } from '#server/db/schema/index.ts';
import { createJobRunner, JobAbandoned, JobRequeued } from './jobs.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
  await database.drop();
});

describe('the job runner', () => {
  it('runs a job once when several runners poll at the same time', async () => {
    const runs: string[] = [];
    const handler = async () => {
      runs.push('ran');
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const runners = [1, 2, 3].map(() => createJobRunner({ db: database.db, handlers: { 'test.once': handler } }));
    await runners[0]!.schedule('test.once', { uniqueKey: 'once' });
    await runners[0]!.schedule('test.once', { uniqueKey: 'once' });
    await Promise.all(runners.map((runner) => runner.runDue()));
    expect(runs).toEqual(['ran']);
    const [row] = await database.db.select().from(jobs).where(eq(jobs.kind, 'test.once'));
    expect(row!.doneAt).not.toBeNull();
    expect(row!.uniqueKey).toBeNull();
  });

  it('renews the claim of a job running longer than its lock, so another instance never runs it twice (a long backup)', async () => {
    let runs = 0;
    const slow = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 4000));
    };
    // a lock of 1.2 s renewed every 400 ms: four times the run's length, and room for a busy CI machine's pauses
    const first = createJobRunner({ db: database.db, handlers: { 'test.slow': slow }, lockMs: 1200 });
    const second = createJobRunner({ db: database.db, handlers: { 'test.slow': slow }, lockMs: 1200 });
    await first.schedule('test.slow');
    const running = first.runDue();
    // the other instance polls all along the run, well past the lock
    for (let poll = 0; poll < 30; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await second.runDue();
    }
    await running;
    expect(runs).toBe(1);
    const [row] = await database.db.select().from(jobs).where(eq(jobs.kind, 'test.slow'));
    expect(row!.doneAt).not.toBeNull();
    expect(row!.attempts).toBe(1);
  });

  it('ends a job its handler abandons, with the error, and runs the next due job in the same pass', async () => {
    const seen: number[] = [];
    const runner = createJobRunner({
      db: database.db,
      handlers: {
        'test.abandoned': async (_payload: never, run) => {
          seen.push(run.attempts);
          throw new JobAbandoned('nunca');
        },
        'test.after-abandoned': async () => {
          seen.push(-1);
        },
      },
      forgetPayloadOf: ['test.abandoned'],
    });
    await runner.schedule('test.abandoned', { uniqueKey: 'abandoned', payload: { secreto: 'x' } });
    await runner.schedule('test.after-abandoned', { runAt: new Date(Date.now() + 1) });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await runner.runDue();
    // tried once (the handler is told it is the first try), then the other job: the pass went on
    expect(seen).toEqual([1, -1]);
    const [row] = await database.db.select().from(jobs).where(eq(jobs.kind, 'test.abandoned'));
    expect(row).toMatchObject({ lastError: 'nunca', uniqueKey: null, payload: {}, attempts: 1 });
    expect(row!.doneAt).not.toBeNull();
    // its key is free: the same work can be queued again
    await runner.schedule('test.abandoned', { uniqueKey: 'abandoned' });
    expect(await database.db.select().from(jobs).where(eq(jobs.kind, 'test.abandoned'))).toHaveLength(2);
  });

  it('keeps a failed job with its error and retries it later', async () => {
    let attempts = 0;
    const runner = createJobRunner({
      db: database.db,
      handlers: {
        'test.flaky': async () => {
          attempts++;
          throw new Error('falló');
        },
      },
    });
    await runner.schedule('test.flaky');
    await runner.runDue();
    const [row] = await database.db.select().from(jobs).where(eq(jobs.kind, 'test.flaky'));
    expect(attempts).toBe(1);
    expect(row).toMatchObject({ doneAt: null, lastError: 'falló', attempts: 1, lockedUntil: null });
    expect(row!.runAt.getTime()).toBeGreaterThan(Date.now());
    await runner.runDue();
    expect(attempts).toBe(1);
  });

  it('queues the next occurrence of a recurring job, and start/stop are safe', async () => {
    let runs = 0;
    const runner = createJobRunner({
      db: database.db,
      handlers: { 'test.recurring': async () => void runs++ },
      recurring: [{ kind: 'test.recurring', everyMs: 60_000 }],
      pollMs: 10_000,
    });
    await runner.start();
    await runner.runDue();
    await runner.stop();
    expect(runs).toBe(1);
    const pending = (await database.db.select().from(jobs).where(eq(jobs.kind, 'test.recurring'))).filter(
      (job) => job.doneAt === null,
    );
    expect(pending).toHaveLength(1);
    expect(pending[0]!.runAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });

  it('queues a recurring job with a first delay once, and a restart keeps the time already queued (the scheduled backup)', async () => {
    const make = () =>
      createJobRunner({
        db: database.db,
        handlers: { 'test.daily': async () => {} },
        recurring: [{ kind: 'test.daily', everyMs: 86_400_000, firstAfterMs: 3_600_000 }],
      });
    const first = make();
    const before = Date.now();
    await first.start();
    await first.stop();
    const [queued] = await database.db.select().from(jobs).where(eq(jobs.kind, 'test.daily'));
    expect(queued!.runAt.getTime()).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(queued!.runAt.getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000);
    // a restart: still one job, at the same time
    const second = make();
    await second.start();
    await second.stop();
    const rows = await database.db.select().from(jobs).where(eq(jobs.kind, 'test.daily'));
    expect(rows.map((row) => row.runAt.getTime())).toEqual([queued!.runAt.getTime()]);
  });

  it('tells whether a keyed job was queued or one was already waiting', async () => {
    const runner = createJobRunner({ db: database.db, handlers: {} });
    expect(await runner.queue('test.keyed', { uniqueKey: 'keyed' })).toBe(true);
    expect(await runner.queue('test.keyed', { uniqueKey: 'keyed' })).toBe(false);
  });

  it('leaves kinds it does not handle to the runner that does', async () => {
    const mailRunner = createJobRunner({ db: database.db, handlers: { 'test.mail': async () => {} } });
    let transcoded = 0;
    const videoRunner = createJobRunner({ db: database.db, handlers: { 'test.video': async () => void transcoded++ } });
    await mailRunner.schedule('test.video');
    expect(await mailRunner.runDue()).toBe(0);
    const [waiting] = await database.db.select().from(jobs).where(eq(jobs.kind, 'test.video'));
    expect(waiting).toMatchObject({ attempts: 0, doneAt: null, lastError: null });
    expect(await videoRunner.runDue()).toBe(1);
    expect(transcoded).toBe(1);
  });
});

describe('the job runner at shutdown', () => {
  it('lets the running short job finish, claims no other, and puts a stopped long job back in the queue at info level', async () => {
    const infos: string[] = [];
    const errors: string[] = [];
    const log = {
      info: (_obj: object, msg: string) => infos.push(msg),
      error: (_obj: object, msg: string) => errors.push(msg),
    };
    const done: string[] = [];
    let stopping: Promise<void> | undefined;
    const runner: ReturnType<typeof createJobRunner> = createJobRunner({
      db: database.db,
      log,
      handlers: {
        'test.short': async () => {
          // SIGTERM arrives while this short job runs
          stopping = runner.stop();
          await new Promise((resolve) => setTimeout(resolve, 50));
          done.push('short');
        },
        'test.next': async () => void done.push('next'),
      },
    });
    await runner.schedule('test.short', { runAt: new Date(Date.now() - 1000) });
    await runner.schedule('test.next');
    await runner.runDue();
    await stopping;
    expect(done).toEqual(['short']);
    const [next] = await database.db.select().from(jobs).where(eq(jobs.kind, 'test.next'));
    expect(next!.doneAt).toBeNull();

    const long = createJobRunner({
      db: database.db,
      log,
      handlers: {
        'test.long': async () => {
          throw new JobRequeued('server stopping');
        },
      },
    });
    await long.schedule('test.long');
    await long.runDue();
    const [row] = await database.db.select().from(jobs).where(eq(jobs.kind, 'test.long'));
    expect(row).toMatchObject({ doneAt: null, lockedUntil: null, attempts: 0, lastError: null });
    expect(row!.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(infos).toContain('job put back in the queue');
    expect(errors).toEqual([]);
  });

  it('deletes the jobs done more than a week ago, a batch at a time, and never one not done, however old', async () => {
    const runner = createJobRunner({ db: database.db, handlers: {} });
    const day = 86_400_000;
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * day);
    const old = await database.db
      .insert(jobs)
      .values([8, 9, 10, 11, 12].map((days) => ({ kind: 'test.prune', runAt: ago(days + 1), doneAt: ago(days) })))
      .returning({ id: jobs.id });
    const kept = await database.db
      .insert(jobs)
      .values([
        { kind: 'test.prune', runAt: ago(7), doneAt: ago(6) },
        { kind: 'test.prune', runAt: ago(30) },
      ])
      .returning({ id: jobs.id });
    // batches of two: the five old jobs take three statements (the other tests' jobs were done today)
    expect(await runner.pruneDone(now, 2)).toBe(5);
    const left = new Set((await database.db.select({ id: jobs.id }).from(jobs)).map((row) => row.id));
    expect(old.filter((row) => left.has(row.id))).toEqual([]);
    expect(kept.every((row) => left.has(row.id))).toBe(true);
  });
});
