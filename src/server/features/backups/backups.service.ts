import { readdir, rm, stat } from 'node:fs/promises';
import type { Log } from '#server/services/log.ts';
import path from 'node:path';
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { backupRuns, jobs } from '#server/db/schema/index.ts';
import type { Config } from '#server/config.ts';
import type { BackupArchive, BackupRun, BackupsStatus } from '#shared/backups/backups.schemas.ts';
import { archivePattern, BackupError } from './backup-error.ts';

export const backupJobKinds = { scheduled: 'backup.scheduled', manual: 'backup.manual' } as const;
const manualKey = 'backup:manual';
export const scheduleEveryMs = { hourly: 3600_000, daily: 24 * 3600_000, weekly: 7 * 24 * 3600_000 } as const;
/** The console warns when the last good backup is older than this. */
const staleAfterMs = 2 * 24 * 3600_000;
const abandonedAfterMs = 3600_000;

export type BackupTrigger = 'programado' | 'consola' | 'comando';

/**
 * Runs backups and keeps their record: one at a time per process, each recorded in backup_runs (so the console's
 * last result survives a restart), the newest `keep` archives kept.
 */
/**
 * With STORAGE=s3 an archive could hold the database but not the files it names: a restore would bring back
 * records pointing at objects that may be gone. So no half backup is written; the operator backs up PostgreSQL
 * and the bucket with their own tools (docs/decisions/015-object-storage.md).
 */
export const objectStorageRefusal =
  'Con STORAGE=s3 los archivos están en el bucket y este respaldo no los copia, así que no se escribe ninguno: ' +
  'respalda PostgreSQL con pg_dump (o las instantáneas de tu proveedor) y el bucket con su versionado o replicación (ver README).';

