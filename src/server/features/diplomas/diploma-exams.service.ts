import { createHash, randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { diplomaUsers, examAnswers, examAttempts, examQuestions, examResults } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { examScorePercent, examStatus, isPassingScore, unanswered } from '#shared/diplomas/diplomas.rules.ts';
import type { ExamView, SubmitExamInput } from '#shared/diplomas/diplomas.schemas.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { DiplomaAccess, Reader as DiplomaAccessReader } from './diploma-access.service.ts';

type Reader = DiplomaAccessReader;

/** A member's exams in a diploma: reading, answering, submitting and retaking. */
export function createDiplomaExams(deps: { db: Db; access: DiplomaAccess }) {
  const { db } = deps;
  const { findActive, requireMember, loadSequence, requireEnabled, recordCompletion } = deps.access;

  async function examQuestionsOf(examId: string, reader: Reader = db) {
    return reader
      .select()
      .from(examQuestions)
      .where(eq(examQuestions.examId, examId))
      .orderBy(asc(examQuestions.position));
  }

  /**
   * The member's questions in the order they see them, each with the original index of every shown answer:
   * the first attempt keeps the authored order, a retake shuffles both by the seed it drew.
   */
  async function shownQuestionsOf(userId: string, examId: string, reader: Reader = db) {
    const questions = await examQuestionsOf(examId, reader);
    const [attempt] = await reader
      .select({ seed: examAttempts.shuffleSeed })
      .from(examAttempts)
      .where(and(eq(examAttempts.examId, examId), eq(examAttempts.userId, userId)));
    const seed = attempt?.seed;
    const rank = (key: string) => createHash('sha256').update(`${seed}:${key}`).digest('hex');
    const byRank = <T>(items: T[], keyOf: (item: T) => string) =>
      seed === undefined
        ? items
        : items
            .map((item) => ({ item, key: rank(keyOf(item)) }))
            .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
            .map(({ item }) => item);
    return byRank(questions, (question) => question.id).map((question) => ({
      ...question,
      answerOrder: byRank(
        question.answers.map((_, index) => index),
        (index) => `${question.id}:${index}`,
      ),
    }));
  }

  /** One exam for the member: saved answers while open; the score alone after a failed attempt; everything once passed. */
  async function exam(user: UserRow, diplomaId: string, examId: string): Promise<ExamView> {
    const diploma = await findActive(diplomaId);
    await requireMember(user, diplomaId);
    const { exams: examRows, items, resultByExam } = await loadSequence(diploma, user.id);
    requireEnabled(items, 'exam', examId);
    const examRow = examRows.find((each) => each.id === examId)!;
    const questions = await shownQuestionsOf(user.id, examId);
    const answers = questions.length
      ? await db
          .select()
          .from(examAnswers)
          .where(
            and(
              eq(examAnswers.userId, user.id),
              inArray(
                examAnswers.questionId,
                questions.map((question) => question.id),
              ),
            ),
          )
      : [];
    const result = resultByExam.get(examId) ?? null;
    const failed = result !== null && !result.passed;
    return {
      id: examRow.id,
      diplomaId,
      title: examRow.title,
      status: examStatus({ answered: answers.length, completed: result !== null, passed: result?.passed ?? false }),
      completed: result !== null,
      passed: result?.passed ?? false,
      scorePercent: result?.scorePercent ?? null,
      passThresholdPercent: diploma.passThresholdPercent,
      // per-question answers of a failed attempt would give the key away by elimination over retakes
      questions: failed
        ? []
        : questions.map((question) => {
            const saved = answers.find((answer) => answer.questionId === question.id)?.answer;
            return {
              id: question.id,
              question: question.question,
              answers: question.answerOrder.map((index) => question.answers[index]!),
              userAnswer: saved === undefined ? unanswered : question.answerOrder.indexOf(saved),
              correctAnswer: result?.passed ? question.answerOrder.indexOf(question.correctAnswer) : null,
            };
          }),
    };
  }

  /** Saves one answer while the exam is open; a completed exam is read-only. */
  async function saveAnswer(
    user: UserRow,
    diplomaId: string,
    examId: string,
    input: { questionId: string; answer: number },
  ) {
    const diploma = await findActive(diplomaId);
    await requireMember(user, diplomaId);
    const { items, resultByExam } = await loadSequence(diploma, user.id);
    requireEnabled(items, 'exam', examId);
    const completed = resultByExam.has(examId);
    const question = (await shownQuestionsOf(user.id, examId)).find((each) => each.id === input.questionId);
    if (!question) throw new AppError(completed ? 'CONFLICT' : 'NOT_FOUND');
    const answer = question.answerOrder[input.answer];
    if (answer === undefined) throw new AppError(completed ? 'CONFLICT' : 'VALIDATION');
    if (completed) {
      // a save sent just before the member pressed Enviar and answered after the grading: the submission carried the
      // same answer, so nothing is refused (a refusal showed an error over the result); any other change is
      const [stored] = await db
        .select({ answer: examAnswers.answer })
        .from(examAnswers)
        .where(and(eq(examAnswers.questionId, question.id), eq(examAnswers.userId, user.id)));
      if (stored?.answer === answer) return { ok: true as const };
      throw new AppError('CONFLICT');
    }
    await db
      .insert(examAnswers)
      .values({ questionId: question.id, userId: user.id, answer })
      .onConflictDoUpdate({
        target: [examAnswers.questionId, examAnswers.userId],
        set: { answer, answeredAt: new Date() },
      });
    return { ok: true as const };
  }

  /**
   * Saves every answer and grades once, in one transaction that holds the member's enrolment row:
   * concurrent submissions queue behind it and the later ones find the exam already completed.
   */
  async function submitExam(user: UserRow, diplomaId: string, examId: string, input: SubmitExamInput) {
    const diploma = await findActive(diplomaId);
    return db.transaction(async (tx) => {
      const locked = await tx
        .select({ userId: diplomaUsers.userId })
        .from(diplomaUsers)
        .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, user.id)))
        .for('update');
      if (locked.length === 0) throw new AppError('FORBIDDEN');
      const sequence = await loadSequence(diploma, user.id, tx);
      requireEnabled(sequence.items, 'exam', examId);
      if (sequence.resultByExam.has(examId)) throw new AppError('CONFLICT');
      const questions = await shownQuestionsOf(user.id, examId, tx);
      if (questions.length === 0) throw new AppError('NOT_FOUND');
      const shown = new Map(input.answers.map((answer) => [answer.questionId, answer.answer]));
      const given = new Map<string, number>();
      const fields: Record<string, string> = {};
      for (const question of questions) {
        const answer = question.answerOrder[shown.get(question.id) ?? -1];
        if (answer === undefined) fields[question.id] = 'Responde esta pregunta.';
        else given.set(question.id, answer);
      }
      if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', { fields });
      const now = new Date();
      await tx
        .insert(examAnswers)
        .values(
          questions.map((question) => ({
            questionId: question.id,
            userId: user.id,
            answer: given.get(question.id)!,
            answeredAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: [examAnswers.questionId, examAnswers.userId],
          set: { answer: sqlExcludedAnswer, answeredAt: now },
        });
      const correct = questions.filter((question) => given.get(question.id) === question.correctAnswer).length;
      const scorePercent = examScorePercent(correct, questions.length);
      const passed = isPassingScore(scorePercent, diploma.passThresholdPercent);
      const [inserted] = await tx
        .insert(examResults)
        .values({
          examId,
          userId: user.id,
          scorePercent,
          correctCount: correct,
          questionCount: questions.length,
          passed,
          completedAt: now,
        })
        .onConflictDoNothing()
        .returning();
      if (!inserted) throw new AppError('CONFLICT');
      // the progress from the sequence read above with this result, not read a second time (decision 055)
      const progressPercent = await recordCompletion(
        tx,
        diploma,
        user.id,
        sequence.withResult(inserted).progressPercent,
      );
      return { scorePercent, passed, progressPercent };
    });
  }

  /** Spec 3 §4: retake resets every answer to -1 and clears completed and passed; a passed exam stays passed. */
  async function retakeExam(user: UserRow, diplomaId: string, examId: string) {
    const diploma = await findActive(diplomaId);
    return db.transaction(async (tx) => {
      const locked = await tx
        .select({ userId: diplomaUsers.userId })
        .from(diplomaUsers)
        .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, user.id)))
        .for('update');
      if (locked.length === 0) throw new AppError('FORBIDDEN');
      const { items, resultByExam } = await loadSequence(diploma, user.id, tx);
      requireEnabled(items, 'exam', examId);
      const result = resultByExam.get(examId);
      if (!result || result.passed) throw new AppError('CONFLICT');
      const questionIds = (await examQuestionsOf(examId, tx)).map((question) => question.id);
      if (questionIds.length)
        await tx
          .delete(examAnswers)
          .where(and(eq(examAnswers.userId, user.id), inArray(examAnswers.questionId, questionIds)));
      await tx.delete(examResults).where(and(eq(examResults.examId, examId), eq(examResults.userId, user.id)));
      const seed = randomUUID();
      await tx
        .insert(examAttempts)
        .values({ examId, userId: user.id, shuffleSeed: seed })
        .onConflictDoUpdate({
          target: [examAttempts.examId, examAttempts.userId],
          set: { shuffleSeed: seed, createdAt: new Date() },
        });
      return { ok: true as const };
    });
  }

  return { exam, saveAnswer, submitExam, retakeExam };
}

const sqlExcludedAnswer = sql`excluded.answer`;
