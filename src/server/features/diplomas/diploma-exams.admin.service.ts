import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { diplomaVideos, diplomas, examAnswers, examQuestions, examResults, exams } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import { type AdminDiplomaVideo, type AdminExam, type ExamInput } from '#shared/diplomas/diplomas.admin.schemas.ts';

type MustFind = (id: string) => Promise<typeof diplomas.$inferSelect>;
/** A diploma's exams in the Admin console; answered exams keep their questions. */
export function createDiplomaExamsAdmin(deps: {
  db: Db;
  mustFind: MustFind;
  listVideos: (id: string) => Promise<AdminDiplomaVideo[]>;
}) {
  const { db, mustFind, listVideos } = deps;

  async function listExams(id: string): Promise<AdminExam[]> {
    await mustFind(id);
    const [examRows, videos] = await Promise.all([
      db
        .select()
        .from(exams)
        .where(eq(exams.diplomaId, id))
        .orderBy(sql`${exams.afterVideoPosition} asc nulls last`, asc(exams.createdAt)),
      listVideos(id),
    ]);
    const examIds = examRows.map((exam) => exam.id);
    const [questions, answered] = examIds.length
      ? await Promise.all([
          db
            .select()
            .from(examQuestions)
            .where(inArray(examQuestions.examId, examIds))
            .orderBy(asc(examQuestions.position)),
          answeredExamIds(examIds),
        ])
      : [[], new Set<string>()];
    return examRows.map((exam) => {
      const video = videos.find((candidate) => candidate.position === exam.afterVideoPosition) ?? null;
      return {
        id: exam.id,
        title: exam.title,
        videoId: video?.id ?? null,
        videoTitle: video?.title ?? null,
        isActive: exam.isActive,
        hasAnswers: answered.has(exam.id),
        questions: questions
          .filter((question) => question.examId === exam.id)
          .map((question) => ({
            question: question.question,
            answers: question.answers,
            correctAnswer: question.correctAnswer,
          })),
      };
    });
  }

  /** Exams some member has answered or completed. */
  async function answeredExamIds(examIds: string[], executor: Pick<Db, 'selectDistinct'> = db): Promise<Set<string>> {
    const [withAnswers, withResults] = await Promise.all([
      executor
        .selectDistinct({ examId: examQuestions.examId })
        .from(examAnswers)
        .innerJoin(examQuestions, eq(examQuestions.id, examAnswers.questionId))
        .where(and(inArray(examQuestions.examId, examIds), sql`${examAnswers.answer} >= 0`)),
      executor
        .selectDistinct({ examId: examResults.examId })
        .from(examResults)
        .where(inArray(examResults.examId, examIds)),
    ]);
    return new Set([...withAnswers, ...withResults].map((row) => row.examId));
  }

  /**
   * Creates or updates an exam. Each video takes at most one exam, a diploma has fewer exams than videos,
   * and once members answered it only the title, video and state may change.
   */
  async function saveExam(id: string, examId: string, input: ExamInput): Promise<void> {
    await db.transaction(async (tx) => {
      // one writer per diploma at a time, so two new exams cannot both pass the count check
      const [diploma] = await tx.select({ id: diplomas.id }).from(diplomas).where(eq(diplomas.id, id)).for('update');
      if (!diploma) throw new AppError('NOT_FOUND');
      const [existing] = await tx.select().from(exams).where(eq(exams.id, examId));
      if (existing && existing.diplomaId !== id) throw new AppError('NOT_FOUND');
      const videos = await tx
        .select({ id: diplomaVideos.id, position: diplomaVideos.position })
        .from(diplomaVideos)
        .where(eq(diplomaVideos.diplomaId, id));
      if (videos.length === 0) throw new AppError('DIPLOMA_NEEDS_VIDEO');
      if (!existing) {
        const [examCount] = await tx.select({ total: count() }).from(exams).where(eq(exams.diplomaId, id));
        if ((examCount?.total ?? 0) >= videos.length) throw new AppError('DIPLOMA_EXAM_LIMIT');
      }
      let afterVideoPosition: number | null = null;
      if (input.videoId) {
        const video = videos.find((candidate) => candidate.id === input.videoId);
        if (!video) throw new AppError('VALIDATION', { fields: { videoId: messages.selectValue } });
        const [taken] = await tx
          .select({ id: exams.id })
          .from(exams)
          .where(
            and(eq(exams.diplomaId, id), eq(exams.afterVideoPosition, video.position), sql`${exams.id} <> ${examId}`),
          );
        if (taken) throw new AppError('VALIDATION', { fields: { videoId: messages.videoHasExam } });
        afterVideoPosition = video.position;
      }
      const questions = input.questions.map((question) => ({
        question: question.question,
        answers: question.answers,
        correctAnswer: question.correctAnswer,
      }));
      if (existing) {
        await tx.update(exams).set({ title: input.title, afterVideoPosition }).where(eq(exams.id, examId));
        const stored = await tx
          .select({
            question: examQuestions.question,
            answers: examQuestions.answers,
            correctAnswer: examQuestions.correctAnswer,
          })
          .from(examQuestions)
          .where(eq(examQuestions.examId, examId))
          .orderBy(asc(examQuestions.position));
        if (JSON.stringify(stored) === JSON.stringify(questions)) return;
        if ((await answeredExamIds([examId], tx)).size > 0) throw new AppError('DIPLOMA_EXAM_LOCKED');
        await tx.delete(examQuestions).where(eq(examQuestions.examId, examId));
      } else {
        await tx.insert(exams).values({ id: examId, diplomaId: id, title: input.title, afterVideoPosition });
      }
      await tx
        .insert(examQuestions)
        .values(questions.map((question, index) => ({ examId, position: index + 1, ...question })));
    });
  }

  async function setExamActive(id: string, examId: string, isActive: boolean): Promise<void> {
    const updated = await db
      .update(exams)
      .set({ isActive })
      .where(and(eq(exams.id, examId), eq(exams.diplomaId, id)))
      .returning({ id: exams.id });
    if (updated.length === 0) throw new AppError('NOT_FOUND');
  }

  async function removeExam(id: string, examId: string): Promise<void> {
    const deleted = await db
      .delete(exams)
      .where(and(eq(exams.id, examId), eq(exams.diplomaId, id)))
      .returning({ id: exams.id });
    if (deleted.length === 0) throw new AppError('NOT_FOUND');
  }
  return { listExams, saveExam, setExamActive, removeExam };
}