export function createBackupsService(deps: {
  database: Database;
  uploadsRoot: string | undefined;
  backup: Config['backup'];
  sessionSecretFile?: string;
  schedule: (kind: string, options: { uniqueKey?: string }) => Promise<boolean>;
  log?: Pick<Log, 'info' | 'error'>;
}) {
  const { database, backup } = deps;
  const { db } = database;
  const log = deps.log ?? { info() {}, error() {} };
  let current: Promise<BackupRun> | null = null;

  async function listArchives(): Promise<BackupArchive[]> {
    // a missing or broken folder lists nothing: the status must still load to show why backups fail
    const all = await readdir(backup.dir).catch(() => [] as string[]);
    const names = all
      .filter((name) => archivePattern.test(name))
      .sort()
      .reverse();
    const archives: BackupArchive[] = [];
    for (const fileName of names) {
      const info = await stat(path.join(backup.dir, fileName)).catch(() => null);
      if (info) archives.push({ fileName, sizeBytes: info.size, createdAt: info.mtime.toISOString() });
    }
    return archives;
  }

  /** Keeps the newest `keep` archives; leftovers of a crashed run (hidden, older than an hour) go too. */
  async function prune() {
    const archives = await listArchives();
    for (const old of archives.slice(backup.keep)) await rm(path.join(backup.dir, old.fileName), { force: true });
    for (const name of await readdir(backup.dir).catch(() => [] as string[])) {
      if (!name.startsWith('.staging-') && !name.endsWith('.partial')) continue;
      const info = await stat(path.join(backup.dir, name)).catch(() => null);
      if (info && Date.now() - info.mtimeMs > abandonedAfterMs)
        await rm(path.join(backup.dir, name), { recursive: true, force: true });
    }
  }

  function toRun(row: typeof backupRuns.$inferSelect): BackupRun {
    return {
      id: row.id,
      trigger: row.trigger,
      status: row.status as BackupRun['status'],
      startedAt: row.startedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      fileName: row.fileName,
      sizeBytes: row.sizeBytes,
      fileCount: row.fileCount,
      error: row.error,
    };
  }

  async function runOnce(trigger: BackupTrigger): Promise<BackupRun> {
    // a run left 'running' by a process that died is recorded as failed
    await db
      .update(backupRuns)
      .set({ status: 'failed', finishedAt: new Date(), error: 'Interrumpido: el proceso terminó durante el respaldo.' })
      .where(and(eq(backupRuns.status, 'running'), lt(backupRuns.startedAt, new Date(Date.now() - abandonedAfterMs))));
    const [started] = await db.insert(backupRuns).values({ trigger }).returning();
    const id = started!.id;
    const startedAt = Date.now();
    try {
      if (!deps.uploadsRoot) throw new BackupError(objectStorageRefusal);
      const { createArchive } = await import('./archive.ts');
      const archive = await createArchive({
        database,
        uploadsRoot: deps.uploadsRoot,
        backupDir: backup.dir,
        sessionSecretFile: deps.sessionSecretFile,
        runId: id,
      });
      const [row] = await db
        .update(backupRuns)
        .set({
          status: 'succeeded',
          finishedAt: new Date(),
          fileName: archive.fileName,
          sizeBytes: archive.sizeBytes,
          fileCount: archive.fileCount,
        })
        .where(eq(backupRuns.id, id))
        .returning();
      await prune();
      log.info(
        {
          backup: archive.fileName,
          sizeBytes: archive.sizeBytes,
          files: archive.fileCount,
          ms: Date.now() - startedAt,
          trigger,
        },
        'backup written',
      );
      return toRun(row!);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      // our refusals are written for the console; anything else is a system error shown as it came
      const message = error instanceof BackupError ? detail : `Error del sistema: ${detail}`;
      log.error({ err: error, trigger }, 'backup failed');
      const [row] = await db
        .update(backupRuns)
        .set({ status: 'failed', finishedAt: new Date(), error: message.slice(0, 2000) })
        .where(eq(backupRuns.id, id))
        .returning();
      return toRun(row!);
    }
  }

  return {
    /** Runs a backup now; a call while one runs in this process gets that one's result. Never throws for a failed backup: it is recorded. */
    run(trigger: BackupTrigger): Promise<BackupRun> {
      if (current) return current;
      current = runOnce(trigger).finally(() => {
        current = null;
      });
      return current;
    },

    /** Queues a backup for the job runner; false when one is already waiting or running (two clicks make one). */
    async request(): Promise<boolean> {
      const running = await db
        .select({ id: backupRuns.id })
        .from(backupRuns)
        .where(eq(backupRuns.status, 'running'))
        .limit(1);
      if (running.length > 0 || current) return false;
      return deps.schedule(backupJobKinds.manual, { uniqueKey: manualKey });
    },

    async status(): Promise<BackupsStatus> {
      const [last] = await db
        .select()
        .from(backupRuns)
        .orderBy(desc(backupRuns.startedAt), desc(backupRuns.id))
        .limit(1);
      const [lastGood] = await db
        .select({ finishedAt: backupRuns.finishedAt })
        .from(backupRuns)
        .where(eq(backupRuns.status, 'succeeded'))
        .orderBy(desc(backupRuns.finishedAt))
        .limit(1);
      const waiting = await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.kind, backupJobKinds.manual), isNull(jobs.doneAt), sql`${jobs.runAt} <= now()`))
        .limit(1);
      const lastSucceededAt = lastGood?.finishedAt ?? null;
      const finished = last && last.status !== 'running' ? last : null;
      let warning: BackupsStatus['warning'] = null;
      if (finished?.status === 'failed') warning = 'failed';
      else if (!lastSucceededAt) warning = 'never';
      else if (Date.now() - lastSucceededAt.getTime() > staleAfterMs) warning = 'stale';
      return {
        last: last ? toRun(last) : null,
        lastSucceededAt: lastSucceededAt?.toISOString() ?? null,
        warning,
        pending: waiting.length > 0 || last?.status === 'running',
        archives: await listArchives(),
        schedule: backup.schedule,
        keep: backup.keep,
        directory: backup.dir,
      };
    },
  };
}

export type BackupsService = ReturnType<typeof createBackupsService>;
