import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Log } from '#server/services/log.ts';
import type { Db } from '#server/db/client.ts';
import { jobs } from '#server/db/schema/index.ts';
import type { PrivacyMail } from '#server/features/privacy/privacy.jobs.ts';
import type { MailMessage } from '#server/services/mail.ts';

/** What a handler is told of its job beside the payload: the tries so far, this one included. */
type JobRun = { attempts: number };
type JobHandler = (payload: unknown, run: JobRun) => Promise<void>;

/** What each kind of job carries in its payload column (as the job that queued it wrote it); other kinds carry none. */
type JobPayloads = {
  'video.transcode': { renditionId: string };
  'bulk-mail': { bulkMailId: string };
  'payments.webhook': { eventId: string };
  'payments.mercadopago': { eventId: string };
  'privacy.export': { exportId: string };
  'privacy.mail': PrivacyMail;
  'mail.send': MailMessage;
};

/** Handlers by kind: a kind in JobPayloads gets its payload typed, any other kind gets none it should read. */
export type JobHandlers = { [K in keyof JobPayloads]?: (payload: JobPayloads[K], run: JobRun) => Promise<void> } & {
  [kind: string]: ((payload: never, run: JobRun) => Promise<void>) | undefined;
};

/** Thrown by a handler the server stopped (a video conversion): the job goes back to the queue as it was, no failure. */
export class JobRequeued extends Error {}

/**
 * Thrown by a handler whose job can never succeed (a mail the server refused for good, or for days): the job ends
 * with its error kept in `last_error` and is not tried again.
 */
export class JobAbandoned extends Error {}

/** `firstAfterMs`: how long after the very first start the first one runs (default: at once). */
export type RecurringJob = { kind: string; everyMs: number; firstAfterMs?: number };

type ScheduleOptions = { runAt?: Date; payload?: object; uniqueKey?: string; tx?: Db };

const defaultLockMs = 5 * 60_000;

/** The recurring job that deletes done jobs, and how long a done job is kept before it (what ran and when). */
export const jobsPruneKind = 'jobs.prune';
const keepDoneMs = 7 * 86_400_000;
const maxBackoffMs = 60 * 60_000;

/**
 * Scheduled work claimed from the jobs table with FOR UPDATE SKIP LOCKED, so any number of
 * instances can poll; a claim expires, so a crashed instance's job runs again (handlers are idempotent).
 */
