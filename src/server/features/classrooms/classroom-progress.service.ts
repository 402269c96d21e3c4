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
  memberIdsPage,
  memberOrder,
  memberWhere,
  totalsOf,
} from '#server/services/member-progress.ts';
import { createXlsxWriter } from '#server/services/xlsx.ts';

type Filters = Omit<ProgressQuery, 'page'>;
type MemberRow = {
  id: string;
  name: string;
  email: string;
  status: ProgressFilter;
  watched: number;
  lastAt: string | null;
};

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

  /** What a member's figures are made of: videos watched, videos with any time played, the last save. */
  const figureColumns = () => ({
    watched: sql<number>`count(${watchedTime.watchedAt})`.as('watched'),
    active:
      sql<number>`count(*) filter (where ${watchedTime.watchedSeconds} > 0 or ${watchedTime.lastSavedAt} is not null)`.as(
        'active',
      ),
    lastAt: sql<string | null>`extract(epoch from max(${watchedTime.lastSavedAt}))`.as('last_at'),
  });
  type Figures = ReturnType<typeof figureColumns>;

  const onAulaVideos = (classroomId: string) =>
    and(eq(classroomProcedures.procedureId, watchedTime.procedureId), eq(classroomProcedures.classroomId, classroomId));

  /** Every member's figures at once, by member: for the aula's totals and a filter on the status. */
  function everyMembersFigures(classroomId: string) {
    const members = db
      .select({ userId: classroomUsers.userId })
      .from(classroomUsers)
      .where(eq(classroomUsers.classroomId, classroomId));
    return db
      .select({ userId: watchedTime.userId, ...figureColumns() })
      .from(watchedTime)
      .innerJoin(classroomProcedures, onAulaVideos(classroomId))
      .where(inArray(watchedTime.userId, members))
      .groupBy(watchedTime.userId)
      .as('figures');
  }

  /**
   * The figures of the member on the row at hand (a lateral join), read through the (member, video) index: for a
   * known page or batch of members, a plan that holds however stale the statistics. Joined to everyone's figures, a
   * batch of 1,000 took 3 s when the planner believed the aula had one member (decision 060).
   */
  function eachMembersFigures(classroomId: string) {
    return db
      .select(figureColumns())
      .from(watchedTime)
      .innerJoin(classroomProcedures, onAulaVideos(classroomId))
      .where(eq(watchedTime.userId, classroomUsers.userId))
      .as('figures');
  }

  /** The status a member's figures make over the aula's videos. */
  function statusOf(figures: Figures, videoCount: number) {
    // written into the text, not bound: `group by` must see the very expression of the select list
    const videos = sql.raw(String(Math.trunc(videoCount)));
    return sql<ProgressFilter>`case
      when ${videos} > 0 and coalesce(${figures.watched}, 0) >= ${videos} then 'finished'
      when coalesce(${figures.active}, 0) > 0 then 'inProgress'
      else 'notStarted' end`;
  }

  const memberColumns = (figures: Figures, videoCount: number) => ({
    id: users.id,
    name: users.name,
    email: users.email,
    status: statusOf(figures, videoCount),
    watched: sql<number>`coalesce(${figures.watched}, 0)`,
    lastAt: figures.lastAt,
  });

  async function membersPage(
    classroomId: string,
    videos: { id: string }[],
    filters: Filters,
    offset: number,
    limit: number,
  ) {
    let rows: MemberRow[];
    if (filters.filter) {
      // a filter on the status reads every member's figures
      const figures = eachMembersFigures(classroomId);
      rows = await db
        .select(memberColumns(figures, videos.length))
        .from(classroomUsers)
        .innerJoin(users, eq(users.id, classroomUsers.userId))
        .leftJoinLateral(figures, sql`true`)
        .where(and(eq(classroomUsers.classroomId, classroomId), memberWhere(statusOf(figures, videos.length), filters)))
        .orderBy(...memberOrder)
        .limit(limit)
        .offset(offset);
    } else {
      // without one the page's members come first, and only their figures are read
      const only = await memberIdsPage(
        db,
        { table: classroomUsers, userId: classroomUsers.userId, of: eq(classroomUsers.classroomId, classroomId) },
        filters.search,
        { offset, limit },
      );
      const figures = eachMembersFigures(classroomId);
      rows = only.length
        ? await db
            .select(memberColumns(figures, videos.length))
            .from(classroomUsers)
            .innerJoin(users, eq(users.id, classroomUsers.userId))
            .leftJoinLateral(figures, sql`true`)
            // the ids on the membership's key (aula, member), looked up once; on users.id the planner tested the
            // whole list again for each member when it believed the aula had one (decision 060)
            .where(and(eq(classroomUsers.classroomId, classroomId), inArray(classroomUsers.userId, only)))
            .orderBy(...memberOrder)
        : [];
    }
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
    const figures = everyMembersFigures(classroomId);
    const status = statusOf(figures, videos.length);
    const each = eachMembersFigures(classroomId);
    const filtered = Boolean(query.filter || query.search);
    const [withFigures, members, matching, rows] = await Promise.all([
      // the members with any figure, by status; the others have not started
      db.select({ status, total: count() }).from(figures).groupBy(status),
      db.select({ total: count() }).from(classroomUsers).where(eq(classroomUsers.classroomId, classroomId)),
      filtered
        ? db
            .select({ total: count() })
            .from(classroomUsers)
            .innerJoin(users, eq(users.id, classroomUsers.userId))
            .leftJoinLateral(each, sql`true`)
            .where(and(eq(classroomUsers.classroomId, classroomId), memberWhere(statusOf(each, videos.length), query)))
        : null,
      membersPage(classroomId, videos, query, (query.page - 1) * progressPageSize, progressPageSize),
    ]);
    const memberCount = Number(members[0]?.total ?? 0);
    const counted = withFigures.reduce((sum, row) => sum + Number(row.total), 0);
    return {
      videos,
      rows,
      totals: totalsOf([...withFigures, { status: 'notStarted', total: Math.max(0, memberCount - counted) }]),
      matching: matching ? Number(matching[0]?.total ?? 0) : memberCount,
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
