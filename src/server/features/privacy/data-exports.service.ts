import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { dataExports, jobs } from '#server/db/schema/index.ts';
import type { FileStorage } from '#server/services/storage.ts';
import type { Log } from '#server/services/log.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { CertificatesService } from '#server/features/diplomas/certificates.service.ts';
import { AppError } from '#shared/errors.ts';
import { dataExportLifetimeMs } from '#shared/privacy/privacy.rules.ts';
import type { DataExport } from '#shared/privacy/privacy.schemas.ts';
import { collectMemberData, zipMemberData } from './privacy.export.ts';
import { privacyJobKinds, type PrivacyMail, type Schedule } from './privacy.jobs.ts';

export const maxExportAttempts = 5;

const exportKey = (userId: string, exportId: string) => `private/data-exports/${userId}/${exportId}.zip`;

function toDataExport(row: typeof dataExports.$inferSelect): DataExport {
  return {
    id: row.id,
    status: row.status,
    requestedAt: row.requestedAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    sizeBytes: row.sizeBytes ?? null,
  };
}

/** 'Descargar mis datos': one ZIP of everything we hold on the member, prepared by a job, kept for 7 days. */
export function createDataExports(deps: {
  db: Db;
  storage: FileStorage;
  certificates: Pick<CertificatesService, 'pdfsForUser'>;
  schedule: Schedule;
  queueMail: (mail: PrivacyMail, tx: Db) => Promise<void>;
  log: Pick<Log, 'warn'>;
  now: () => Date;
}) {
  const { db, storage, certificates: certificatesService, schedule, queueMail, log, now } = deps;

  /** The member's latest export; one past its date reads as expired even before the sweep runs. */
  async function latestExport(userId: string): Promise<DataExport | null> {
    const [row] = await db
      .select()
      .from(dataExports)
      .where(eq(dataExports.userId, userId))
      .orderBy(desc(dataExports.requestedAt))
      .limit(1);
    if (!row) return null;
    const view = toDataExport(row);
    if (row.status === 'LISTA' && row.expiresAt && row.expiresAt <= now()) view.status = 'EXPIRADA';
    return view;
  }

  /** Queues an export; while one is being prepared, asking again returns that one (one job, one file). */
  async function requestExport(userId: string): Promise<DataExport> {
    await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(dataExports)
        .values({ userId, requestedAt: now() })
        .onConflictDoNothing()
        .returning({ id: dataExports.id });
      if (created)
        await schedule(privacyJobKinds.export, {
          payload: { exportId: created.id },
          uniqueKey: `privacy-export:${created.id}`,
          tx,
        });
    });
    return (await latestExport(userId))!;
  }

  /** The job: builds the ZIP, stores it privately, marks it ready for 7 days and queues the mail in one transaction. */
  async function buildExport(exportId: string): Promise<void> {
    const [row] = await db.select().from(dataExports).where(eq(dataExports.id, exportId));
    if (!row || row.status !== 'PENDIENTE') return;
    const key = exportKey(row.userId, row.id);
    try {
      const data = await collectMemberData(db, row.userId);
      const pdfs = await certificatesService.pdfsForUser(row.userId);
      const stored = await storage.put(key, zipMemberData(data, pdfs));
      const readyAt = now();
      const expiresAt = new Date(readyAt.getTime() + dataExportLifetimeMs);
      const previous = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(dataExports)
          .set({ status: 'LISTA', storageKey: key, sizeBytes: stored.size, readyAt, expiresAt, error: null })
          .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'PENDIENTE')))
          .returning({ id: dataExports.id });
        if (!updated) return null;
        // a newer file replaces an older one: only the latest stays downloadable
        const older = await tx
          .update(dataExports)
          .set({ status: 'EXPIRADA' })
          .where(
            and(
              eq(dataExports.userId, row.userId),
              eq(dataExports.status, 'LISTA'),
              sql`${dataExports.id} <> ${exportId}`,
            ),
          )
          .returning({ key: dataExports.storageKey });
        await queueMail({ kind: 'export-ready', exportId, token: randomUUID() }, tx);
        return older;
      });
      if (previous === null) return void (await storage.delete(key));
      await sweepExpired();
    } catch (error) {
      await storage.delete(key).catch(() => {});
      const [job] = await db
        .select({ attempts: jobs.attempts })
        .from(jobs)
        .where(eq(jobs.uniqueKey, `privacy-export:${exportId}`));
      // retried with backoff; after the last try the member is told instead of waiting forever
      if (!job || job.attempts < maxExportAttempts) throw error;
      log.warn({ err: error, exportId }, 'data export failed for good');
      await db
        .update(dataExports)
        .set({ status: 'FALLIDA', error: error instanceof Error ? error.message.slice(0, 500) : 'error' })
        .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'PENDIENTE')));
    }
  }

  /** Expired files are deleted (the row stays, so the member sees it expired). */
  async function sweepExpired(): Promise<number> {
    await db
      .update(dataExports)
      .set({ status: 'EXPIRADA' })
      .where(and(eq(dataExports.status, 'LISTA'), lte(dataExports.expiresAt, now())));
    const stale = await db
      .select({ id: dataExports.id, key: dataExports.storageKey })
      .from(dataExports)
      .where(and(eq(dataExports.status, 'EXPIRADA'), isNotNull(dataExports.storageKey)));
    for (const each of stale) {
      await storage.delete(each.key!);
      await db.update(dataExports).set({ storageKey: null }).where(eq(dataExports.id, each.id));
    }
    return stale.length;
  }

  /** The file, for its owner only; an expired or unknown one is refused in Spanish. */
  async function openExport(user: UserRow, exportId: string) {
    const [row] = await db
      .select()
      .from(dataExports)
      .where(and(eq(dataExports.id, exportId), eq(dataExports.userId, user.id)));
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status === 'EXPIRADA' || (row.status === 'LISTA' && row.expiresAt! <= now()))
      throw new AppError('DATA_EXPORT_EXPIRED');
    if (row.status !== 'LISTA' || !row.storageKey) throw new AppError('NOT_FOUND');
    const stored = await storage.stat(row.storageKey);
    if (!stored) throw new AppError('DATA_EXPORT_EXPIRED');
    return {
      stream: storage.read(row.storageKey),
      size: stored.size,
      fileName: `mis-datos-cxvet-${row.readyAt!.toISOString().slice(0, 10)}.zip`,
    };
  }

  return { latestExport, requestExport, buildExport, sweepExpired, openExport };
}
