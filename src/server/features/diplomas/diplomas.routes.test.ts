import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import {
  analyticsEvents,
  certificates,
  diplomaUsers,
  diplomaVideos,
  examAnswers,
  examResults,
} from '#server/db/schema/index.ts';
import {
  answersWith,
  createDiploma,
  memberRequest,
  playDiplomaVideo,
  submitExam,
  takeViewingToken,
} from './diplomas.testing.ts';
import type { ExamView } from '#shared/diplomas/diplomas.schemas.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const premium = () => signedInAs(t, { type: 'Premium' });

/** The right answers as the member sees them: the fixture's correct answer reads 'Correcta'. */
function keyShownIn(view: ExamView, answer = 'Correcta') {
  return view.questions.map((question) => ({ questionId: question.id, answer: question.answers.indexOf(answer) }));
}

async function completeCxVet(cookie: string, diploma: Awaited<ReturnType<typeof createDiploma>>) {
  for (const exam of diploma.exams) {
    const response = await submitExam(t, cookie, diploma.id, exam, exam.questions.length);
    expect(response.statusCode).toBe(200);
  }
}

describe('who may enter the diploma API', () => {
  it('answers 401 to a guest and 403 to a Basic member on every member route', async () => {
    const diploma = await createDiploma(t);
    const basic = await signedInAs(t, { type: 'Gratis' });
    for (const url of [
      '/api/diplomas',
      `/api/diplomas/${diploma.id}/course`,
      `/api/diplomas/${diploma.id}/sales-page`,
      `/api/diplomas/${diploma.id}/certificate.pdf`,
    ]) {
      expect((await t.app.inject({ url })).statusCode).toBe(401);
      expect((await memberRequest(t, basic.cookie, 'GET', url)).statusCode).toBe(403);
    }
    expect((await memberRequest(t, basic.cookie, 'POST', `/api/diplomas/${diploma.id}/purchase`)).statusCode).toBe(403);
  });

  it('lists active diplomas newest first for a Premium member, hiding test and inactive ones, with whether they are in each', async () => {
    const { cookie, user } = await premium();
    const older = await createDiploma(t, {
      values: { title: 'Antiguo', createdAt: new Date('2020-01-01') },
      memberIds: [user.id],
    });
    const newer = await createDiploma(t, { values: { title: 'Nuevo', createdAt: new Date('2030-01-01') } });
    const hidden = await createDiploma(t, { values: { title: 'Prueba', isTest: true } });
    const inactive = await createDiploma(t, { values: { title: 'Inactivo', isActive: false } });
    const items = (await memberRequest(t, cookie, 'GET', '/api/diplomas')).json().items as {
      id: string;
      isEnrolled: boolean;
    }[];
    const ids = items.map((item) => item.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(ids).not.toContain(hidden.id);
    expect(ids).not.toContain(inactive.id);
    expect(items.find((item) => item.id === older.id)?.isEnrolled).toBe(true);
    expect(items.find((item) => item.id === newer.id)?.isEnrolled).toBe(false);
  });

  it('keeps the course from a Premium member who is not in it, opens it to Admins and the diploma administrator, and 404s an inactive one', async () => {
    const outsider = await premium();
    const administrator = await premium();
    const admin = await signedInAs(t, { type: 'Admin' });
    const diploma = await createDiploma(t, { values: { adminUserId: administrator.user.id } });
    expect((await memberRequest(t, outsider.cookie, 'GET', `/api/diplomas/${diploma.id}/course`)).statusCode).toBe(403);
    expect((await memberRequest(t, admin.cookie, 'GET', `/api/diplomas/${diploma.id}/course`)).statusCode).toBe(200);
    expect((await memberRequest(t, administrator.cookie, 'GET', `/api/diplomas/${diploma.id}/course`)).statusCode).toBe(
      200,
    );
    const inactive = await createDiploma(t, { values: { isActive: false }, memberIds: [outsider.user.id] });
    expect((await memberRequest(t, outsider.cookie, 'GET', `/api/diplomas/${inactive.id}/course`)).statusCode).toBe(
      404,
    );
  });

  it('records DIPLOMADO_PREVIEW_PAGE with the member type when the sales page opens', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { values: { title: 'Diplomado en venta' } });
    const page = await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/sales-page`);
    expect(page.json()).toMatchObject({
      title: 'Diplomado en venta',
      costCents: 15000,
      isEnrolled: false,
      videoCount: 2,
      examCount: 1,
    });
    const events = await t.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, user.id));
    expect(events).toMatchObject([
      { category: 'DIPLOMADO_PREVIEW_PAGE', label: 'Diplomado en venta', userType: 'Premium' },
    ]);
  });

  it("serves a diploma's own video to its members, its administrator and Admins only; the preview image to anyone", async () => {
    const member = await premium();
    const outsider = await premium();
    const administrator = await signedInAs(t, { type: 'Gratis' });
    const admin = await signedInAs(t, { type: 'Admin' });
    const diploma = await createDiploma(t, {
      memberIds: [member.user.id],
      values: { adminUserId: administrator.user.id },
    });
    const course = (await memberRequest(t, member.cookie, 'GET', `/api/diplomas/${diploma.id}/course`)).json();
    const videoUrl = course.items[0].videoUrl as string;
    expect(videoUrl).toMatch(/^\/media\/diplomados\//);
    expect((await t.app.inject({ url: videoUrl })).statusCode).toBe(401);
    expect((await memberRequest(t, outsider.cookie, 'GET', videoUrl)).statusCode).toBe(403);
    for (const cookie of [member.cookie, administrator.cookie, admin.cookie])
      expect((await memberRequest(t, cookie, 'GET', videoUrl)).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/media/diplomados/${diploma.id}/Preview-Image/portada.png` })).statusCode).toBe(
      200,
    );
  });
});

