import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, signedInAs } from '#server/testing/factories.ts';
import {
  certificates,
  diplomaUsers,
  diplomaVideoCompletions,
  diplomas,
  examAnswers,
  examResults,
} from '#server/db/schema/index.ts';
import { createDiploma, type DiplomaFixture } from './diplomas.testing.ts';

let t: TestApp;
let staff: Awaited<ReturnType<typeof signedInAs>>;
let root: Awaited<ReturnType<typeof signedInAs>>;
let diploma: DiplomaFixture;
let other: DiplomaFixture;
const member = { done: '', half: '', idle: '' };

beforeAll(async () => {
  t = await createTestApp();
  staff = await signedInAs(t, { type: 'Premium', name: 'Directora' });
  root = await signedInAs(t, { type: 'Admin' });
  member.done = (await createUser(t, { type: 'Premium', name: 'Ana Terminó', email: 'ana@vet.example.com' })).id;
  member.half = (await createUser(t, { type: 'Legacy', name: 'Bruno Avanza', email: 'bruno@vet.example.com' })).id;
  member.idle = (await createUser(t, { type: 'Premium', name: 'Carla Nada', email: 'carla@vet.example.com' })).id;
  diploma = await createDiploma(t, {
    videos: 2,
    examQuestions: [2, 2],
    values: { title: 'Diplomado en Ortopedia', isActive: true, adminUserId: staff.user.id },
    memberIds: Object.values(member),
  });
  other = await createDiploma(t, { values: { title: 'Otro diplomado', isActive: true }, memberIds: [member.done] });
  const at = new Date('2026-10-05T12:00:00Z');
  await t.db.update(diplomaUsers).set({ completedAt: at }).where(eq(diplomaUsers.userId, member.done));
  await t.db.insert(diplomaVideoCompletions).values([
    { videoId: diploma.videoIds[0]!, userId: member.done },
    { videoId: diploma.videoIds[1]!, userId: member.done },
    { videoId: diploma.videoIds[0]!, userId: member.half },
  ]);
  const [first, second] = diploma.exams;
  await t.db.insert(examResults).values([
    { examId: first!.id, userId: member.done, scorePercent: 100, passed: true, completedAt: at },
    { examId: second!.id, userId: member.done, scorePercent: 100, passed: true, completedAt: at },
    { examId: first!.id, userId: member.half, scorePercent: 50, passed: false },
  ]);
  await t.db.insert(examAnswers).values({ questionId: second!.questions[0]!.id, userId: member.half, answer: 1 });
  await t.db.insert(certificates).values({
    diplomaId: diploma.id,
    userId: member.done,
    diplomaTitle: 'Diplomado en Ortopedia',
    folio: 7,
    issuedAt: at,
  });
});
afterAll(async () => t.close());

const headers = (cookie?: string) => ({ origin: testPublicUrl, ...(cookie ? { cookie } : {}) });
const managed = (id: string, path = '/progress') => `/api/diploma-admin/diplomas/${id}${path}`;
const admin = (id: string, path = '/progress') => `/api/admin/diplomas/${id}${path}`;

