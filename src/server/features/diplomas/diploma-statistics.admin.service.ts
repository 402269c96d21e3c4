import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  diplomaUsers,
  diplomaVideoCompletions,
  diplomas,
  examAnswers,
  examQuestions,
  examResults,
  users,
} from '#server/db/schema/index.ts';
import {
  type AdminDiplomaVideo,
  type AdminExam,
  type DiplomaPreview,
  type DiplomaStatistics,
  type ProgressStatus,
} from '#shared/diplomas/diplomas.admin.schemas.ts';
import { buildSequence, diplomaProgressPercent } from '#shared/diplomas/diplomas.rules.ts';

type MustFind = (id: string) => Promise<typeof diplomas.$inferSelect>;
/** A diploma's statistics tab and the member's-eye preview. */
export function createDiplomaStatisticsAdmin(deps: {
  db: Db;
  mustFind: MustFind;
  listVideos: (id: string) => Promise<AdminDiplomaVideo[]>;
  listExams: (id: string) => Promise<AdminExam[]>;
}) {
  const { db, mustFind, listVideos, listExams } = deps;

  /** Videos and exams of a diploma with one viewer's completions, in the shape of the shared sequence rules. */
  async function contentOf(id: string) {
    const [videos, examList] = await Promise.all([listVideos(id), listExams(id)]);
    const positionOf = (exam: AdminExam) => videos.find((video) => video.id === exam.videoId)?.position ?? null;
    const itemsFor = (isExternal: boolean, done: { videos: Set<string>; exams: Set<string>; passed: Set<string> }) =>
      buildSequence(
        { isExternal },
        videos.map((video) => ({
          id: video.id,
          position: video.position,
          isActive: video.isActive,
          completed: done.videos.has(video.id),
        })),
        examList.map((exam) => ({
          id: exam.id,
          afterVideoPosition: positionOf(exam),
          isActive: exam.isActive,
          completed: done.exams.has(exam.id),
          passed: done.passed.has(exam.id),
        })),
      );
    return { videos, exams: examList, itemsFor };
  }

  /** The statistics tab: scores per user, the progress donut and per-exam and per-question figures. */
  async function statistics(id: string): Promise<DiplomaStatistics> {
    const diploma = await mustFind(id);
    const { videos, exams: examList, itemsFor } = await contentOf(id);
    // exams in the order members meet them; unassigned ones last
    const order = (exam: AdminExam) => videos.find((video) => video.id === exam.videoId)?.position ?? Infinity;
    const shown = [...examList].sort((a, b) => order(a) - order(b));
    const members = await db
      .select({ id: users.id, name: users.name, email: users.email, completedAt: diplomaUsers.completedAt })
      .from(diplomaUsers)
      .innerJoin(users, eq(users.id, diplomaUsers.userId))
      .where(eq(diplomaUsers.diplomaId, id))
      .orderBy(asc(users.name), asc(users.email));
    const memberIds = members.map((member) => member.id);
    const examIds = shown.map((exam) => exam.id);
    const videoIds = videos.map((video) => video.id);
    const [results, questionRows, answers, completions] = await Promise.all([
      examIds.length && memberIds.length
        ? db
            .select()
            .from(examResults)
            .where(and(inArray(examResults.examId, examIds), inArray(examResults.userId, memberIds)))
        : [],
      examIds.length
        ? db
            .select()
            .from(examQuestions)
            .where(inArray(examQuestions.examId, examIds))
            .orderBy(asc(examQuestions.position))
        : [],
      examIds.length && memberIds.length
        ? db
            .select({ questionId: examAnswers.questionId, userId: examAnswers.userId, answer: examAnswers.answer })
            .from(examAnswers)
            .innerJoin(examQuestions, eq(examQuestions.id, examAnswers.questionId))
            .where(
              and(
                inArray(examQuestions.examId, examIds),
                inArray(examAnswers.userId, memberIds),
                sql`${examAnswers.answer} >= 0`,
              ),
            )
        : [],
      videoIds.length && memberIds.length
        ? db
            .select()
            .from(diplomaVideoCompletions)
            .where(
              and(
                inArray(diplomaVideoCompletions.videoId, videoIds),
                inArray(diplomaVideoCompletions.userId, memberIds),
              ),
            )
        : [],
    ]);

    const progress = { completed: 0, inProgress: 0, notStarted: 0 };
    const userRows = members.map((member) => {
      const mine = results.filter((result) => result.userId === member.id);
      const done = {
        videos: new Set(
          completions.filter((completion) => completion.userId === member.id).map((completion) => completion.videoId),
        ),
        exams: new Set(mine.map((result) => result.examId)),
        passed: new Set(mine.filter((result) => result.passed).map((result) => result.examId)),
      };
      const progressPercent = diplomaProgressPercent(diploma, itemsFor(diploma.isExternal, done));
      const started =
        done.videos.size > 0 || done.exams.size > 0 || answers.some((answer) => answer.userId === member.id);
      const status: ProgressStatus =
        member.completedAt || progressPercent >= 100 ? 'completed' : started ? 'inProgress' : 'notStarted';
      progress[status] += 1;
      return {
        id: member.id,
        name: member.name,
        email: member.email,
        status,
        progressPercent,
        scores: shown.map((exam) => mine.find((result) => result.examId === exam.id)?.scorePercent ?? null),
      };
    });

    return {
      exams: shown.map((exam) => {
        const examResultsRows = results.filter((result) => result.examId === exam.id);
        const passed = examResultsRows.filter((result) => result.passed).length;
        return {
          id: exam.id,
          title: exam.title,
          completed: examResultsRows.length,
          notCompleted: members.length - examResultsRows.length,
          passed,
          rejected: examResultsRows.length - passed,
          questions: questionRows
            .filter((question) => question.examId === exam.id)
            .map((question, index) => {
              const given = answers.filter((answer) => answer.questionId === question.id);
              const correct = given.filter((answer) => answer.answer === question.correctAnswer).length;
              return {
                label: `P${index + 1}`,
                question: question.question,
                correct,
                incorrect: given.length - correct,
              };
            }),
        };
      }),
      users: userRows,
      progress,
    };
  }

  /** The read-only sequence as a member sees it (shared locking rules), with the viewer's own completions. */
  async function preview(id: string, viewerId: string): Promise<DiplomaPreview> {
    const diploma = await mustFind(id);
    const { videos, exams: examList, itemsFor } = await contentOf(id);
    const videoIds = videos.map((video) => video.id);
    const examIds = examList.map((exam) => exam.id);
    const [completions, results] = await Promise.all([
      videoIds.length
        ? db
            .select({ videoId: diplomaVideoCompletions.videoId })
            .from(diplomaVideoCompletions)
            .where(
              and(inArray(diplomaVideoCompletions.videoId, videoIds), eq(diplomaVideoCompletions.userId, viewerId)),
            )
        : [],
      examIds.length
        ? db
            .select({ examId: examResults.examId, passed: examResults.passed })
            .from(examResults)
            .where(and(inArray(examResults.examId, examIds), eq(examResults.userId, viewerId)))
        : [],
    ]);
    const items = itemsFor(diploma.isExternal, {
      videos: new Set(completions.map((row) => row.videoId)),
      exams: new Set(results.map((row) => row.examId)),
      passed: new Set(results.filter((row) => row.passed).map((row) => row.examId)),
    });
    return {
      id: diploma.id,
      title: diploma.title,
      descriptionHtml: diploma.descriptionHtml,
      kind: diploma.isExternal ? 'External' : 'CxVet',
      items: items.map((item) =>
        item.type === 'video'
          ? {
              type: 'video' as const,
              locked: !item.enabled,
              completed: item.completed,
              video: videos.find((video) => video.id === item.id)!,
            }
          : {
              type: 'exam' as const,
              locked: !item.enabled,
              completed: item.completed,
              exam: examList.find((exam) => exam.id === item.id)!,
            },
      ),
    };
  }
  return { statistics, preview };
}
