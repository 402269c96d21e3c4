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
  type DiplomaStatisticsQuery,
  type ProgressStatus,
  type StatisticsUser,
} from '#shared/diplomas/diplomas.admin.schemas.ts';
import { buildSequence, diplomaProgressPercent } from '#shared/diplomas/diplomas.rules.ts';
import { adminPageSize } from '#shared/records.schemas.ts';
import { foldForSearch } from '#shared/text.ts';

/** Rows by a key, in their order (Map.groupBy, which Node.js 20 lacks). */
function groupBy<Item, Key>(items: Item[], keyOf: (item: Item) => Key): Map<Key, Item[]> {
  const groups = new Map<Key, Item[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

const collator = new Intl.Collator('es');
// the way through the course: not started, under way, done
const statusRank: Record<ProgressStatus, number> = { notStarted: 0, inProgress: 1, completed: 2 };
const compareBy: Record<DiplomaStatisticsQuery['sort'], (a: StatisticsUser, b: StatisticsUser) => number> = {
  name: (a, b) => collator.compare(a.name, b.name),
  email: (a, b) => collator.compare(a.email, b.email),
  status: (a, b) => statusRank[a.status] - statusRank[b.status],
  progressPercent: (a, b) => a.progressPercent - b.progressPercent,
};

/** The scores table's page: the members the search matches, sorted (ties keep name order), cut to one page. */
function usersPage(rows: StatisticsUser[], query: DiplomaStatisticsQuery): DiplomaStatistics['users'] {
  const needle = query.q ? foldForSearch(query.q) : '';
  const matching = needle ? rows.filter((row) => foldForSearch(`${row.name} ${row.email}`).includes(needle)) : rows;
  const compare = compareBy[query.sort];
  const sign = query.dir === 'asc' ? 1 : -1;
  const sorted = [...matching].sort((a, b) => sign * compare(a, b));
  const start = (query.page - 1) * adminPageSize;
  return { items: sorted.slice(start, start + adminPageSize), total: matching.length };
}

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

  /**
   * The statistics tab: scores per user, the progress donut and per-exam and per-question figures. The results,
   * answers and completions are read by exam, question and video alone (their keys' first columns) and kept for
   * the members here: a list of the members' ids could exceed what a statement takes (65,535 parameters), and a
   * join to the membership lets a planner with stale statistics test every answer against every member (370 s at
   * 10,000 members right after their import). Each member's rows are then looked up in maps, so the work grows
   * with the rows read, not with members × rows. The figures count every member; the scores table sends one page.
   */
  async function statistics(id: string, query: DiplomaStatisticsQuery): Promise<DiplomaStatistics> {
    const diploma = await mustFind(id);
    const { videos, exams: examList, itemsFor } = await contentOf(id);
    // exams in the order members meet them; unassigned ones last
    const order = (exam: AdminExam) => videos.find((video) => video.id === exam.videoId)?.position ?? Infinity;
    const shown = [...examList].sort((a, b) => order(a) - order(b));
    const examIds = shown.map((exam) => exam.id);
    const videoIds = videos.map((video) => video.id);
    const [members, allResults, questionRows, allAnswers, allCompletions] = await Promise.all([
      db
        .select({ id: users.id, name: users.name, email: users.email, completedAt: diplomaUsers.completedAt })
        .from(diplomaUsers)
        .innerJoin(users, eq(users.id, diplomaUsers.userId))
        .where(eq(diplomaUsers.diplomaId, id))
        .orderBy(asc(users.name), asc(users.email)),
      examIds.length ? db.select().from(examResults).where(inArray(examResults.examId, examIds)) : [],
      examIds.length
        ? db
            .select()
            .from(examQuestions)
            .where(inArray(examQuestions.examId, examIds))
            .orderBy(asc(examQuestions.position))
        : [],
      examIds.length
        ? db
            .select({ questionId: examAnswers.questionId, userId: examAnswers.userId, answer: examAnswers.answer })
            .from(examAnswers)
            .where(
              and(
                inArray(
                  examAnswers.questionId,
                  db.select({ id: examQuestions.id }).from(examQuestions).where(inArray(examQuestions.examId, examIds)),
                ),
                sql`${examAnswers.answer} >= 0`,
              ),
            )
        : [],
      videoIds.length
        ? db
            .select({ userId: diplomaVideoCompletions.userId, videoId: diplomaVideoCompletions.videoId })
            .from(diplomaVideoCompletions)
            .where(inArray(diplomaVideoCompletions.videoId, videoIds))
        : [],
    ]);
    const memberSet = new Set(members.map((member) => member.id));
    const isMembers = (row: { userId: string }) => memberSet.has(row.userId);
    const [results, answers, completions] = [
      allResults.filter(isMembers),
      allAnswers.filter(isMembers),
      allCompletions.filter(isMembers),
    ];

    const resultsOf = groupBy(results, (result) => result.userId);
    const completedVideosOf = groupBy(completions, (completion) => completion.userId);
    const answered = new Set(answers.map((answer) => answer.userId));
    const progress = { completed: 0, inProgress: 0, notStarted: 0 };
    const userRows = members.map((member): StatisticsUser => {
      const mine = resultsOf.get(member.id) ?? [];
      const done = {
        videos: new Set((completedVideosOf.get(member.id) ?? []).map((completion) => completion.videoId)),
        exams: new Set(mine.map((result) => result.examId)),
        passed: new Set(mine.filter((result) => result.passed).map((result) => result.examId)),
      };
      const progressPercent = diplomaProgressPercent(diploma, itemsFor(diploma.isExternal, done));
      const started = done.videos.size > 0 || done.exams.size > 0 || answered.has(member.id);
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

    const resultsOfExam = groupBy(results, (result) => result.examId);
    const questionsOfExam = groupBy(questionRows, (question) => question.examId);
    const answersOf = groupBy(answers, (answer) => answer.questionId);
    return {
      exams: shown.map((exam) => {
        const examResultsRows = resultsOfExam.get(exam.id) ?? [];
        const passed = examResultsRows.filter((result) => result.passed).length;
        return {
          id: exam.id,
          title: exam.title,
          completed: examResultsRows.length,
          notCompleted: members.length - examResultsRows.length,
          passed,
          rejected: examResultsRows.length - passed,
          questions: (questionsOfExam.get(exam.id) ?? []).map((question, index) => {
            const given = answersOf.get(question.id) ?? [];
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
      users: usersPage(userRows, query),
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
