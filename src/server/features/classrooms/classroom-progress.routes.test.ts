import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createClassroom, createProcedure, createUser, signedInAs } from '#server/testing/factories.ts';
import { classrooms, procedures, watchedTime } from '#server/db/schema/index.ts';

let t: TestApp;
let staff: Awaited<ReturnType<typeof signedInAs>>;
let own: { id: string };
let other: { id: string };
let videos: { id: string }[];
const member = { done: '', half: '', idle: '', formula: '' };

beforeAll(async () => {
  t = await createTestApp();
  videos = [await createProcedure(t, { type: 'Premium' }), await createProcedure(t, { type: 'Premium' })];
  await t.db.update(procedures).set({ name: 'Ovariectomía' }).where(eq(procedures.id, videos[0]!.id));
  await t.db.update(procedures).set({ name: 'Orquiectomía' }).where(eq(procedures.id, videos[1]!.id));
  staff = await signedInAs(t, { name: 'Coordinadora' });
  const users = {
    done: await createUser(t, { name: 'Ana Terminó', email: 'ana@uni.example.com' }),
    half: await createUser(t, { name: 'Bruno Avanza', email: 'bruno@uni.example.com' }),
    idle: await createUser(t, { name: 'Carla Nada', email: 'carla@uni.example.com' }),
    formula: await createUser(t, { name: '=HYPERLINK("http://x")', email: 'dario@uni.example.com' }),
  };
  for (const key of Object.keys(users) as (keyof typeof users)[]) member[key] = users[key].id;
  own = await createClassroom(t, {
    procedureIds: videos.map((video) => video.id),
    userIds: Object.values(member),
    values: { title: 'Cirugía 2026', adminUserId: staff.user.id },
  });
  other = await createClassroom(t, { procedureIds: [videos[0]!.id], userIds: [member.done] });
  const at = new Date('2026-11-02T15:00:00Z');
  const watched = { durationSeconds: 100, watchedSeconds: 95, lastSavedAt: at, watchedAt: at };
  await t.db.insert(watchedTime).values([
    { userId: member.done, procedureId: videos[0]!.id, ...watched },
    { userId: member.done, procedureId: videos[1]!.id, ...watched },
    { userId: member.half, procedureId: videos[0]!.id, durationSeconds: 200, watchedSeconds: 50, lastSavedAt: at },
  ]);
});
afterAll(async () => t.close());

const headers = (cookie: string) => ({ origin: testPublicUrl, cookie });
const managed = (id: string, query = '') => `/api/classroom-admin/classrooms/${id}/progress${query}`;
const admin = (id: string, query = '') => `/api/admin/classrooms/${id}/progress${query}`;