describe('exams in a CxVet diploma', () => {
  it('never sends correct answers before the exam is passed, answers a failed attempt with the score alone, and sends everything once passed', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { memberIds: [user.id] });
    const exam = diploma.exams[0]!;
    const url = `/api/diplomas/${diploma.id}/exams/${exam.id}`;
    const before = await memberRequest(t, cookie, 'GET', url);
    expect(
      before
        .json()
        .questions.every(
          (question: { correctAnswer: number | null; userAnswer: number }) =>
            question.correctAnswer === null && question.userAnswer === -1,
        ),
    ).toBe(true);
    expect(before.body).not.toContain('"correctAnswer":0');

    await submitExam(t, cookie, diploma.id, exam, 3);
    const failed = await memberRequest(t, cookie, 'GET', url);
    expect(failed.json()).toMatchObject({ completed: true, passed: false, scorePercent: 60, questions: [] });
    expect(failed.body).not.toContain('correctAnswer');
    expect(failed.body).not.toContain('userAnswer');

    expect((await memberRequest(t, cookie, 'POST', `${url}/retake`)).statusCode).toBe(200);
    const retaken = (await memberRequest(t, cookie, 'GET', url)).json() as ExamView;
    expect(retaken.questions.every((question) => question.correctAnswer === null)).toBe(true);
    const passed = await memberRequest(t, cookie, 'POST', `${url}/submit`, { answers: keyShownIn(retaken) });
    expect(passed.json()).toMatchObject({ scorePercent: 100, passed: true });
    const after = (await memberRequest(t, cookie, 'GET', url)).json() as ExamView;
    expect(after.questions).toHaveLength(5);
    expect(
      after.questions.every(
        (question) =>
          question.answers[question.correctAnswer!] === 'Correcta' && question.userAnswer === question.correctAnswer,
      ),
    ).toBe(true);
  });

  it('shuffles questions and answers on a retake, and grades the shown answer, whichever place it is shown in', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { memberIds: [user.id], examQuestions: [8] });
    const exam = diploma.exams[0]!;
    const url = `/api/diplomas/${diploma.id}/exams/${exam.id}`;
    const authored = (await memberRequest(t, cookie, 'GET', url)).json() as ExamView;
    expect(authored.questions.map((question) => question.question)).toEqual(
      Array.from({ length: 8 }, (_, index) => `Pregunta ${index + 1}`),
    );
    const layout = (view: ExamView) => view.questions.map((question) => `${question.id}:${question.answers.join('|')}`);
    const seen = new Set([layout(authored).join()]);
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = (await memberRequest(t, cookie, 'GET', url)).json() as ExamView;
      const wrong = await memberRequest(t, cookie, 'POST', `${url}/submit`, {
        answers: keyShownIn(current, 'Incorrecta A'),
      });
      expect(wrong.json()).toMatchObject({ scorePercent: 0, passed: false });
      expect((await memberRequest(t, cookie, 'POST', `${url}/retake`)).statusCode).toBe(200);
      const shown = (await memberRequest(t, cookie, 'GET', url)).json() as ExamView;
      expect([...shown.questions.map((question) => question.id)].sort()).toEqual(
        exam.questions.map((question) => question.id).sort(),
      );
      seen.add(layout(shown).join());
      // the answer saved one by one is stored as the authored answer it shows
      const first = shown.questions[0]!;
      const save = await memberRequest(t, cookie, 'PUT', `${url}/answers`, {
        questionId: first.id,
        answer: first.answers.indexOf('Incorrecta B'),
      });
      expect(save.statusCode).toBe(200);
      const [stored] = await t.db
        .select()
        .from(examAnswers)
        .where(and(eq(examAnswers.userId, user.id), eq(examAnswers.questionId, first.id)));
      expect(stored!.answer).toBe(2);
      const reread = (await memberRequest(t, cookie, 'GET', url)).json() as ExamView;
      expect(reread.questions[0]!.answers[reread.questions[0]!.userAnswer]).toBe('Incorrecta B');
    }
    expect(seen.size).toBe(4);
    const last = (await memberRequest(t, cookie, 'GET', url)).json() as ExamView;
    const graded = await memberRequest(t, cookie, 'POST', `${url}/submit`, { answers: keyShownIn(last) });
    expect(graded.json()).toMatchObject({ scorePercent: 100, passed: true });
  });

  it.each([
    [4, 5, 80, true],
    [3, 5, 60, false],
    [2, 3, 66.67, false],
    [5, 5, 100, true],
  ])('%i of %i correct scores %d and passes: %s (threshold 80)', async (correct, questions, score, passed) => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { memberIds: [user.id], examQuestions: [questions] });
    const response = await submitExam(t, cookie, diploma.id, diploma.exams[0]!, correct);
    expect(response.json()).toEqual({ scorePercent: score, passed, progressPercent: passed ? 100 : 0 });
  });

  it('saves answers one by one while open, refuses them once completed, and refuses an incomplete submission', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { memberIds: [user.id], examQuestions: [3] });
    const exam = diploma.exams[0]!;
    const base = `/api/diplomas/${diploma.id}/exams/${exam.id}`;
    expect(
      (await memberRequest(t, cookie, 'PUT', `${base}/answers`, { questionId: exam.questions[0]!.id, answer: 2 }))
        .statusCode,
    ).toBe(200);
    const view = (await memberRequest(t, cookie, 'GET', base)).json();
    expect(view.status).toBe('inProgress');
    expect(view.questions[0].userAnswer).toBe(2);
    const partial = await memberRequest(t, cookie, 'POST', `${base}/submit`, {
      answers: [{ questionId: exam.questions[0]!.id, answer: 0 }],
    });
    expect(partial.statusCode).toBe(400);
    await submitExam(t, cookie, diploma.id, exam, 3);
    expect(
      (await memberRequest(t, cookie, 'PUT', `${base}/answers`, { questionId: exam.questions[0]!.id, answer: 1 }))
        .statusCode,
    ).toBe(409);
    expect((await submitExam(t, cookie, diploma.id, exam, 3)).statusCode).toBe(409);
  });

  it('takes a save that arrives after the grading when the submission carried the same answer, and nothing changes', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { memberIds: [user.id], examQuestions: [3] });
    const exam = diploma.exams[0]!;
    const base = `/api/diplomas/${diploma.id}/exams/${exam.id}`;
    const submitted = answersWith(exam, 3);
    expect((await submitExam(t, cookie, diploma.id, exam, 3)).statusCode).toBe(200);
    // the last radio's save left before Enviar and reached the server after it
    const late = await memberRequest(t, cookie, 'PUT', `${base}/answers`, submitted[0]);
    expect(late.statusCode, late.body).toBe(200);
    const other = { ...submitted[0]!, answer: (submitted[0]!.answer + 1) % 3 };
    expect((await memberRequest(t, cookie, 'PUT', `${base}/answers`, other)).statusCode).toBe(409);
    const view = (await memberRequest(t, cookie, 'GET', base)).json();
    expect(view).toMatchObject({ status: 'passed', scorePercent: 100 });
    expect(view.questions[0].userAnswer).toBe(submitted[0]!.answer);
  });

  it('retake resets the answers to unanswered and clears completed and passed; a passed exam cannot be retaken', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { memberIds: [user.id] });
    const exam = diploma.exams[0]!;
    const base = `/api/diplomas/${diploma.id}/exams/${exam.id}`;
    expect((await submitExam(t, cookie, diploma.id, exam, 1)).json().passed).toBe(false);
    expect((await memberRequest(t, cookie, 'POST', `${base}/retake`)).statusCode).toBe(200);
    const view = (await memberRequest(t, cookie, 'GET', base)).json();
    expect(view).toMatchObject({ status: 'notStarted', completed: false, passed: false, scorePercent: null });
    expect(view.questions.map((question: { userAnswer: number }) => question.userAnswer)).toEqual([-1, -1, -1, -1, -1]);
    expect(await t.db.select().from(examAnswers).where(eq(examAnswers.userId, user.id))).toHaveLength(0);
    expect(
      (await memberRequest(t, cookie, 'POST', `${base}/submit`, { answers: keyShownIn(view) })).json().passed,
    ).toBe(true);
    expect((await memberRequest(t, cookie, 'POST', `${base}/retake`)).statusCode).toBe(409);
  });

  it('grades once when ten submissions arrive at the same time', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { memberIds: [user.id] });
    const exam = diploma.exams[0]!;
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) => submitExam(t, cookie, diploma.id, exam, index % 2 ? 5 : 0)),
    );
    const codes = responses.map((response) => response.statusCode).sort();
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(9);
    const results = await t.db
      .select()
      .from(examResults)
      .where(and(eq(examResults.userId, user.id), eq(examResults.examId, exam.id)));
    expect(results).toHaveLength(1);
    const winner = responses.find((response) => response.statusCode === 200)!.json();
    expect(results[0]!.passed).toBe(winner.passed);
  });

  it('progress is the share of exams passed; every active item is open whatever came before', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { memberIds: [user.id], videos: 3, examQuestions: [5, 5] });
    const course = (await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/course`)).json();
    expect(course.items.map((item: { type: string; enabled: boolean }) => `${item.type}:${item.enabled}`)).toEqual([
      'video:true',
      'exam:true',
      'video:true',
      'exam:true',
      'video:true',
    ]);
    await submitExam(t, cookie, diploma.id, diploma.exams[1]!, 5);
    const after = (await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/course`)).json();
    expect(after.progressPercent).toBe(50);
    expect(after.completedAt).toBeNull();
  });
});