describe('progress of a diploma', () => {
  it('shows its administrator each member: videos completed, each exam state and score, the certificate', async () => {
    const response = await t.app.inject({ url: managed(diploma.id), headers: headers(staff.cookie) });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.videoCount).toBe(2);
    expect(body.exams.map((exam: { title: string }) => exam.title)).toEqual(['Examen 1', 'Examen 2']);
    expect(body.totals).toEqual({ members: 3, notStarted: 1, inProgress: 1, finished: 1 });
    expect(body.rows).toEqual([
      expect.objectContaining({
        email: 'ana@vet.example.com',
        status: 'finished',
        videosCompleted: 2,
        exams: [
          { status: 'passed', scorePercent: 100 },
          { status: 'passed', scorePercent: 100 },
        ],
        certificate: { folio: '007', issuedAt: '2026-10-05T12:00:00.000Z' },
      }),
      expect.objectContaining({
        email: 'bruno@vet.example.com',
        status: 'inProgress',
        videosCompleted: 1,
        exams: [
          { status: 'failed', scorePercent: 50 },
          { status: 'inProgress', scorePercent: null },
        ],
        certificate: null,
      }),
      expect.objectContaining({ email: 'carla@vet.example.com', status: 'notStarted', videosCompleted: 0 }),
    ]);
    const filtered = await t.app.inject({
      url: managed(diploma.id, '/progress?filter=inProgress&search=bruno'),
      headers: headers(staff.cookie),
    });
    expect(filtered.json()).toMatchObject({ matching: 1, rows: [{ email: 'bruno@vet.example.com' }] });
  });

  it('exports a row per member and a column per exam as xlsx', async () => {
    const file = await t.app.inject({ url: managed(diploma.id, '/progress.xlsx'), headers: headers(staff.cookie) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('Progreso-Diplomado-en-Ortopedia.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1, 7)).toEqual([
      'Nombre',
      'Correo',
      'Estado',
      'Videos completados',
      'Examen 1',
      'Examen 2',
    ]);
    expect((sheet.getRow(2).values as unknown[]).slice(1, 8)).toEqual([
      'Ana Terminó',
      'ana@vet.example.com',
      'Terminado',
      '2 de 2',
      'Aprobado (100 %)',
      'Aprobado (100 %)',
      '007',
    ]);
    expect(sheet.getRow(3).getCell(5).value).toBe('No aprobado (50 %)');
    expect(sheet.rowCount).toBe(4);
  });

  it('lets the Admin read any diploma; a missing one is 404', async () => {
    const response = await t.app.inject({ url: admin(other.id), headers: headers(root.cookie) });
    expect(response.statusCode).toBe(200);
    expect(response.json().totals.members).toBe(1);
    expect(
      (await t.app.inject({ url: admin(other.id, '/progress.xlsx'), headers: headers(root.cookie) })).statusCode,
    ).toBe(200);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await t.app.inject({ url: admin(missing), headers: headers(root.cookie) })).statusCode).toBe(404);
  });

  it('refuses a guest (401), Gratis and Premium accounts (403) and the administrator of another diploma (404)', async () => {
    for (const url of [managed(diploma.id), admin(diploma.id)]) {
      expect((await t.app.inject({ url, headers: headers() })).statusCode).toBe(401);
    }
    for (const type of ['Gratis', 'Premium'] as const) {
      const someone = await signedInAs(t, { type });
      for (const url of [managed(diploma.id), managed(diploma.id, '/progress.xlsx'), admin(diploma.id)]) {
        expect((await t.app.inject({ url, headers: headers(someone.cookie) })).statusCode).toBe(403);
      }
    }
    const elsewhere = await signedInAs(t, { type: 'Premium' });
    await t.db.update(diplomas).set({ adminUserId: elsewhere.user.id }).where(eq(diplomas.id, other.id));
    for (const url of [managed(diploma.id), managed(diploma.id, '/progress.xlsx')]) {
      expect((await t.app.inject({ url, headers: headers(elsewhere.cookie) })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ url: admin(diploma.id), headers: headers(elsewhere.cookie) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: managed(other.id), headers: headers(elsewhere.cookie) })).statusCode).toBe(200);
  });
});