describe('progress of an aula', () => {
  it('shows its administrator every member by video, with totals, the watched rule and the last activity', async () => {
    const response = await t.app.inject({ url: managed(own.id), headers: headers(staff.cookie) });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.videos.map((video: { name: string }) => video.name).sort()).toEqual(['Orquiectomía', 'Ovariectomía']);
    expect(body.totals).toEqual({ members: 4, notStarted: 2, inProgress: 1, finished: 1 });
    expect(body.matching).toBe(4);
    const byEmail = Object.fromEntries(body.rows.map((row: { email: string }) => [row.email, row]));
    expect(byEmail['ana@uni.example.com']).toMatchObject({
      status: 'finished',
      watchedCount: 2,
      lastActivityAt: '2026-11-02T15:00:00.000Z',
    });
    const bruno = byEmail['bruno@uni.example.com'];
    expect(bruno).toMatchObject({ status: 'inProgress', watchedCount: 0 });
    const first = body.videos.findIndex((video: { id: string }) => video.id === videos[0]!.id);
    expect(bruno.videos[first]).toEqual({ watchedPercent: 25, watched: false });
    expect(byEmail['carla@uni.example.com']).toMatchObject({ status: 'notStarted', lastActivityAt: null });
  });

  it('filters by status and searches by name or e-mail, on the server', async () => {
    const emails = async (query: string) =>
      (await t.app.inject({ url: managed(own.id, query), headers: headers(staff.cookie) }))
        .json()
        .rows.map((row: { email: string }) => row.email);
    expect(await emails('?filter=notStarted')).toEqual(['dario@uni.example.com', 'carla@uni.example.com']);
    expect(await emails('?filter=finished')).toEqual(['ana@uni.example.com']);
    expect(await emails('?search=BRUNO')).toEqual(['bruno@uni.example.com']);
    // without regard to accents, in the search or in the name
    expect(await emails('?search=termino')).toEqual(['ana@uni.example.com']);
    expect(await emails('?search=%C3%81na')).toEqual(['ana@uni.example.com']);
    expect(await emails('?search=carla%40uni')).toEqual(['carla@uni.example.com']);
    expect(await emails('?search=%25')).toEqual([]);
    const second = await t.app.inject({ url: managed(own.id, '?page=2'), headers: headers(staff.cookie) });
    expect(second.json()).toMatchObject({ rows: [], matching: 4, page: 2 });
    const bad = await t.app.inject({ url: managed(own.id, '?filter=todo'), headers: headers(staff.cookie) });
    expect(bad.statusCode).toBe(400);
  });

  it('exports the filtered members as xlsx, a column per video, formula-like text kept as text', async () => {
    const file = await t.app.inject({
      url: managed(own.id, '.xlsx?filter=notStarted'),
      headers: headers(staff.cookie),
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('Progreso-Cirugia-2026.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = sheet.getRow(1).values as unknown[];
    expect(header.slice(1, 5)).toEqual(['Nombre', 'Correo', 'Estado', 'Videos vistos']);
    expect(header.slice(6).sort()).toEqual(['Orquiectomía', 'Ovariectomía']);
    expect(sheet.rowCount).toBe(3);
    const formulaRow = sheet.getRow(2);
    expect(formulaRow.getCell(1).value).toBe('=HYPERLINK("http://x")');
    expect(formulaRow.getCell(1).formula).toBeUndefined();
    expect(formulaRow.getCell(3).value).toBe('Sin actividad');
    expect(formulaRow.getCell(4).value).toBe('0 de 2');
    expect(formulaRow.getCell(6).value).toBe('0 %');
  });

  it('lets the Admin read any aula from the console', async () => {
    const root = await signedInAs(t, { type: 'Admin' });
    const response = await t.app.inject({ url: admin(other.id), headers: headers(root.cookie) });
    expect(response.statusCode).toBe(200);
    expect(response.json().totals).toEqual({ members: 1, notStarted: 0, inProgress: 0, finished: 1 });
    expect((await t.app.inject({ url: admin(other.id, '.xlsx'), headers: headers(root.cookie) })).statusCode).toBe(200);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await t.app.inject({ url: admin(missing), headers: headers(root.cookie) })).statusCode).toBe(404);
  });

  it('refuses a guest (401), accounts that administer no aula (403) and the administrator of another aula (404)', async () => {
    expect((await t.app.inject({ url: managed(own.id), headers: { origin: testPublicUrl } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: admin(own.id), headers: { origin: testPublicUrl } })).statusCode).toBe(401);
    for (const type of ['Gratis', 'Premium'] as const) {
      const someone = await signedInAs(t, { type });
      for (const url of [managed(own.id), managed(own.id, '.xlsx'), admin(own.id), admin(own.id, '.xlsx')]) {
        expect((await t.app.inject({ url, headers: headers(someone.cookie) })).statusCode).toBe(403);
      }
    }
    const elsewhere = await signedInAs(t, { type: 'Premium' });
    await t.db.update(classrooms).set({ adminUserId: elsewhere.user.id }).where(eq(classrooms.id, other.id));
    for (const url of [managed(own.id), managed(own.id, '.xlsx')]) {
      expect((await t.app.inject({ url, headers: headers(elsewhere.cookie) })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ url: admin(own.id), headers: headers(elsewhere.cookie) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: managed(other.id), headers: headers(elsewhere.cookie) })).statusCode).toBe(200);
  });
});