describe('an External diploma', () => {
  it('opens an item only after the one before it is completed, with progress over every item', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { isExternal: true, memberIds: [user.id], videos: 2, examQuestions: [2] });
    const [first, second] = diploma.videoIds;
    // the second video has no file: the member marks it
    await t.db.update(diplomaVideos).set({ video: null }).where(eq(diplomaVideos.id, second!));
    const courseUrl = `/api/diplomas/${diploma.id}/course`;
    expect(
      (await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/videos/${second}/complete`)).statusCode,
    ).toBe(403);
    expect((await submitExam(t, cookie, diploma.id, diploma.exams[0]!, 2)).statusCode).toBe(403);
    const token = await takeViewingToken(t, cookie);
    const played = await playDiplomaVideo(t, cookie, diploma.id, first!, token, { to: 120, durationSeconds: 120 });
    expect(played.json()).toEqual({ watchedPercent: 100, completed: true, progressPercent: 33.33 });
    const course = (await memberRequest(t, cookie, 'GET', courseUrl)).json();
    expect(course.items.map((item: { enabled: boolean }) => item.enabled)).toEqual([true, true, false]);
    expect(course.items[2].videoUrl).toBeNull();
    await submitExam(t, cookie, diploma.id, diploma.exams[0]!, 0);
    expect(
      (await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/videos/${second}/complete`)).json(),
    ).toEqual({ progressPercent: 100 });
    const done = (await memberRequest(t, cookie, 'GET', courseUrl)).json();
    expect(done.completedAt).not.toBeNull();
  });
});