export function createJobRunner(deps: {
  db: Db;
  handlers: JobHandlers;
  recurring?: RecurringJob[];
  pollMs?: number;
  /** How long a claim holds; a running job renews it every third of that, so a long job (a backup) never runs twice. */
  lockMs?: number;
  log?: Pick<Log, 'info' | 'error'>;
  /**
   * Kinds whose payload is emptied once done (or abandoned): a mail's body (a reset link) is not kept for the week a
   * done job is.
   */
  forgetPayloadOf?: string[];
}) {
  const { db, handlers } = deps;
  const forgetPayloadOf = new Set(deps.forgetPayloadOf ?? []);
  const lockMs = deps.lockMs ?? defaultLockMs;
  const recurring = deps.recurring ?? [];
  const log = deps.log ?? { info() {}, error() {} };
  // a runner claims only the kinds it handles, so a second runner (video transcoding) never takes the first one's jobs
  const kinds = Object.keys(handlers);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  /**
   * Queues a job; with a uniqueKey, only one such job waits at a time. Pass `tx` to queue it in the
   * same transaction as the write it follows from: both commit, or neither.
   */
  async function schedule(kind: string, options: ScheduleOptions = {}): Promise<void> {
    await queue(kind, options);
  }

  /** schedule, telling whether the job was queued (false: one with that key was already waiting). */
  async function queue(kind: string, options: ScheduleOptions = {}): Promise<boolean> {
    const queued = await (options.tx ?? db)
      .insert(jobs)
      .values({
        kind,
        payload: options.payload ?? {},
        runAt: options.runAt ?? new Date(),
        uniqueKey: options.uniqueKey ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: jobs.id });
    return queued.length > 0;
  }

  async function claimOne() {
    if (kinds.length === 0) return null;
    const rows = await db.execute<{
      id: number;
      kind: string;
      payload: unknown;
      attempts: number;
      unique_key: string | null;
    }>(sql`
      update ${jobs} set locked_until = now() + ${`${lockMs} milliseconds`}::interval, attempts = attempts + 1
      where id = (
        select id from ${jobs}
        where done_at is null and run_at <= now() and (locked_until is null or locked_until < now())
          and kind in (${sql.join(
            kinds.map((kind) => sql`${kind}`),
            sql`, `,
          )})
        order by run_at
        for update skip locked
        limit 1
      )
      returning id, kind, payload, attempts, unique_key`);
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
      id: number | string;
      kind: string;
      payload: unknown;
      attempts: number;
      unique_key: string | null;
    }[];
    const row = list[0];
    return row ? { ...row, id: Number(row.id) } : null;
  }

  /** Extends a claim this process still holds (same attempt), while its handler runs. */
  async function renewClaim(id: number, attempts: number) {
    try {
      await db
        .update(jobs)
        .set({ lockedUntil: sql`now() + ${`${lockMs} milliseconds`}::interval` })
        .where(and(eq(jobs.id, id), eq(jobs.attempts, attempts), isNull(jobs.doneAt)));
    } catch (error) {
      log.error({ err: error, job: id }, 'job claim renewal failed');
    }
  }

  /**
   * Marks a job done, succeeded (no error) or abandoned (its error kept), and queues a recurring kind's next run. The
   * key is released so the next occurrence can be queued.
   */
  async function finish(job: { id: number; kind: string }, lastError: string | null) {
    await db
      .update(jobs)
      .set({
        doneAt: new Date(),
        lockedUntil: null,
        uniqueKey: null,
        lastError,
        ...(forgetPayloadOf.has(job.kind) ? { payload: {} } : {}),
      })
      .where(eq(jobs.id, job.id));
    const every = recurring.find((each) => each.kind === job.kind);
    if (every)
      await schedule(job.kind, { runAt: new Date(Date.now() + every.everyMs), uniqueKey: `recurring:${job.kind}` });
  }

  /** Runs every due job once; returns how many ran. */
  async function runDue(): Promise<number> {
    let count = 0;
    for (;;) {
      // a stopping runner finishes the job it holds and claims no other
      if (stopped) return count;
      const job = await claimOne();
      if (!job) return count;
      count++;
      // claimOne takes only the kinds in handlers; the payload is the one its kind's scheduler wrote (JobPayloads)
      const handler = handlers[job.kind] as JobHandler;
      const renewal = setInterval(() => void renewClaim(job.id, job.attempts), lockMs / 3);
      try {
        await handler(job.payload, { attempts: job.attempts });
        clearInterval(renewal);
        await finish(job, null);
      } catch (error) {
        clearInterval(renewal);
        if (error instanceof JobRequeued) {
          log.info({ job: job.kind, reason: error.message }, 'job put back in the queue');
          await db
            .update(jobs)
            .set({ lockedUntil: null, attempts: sql`greatest(${jobs.attempts} - 1, 0)`, runAt: new Date() })
            .where(and(eq(jobs.id, job.id), isNull(jobs.doneAt)));
          return count;
        }
        if (error instanceof JobAbandoned) {
          log.error({ err: error, job: job.kind }, 'job abandoned');
          await finish(job, error.message);
          continue;
        }
        const backoff = Math.min(maxBackoffMs, 30_000 * 2 ** Math.min(job.attempts, 10));
        log.error({ err: error, job: job.kind }, 'job failed');
        await db
          .update(jobs)
          .set({
            lockedUntil: null,
            lastError: error instanceof Error ? error.message : String(error),
            runAt: new Date(Date.now() + backoff),
          })
          .where(and(eq(jobs.id, job.id), isNull(jobs.doneAt)));
      }
    }
  }

  /**
   * One pass at a time per process, whatever the timer does. A call during a pass makes that pass
   * look again before it ends, so a job queued before the call has run when the promise resolves.
   */
  function tick(): Promise<number> {
    if (stopped) return Promise.resolve(0);
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        total += await runDue();
      } while (again);
      return total;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  /**
   * Deletes the jobs done more than a week ago, oldest first, a batch per statement so that a year's backlog on the
   * embedded database never holds its one connection for long; returns how many. Jobs that run every minute (LTI
   * results, the embedded database's upkeep) would otherwise leave 1,440 rows a day each, for ever. A job not done
   * is never taken.
   */
  async function pruneDone(now = new Date(), batch = 1000): Promise<number> {
    const cutoff = new Date(now.getTime() - keepDoneMs);
    let total = 0;
    for (;;) {
      const oldest = db
        .select({ id: jobs.id })
        .from(jobs)
        .where(lt(jobs.doneAt, cutoff))
        .orderBy(asc(jobs.id))
        .limit(batch);
      const deleted = await db.delete(jobs).where(inArray(jobs.id, oldest)).returning({ id: jobs.id });
      total += deleted.length;
      if (deleted.length < batch) return total;
    }
  }

  return {
    schedule,
    queue,
    runDue: tick,
    pruneDone,
    /** Queues the recurring jobs and polls until stop(). */
    async start() {
      // a job already waiting (from before a restart) keeps its time
      for (const each of recurring)
        await schedule(each.kind, {
          uniqueKey: `recurring:${each.kind}`,
          runAt: new Date(Date.now() + (each.firstAfterMs ?? 0)),
        });
      timer = setInterval(
        () => void tick().catch((error: unknown) => log.error({ err: error }, 'job poll failed')),
        deps.pollMs ?? 30_000,
      );
      timer.unref();
      void tick().catch(() => {});
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => {});
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
