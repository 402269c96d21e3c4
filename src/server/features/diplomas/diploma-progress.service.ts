import type { Readable } from 'node:stream';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  certificates,
  diplomaUsers,
  diplomaVideoCompletions,
  diplomaVideos,
  examAnswers,
  examQuestions,
  examResults,
  exams,
  users,
} from '#server/db/schema/index.ts';
import { examStatus, formatFolio } from '#shared/diplomas/diplomas.rules.ts';
import {
  progressPageSize,
  type DiplomaProgress,
  type DiplomaProgressRow,
  type ProgressFilter,
  type ProgressQuery,
} from '#shared/progress/progress.schemas.ts';
import { examStatusText, fileNamePart, progressFilterText } from '#shared/progress/progress.rules.ts';
import { exportBatch, memberIdsPage, memberOrder, memberWhere, totalsOf } from '#server/services/member-progress.ts';
import { createXlsxWriter } from '#server/services/xlsx.ts';

type Filters = Omit<ProgressQuery, 'page'>;

// a member's figures, read from the diploma_users row at hand (no bound values: `group by` repeats them)
const videosCompleted = sql<number>`(select count(*) from ${diplomaVideoCompletions}
  inner join ${diplomaVideos} on ${diplomaVideos.id} = ${diplomaVideoCompletions.videoId}
  where ${diplomaVideos.diplomaId} = ${diplomaUsers.diplomaId} and ${diplomaVideos.isActive}
    and ${diplomaVideoCompletions.userId} = ${diplomaUsers.userId})`;
const started = sql`(exists (select 1 from ${diplomaVideoCompletions}
    inner join ${diplomaVideos} on ${diplomaVideos.id} = ${diplomaVideoCompletions.videoId}
    where ${diplomaVideos.diplomaId} = ${diplomaUsers.diplomaId} and ${diplomaVideoCompletions.userId} = ${diplomaUsers.userId})
  or exists (select 1 from ${examResults} inner join ${exams} on ${exams.id} = ${examResults.examId}
    where ${exams.diplomaId} = ${diplomaUsers.diplomaId} and ${examResults.userId} = ${diplomaUsers.userId})
  or exists (select 1 from ${examAnswers}
    inner join ${examQuestions} on ${examQuestions.id} = ${examAnswers.questionId}
    inner join ${exams} on ${exams.id} = ${examQuestions.examId}
    where ${exams.diplomaId} = ${diplomaUsers.diplomaId} and ${examAnswers.userId} = ${diplomaUsers.userId}
      and ${examAnswers.answer} >= 0))`;
const status = sql<ProgressFilter>`case when ${diplomaUsers.completedAt} is not null then 'finished'
  when ${started} then 'inProgress' else 'notStarted' end`;