describe('completing a diploma video', () => {
  it('is refused by the button for a video with a file, and earns nothing by seeking to its end', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { isExternal: true, memberIds: [user.id], videos: 1, examQuestions: [] });
    const [video] = diploma.videoIds;
    const complete = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/videos/${video}/complete`);
    expect(complete.statusCode).toBe(409);
    expect(complete.json().code).toBe('VIDEO_NOT_WATCHED');

    const token = await takeViewingToken(t, cookie);
    const position = (positionSeconds: number, startsSpan = false) =>
      memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/videos/${video}/position`, {
        positionSeconds,
        durationSeconds: 600,
        viewingToken: token,
        startsSpan,
      });
    expect((await position(0, true)).statusCode).toBe(200);
    expect((await position(599)).json()).toMatchObject({ completed: false, progressPercent: 0 });
    const course = (await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/course`)).json();
    expect(course.items[0]).toMatchObject({ completed: false, completedBy: 'watching', watchedPercent: 0 });
    expect(course.progressPercent).toBe(0);
  });

  it('earns only wall-clock time from forged fast saves, and completes the video once 90 % is really played', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { isExternal: true, memberIds: [user.id], videos: 1, examQuestions: [] });
    const [video] = diploma.videoIds;
    const token = await takeViewingToken(t, cookie);
    const forged = await playDiplomaVideo(t, cookie, diploma.id, video!, token, {
      to: 600,
      durationSeconds: 600,
      positionStep: 100,
      wallSeconds: 10,
    });
    expect(forged.json()).toEqual({ watchedPercent: 10, completed: false, progressPercent: 0 });
    const half = await playDiplomaVideo(t, cookie, diploma.id, video!, token, { to: 480, durationSeconds: 600 });
    // 480 s from the start, plus the forged saves' last seconds past it (490-500 and 590-600)
    expect(half.json()).toMatchObject({ watchedPercent: 83, completed: false });
    const rest = await playDiplomaVideo(t, cookie, diploma.id, video!, token, {
      from: 480,
      to: 540,
      durationSeconds: 600,
    });
    expect(rest.json()).toEqual({ watchedPercent: 91, completed: true, progressPercent: 100 });
    const course = (await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/course`)).json();
    expect(course.items[0]).toMatchObject({ completed: true, watchedPercent: 91 });
    expect(course.completedAt).not.toBeNull();
  });

  it('takes saves only from the member holding the viewing token, and only from the diploma’s members', async () => {
    const { cookie, user } = await premium();
    const outsider = await premium();
    const diploma = await createDiploma(t, { isExternal: true, memberIds: [user.id], videos: 1, examQuestions: [] });
    const [video] = diploma.videoIds;
    const url = `/api/diplomas/${diploma.id}/videos/${video}/position`;
    const body = (viewingToken: string) => ({ positionSeconds: 5, durationSeconds: 60, viewingToken });
    const stale = await takeViewingToken(t, cookie);
    await takeViewingToken(t, cookie);
    expect((await memberRequest(t, cookie, 'POST', url, body(stale))).statusCode).toBe(409);
    const outsiderToken = await takeViewingToken(t, outsider.cookie);
    expect((await memberRequest(t, outsider.cookie, 'POST', url, body(outsiderToken))).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url, headers: { origin: testPublicUrl }, payload: body('x') })).statusCode,
    ).toBe(401);
  });
});

