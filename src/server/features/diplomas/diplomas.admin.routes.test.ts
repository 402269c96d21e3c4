import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, createUser, signedInAs } from '#server/testing/factories.ts';
import { uploadSample } from '#server/features/uploads/uploads.testing.ts';
import {
  diplomaUsers,
  diplomaVideoCompletions,
  diplomas,
  examAnswers,
  examQuestions,
  examResults,
  organizations,
  procedures,
} from '#server/db/schema/index.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { messages } from '#shared/messages.ts';
import type {
  AdminDiploma,
  AdminDiplomaRow,
  AdminDiplomaVideo,
  AdminExam,
  DiplomaPreview,
  DiplomaStatistics,
  DiplomaUserRow,
} from '#shared/diplomas/diplomas.admin.schemas.ts';

let t: TestApp;
let admin: string;
const queries: string[] = [];

beforeAll(async () => {
  t = await createTestApp({}, undefined, { onQuery: (query) => queries.push(query) });
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
});
afterAll(() => t.close());

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

function call(method: Method, url: string, payload?: unknown, cookie: string | null = admin) {
  return t.app.inject({
    method,
    url,
    headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function diplomaInput(id: string, overrides: Record<string, unknown> = {}) {
  return {
    title: 'Diplomado en cirugía de tejidos blandos',
    descriptionHtml: '<p>Curso <strong>completo</strong></p><script>alert(1)</script>',
    previewImage: await uploadSample(t, admin, 'diploma-preview-image', 'portada.png', id),
    previewPdf: await uploadSample(t, admin, 'diploma-preview-pdf', 'temario.pdf', id),
    certificateImage: null,
    cost: '149.90',
    kind: 'CxVet',
    organizationId: null,
    adminEmail: '',
    isTest: false,
    ...overrides,
  };
}

/** A diploma created through the API, with `videoCount` linked surgeries. */
async function createDiploma(options: { videoCount?: number; overrides?: Record<string, unknown> } = {}) {
  const id = randomUUID();
  const saved = await call('PUT', `/api/admin/diplomas/${id}`, await diplomaInput(id, options.overrides));
  expect(saved.statusCode, saved.body).toBe(200);
  for (let index = 0; index < (options.videoCount ?? 0); index += 1) {
    const procedure = await createProcedure(t, { name: `Procedimiento ${index + 1}` });
    const linked = await call('POST', `/api/admin/diplomas/${id}/videos`, { procedureId: procedure.id });
    expect(linked.statusCode, linked.body).toBe(200);
  }
  return id;
}

async function videosOf(id: string) {
  return ((await call('GET', `/api/admin/diplomas/${id}/videos`)).json() as { items: AdminDiplomaVideo[] }).items;
}

async function examsOf(id: string) {
  return ((await call('GET', `/api/admin/diplomas/${id}/exams`)).json() as { items: AdminExam[] }).items;
}

function examInput(videoId: string | null, questionCount = 2, title = 'Examen 1') {
  return {
    title,
    videoId,
    questions: Array.from({ length: questionCount }, (_, index) => ({
      question: `Pregunta ${index + 1}`,
      answers: ['Sí', 'No', 'Tal vez'],
      correctAnswer: 0,
    })),
  };
}

async function createExam(id: string, videoId: string | null, questionCount = 2) {
  const examId = randomUUID();
  const response = await call('PUT', `/api/admin/diplomas/${id}/exams/${examId}`, examInput(videoId, questionCount));
  expect(response.statusCode, response.body).toBe(200);
  return examId;
}

describe('only Admins reach the diplomas console API', () => {
  const someId = randomUUID();
  const otherId = randomUUID();
  const endpoints: [Method, string][] = [
    ['GET', '/api/admin/diplomas'],
    ['GET', '/api/admin/diplomas/options'],
    ['GET', '/api/admin/diplomas/admin-candidates?q=a'],
    ['GET', `/api/admin/diplomas/${someId}`],
    ['PUT', `/api/admin/diplomas/${someId}`],
    ['PUT', `/api/admin/diplomas/${someId}/active`],
    ['DELETE', `/api/admin/diplomas/${someId}`],
    ['GET', `/api/admin/diplomas/${someId}/videos`],
    ['POST', `/api/admin/diplomas/${someId}/videos`],
    ['PUT', `/api/admin/diplomas/${someId}/videos/${otherId}`],
    ['PUT', `/api/admin/diplomas/${someId}/videos/${otherId}/active`],
    ['POST', `/api/admin/diplomas/${someId}/videos/${otherId}/move`],
    ['DELETE', `/api/admin/diplomas/${someId}/videos/${otherId}`],
    ['GET', `/api/admin/diplomas/${someId}/exams`],
    ['PUT', `/api/admin/diplomas/${someId}/exams/${otherId}`],
    ['PUT', `/api/admin/diplomas/${someId}/exams/${otherId}/active`],
    ['DELETE', `/api/admin/diplomas/${someId}/exams/${otherId}`],
    ['GET', `/api/admin/diplomas/${someId}/users`],
    ['PUT', `/api/admin/diplomas/${someId}/users/${otherId}`],
    ['GET', `/api/admin/diplomas/${someId}/statistics`],
    ['GET', `/api/admin/diplomas/${someId}/preview`],
  ];

  it.each(endpoints)(
    '%s %s refuses a guest with 401 and Gratis, Premium and diploma administrators with 403',
    async (method, url) => {
      const payload = method === 'PUT' || method === 'POST' ? {} : undefined;
      expect((await call(method, url, payload, null)).statusCode).toBe(401);
      for (const type of ['Gratis', 'Premium'] as const) {
        const { cookie } = await signedInAs(t, { type });
        expect((await call(method, url, payload, cookie)).statusCode).toBe(403);
      }
    },
  );

  it('refuses the administrator of a diploma too: the console is for Admins only', async () => {
    const { user, cookie } = await signedInAs(t, { type: 'Premium' });
    const id = await createDiploma({ videoCount: 1, overrides: { adminEmail: user.email } });
    expect((await call('GET', `/api/admin/diplomas/${id}`, undefined, cookie)).statusCode).toBe(403);
    expect((await call('GET', `/api/admin/diplomas/${id}/users`, undefined, cookie)).statusCode).toBe(403);
  });
});

describe('general information', () => {
  it('creates a diploma inactive, with the description sanitised and the cost kept in cents', async () => {
    const id = await createDiploma();
    const diploma = (await call('GET', `/api/admin/diplomas/${id}`)).json() as AdminDiploma;
    expect(diploma).toMatchObject({
      title: 'Diplomado en cirugía de tejidos blandos',
      cost: '149.90',
      kind: 'CxVet',
      isActive: false,
    });
    expect(diploma.descriptionHtml).toBe('<p>Curso <strong>completo</strong></p>');
    expect(diploma.previewImage).toMatch(new RegExp(`^diplomados/${id}/Preview-Image/`));
    const [row] = await t.db.select().from(diplomas).where(eq(diplomas.id, id));
    expect(row!.costCents).toBe(14990);
    const list = (await call('GET', '/api/admin/diplomas')).json() as { items: AdminDiplomaRow[] };
    expect(list.items.find((item) => item.id === id)).toMatchObject({
      kind: 'CxVet',
      isActive: false,
      videoCount: 0,
      userCount: 0,
    });
  });

  it.each([
    ['12.5', 200],
    ['12.50', 200],
    ['0', 200],
    ['12.555', 400],
    ['12,50', 400],
    ['abc', 400],
    ['-3', 400],
  ])('cost %s answers %i with the spec message when invalid', async (cost, status) => {
    const id = randomUUID();
    const response = await call('PUT', `/api/admin/diplomas/${id}`, await diplomaInput(id, { cost }));
    expect(response.statusCode).toBe(status);
    if (status === 400) expect(response.json().fields.cost).toBe(messages.invalidCost);
  });

  it('keeps a price in pesos beside the USD cost, none when left empty (not sold in pesos)', async () => {
    const id = randomUUID();
    const saved = await call('PUT', `/api/admin/diplomas/${id}`, await diplomaInput(id, { costMxn: '2499.00' }));
    expect(saved.statusCode).toBe(200);
    expect((saved.json() as AdminDiploma).costMxn).toBe('2499.00');
    expect((await t.db.select().from(diplomas).where(eq(diplomas.id, id)))[0]!.costMxnCents).toBe(249_900);
    const cleared = await call('PUT', `/api/admin/diplomas/${id}`, await diplomaInput(id, { costMxn: '' }));
    expect((cleared.json() as AdminDiploma).costMxn).toBe('');
    expect((await t.db.select().from(diplomas).where(eq(diplomas.id, id)))[0]!.costMxnCents).toBeNull();
    const refused = await call('PUT', `/api/admin/diplomas/${id}`, await diplomaInput(id, { costMxn: '0' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.costMxn).toBe(messages.invalidCost);
  });

  it('shows every missing field at once, including the organization of an External diploma', async () => {
    const id = randomUUID();
    const response = await call('PUT', `/api/admin/diplomas/${id}`, {
      title: '',
      descriptionHtml: '',
      previewImage: '',
      previewPdf: '',
      certificateImage: null,
      cost: '',
      kind: 'External',
      organizationId: null,
      adminEmail: '',
      isTest: false,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      title: messages.fieldRequired,
      descriptionHtml: messages.fieldRequired,
      previewImage: messages.previewImageRequired,
      previewPdf: messages.previewPdfRequired,
      cost: messages.fieldRequired,
      organizationId: messages.fieldRequired,
    });
  });

  it('refuses a description with no visible text and an administrator e-mail nobody has', async () => {
    const id = randomUUID();
    const response = await call(
      'PUT',
      `/api/admin/diplomas/${id}`,
      await diplomaInput(id, { descriptionHtml: '<p><script>x</script></p>', adminEmail: 'nadie@example.com' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      descriptionHtml: messages.fieldRequired,
      adminEmail: messages.diplomaAdminUnknown,
    });
  });

  it('stores an External diploma with its organization and administrator, and a CxVet one without organization', async () => {
    const [organization] = await t.db
      .insert(organizations)
      .values({ title: 'Universidad Externa', type: 'Universidad' })
      .returning();
    const manager = await createUser(t, { type: 'Premium', email: `gestor-${randomUUID().slice(0, 6)}@example.com` });
    const id = await createDiploma({
      overrides: { kind: 'External', organizationId: organization!.id, adminEmail: manager.email.toUpperCase() },
    });
    const diploma = (await call('GET', `/api/admin/diplomas/${id}`)).json() as AdminDiploma;
    expect(diploma).toMatchObject({ kind: 'External', organizationId: organization!.id, adminEmail: manager.email });
    const input = await diplomaInput(id, {
      kind: 'CxVet',
      organizationId: organization!.id,
      previewImage: diploma.previewImage,
      previewPdf: diploma.previewPdf,
    });
    const saved = (await call('PUT', `/api/admin/diplomas/${id}`, input)).json() as AdminDiploma;
    expect(saved.organizationId).toBeNull();
  });

  it('activating needs a video ("El diplomado requiere al menos un video para poder guardar.")', async () => {
    const id = await createDiploma();
    const refused = await call('PUT', `/api/admin/diplomas/${id}/active`, { isActive: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(errorMessages.DIPLOMA_NEEDS_VIDEO.message);
    const procedure = await createProcedure(t);
    await call('POST', `/api/admin/diplomas/${id}/videos`, { procedureId: procedure.id });
    expect((await call('PUT', `/api/admin/diplomas/${id}/active`, { isActive: true })).statusCode).toBe(200);
    expect(((await call('GET', `/api/admin/diplomas/${id}`)).json() as AdminDiploma).isActive).toBe(true);
  });

  it('deleting a diploma removes it with its videos, exams and every stored file', async () => {
    const id = await createDiploma({ videoCount: 1 });
    const videoId = randomUUID();
    const video = await uploadSample(t, admin, 'diploma-video', 'clase.mp4', id);
    const pdf = await uploadSample(t, admin, 'diploma-video-pdf', 'lectura.pdf', id);
    const saved = await call('PUT', `/api/admin/diplomas/${id}/videos/${videoId}`, {
      title: 'Clase propia',
      description: 'Descripción',
      video,
      chapters: [],
      pdfs: [{ title: 'Lectura', file: pdf }],
      images: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const diploma = (await call('GET', `/api/admin/diplomas/${id}`)).json() as AdminDiploma;
    for (const key of [diploma.previewImage, diploma.previewPdf, video, pdf])
      expect(await t.storage.stat(key)).not.toBeNull();
    expect((await call('DELETE', `/api/admin/diplomas/${id}`)).statusCode).toBe(200);
    for (const key of [diploma.previewImage, diploma.previewPdf, video, pdf])
      expect(await t.storage.stat(key)).toBeNull();
    expect((await call('GET', `/api/admin/diplomas/${id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/admin/diplomas/${id}`)).statusCode).toBe(404);
  });
});

describe('videos', () => {
  it('keeps the order, moves up and down, and an exam follows its video', async () => {
    const id = await createDiploma({ videoCount: 3 });
    const [first, second, third] = await videosOf(id);
    const examId = await createExam(id, first!.id);
    expect(
      (await call('POST', `/api/admin/diplomas/${id}/videos/${first!.id}/move`, { direction: 'down' })).statusCode,
    ).toBe(200);
    expect((await videosOf(id)).map((video) => video.id)).toEqual([second!.id, first!.id, third!.id]);
    expect((await examsOf(id)).find((exam) => exam.id === examId)?.videoId).toBe(first!.id);
    // moving the first one up changes nothing
    await call('POST', `/api/admin/diplomas/${id}/videos/${second!.id}/move`, { direction: 'up' });
    await call('POST', `/api/admin/diplomas/${id}/videos/${third!.id}/move`, { direction: 'up' });
    expect((await videosOf(id)).map((video) => video.id)).toEqual([second!.id, third!.id, first!.id]);
    expect((await examsOf(id)).find((exam) => exam.id === examId)?.videoId).toBe(first!.id);
  });

  it('an own video checks markers, PDFs and images with the spec messages', async () => {
    const id = await createDiploma();
    const response = await call('PUT', `/api/admin/diplomas/${id}/videos/${randomUUID()}`, {
      title: '',
      description: '',
      video: '',
      chapters: [{ name: 'Inicio', time: '' }],
      pdfs: [{ title: '', file: 'x' }],
      images: [{ title: 'Foto', file: '' }],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      title: messages.fieldRequired,
      description: messages.fieldRequired,
      video: messages.fieldRequired,
      chapters: messages.markersIncomplete,
      pdfs: messages.pdfIncomplete,
      images: messages.imageIncomplete,
    });
  });

  it('malformed video, exam and diploma forms get a 400 naming the bad fields, never a 500', async () => {
    const id = await createDiploma({ videoCount: 1 });
    const video = await call('PUT', `/api/admin/diplomas/${id}/videos/${randomUUID()}`, { title: 'x' });
    expect(video.statusCode, video.body).toBe(400);
    expect(video.json().fields).toMatchObject({ description: messages.fieldRequired, video: messages.fieldRequired });
    expect(Object.keys(video.json().fields)).toEqual(expect.arrayContaining(['chapters', 'pdfs', 'images']));
    const wrongItems = await call('PUT', `/api/admin/diplomas/${id}/videos/${randomUUID()}`, {
      title: 'x',
      chapters: [null, 3],
      pdfs: 'x',
      images: [{ title: 1 }],
    });
    expect(wrongItems.statusCode, wrongItems.body).toBe(400);
    const exam = await call('PUT', `/api/admin/diplomas/${id}/exams/${randomUUID()}`, {
      title: 'E',
      videoId: null,
      questions: [{ question: '¿?', answers: 'Sí', correctAnswer: 0 }, null, { question: '¿?' }],
    });
    expect(exam.statusCode, exam.body).toBe(400);
    expect(exam.json().fields).toHaveProperty(['questions.0.answers']);
    for (const payload of [null, [], 'x', 7]) {
      for (const url of [
        `/api/admin/diplomas/${id}`,
        `/api/admin/diplomas/${id}/videos/${randomUUID()}`,
        `/api/admin/diplomas/${id}/exams/${randomUUID()}`,
      ]) {
        const response = await t.app.inject({
          method: 'PUT',
          url,
          headers: { origin: testPublicUrl, cookie: admin, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expect(response.statusCode, `${url} ${JSON.stringify(payload)}: ${response.body}`).toBe(400);
      }
    }
  });

  it('an own video keeps markers and files; replacing a file deletes the old one; a file of another diploma is refused', async () => {
    const id = await createDiploma();
    const videoId = randomUUID();
    const video = await uploadSample(t, admin, 'diploma-video', 'clase.mp4', id);
    const image = await uploadSample(t, admin, 'diploma-video-image', 'foto.png', id);
    const body = {
      title: 'Sutura intradérmica',
      description: 'Paso a paso',
      video,
      chapters: [
        { name: 'Inicio', time: '0:00:10' },
        { name: 'Cierre', time: '0:05:00' },
      ],
      pdfs: [],
      images: [{ title: 'Foto', file: image }],
    };
    expect((await call('PUT', `/api/admin/diplomas/${id}/videos/${videoId}`, body)).statusCode).toBe(200);
    const [saved] = await videosOf(id);
    expect(saved).toMatchObject({
      kind: 'own',
      title: 'Sutura intradérmica',
      video,
      chapters: body.chapters,
      images: [{ title: 'Foto', file: image }],
    });

    const replacement = await uploadSample(t, admin, 'diploma-video', 'clase2.mp4', id);
    expect(
      (await call('PUT', `/api/admin/diplomas/${id}/videos/${videoId}`, { ...body, video: replacement, images: [] }))
        .statusCode,
    ).toBe(200);
    expect(await t.storage.stat(video)).toBeNull();
    expect(await t.storage.stat(image)).toBeNull();

    const otherId = await createDiploma();
    const foreign = await uploadSample(t, admin, 'diploma-video', 'ajeno.mp4', otherId);
    const refused = await call('PUT', `/api/admin/diplomas/${id}/videos/${videoId}`, {
      ...body,
      video: foreign,
      images: [],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.video).toBe(messages.invalidFileFormat);
  });

  it('toggles a video, and an active diploma cannot lose its last video', async () => {
    const id = await createDiploma({ videoCount: 2 });
    await call('PUT', `/api/admin/diplomas/${id}/active`, { isActive: true });
    const [first, second] = await videosOf(id);
    expect(
      (await call('PUT', `/api/admin/diplomas/${id}/videos/${first!.id}/active`, { isActive: false })).statusCode,
    ).toBe(200);
    expect((await videosOf(id))[0]!.isActive).toBe(false);
    const examId = await createExam(id, second!.id);
    expect((await call('DELETE', `/api/admin/diplomas/${id}/videos/${second!.id}`)).statusCode).toBe(200);
    expect((await examsOf(id)).find((exam) => exam.id === examId)?.videoId).toBeNull();
    const refused = await call('DELETE', `/api/admin/diplomas/${id}/videos/${first!.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(errorMessages.DIPLOMA_NEEDS_VIDEO.message);
    expect(await videosOf(id)).toHaveLength(1);
  });

  it('a video of another diploma answers 404', async () => {
    const id = await createDiploma({ videoCount: 1 });
    const otherId = await createDiploma({ videoCount: 1 });
    const [foreign] = await videosOf(otherId);
    expect((await call('DELETE', `/api/admin/diplomas/${id}/videos/${foreign!.id}`)).statusCode).toBe(404);
    expect(
      (await call('PUT', `/api/admin/diplomas/${id}/videos/${foreign!.id}/active`, { isActive: false })).statusCode,
    ).toBe(404);
  });
});

describe('exams', () => {
  it('needs a video, and a new exam is added only while exams are fewer than videos', async () => {
    const empty = await createDiploma();
    const refused = await call('PUT', `/api/admin/diplomas/${empty}/exams/${randomUUID()}`, examInput(null));
    expect(refused.json().message).toBe(errorMessages.DIPLOMA_NEEDS_VIDEO.message);

    const id = await createDiploma({ videoCount: 2 });
    await createExam(id, null);
    await createExam(id, null);
    const second = await call('PUT', `/api/admin/diplomas/${id}/exams/${randomUUID()}`, examInput(null));
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toBe(errorMessages.DIPLOMA_EXAM_LIMIT.message);
  });

  it('two new exams at once on a diploma with room for one: only one is created', async () => {
    const id = await createDiploma({ videoCount: 1 });
    const results = await Promise.all(
      [0, 1].map(() => call('PUT', `/api/admin/diplomas/${id}/exams/${randomUUID()}`, examInput(null))),
    );
    expect(results.map((response) => response.statusCode).sort()).toEqual([200, 400]);
    expect(await examsOf(id)).toHaveLength(1);
  });

  it('a video takes at most one exam', async () => {
    const id = await createDiploma({ videoCount: 3 });
    const [first] = await videosOf(id);
    await createExam(id, first!.id);
    const response = await call('PUT', `/api/admin/diplomas/${id}/exams/${randomUUID()}`, examInput(first!.id));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.videoId).toBe(messages.videoHasExam);
  });

  it('validates questions: at least one, two answers each, a correct answer among them', async () => {
    const id = await createDiploma({ videoCount: 2 });
    const noQuestions = await call('PUT', `/api/admin/diplomas/${id}/exams/${randomUUID()}`, {
      title: 'E',
      videoId: null,
      questions: [],
    });
    expect(noQuestions.json().fields.questions).toBe(messages.examQuestionsRequired);
    const badQuestion = await call('PUT', `/api/admin/diplomas/${id}/exams/${randomUUID()}`, {
      title: 'E',
      videoId: null,
      questions: [{ question: '¿?', answers: ['Sólo una'], correctAnswer: 3 }],
    });
    expect(badQuestion.json().fields).toMatchObject({
      'questions.0.answers': messages.examAnswersRequired,
      'questions.0.correctAnswer': messages.examCorrectRequired,
    });
  });

  it('edits, toggles and removes an exam; once answered only title, video and state may change', async () => {
    const id = await createDiploma({ videoCount: 2 });
    const [first, second] = await videosOf(id);
    const examId = await createExam(id, first!.id);
    const edited = { ...examInput(second!.id, 3, 'Examen final') };
    expect((await call('PUT', `/api/admin/diplomas/${id}/exams/${examId}`, edited)).statusCode).toBe(200);
    expect((await examsOf(id))[0]).toMatchObject({ title: 'Examen final', videoId: second!.id, hasAnswers: false });
    expect((await examsOf(id))[0]!.questions).toHaveLength(3);

    const member = await createUser(t, { type: 'Premium' });
    const [question] = await t.db.select().from(examQuestions).where(eq(examQuestions.examId, examId));
    await t.db.insert(examAnswers).values({ questionId: question!.id, userId: member.id, answer: 1 });
    const locked = await call(
      'PUT',
      `/api/admin/diplomas/${id}/exams/${examId}`,
      examInput(second!.id, 1, 'Examen final'),
    );
    expect(locked.statusCode).toBe(409);
    expect(locked.json().message).toBe(errorMessages.DIPLOMA_EXAM_LOCKED.message);
    expect((await examsOf(id))[0]!.questions).toHaveLength(3);
    const renamed = await call('PUT', `/api/admin/diplomas/${id}/exams/${examId}`, {
      ...edited,
      title: 'Evaluación final',
      videoId: first!.id,
    });
    expect(renamed.statusCode).toBe(200);
    expect((await examsOf(id))[0]).toMatchObject({ title: 'Evaluación final', videoId: first!.id, hasAnswers: true });

    expect(
      (await call('PUT', `/api/admin/diplomas/${id}/exams/${examId}/active`, { isActive: false })).statusCode,
    ).toBe(200);
    expect((await examsOf(id))[0]!.isActive).toBe(false);
    expect((await call('DELETE', `/api/admin/diplomas/${id}/exams/${examId}`)).statusCode).toBe(200);
    expect(await examsOf(id)).toHaveLength(0);
  });
});

describe('activation warnings', () => {
  it('names the active exams left Sin asignar and the videos with nothing to play, to Admins only', async () => {
    const id = await createDiploma({ videoCount: 2 });
    const [first, second] = await videosOf(id);
    await createExam(id, first!.id);
    const unassigned = await call('PUT', `/api/admin/diplomas/${id}/exams/${randomUUID()}`, {
      ...examInput(null),
      title: 'Examen sin asignar',
    });
    expect(unassigned.statusCode, unassigned.body).toBe(200);
    await t.db.update(procedures).set({ fullVideo: null }).where(eq(procedures.id, second!.procedureId!));

    const response = await call('GET', `/api/admin/diplomas/${id}/activation-warnings`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      unassignedExams: ['Examen sin asignar'],
      videosWithoutFile: ['Procedimiento 2'],
    });

    const premium = await signedInAs(t, { type: 'Premium' });
    expect(
      (await call('GET', `/api/admin/diplomas/${id}/activation-warnings`, undefined, premium.cookie)).statusCode,
    ).toBe(403);
  });

  it('has nothing to say about a diploma whose exams all follow a video', async () => {
    const id = await createDiploma({ videoCount: 1 });
    const [video] = await videosOf(id);
    await createExam(id, video!.id);
    expect((await call('GET', `/api/admin/diplomas/${id}/activation-warnings`)).json()).toEqual({
      unassignedExams: [],
      videosWithoutFile: [],
    });
  });
});

describe('users', () => {
  it('lists Premium and Admin accounts only, and adding one records when they began', async () => {
    const id = await createDiploma({ videoCount: 1 });
    const premium = await createUser(t, { type: 'Premium' });
    const gratis = await createUser(t, { type: 'Gratis' });
    const listed = async (query: string) =>
      ((await call('GET', `/api/admin/diplomas/${id}/users${query}`)).json() as { items: DiplomaUserRow[] }).items;
    expect(await listed(`?q=${encodeURIComponent(premium.email)}`)).toEqual([
      expect.objectContaining({ id: premium.id, assigned: false }),
    ]);
    expect(await listed(`?q=${encodeURIComponent(gratis.email)}`)).toEqual([]);
    expect((await listed('')).every((user) => ['Premium', 'Legacy', 'Admin'].includes(user.type))).toBe(true);

    const before = Date.now();
    expect((await call('PUT', `/api/admin/diplomas/${id}/users/${premium.id}`, { assigned: true })).statusCode).toBe(
      200,
    );
    // adding twice keeps the first start
    const [row] = await t.db.select().from(diplomaUsers).where(eq(diplomaUsers.userId, premium.id));
    expect(row!.beganAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    await call('PUT', `/api/admin/diplomas/${id}/users/${premium.id}`, { assigned: true });
    const [again] = await t.db.select().from(diplomaUsers).where(eq(diplomaUsers.userId, premium.id));
    expect(again!.beganAt.getTime()).toBe(row!.beganAt.getTime());

    const refused = await call('PUT', `/api/admin/diplomas/${id}/users/${gratis.id}`, { assigned: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.userId).toBe(messages.diplomaUserNotEnrollable);

    expect((await call('PUT', `/api/admin/diplomas/${id}/users/${premium.id}`, { assigned: false })).statusCode).toBe(
      200,
    );
    expect(await t.db.select().from(diplomaUsers).where(eq(diplomaUsers.userId, premium.id))).toHaveLength(0);
  });
});

describe('the users page', () => {
  it('searches, filters the members, sorts and pages on the server, 12 rows at a time with the total', async () => {
    const id = await createDiploma();
    const stamp = randomUUID().slice(0, 8);
    await t.db.execute(sql`
      insert into users (id, name, email, type)
      select 'page-' || i, 'Página ' || i, 'pagina-' || ${stamp} || '-' || lpad(i::text, 2, '0') || '@example.com',
        'Premium'::account_type
      from generate_series(1, 30) as i`);
    const members = ['page-3', 'page-17', 'page-29'];
    for (const userId of members) await call('PUT', `/api/admin/diplomas/${id}/users/${userId}`, { assigned: true });
    type Page = { items: DiplomaUserRow[]; total: number };
    const page = async (query: string) =>
      (await call('GET', `/api/admin/diplomas/${id}/users?q=pagina-${stamp}${query}`)).json() as Page;

    const first = await page('');
    expect(first.total).toBe(30);
    expect(first.items.map((user) => user.id)).toEqual(Array.from({ length: 12 }, (_, index) => `page-${index + 1}`));
    expect((await page('&page=3')).items.map((user) => user.id)).toEqual(
      Array.from({ length: 6 }, (_, index) => `page-${index + 25}`),
    );
    const assigned = await page('&assignedOnly=true');
    expect(assigned.total).toBe(3);
    expect(assigned.items.map((user) => [user.id, user.assigned])).toEqual(members.map((user) => [user, true]));
    // the assigned first, then by e-mail
    expect((await page('&sort=assigned&dir=desc')).items.slice(0, 4).map((user) => user.id)).toEqual([
      ...members,
      'page-1',
    ]);
    expect((await call('GET', `/api/admin/diplomas/${id}/users?sort=password`)).statusCode).toBe(400);
  });
});

describe('the administrator picker', () => {
  it('offers at most 50 enabled users whose e-mail contains what was typed, and the options no user at all', async () => {
    const stamp = randomUUID().slice(0, 8);
    const wanted = await createUser(t, { email: `pick-${stamp}-ana@example.com`, name: 'Ana' });
    await createUser(t, { email: `pick-${stamp}-off@example.com`, isDisabled: true });
    await createUser(t, { email: `other-${stamp}@example.com` });
    await t.db.execute(sql`
      insert into users (id, name, email, type)
      select 'pick-' || i, 'Muchos ' || i, 'pick-many-' || i || '@example.com', 'Gratis'::account_type
      from generate_series(1, 60) as i`);

    const found = await call('GET', `/api/admin/diplomas/admin-candidates?q=${encodeURIComponent(`PICK-${stamp}`)}`);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({ people: [{ email: wanted.email, name: 'Ana' }] });
    const many = (await call('GET', '/api/admin/diplomas/admin-candidates?q=pick-many-')).json() as {
      people: unknown[];
    };
    expect(many.people).toHaveLength(50);
    // % and _ are letters to search for, not patterns
    expect((await call('GET', '/api/admin/diplomas/admin-candidates?q=%25')).json()).toEqual({ people: [] });

    const options = (await call('GET', '/api/admin/diplomas/options')).json() as Record<string, unknown>;
    expect(Object.keys(options).sort()).toEqual(['organizations', 'procedures']);
  });
});

describe('statistics', () => {
  it('computes scores, the progress donut and per-exam and per-question figures from members answers', async () => {
    const id = await createDiploma({ videoCount: 3 });
    const [first, second] = await videosOf(id);
    const examA = await createExam(id, first!.id, 2);
    const examB = await createExam(id, second!.id, 2);
    const [done, halfway, idle] = await Promise.all([
      createUser(t, { type: 'Premium', name: 'Ana' }),
      createUser(t, { type: 'Premium', name: 'Beto' }),
      createUser(t, { type: 'Premium', name: 'Carla' }),
    ]);
    for (const user of [done, halfway, idle])
      await call('PUT', `/api/admin/diplomas/${id}/users/${user.id}`, { assigned: true });
    const questionsA = await t.db.select().from(examQuestions).where(eq(examQuestions.examId, examA));
    const questionsB = await t.db.select().from(examQuestions).where(eq(examQuestions.examId, examB));
    // Ana: both exams right (passes both); Beto: exam A half right (fails)
    await t.db.insert(examAnswers).values([
      ...[...questionsA, ...questionsB].map((question) => ({
        questionId: question.id,
        userId: done.id,
        answer: question.correctAnswer,
      })),
      { questionId: questionsA[0]!.id, userId: halfway.id, answer: questionsA[0]!.correctAnswer },
      { questionId: questionsA[1]!.id, userId: halfway.id, answer: 2 },
    ]);
    await t.db.insert(examResults).values([
      { examId: examA, userId: done.id, scorePercent: 100, passed: true },
      { examId: examB, userId: done.id, scorePercent: 100, passed: true },
      { examId: examA, userId: halfway.id, scorePercent: 50, passed: false },
    ]);

    const stats = (await call('GET', `/api/admin/diplomas/${id}/statistics`)).json() as DiplomaStatistics;
    expect(stats.progress).toEqual({ completed: 1, inProgress: 1, notStarted: 1 });
    expect(stats.users.total).toBe(3);
    expect(stats.users.items.map((user) => [user.name, user.status, user.progressPercent, user.scores])).toEqual([
      ['Ana', 'completed', 100, [100, 100]],
      ['Beto', 'inProgress', 0, [50, null]],
      ['Carla', 'notStarted', 0, [null, null]],
    ]);
    expect(stats.exams.map((exam) => [exam.id, exam.completed, exam.notCompleted, exam.passed, exam.rejected])).toEqual(
      [
        [examA, 2, 1, 1, 1],
        [examB, 1, 2, 1, 0],
      ],
    );
    expect(stats.exams[0]!.questions.map((question) => [question.label, question.correct, question.incorrect])).toEqual(
      [
        ['P1', 2, 0],
        ['P2', 1, 1],
      ],
    );
  });

  it('never sends a list of the members in a statement, so a diploma of any size fits', async () => {
    // a statement takes at most 65,535 parameters: the list of a 66,000-member diploma's ids answered 503
    const id = await createDiploma({ videoCount: 1 });
    const [video] = await videosOf(id);
    const exam = await createExam(id, video!.id, 1);
    const memberCount = 40;
    await t.db.execute(sql`
      insert into users (id, name, email, type)
      select 'many-' || i, 'Alumno ' || i, 'muchos' || i || '@example.com', 'Premium'::account_type
      from generate_series(1, ${sql.raw(String(memberCount))}) as i`);
    await t.db.execute(
      sql`insert into diploma_users (diploma_id, user_id) select ${id}, id from users where id like 'many-%'`,
    );
    await t.db.insert(examResults).values({ examId: exam, userId: 'many-7', scorePercent: 100, passed: true });

    queries.length = 0;
    const response = await call('GET', `/api/admin/diplomas/${id}/statistics`);
    expect(response.statusCode).toBe(200);
    const stats = response.json() as DiplomaStatistics;
    expect(stats.users.total).toBe(memberCount);
    expect(stats.progress).toEqual({ completed: 1, inProgress: 0, notStarted: memberCount - 1 });
    expect(stats.exams[0]).toMatchObject({ completed: 1, notCompleted: memberCount - 1, passed: 1 });
    const parameters = (query: string) =>
      Math.max(0, ...[...query.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
    expect(Math.max(...queries.map(parameters))).toBeLessThan(memberCount);
  });

  it('sends the scores table one page at a time, searched and sorted, while the figures count every member', async () => {
    const id = await createDiploma({ videoCount: 1 });
    const [video] = await videosOf(id);
    const exam = await createExam(id, video!.id, 1);
    // 30 members, Alumno 01…30; Alumno 05 passed the exam, Alumno 20 failed it
    await t.db.execute(sql`
      insert into users (id, name, email, type)
      select 'scores-' || i, 'Alumno ' || lpad(i::text, 2, '0'), 'pagina' || i || '@example.com', 'Premium'::account_type
      from generate_series(1, 30) as i`);
    await t.db.execute(
      sql`insert into diploma_users (diploma_id, user_id) select ${id}, id from users where id like 'scores-%'`,
    );
    await t.db.insert(examResults).values([
      { examId: exam, userId: 'scores-5', scorePercent: 100, passed: true },
      { examId: exam, userId: 'scores-20', scorePercent: 0, passed: false },
    ]);
    const read = async (query: string) => {
      const response = await call('GET', `/api/admin/diplomas/${id}/statistics${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as DiplomaStatistics;
    };
    const names = (stats: DiplomaStatistics) => stats.users.items.map((user) => user.name);

    const first = await read('');
    expect(first.users.total).toBe(30);
    expect(names(first)).toEqual(Array.from({ length: 12 }, (_, i) => `Alumno ${String(i + 1).padStart(2, '0')}`));
    expect(names(await read('?page=3'))).toEqual([
      'Alumno 25',
      'Alumno 26',
      'Alumno 27',
      'Alumno 28',
      'Alumno 29',
      'Alumno 30',
    ]);
    expect((await read('?page=4')).users.items).toEqual([]);

    // the search narrows the table only: the donut and the exam's figures stay the whole diploma's
    const searched = await read('?q=ALUMNO%202');
    // Alumno 20 to 29, found whatever the case; Alumno 02 is not 'alumno 2'
    expect(searched.users.total).toBe(10);
    expect(names(searched)[0]).toBe('Alumno 20');
    expect(searched.progress).toEqual({ completed: 1, inProgress: 1, notStarted: 28 });
    expect(searched.exams[0]).toMatchObject({ completed: 2, notCompleted: 28, passed: 1, rejected: 1 });
    expect((await read('?q=pagina7%40')).users.items.map((user) => user.email)).toEqual(['pagina7@example.com']);

    const byStatus = await read('?sort=status&dir=desc');
    expect(byStatus.users.items.slice(0, 2).map((user) => [user.name, user.status])).toEqual([
      ['Alumno 05', 'completed'],
      ['Alumno 20', 'inProgress'],
    ]);
    const byProgress = await read('?sort=progressPercent&dir=desc');
    expect(byProgress.users.items[0]).toMatchObject({ name: 'Alumno 05', progressPercent: 100, scores: [100] });
    expect(names(await read('?sort=name&dir=desc')).slice(0, 2)).toEqual(['Alumno 30', 'Alumno 29']);

    for (const bad of ['?sort=scores', '?page=0', `?q=${'x'.repeat(101)}`])
      expect((await call('GET', `/api/admin/diplomas/${id}/statistics${bad}`)).statusCode).toBe(400);
  });
});

describe('preview', () => {
  it('shows the ordered sequence with the External locking rule for the viewing Admin', async () => {
    const [organization] = await t.db.insert(organizations).values({ title: 'Org', type: 'Empresa' }).returning();
    const id = await createDiploma({
      videoCount: 2,
      overrides: { kind: 'External', organizationId: organization!.id },
    });
    const [first, second] = await videosOf(id);
    await createExam(id, first!.id);
    const preview = (await call('GET', `/api/admin/diplomas/${id}/preview`)).json() as DiplomaPreview;
    expect(preview.items.map((item) => [item.type, item.locked])).toEqual([
      ['video', false],
      ['exam', true],
      ['video', true],
    ]);
    expect(preview.items[2]!.type === 'video' && preview.items[2]!.video.id).toBe(second!.id);
  });

  it('a CxVet diploma locks only inactive items', async () => {
    const id = await createDiploma({ videoCount: 2 });
    const [first, second] = await videosOf(id);
    await call('PUT', `/api/admin/diplomas/${id}/videos/${second!.id}/active`, { isActive: false });
    await createExam(id, first!.id);
    const preview = (await call('GET', `/api/admin/diplomas/${id}/preview`)).json() as DiplomaPreview;
    expect(preview.items.map((item) => [item.type, item.locked])).toEqual([
      ['video', false],
      ['exam', false],
      ['video', true],
    ]);
  });

  it('counts the viewer own completions', async () => {
    const [organization] = await t.db.insert(organizations).values({ title: 'Org 2', type: 'Empresa' }).returning();
    const { user, cookie } = await signedInAs(t, { type: 'Admin' });
    const id = await createDiploma({
      videoCount: 2,
      overrides: { kind: 'External', organizationId: organization!.id },
    });
    const [first] = await videosOf(id);
    await t.db.insert(diplomaVideoCompletions).values({ videoId: first!.id, userId: user.id });
    const preview = (
      await call('GET', `/api/admin/diplomas/${id}/preview`, undefined, cookie)
    ).json() as DiplomaPreview;
    expect(preview.items.map((item) => [item.completed, item.locked])).toEqual([
      [true, false],
      [false, false],
    ]);
  });
});
