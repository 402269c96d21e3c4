import { Readable } from 'node:stream';
import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, ne, or } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { certificates, courseEvaluations, credits, diplomas, procedures, users } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { zonedWallTimeToDate } from '#shared/time-zone.ts';
import { formatFolio } from '#shared/diplomas/diplomas.rules.ts';
import { fileNamePart } from '#shared/progress/progress.rules.ts';
import {
  creditCategoryText,
  creditRecordYears,
  deliveryMethodText,
  evaluationStatementsOf,
  formatHours,
} from '#shared/credits/credits.rules.ts';
import { createXlsxWriter } from '#server/services/xlsx.ts';
import { anonymizedName } from '#shared/privacy/privacy.rules.ts';

/** The item whose records are exported: a diploma or a catalogue procedure. */
type CreditRecordsItem = { diplomaId: string } | { procedureId: string };

export const creditRecordsPurgeJobKind = 'credits.records-purge';

/**
 * The provider's records for an accrediting body's audit: per diploma and period, a row per evaluation sent with
 * the member's name, licence, attendance proof, exam scores, answers and credit. Names stay four years (decision 009).
 */
export function createCreditRecordsService(deps: { db: Db; timeZone: string }) {
  const { db, timeZone } = deps;

  /** The item's title and the evaluations that belong to it: a diploma's, or a procedure's (decision 049). */
  async function itemOf(item: CreditRecordsItem) {
    if ('procedureId' in item) {
      const [row] = await db
        .select({ title: procedures.name })
        .from(procedures)
        .where(eq(procedures.id, item.procedureId));
      const statements = evaluationStatementsOf('procedure');
      return (
        row && {
          title: row.title,
          kind: 'procedimiento',
          statements,
          filter: eq(courseEvaluations.procedureId, item.procedureId),
        }
      );
    }
    const [row] = await db.select({ title: diplomas.title }).from(diplomas).where(eq(diplomas.id, item.diplomaId));
    return (
      row && {
        title: row.title,
        kind: 'diplomado',
        statements: evaluationStatementsOf('diploma'),
        filter: eq(courseEvaluations.diplomaId, item.diplomaId),
      }
    );
  }

  async function exportXlsx(item: CreditRecordsItem, period: { from: string; to: string }) {
    const found = await itemOf(item);
    if (!found) throw new AppError('NOT_FOUND');
    const from = zonedWallTimeToDate(`${period.from}T00:00`, timeZone)!;
    const until = new Date(zonedWallTimeToDate(`${period.to}T00:00`, timeZone)!.getTime() + 86_400_000);
    const rows = await db
      .select({
        evaluation: courseEvaluations,
        credit: credits,
        userName: users.name,
        userEmail: users.email,
        folio: certificates.folio,
        verificationCode: certificates.verificationCode,
        certificateRevokedAt: certificates.revokedAt,
      })
      .from(courseEvaluations)
      .leftJoin(credits, eq(credits.evaluationId, courseEvaluations.id))
      .leftJoin(users, eq(users.id, courseEvaluations.userId))
      .leftJoin(certificates, eq(certificates.id, credits.certificateId))
      .where(and(found.filter, gte(courseEvaluations.submittedAt, from), lt(courseEvaluations.submittedAt, until)))
      .orderBy(asc(courseEvaluations.submittedAt));
    const sheet = createXlsxWriter({
      sheetName: 'Registros',
      columns: [
        { header: 'Nombre', width: 30 },
        { header: 'Cédula profesional', width: 18 },
        { header: 'Correo', width: 30 },
        { header: `Inicio (${timeZone})`, width: 18, type: 'date' },
        { header: `Crédito otorgado (${timeZone})`, width: 20, type: 'dateTime' },
        { header: 'Horas', width: 8 },
        { header: 'Categoría', width: 16 },
        { header: 'Modalidad', width: 24 },
        { header: 'Organismos y números de aprobación', width: 40 },
        { header: 'Asistencia (video visto)', width: 40 },
        { header: 'Exámenes', width: 30 },
        { header: `Evaluación enviada (${timeZone})`, width: 20, type: 'dateTime' },
        ...found.statements.map((statement) => ({ header: statement, width: 22 })),
        { header: 'Comentario', width: 40 },
        { header: 'Folio', width: 10 },
        { header: 'Código de verificación', width: 18 },
        { header: 'Revocado', width: 30 },
      ],
      timeZone,
      modified: new Date(),
    });
    const lines = rows.map((row) => {
      const { credit, evaluation } = row;
      const revokedAt = credit?.revokedAt ?? row.certificateRevokedAt;
      return [
        credit?.holderName ?? row.userName ?? '',
        credit?.licenceNumber ?? '',
        row.userEmail ?? '',
        credit?.startedAt ?? null,
        credit?.earnedAt ?? '-',
        credit ? formatHours(credit.hours) : '-',
        credit ? creditCategoryText[credit.category] : '-',
        credit ? deliveryMethodText[credit.deliveryMethod] : '-',
        credit ? credit.bodies.map((body) => `${body.name} (${body.approvalNumber})`).join('; ') : '-',
        credit ? credit.proof.videos.map((video) => `${video.title}: ${video.watchedPercent} %`).join('; ') : '-',
        credit ? credit.proof.exams.map((exam) => `${exam.title}: ${exam.scorePercent} %`).join('; ') : '-',
        evaluation.submittedAt,
        ...found.statements.map((_, index) => String(evaluation.answers[index] ?? '')),
        evaluation.comment,
        row.folio !== null ? formatFolio(row.folio) : credit?.folio != null ? formatFolio(credit.folio) : '-',
        row.verificationCode ?? credit?.verificationCode ?? '-',
        revokedAt ? `${revokedAt.toISOString().slice(0, 10)}: ${credit?.revokeReason ?? ''}` : '',
      ];
    });
    // a period's rows are few (one per member who finished): written at once, then closed
    void sheet
      .addRows(lines)
      .then(() => sheet.end())
      .catch((error: unknown) => sheet.fail(error as Error));
    return {
      fileName: `Registros-${fileNamePart(found.title, found.kind)}-${period.from}-${period.to}.xlsx`,
      stream: sheet.stream as Readable,
    };
  }

  /**
   * Past the four years, the records of deleted accounts lose what identified them (name, cédula, comment);
   * hours, dates and Likert answers stay as anonymous counts.
   */
  async function purgeExpired(now = new Date()): Promise<number> {
    const cutoff = new Date(now);
    cutoff.setUTCFullYear(cutoff.getUTCFullYear() - creditRecordYears);
    const deleted = db.select({ id: users.id }).from(users).where(isNotNull(users.anonymizedAt));
    const cleared = await db
      .update(credits)
      .set({ holderName: anonymizedName, licenceNumber: '' })
      .where(
        and(
          lt(credits.earnedAt, cutoff),
          ne(credits.holderName, anonymizedName),
          or(isNull(credits.userId), inArray(credits.userId, deleted)),
        ),
      )
      .returning({ id: credits.id });
    await db
      .update(courseEvaluations)
      .set({ comment: '' })
      .where(
        and(
          lt(courseEvaluations.submittedAt, cutoff),
          ne(courseEvaluations.comment, ''),
          or(isNull(courseEvaluations.userId), inArray(courseEvaluations.userId, deleted)),
        ),
      );
    return cleared.length;
  }

  return { exportXlsx, purgeExpired };
}

export type CreditRecordsService = ReturnType<typeof createCreditRecordsService>;