describe('certificates', () => {
  it('refuses a certificate before 100%', async () => {
    const { cookie, user } = await premium();
    const diploma = await createDiploma(t, { memberIds: [user.id] });
    expect((await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/certificate.pdf`)).statusCode).toBe(403);
  });

  it('gives folios 001…020 once each to twenty members downloading at the same time, and the same folio on a repeat download', async () => {
    const members = await Promise.all(Array.from({ length: 20 }, () => premium()));
    const diploma = await createDiploma(t, { memberIds: members.map((member) => member.user.id), examQuestions: [1] });
    await Promise.all(members.map((member) => completeCxVet(member.cookie, diploma)));
    const downloads = await Promise.all(
      members.flatMap((member) =>
        [0, 1].map(() => memberRequest(t, member.cookie, 'GET', `/api/diplomas/${diploma.id}/certificate.pdf`)),
      ),
    );
    expect(downloads.every((response) => response.statusCode === 200)).toBe(true);
    const rows = await t.db.select().from(certificates).where(eq(certificates.diplomaId, diploma.id));
    expect(rows.map((row) => row.folio).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    const enrolments = await t.db.select().from(diplomaUsers).where(eq(diplomaUsers.diplomaId, diploma.id));
    expect(enrolments.every((row) => row.certificateAt !== null)).toBe(true);
    // twenty sign-ins hash passwords: slow on a busy machine
  }, 300_000);

  it('produces a 16×12 in landscape PDF with the name (accents included) and folio, byte-identical on every download', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium', name: 'Begoña Núñez Sáenz' });
    const diploma = await createDiploma(t, { memberIds: [user.id], examQuestions: [1] });
    await completeCxVet(cookie, diploma);
    const first = await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/certificate.pdf`);
    const second = await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/certificate.pdf`);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(first.rawPayload, second.rawPayload)).toBe(0);
    const pdf = await getDocumentProxy(new Uint8Array(first.rawPayload));
    const page = await pdf.getPage(1);
    const [, , width, height] = page.view;
    expect([width, height]).toEqual([1152, 864]);
    const { text } = await extractText(pdf, { mergePages: true });
    expect(text).toContain('Begoña Núñez Sáenz');
    expect(text).toContain('Folio: 001');
    // one sentence in reading order, then place and date
    const sentence = text.replace(/\s+/g, ' ');
    expect(sentence).toMatch(
      /CxVet otorga la presente constancia a Begoña Núñez Sáenz por haber concluido satisfactoriamente el Diplomado de Prueba en Cirugía Ciudad de México, \d{1,2} de \w+ de \d{4}/,
    );
    const [row] = await t.db.select().from(certificates).where(eq(certificates.userId, user.id));
    expect(text).toContain(row!.verificationCode);
    const listed = (await memberRequest(t, cookie, 'GET', '/api/profile/certificates')).json();
    expect(listed.items).toMatchObject([
      { diplomaId: diploma.id, folio: '001', verificationCode: row!.verificationCode, isRevoked: false },
    ]);
  });

  it('verifies a valid code publicly with only what the certificate shows, 404s an unknown one, and says when it was revoked', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium', name: 'Ana Verificada' });
    const diploma = await createDiploma(t, {
      memberIds: [user.id],
      examQuestions: [1],
      values: { title: 'Diplomado Verificable' },
    });
    await completeCxVet(cookie, diploma);
    await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/certificate.pdf`);
    const [row] = await t.db.select().from(certificates).where(eq(certificates.userId, user.id));
    const valid = await t.app.inject({ url: `/api/certificates/${row!.verificationCode}` });
    expect(valid.statusCode).toBe(200);
    expect(valid.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(valid.json()).toEqual({
      holderName: 'Ana Verificada',
      diplomaTitle: 'Diplomado Verificable',
      folio: '001',
      completedAt: expect.any(String),
      issuedAt: row!.issuedAt.toISOString(),
      issuerName: 'CxVet',
      revokedAt: null,
    });
    expect(valid.body).not.toContain(user.email);
    const unknown = await t.app.inject({ url: '/api/certificates/NOEXISTE2345' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['x-robots-tag']).toBe('noindex, nofollow');

    const revokeUrl = `/api/admin/certificates/${row!.id}/revoke`;
    expect((await memberRequest(t, cookie, 'POST', revokeUrl, { reason: 'Error de captura' })).statusCode).toBe(403);
    const admin = await signedInAs(t, { type: 'Admin' });
    expect((await memberRequest(t, admin.cookie, 'POST', revokeUrl, { reason: 'Error de captura' })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ url: `/api/certificates/${row!.verificationCode}` })).json().revokedAt).not.toBeNull();
    const [kept] = await t.db.select().from(certificates).where(eq(certificates.id, row!.id));
    expect(kept).toMatchObject({ folio: 1, revokeReason: 'Error de captura' });
    // the folio is never given again
    const next = await premium();
    await t.db.insert(diplomaUsers).values({ diplomaId: diploma.id, userId: next.user.id });
    await completeCxVet(next.cookie, diploma);
    await memberRequest(t, next.cookie, 'GET', `/api/diplomas/${diploma.id}/certificate.pdf`);
    const [second] = await t.db.select().from(certificates).where(eq(certificates.userId, next.user.id));
    expect(second!.folio).toBe(2);
  });

  it('rate-limits the public verification per address', async () => {
    const codes = await Promise.all(
      Array.from({ length: 35 }, () =>
        t.app
          .inject({ url: '/api/certificates/LIMITE234567', remoteAddress: '10.9.9.9' })
          .then((response) => response.statusCode),
      ),
    );
    expect(codes.filter((code) => code === 429).length).toBeGreaterThan(0);
  });
});
