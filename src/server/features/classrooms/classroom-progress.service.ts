import type { Readable } from 'node:stream';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { classroomProcedures, classroomUsers, procedures, users, watchedTime } from '#server/db/schema/index.ts';
import { watchedTimePercent } from '#shared/watching/watched-time.rules.ts';
import {
  progressPageSize,
  type ClassroomProgress,
  type ClassroomProgressRow,
  type ProgressFilter,
  type ProgressQuery,
} from '#shared/progress/progress.schemas.ts';
import { fileNamePart, progressFilterText } from '#shared/progress/progress.rules.ts';
import {
  dateOfEpoch,
  exportBatch,
  memberOrder,
  memberSearch,
  memberWhere,
  totalsOf,
} from '#server/services/member-progress.ts';
import { createXlsxWriter } from '#server/services/xlsx.ts';

type Filters = Omit<ProgressQuery, 'page'>;

/**
 * What an aula's members watched of its videos, by the shared watched rule (watched_time: 90 % really played):
 * a member with every video watched has finished, one with any time played is in progress.
 */
export function createClassroomProgressService(deps: { db: Db; timeZone: string }) {
  const { db } = deps;

  async function videosOf(classroomId: string) {
    return db
      .select({ id: procedures.id, name: procedures.name })
      .from(classroomProcedures)
      .innerJoin(procedures, eq(procedures.id, classroomProcedures.procedureId))
      .where(eq(classroomProcedures.classroomId, classroomId))
      .orderBy(asc(classroomProcedures.position), asc(procedures.name));
  }

  /** Each member's figures over the aula's videos, with the status they make. */
  function memberQuery(classroomId: string, videoCount: number, only?: string[]) {
    const members = db
      .select({ userId: classroomUsers.userId })
      .from(classroomUsers)
      .where(eq(classroomUsers.classroomId, classroomId));
    const figures = db
      .select({
        userId: watchedTime.userId,
        watched: sql<number>`count(${watchedTime.watchedAt})`.as('watched'),
        active:
          sql<number>`count(*) filter (where ${watchedTime.watchedSeconds} > 0 or ${watchedTime.lastSavedAt} is not null)`.as(
            'active',
          ),
        lastAt: sql<string | null>`extract(epoch from max(${watchedTime.lastSavedAt}))`.as('last_at'),
      })
      .from(watchedTime)
      .innerJoin(
        classroomProcedures,
        and(
          eq(classroomProcedures.procedureId, watchedTime.procedureId),
          eq(classroomProcedures.classroomId, classroomId),
        ),
      )
      .where(inArray(watchedTime.userId, only ?? members))
      .groupBy(watchedTime.userId)
      .as('figures');
    // written into the text, not bound: `group by` must see the very expression of the select list
    const videos = sql.raw(String(Math.trunc(videoCount)));
    const status = sql<ProgressFilter>`case
      when ${videos} > 0 and coalesce(${figures.watched}, 0) >= ${videos} then 'finished'
      when coalesce(${figures.active}, 0) > 0 then 'inProgress'
      else 'notStarted' end`;
    return { figures, status };
  }

  async function membersPage(
    classroomId: string,
    videos: { id: string }[],
    filters: Filters,
    offset: number,
    limit: number,
  ) {
    // without a status filter the page's members come first, and only their figures are counted
    const only = filters.filter
      ? undefined
      : (
          await db
            .select({ id: users.id })
            .from(classroomUsers)
            .innerJoin(users, eq(users.id, classroomUsers.userId))
            .where(and(eq(classroomUsers.classroomId, classroomId), memberSearch(filters.search)))
            .orderBy(...memberOrder)
            .limit(limit)
            .offset(offset)
        ).map((row) => row.id);
    const { figures, status } = memberQuery(classroomId, videos.length, only);
    const query = db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        status,
        watched: sql<number>`coalesce(${figures.watched}, 0)`,
        lastAt: figures.lastAt,
      })
      .from(classroomUsers)
      .innerJoin(users, eq(users.id, classroomUsers.userId))
      .leftJoin(figures, eq(figures.userId, classroomUsers.userId))
      .orderBy(...memberOrder);
    const rows = only
      ? only.length
        ? await query.where(and(eq(classroomUsers.classroomId, classroomId), inArray(users.id, only)))
        : []
      : await query
          .where(and(eq(classroomUsers.classroomId, classroomId), memberWhere(status, filters)))
          .limit(limit)
          .offset(offset);
    const ids = rows.map((row) => row.id);
    const videoIds = videos.map((video) => video.id);
    const watchedRows =
      ids.length && videoIds.length
        ? await db
            .select({
              userId: watchedTime.userId,
              procedureId: watchedTime.procedureId,
              watchedSeconds: watchedTime.watchedSeconds,
              durationSeconds: watchedTime.durationSeconds,
              watchedAt: watchedTime.watchedAt,
            })
            .from(watchedTime)
            .where(and(inArray(watchedTime.userId, ids), inArray(watchedTime.procedureId, videoIds)))
        : [];
    const byMemberVideo = new Map(watchedRows.map((row) => [`${row.userId}:${row.procedureId}`, row]));
    return rows.map((row): ClassroomProgressRow => ({
      id: row.id,
      name: row.name,
      email: row.email,
      status: row.status,
      watchedCount: Number(row.watched),
      lastActivityAt: dateOfEpoch(row.lastAt)?.toISOString() ?? null,
      videos: videoIds.map((videoId) => {
        const watched = byMemberVideo.get(`${row.id}:${videoId}`);
        return watched
          ? {
              watchedPercent: watchedTimePercent(watched.watchedSeconds, watched.durationSeconds),
              watched: watched.watchedAt !== null,
            }
          : { watchedPercent: 0, watched: false };
      }),
    }));
  }

  /** One page of the aula's members with the totals over the whole aula and the count the filters match. */
  async function page(classroomId: string, query: ProgressQuery): Promise<ClassroomProgress> {
    const videos = await videosOf(classroomId);
    const { figures, status } = memberQuery(classroomId, videos.length);
    const [byStatus, matching, rows] = await Promise.all([
      db
        .select({ status, total: count() })
        .from(classroomUsers)
        .leftJoin(figures, eq(figures.userId, classroomUsers.userId))
        .where(eq(classroomUsers.classroomId, classroomId))
        .groupBy(status),
      db
        .select({ total: count() })
        .from(classroomUsers)
        .innerJoin(users, eq(users.id, classroomUsers.userId))
        .leftJoin(figures, eq(figures.userId, classroomUsers.userId))
        .where(and(eq(classroomUsers.classroomId, classroomId), memberWhere(status, query))),
      membersPage(classroomId, videos, query, (query.page - 1) * progressPageSize, progressPageSize),
    ]);
    return {
      videos,
      rows,
      totals: totalsOf(byStatus),
      matching: Number(matching[0]?.total ?? 0),
      page: query.page,
      pageSize: progressPageSize,
    };
  }

  /** The members the filters match, a row each and a column per video, streamed a batch at a time. */
  async function exportXlsx(
    classroomId: string,
    title: string,
    filters: Filters,
  ): Promise<{ fileName: string; stream: Readable }> {
    const videos = await videosOf(classroomId);
    const sheet = createXlsxWriter({
      sheetName: 'Progreso',
      columns: [
        { header: 'Nombre', width: 30 },
        { header: 'Correo', width: 34 },
        { header: 'Estado', width: 16 },
        { header: 'Videos vistos', width: 14 },
        { header: `Última actividad (${deps.timeZone})`, width: 24, type: 'dateTime' },
        ...videos.map((video) => ({ header: video.name, width: 18 })),
      ],
      timeZone: deps.timeZone,
      modified: new Date(),
    });
    const write = async () => {
      for (let offset = 0; !sheet.closed; offset += exportBatch) {
        const rows = await membersPage(classroomId, videos, filters, offset, exportBatch);
        await sheet.addRows(
          rows.map((row) => [
            row.name,
            row.email,
            progressFilterText[row.status],
            `${row.watchedCount} de ${videos.length}`,
            row.lastActivityAt ? new Date(row.lastActivityAt) : '-',
            ...row.videos.map((video) => (video.watched ? 'Visto' : `${video.watchedPercent} %`)),
          ]),
        );
        if (rows.length < exportBatch) break;
      }
      sheet.end();
    };
    write().catch((error: unknown) => sheet.fail(error as Error));
    return { fileName: `Progreso-${fileNamePart(title, 'aula')}.xlsx`, stream: sheet.stream };
  }

  return { page, exportXlsx };
}

export type ClassroomProgressService = ReturnType<typeof createClassroomProgressService>;