describe('bulk enrolment in a diploma', () => {
  const preview = (url: string, cookie: string, text: string) =>
    t.app.inject({ method: 'POST', url, headers: headers(cookie), payload: { format: 'text', text } });

  it('previews a CSV line by line for its administrator, Legacy included, and tells nothing of other accounts', async () => {
    const legacy = await createUser(t, { type: 'Legacy', email: 'legado@vet.example.com' });
    await createUser(t, { type: 'Gratis', email: 'gratis@vet.example.com' });
    const csv = [
      'correo',
      'legado@vet.example.com',
      'gratis@vet.example.com',
      'nadie@vet.example.com',
      'ana@vet.example.com',
      'legado@vet.example.com',
    ].join('\n');
    const dataBase64 = Buffer.from(csv).toString('base64');
    const response = await t.app.inject({
      method: 'POST',
      url: managed(diploma.id, '/import-preview'),
      headers: headers(staff.cookie),
      payload: { format: 'csv', fileName: 'alumnos.csv', dataBase64 },
    });
    expect(response.statusCode).toBe(200);
    const refused = 'No se puede agregar: ninguna cuenta Premium, Legacy o Admin tiene este correo';
    expect(response.json().lines).toEqual([
      { line: 1, text: 'correo', status: 'refused', reason: 'No contiene un correo válido' },
      { line: 2, text: 'legado@vet.example.com', status: 'ok', reason: 'Se agregará al diplomado' },
      { line: 3, text: 'gratis@vet.example.com', status: 'refused', reason: refused },
      { line: 4, text: 'nadie@vet.example.com', status: 'refused', reason: refused },
      { line: 5, text: 'ana@vet.example.com', status: 'refused', reason: 'Ya está en el diplomado' },
      { line: 6, text: 'legado@vet.example.com', status: 'refused', reason: 'Repetido: ya aparece en la línea 2' },
    ]);
    expect(response.json().matched).toEqual([{ id: legacy.id, name: legacy.name, email: 'legado@vet.example.com' }]);

    const detailed = await preview(
      admin(diploma.id, '/import-preview'),
      root.cookie,
      'gratis@vet.example.com\nnadie@vet.example.com',
    );
    expect(detailed.json().lines.map((line: { reason: string }) => line.reason)).toEqual([
      'La cuenta no es Premium, Legacy ni Admin: no puede tomar el diplomado',
      'No hay ninguna cuenta con este correo',
    ]);
  });

  it('adds all or nothing: one account a diploma does not take refuses the whole list', async () => {
    const fresh = await createUser(t, { type: 'Premium' });
    const gratis = await createUser(t, { type: 'Gratis' });
    const add = (userIds: string[], cookie = staff.cookie, url = managed(diploma.id, '/users')) =>
      t.app.inject({ method: 'POST', url, headers: headers(cookie), payload: { userIds } });
    const refused = await add([fresh.id, gratis.id]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Algunas cuentas no pueden tomar este diplomado; no se agregó ninguna.');
    const members = async () =>
      (await t.db.select().from(diplomaUsers).where(eq(diplomaUsers.diplomaId, diploma.id))).map((row) => row.userId);
    expect(await members()).not.toContain(fresh.id);
    expect((await add([fresh.id, member.done])).json()).toEqual({ added: 1 });
    expect(await members()).toContain(fresh.id);
    const legacy = await createUser(t, { type: 'Legacy' });
    expect((await add([legacy.id], root.cookie, admin(other.id, '/users'))).json()).toEqual({ added: 1 });
  });

  it('refuses the preview and the adding to a guest, Gratis and Premium accounts, and another diploma administrator', async () => {
    const previewUrl = managed(diploma.id, '/import-preview');
    const addUrl = managed(diploma.id, '/users');
    const fresh = await createUser(t, { type: 'Premium' });
    const attempts = (cookie?: string) => [
      t.app.inject({
        method: 'POST',
        url: previewUrl,
        headers: headers(cookie),
        payload: { format: 'text', text: 'a@b.co' },
      }),
      t.app.inject({ method: 'POST', url: addUrl, headers: headers(cookie), payload: { userIds: [fresh.id] } }),
      t.app.inject({
        method: 'POST',
        url: admin(diploma.id, '/import-preview'),
        headers: headers(cookie),
        payload: { format: 'text', text: 'a@b.co' },
      }),
    ];
    expect((await Promise.all(attempts())).map((response) => response.statusCode)).toEqual([401, 401, 401]);
    const premium = await signedInAs(t, { type: 'Premium' });
    expect((await Promise.all(attempts(premium.cookie))).map((response) => response.statusCode)).toEqual([
      403, 403, 403,
    ]);
    const elsewhere = await signedInAs(t, { type: 'Premium' });
    await t.db.update(diplomas).set({ adminUserId: elsewhere.user.id }).where(eq(diplomas.id, other.id));
    expect((await Promise.all(attempts(elsewhere.cookie))).map((response) => response.statusCode)).toEqual([
      404, 404, 403,
    ]);
    const [row] = await t.db.select().from(diplomaUsers).where(eq(diplomaUsers.userId, fresh.id));
    expect(row).toBeUndefined();
  });
});
