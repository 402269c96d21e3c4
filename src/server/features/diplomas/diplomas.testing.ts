import { Readable } from 'node:stream';
import { vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { diplomaUsers, diplomaVideos, diplomas, examQuestions, exams } from '#server/db/schema/index.ts';

export type DiplomaFixture = {
  id: string;
  videoIds: string[];
  /** Exam ids with, per question, its id and correct answer index. */
  exams: { id: string; questions: { id: string; correctAnswer: number }[] }[];
};

/**
 * A diploma with `videos` own videos (files in storage) and one exam after each of the first
 * `examQuestions.length` videos, each with that many three-answer questions (answer 0 correct).
 */
export async function createDiploma(
  t: TestApp,
  options: {
    isExternal?: boolean;
    videos?: number;
    examQuestions?: number[];
    values?: Partial<typeof diplomas.$inferInsert>;
    memberIds?: string[];
  } = {},
): Promise<DiplomaFixture> {
  const id = randomUUID();
  const folder = `diplomados/${id}`;
  await t.storage.put(`${folder}/Preview-Image/portada.png`, Readable.from([Buffer.from('png')]));
  await t.db.insert(diplomas).values({
    id,
    title: 'Diplomado de Prueba en Cirugía',
    descriptionHtml: '<p>Descripción</p>',
    previewImage: `${folder}/Preview-Image/portada.png`,
    isExternal: options.isExternal ?? false,
    costCents: 15000,
    ...options.values,
  });
  const videoIds: string[] = [];
  for (let position = 1; position <= (options.videos ?? 2); position++) {
    const key = `${folder}/video${position}/1700000000000_clase.mp4`;
    await t.storage.put(key, Readable.from([Buffer.from(`video ${position} `.repeat(20))]));
    const [video] = await t.db
      .insert(diplomaVideos)
      .values({
        diplomaId: id,
        position,
        title: `Clase ${position}`,
        description: `Descripción ${position}`,
        video: key,
      })
      .returning({ id: diplomaVideos.id });
    videoIds.push(video!.id);
  }
  const examFixtures: DiplomaFixture['exams'] = [];
  for (const [index, questionCount] of (options.examQuestions ?? [5]).entries()) {
    const [exam] = await t.db
      .insert(exams)
      .values({ diplomaId: id, title: `Examen ${index + 1}`, afterVideoPosition: index + 1 })
      .returning({ id: exams.id });
    const questions = await t.db
      .insert(examQuestions)
      .values(
        Array.from({ length: questionCount }, (_, position) => ({
          examId: exam!.id,
          position: position + 1,
          question: `Pregunta ${position + 1}`,
          answers: ['Correcta', 'Incorrecta A', 'Incorrecta B'],
          correctAnswer: 0,
        })),
      )
      .returning({
        id: examQuestions.id,
        correctAnswer: examQuestions.correctAnswer,
        position: examQuestions.position,
      });
    examFixtures.push({
      id: exam!.id,
      questions: questions
        .sort((a, b) => a.position - b.position)
        .map(({ id: questionId, correctAnswer }) => ({ id: questionId, correctAnswer })),
    });
  }
  if (options.memberIds?.length)
    await t.db.insert(diplomaUsers).values(options.memberIds.map((userId) => ({ diplomaId: id, userId })));
  return { id, videoIds, exams: examFixtures };
}

/** Answers with `correct` right answers first, the rest wrong. */
export function answersWith(exam: DiplomaFixture['exams'][number], correct: number) {
  return exam.questions.map((question, index) => ({
    questionId: question.id,
    answer: index < correct ? question.correctAnswer : (question.correctAnswer + 1) % 3,
  }));
}

export function memberRequest(
  t: TestApp,
  cookie: string | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  const headers = { ...(cookie ? { cookie } : {}), origin: testPublicUrl };
  return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

type RequestArgs = Parameters<typeof memberRequest> extends [TestApp, ...infer Rest] ? Rest : never;
/** memberRequest on the test app that `app()` gives when the request is made (one assigned in beforeAll). */
export const requestsTo =
  (app: () => TestApp) =>
  (...args: RequestArgs) =>
    memberRequest(app(), ...args);

export async function submitExam(
  t: TestApp,
  cookie: string,
  diplomaId: string,
  exam: DiplomaFixture['exams'][number],
  correct: number,
) {
  return memberRequest(t, cookie, 'POST', `/api/diplomas/${diplomaId}/exams/${exam.id}/submit`, {
    answers: answersWith(exam, correct),
  });
}

export async function takeViewingToken(t: TestApp, cookie: string): Promise<string> {
  const response = await memberRequest(t, cookie, 'POST', '/api/viewing/token');
  return response.json<{ token: string }>().token;
}

/**
 * Reports a diploma video's positions as a player would, moving the clock by hand: `wallSeconds` of wall
 * clock per `positionStep` seconds of video (equal: real-time play; a larger step: forged fast saves).
 * Returns the last answer.
 */
export async function playDiplomaVideo(
  t: TestApp,
  cookie: string,
  diplomaId: string,
  videoId: string,
  token: string,
  options: { from?: number; to: number; durationSeconds: number; positionStep?: number; wallSeconds?: number },
) {
  const { from = 0, to, durationSeconds, positionStep = 10, wallSeconds = positionStep } = options;
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    let position = from;
    let startsSpan = true;
    for (;;) {
      const response = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diplomaId}/videos/${videoId}/position`, {
        positionSeconds: position,
        durationSeconds,
        viewingToken: token,
        startsSpan,
      });
      if (response.statusCode !== 200 || position >= to) return response;
      startsSpan = false;
      position = Math.min(to, position + positionStep);
      vi.setSystemTime(Date.now() + wallSeconds * 1000);
    }
  } finally {
    vi.useRealTimers();
  }
}