/** Per member of a diploma: videos completed, each exam's state and score, and the certificate. */
export function createDiplomaProgressService(deps: { db: Db; timeZone: string }) {
  const { db } = deps;

  async function contentOf(diplomaId: string) {
    const [videoRows, examRows] = await Promise.all([
      db
        .select({ total: count() })
        .from(diplomaVideos)
        .where(and(eq(diplomaVideos.diplomaId, diplomaId), eq(diplomaVideos.isActive, true))),
      db
        .select({ id: exams.id, title: exams.title })
        .from(exams)
        .where(and(eq(exams.diplomaId, diplomaId), eq(exams.isActive, true)))
        .orderBy(sql`${exams.afterVideoPosition} asc nulls last`, asc(exams.createdAt), asc(exams.id)),
    ]);
    return { videoCount: Number(videoRows[0]?.total ?? 0), exams: examRows };
  }

  async function membersPage(
    diplomaId: string,
    examList: { id: string }[],
    filters: Filters,
    offset: number,
    limit: number,
  ): Promise<DiplomaProgressRow[]> {
    // without a status filter the page's members come first, and only their figures are counted
    const only = filters.filter
      ? undefined
      : await memberIdsPage(
          db,
          { table: diplomaUsers, userId: diplomaUsers.userId, of: eq(diplomaUsers.diplomaId, diplomaId) },
          filters.search,
          { offset, limit },
        );
    const query = db
      .select({ id: users.id, name: users.name, email: users.email, status, videosCompleted })
      .from(diplomaUsers)
      .innerJoin(users, eq(users.id, diplomaUsers.userId))
      .orderBy(...memberOrder);
    const rows = only
      ? only.length
        ? // the ids on the membership's key (diploma, member), looked up once; on users.id the planner tested the whole
          // list again for each member when it believed the diploma had one: 2 minutes for 10,000 (decision 060)
          await query.where(and(eq(diplomaUsers.diplomaId, diplomaId), inArray(diplomaUsers.userId, only)))
        : []
      : await query
          .where(and(eq(diplomaUsers.diplomaId, diplomaId), memberWhere(status, filters)))
          .limit(limit)
          .offset(offset);
    const ids = rows.map((row) => row.id);
    const examIds = examList.map((exam) => exam.id);
    const [results, answered, issued] = ids.length
      ? await Promise.all([
          examIds.length
            ? db
                .select()
                .from(examResults)
                .where(and(inArray(examResults.userId, ids), inArray(examResults.examId, examIds)))
            : [],
          examIds.length
            ? db
                .select({ userId: examAnswers.userId, examId: examQuestions.examId, total: count() })
                .from(examAnswers)
                .innerJoin(examQuestions, eq(examQuestions.id, examAnswers.questionId))
                .where(
                  and(
                    inArray(examAnswers.userId, ids),
                    inArray(examQuestions.examId, examIds),
                    sql`${examAnswers.answer} >= 0`,
                  ),
                )
                .groupBy(examAnswers.userId, examQuestions.examId)
            : [],
          db
            .select({ userId: certificates.userId, folio: certificates.folio, issuedAt: certificates.issuedAt })
            .from(certificates)
            .where(
              and(
                eq(certificates.diplomaId, diplomaId),
                inArray(certificates.userId, ids),
                isNull(certificates.revokedAt),
              ),
            ),
        ])
      : [[], [], []];
    const resultOf = new Map(results.map((result) => [`${result.userId}:${result.examId}`, result]));
    const answersOf = new Map(answered.map((row) => [`${row.userId}:${row.examId}`, Number(row.total)]));
    const certificateOf = new Map(issued.map((row) => [row.userId, row]));
    return rows.map((row) => {
      const certificate = certificateOf.get(row.id);
      return {
        id: row.id,
        name: row.name,
        email: row.email,
        status: row.status,
        videosCompleted: Number(row.videosCompleted),
        exams: examIds.map((examId) => {
          const result = resultOf.get(`${row.id}:${examId}`);
          return {
            status: examStatus({
              answered: answersOf.get(`${row.id}:${examId}`) ?? 0,
              completed: result !== undefined,
              passed: result?.passed ?? false,
            }),
            scorePercent: result ? Number(result.scorePercent) : null,
          };
        }),
        certificate: certificate
          ? { folio: formatFolio(certificate.folio), issuedAt: certificate.issuedAt.toISOString() }
          : null,
      };
    });
  }

  async function page(diplomaId: string, query: ProgressQuery): Promise<DiplomaProgress> {
    const content = await contentOf(diplomaId);
    const [byStatus, matching, rows] = await Promise.all([
      db
        .select({ status, total: count() })
        .from(diplomaUsers)
        .where(eq(diplomaUsers.diplomaId, diplomaId))
        .groupBy(status),
      db
        .select({ total: count() })
        .from(diplomaUsers)
        .innerJoin(users, eq(users.id, diplomaUsers.userId))
        .where(and(eq(diplomaUsers.diplomaId, diplomaId), memberWhere(status, query))),
      membersPage(diplomaId, content.exams, query, (query.page - 1) * progressPageSize, progressPageSize),
    ]);
    return {
      ...content,
      rows,
      totals: totalsOf(byStatus),
      matching: Number(matching[0]?.total ?? 0),
      page: query.page,
      pageSize: progressPageSize,
    };
  }

  /** A row per member the filters match, a column per exam, streamed a batch at a time. */
  async function exportXlsx(
    diplomaId: string,
    title: string,
    filters: Filters,
  ): Promise<{ fileName: string; stream: Readable }> {
    const { videoCount, exams: examList } = await contentOf(diplomaId);
    const sheet = createXlsxWriter({
      sheetName: 'Progreso',
      columns: [
        { header: 'Nombre', width: 30 },
        { header: 'Correo', width: 34 },
        { header: 'Estado', width: 16 },
        { header: 'Videos completados', width: 18 },
        ...examList.map((exam) => ({ header: exam.title, width: 22 })),
        { header: 'Folio', width: 10 },
        { header: `Fecha del certificado (${deps.timeZone})`, width: 22, type: 'date' as const },
      ],
      timeZone: deps.timeZone,
      modified: new Date(),
    });
    const write = async () => {
      for (let offset = 0; !sheet.closed; offset += exportBatch) {
        const rows = await membersPage(diplomaId, examList, filters, offset, exportBatch);
        await sheet.addRows(
          rows.map((row) => [
            row.name,
            row.email,
            progressFilterText[row.status],
            `${row.videosCompleted} de ${videoCount}`,
            ...row.exams.map((exam) =>
              exam.scorePercent === null
                ? examStatusText[exam.status]
                : `${examStatusText[exam.status]} (${exam.scorePercent} %)`,
            ),
            row.certificate?.folio ?? '-',
            row.certificate ? new Date(row.certificate.issuedAt) : '-',
          ]),
        );
        if (rows.length < exportBatch) break;
      }
      sheet.end();
    };
    write().catch((error: unknown) => sheet.fail(error as Error));
    return { fileName: `Progreso-${fileNamePart(title, 'diplomado')}.xlsx`, stream: sheet.stream };
  }

  return { page, exportXlsx };
}

export type DiplomaProgressService = ReturnType<typeof createDiplomaProgressService>;
