import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  diplomaUsers,
  diplomaVideoCompletions,
  diplomaVideos,
  diplomas,
  examResults,
  exams,
  organizations,
  procedures,
} from '#server/db/schema/index.ts';
import { hasPremiumAccess, isAdmin } from '#shared/accounts/accounts.rules.ts';
import { AppError } from '#shared/errors.ts';
import { buildSequence, diplomaProgressPercent, type SequenceItem } from '#shared/diplomas/diplomas.rules.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { WatchedTimeService } from '#server/features/watching/watched-time.service.ts';

export type DiplomaRow = typeof diplomas.$inferSelect;
type ExamResultRow = typeof examResults.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Reader = Db | Tx;

/** Who may read or record progress in a diploma, and the member's sequence with its locking and progress. */
export function createDiplomaAccess(deps: { db: Db; watchedTime: WatchedTimeService }) {
  const { db, watchedTime } = deps;

  /** Course material: Admins, the diploma's administrator, and enrolled Premium members. */
  async function canAccessContent(user: UserRow, diplomaId: string): Promise<boolean> {
    if (isAdmin(user)) return true;
    const [diploma] = await db
      .select({ adminUserId: diplomas.adminUserId })
      .from(diplomas)
      .where(eq(diplomas.id, diplomaId));
    if (!diploma) return false;
    if (diploma.adminUserId === user.id) return true;
    if (!hasPremiumAccess(user)) return false;
    return isEnrolled(user.id, diplomaId);
  }

  async function isEnrolled(userId: string, diplomaId: string, reader: Reader = db): Promise<boolean> {
    const rows = await reader
      .select({ userId: diplomaUsers.userId })
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, userId)));
    return rows.length > 0;
  }

  /** An active diploma, or 404 (the web sends the member back to /mis-diplomados). */
  async function findActive(
    diplomaId: string,
    reader: Reader = db,
  ): Promise<DiplomaRow & { organizationName: string }> {
    const [row] = await reader
      .select({ diploma: diplomas, organizationName: organizations.title })
      .from(diplomas)
      .leftJoin(organizations, eq(organizations.id, diplomas.organizationId))
      .where(eq(diplomas.id, diplomaId));
    if (!row || !row.diploma.isActive) throw new AppError('NOT_FOUND');
    return { ...row.diploma, organizationName: row.diploma.isExternal ? (row.organizationName ?? '') : 'CxVet' };
  }

  /** Reading a course: its members, its administrator and Admins. */
  async function requireCourseReader(user: UserRow, diploma: DiplomaRow): Promise<void> {
    if (isAdmin(user) || diploma.adminUserId === user.id) return;
    if (!(await isEnrolled(user.id, diploma.id))) throw new AppError('FORBIDDEN');
  }

  /** Progress is recorded only for the diploma's own members. */
  async function requireMember(user: UserRow, diplomaId: string, reader: Reader = db): Promise<void> {
    if (!(await isEnrolled(user.id, diplomaId, reader))) throw new AppError('FORBIDDEN');
  }

  /** Everything that decides locking and progress for one member, in the spec's order. */
  async function loadSequence(diploma: DiplomaRow, userId: string, reader: Reader = db) {
    const videos = await reader
      .select()
      .from(diplomaVideos)
      .where(eq(diplomaVideos.diplomaId, diploma.id))
      .orderBy(asc(diplomaVideos.position));
    const examRows = await reader
      .select()
      .from(exams)
      .where(eq(exams.diplomaId, diploma.id))
      .orderBy(asc(exams.afterVideoPosition), asc(exams.createdAt));
    const videoIds = videos.map((video) => video.id);
    const examIds = examRows.map((exam) => exam.id);
    const completions = videoIds.length
      ? await reader
          .select({ videoId: diplomaVideoCompletions.videoId })
          .from(diplomaVideoCompletions)
          .where(and(eq(diplomaVideoCompletions.userId, userId), inArray(diplomaVideoCompletions.videoId, videoIds)))
      : [];
    const results = examIds.length
      ? await reader
          .select()
          .from(examResults)
          .where(and(eq(examResults.userId, userId), inArray(examResults.examId, examIds)))
      : [];
    const linkedIds = videos.flatMap((video) => (video.procedureId ? [video.procedureId] : []));
    const linked = linkedIds.length
      ? await reader
          .select({ id: procedures.id, fullVideo: procedures.fullVideo })
          .from(procedures)
          .where(inArray(procedures.id, linkedIds))
      : [];
    const [ownWatched, procedureWatched] = await Promise.all([
      watchedTime.ofDiplomaVideos(userId, videoIds, reader),
      watchedTime.ofProcedures(userId, linkedIds, reader),
    ]);
    /** How each video is completed (watching its file, or the button when it has none) and how much was watched. */
    const watching = new Map(
      videos.map((video) => {
        const procedure = linked.find((each) => each.id === video.procedureId);
        const hasFile = procedure ? Boolean(procedure.fullVideo) : Boolean(video.video);
        const state = procedure ? procedureWatched.get(procedure.id) : ownWatched.get(video.id);
        return [
          video.id,
          {
            completedBy: hasFile ? ('watching' as const) : ('marking' as const),
            watchedPercent: state?.watchedPercent ?? 0,
            isWatched: state?.isWatched ?? false,
          },
        ];
      }),
    );
    // a linked procedure watched on its own page counts here too
    const completed = new Set([
      ...completions.map((row) => row.videoId),
      ...videos.filter((video) => video.procedureId && watching.get(video.id)!.isWatched).map((video) => video.id),
    ]);
    const withResults = (rows: ExamResultRow[]) => {
      const resultByExam = new Map(rows.map((row) => [row.examId, row]));
      const items = buildSequence(
        diploma,
        videos.map((video) => ({
          id: video.id,
          position: video.position,
          isActive: video.isActive,
          completed: completed.has(video.id),
        })),
        examRows.map((exam) => ({
          id: exam.id,
          afterVideoPosition: exam.afterVideoPosition,
          isActive: exam.isActive,
          completed: resultByExam.has(exam.id),
          passed: resultByExam.get(exam.id)?.passed ?? false,
        })),
      );
      return {
        videos,
        exams: examRows,
        items,
        resultByExam,
        watching,
        progressPercent: diplomaProgressPercent(diploma, items),
        /**
         * The sequence once `result` is recorded too, without reading it again (decision 055). Only the exam's own
         * submission, under the enrolment's lock, records a result; a video marked in another tab at that very moment
         * is counted at the member's next read of the course, which records a completion reached (course()).
         */
        withResult: (result: ExamResultRow) =>
          withResults([...rows.filter((row) => row.examId !== result.examId), result]),
      };
    };
    return withResults(results);
  }

  function requireEnabled(items: SequenceItem[], type: SequenceItem['type'], id: string): SequenceItem {
    const item = items.find((each) => each.type === type && each.id === id);
    if (!item) throw new AppError('NOT_FOUND');
    if (!item.enabled) throw new AppError('FORBIDDEN');
    return item;
  }

  /** Reaching 100% records the completion timestamp once; `progressPercent` when the caller already knows it. */
  async function recordCompletion(
    tx: Reader,
    diploma: DiplomaRow,
    userId: string,
    progressPercent?: number,
  ): Promise<number> {
    const progress = progressPercent ?? (await loadSequence(diploma, userId, tx)).progressPercent;
    if (progress >= 100) {
      // one statement: only an enrolment not yet completed gets the timestamp
      await tx
        .update(diplomaUsers)
        .set({ completedAt: new Date() })
        .where(
          and(
            eq(diplomaUsers.diplomaId, diploma.id),
            eq(diplomaUsers.userId, userId),
            isNull(diplomaUsers.completedAt),
          ),
        );
    }
    return progress;
  }

  return {
    canAccessContent,
    isEnrolled,
    findActive,
    requireCourseReader,
    requireMember,
    loadSequence,
    requireEnabled,
    recordCompletion,
  };
}

export type DiplomaAccess = ReturnType<typeof createDiplomaAccess>;
