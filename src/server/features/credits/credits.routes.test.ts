import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs, testPassword } from '#server/testing/factories.ts';
import { courseEvaluations, credits } from '#server/db/schema/index.ts';
import {
  createDiploma,
  memberRequest,
  requestsTo,
  playDiplomaVideo,
  submitExam,
  takeViewingToken,
  type DiplomaFixture,
} from '#server/features/diplomas/diplomas.testing.ts';
import { testCreditOffer } from './credits.testing.ts';
import type { CreditOfferInput, MyCredits } from '#shared/credits/credits.schemas.ts';
import { creditCsvColumns } from '#shared/credits/credits.rules.ts';

let t: TestApp;
let admin: { cookie: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAs(t, { type: 'Admin' });
});
afterAll(async () => t.close());

const offer = testCreditOffer('12.5', ['20-123456', 'CV-2026-07']);
const answers = { answers: [5, 4, 5, 4, 5], comment: 'Muy útil para mi práctica.' };

const request = requestsTo(() => t);

async function creditedDiploma(memberIds: string[], values: Partial<CreditOfferInput> = {}, examQuestions = [2, 2]) {
  const diploma = await createDiploma(t, {
    videos: 2,
    examQuestions,
    memberIds,
    values: { title: 'Cirugía de Tejidos Blandos' },
  });
  const saved = await request(admin.cookie, 'PUT', `/api/admin/diplomas/${diploma.id}/credit`, { ...offer, ...values });
  expect(saved.statusCode).toBe(200);
  return diploma;
}

/** Plays every video in real time to its end and passes each exam after it. */
async function attend(cookie: string, diploma: DiplomaFixture) {
  const token = await takeViewingToken(t, cookie);
  for (const [index, videoId] of diploma.videoIds.entries()) {
    const played = await playDiplomaVideo(t, cookie, diploma.id, videoId, token, {
      to: 300,
      durationSeconds: 300,
      positionStep: 30,
    });
    expect(played.json()).toMatchObject({ completed: true });
    const exam = diploma.exams[index];
    if (exam) expect((await submitExam(t, cookie, diploma.id, exam, exam.questions.length)).statusCode).toBe(200);
  }
}

const evaluationUrl = (diplomaId: string) => `/api/diplomas/${diplomaId}/evaluation`;
const myCredits = async (cookie: string) => (await request(cookie, 'GET', '/api/credits')).json<MyCredits>();

describe("the Admin's continuing-education data on a diploma", () => {
  it('is saved and read back by an Admin, and refused to guests, members and the diploma administrator', async () => {
    const administrator = await signedInAs(t, { type: 'Premium' });
    const premium = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { values: { adminUserId: administrator.user.id } });
    const url = `/api/admin/diplomas/${diploma.id}/credit`;
    expect((await request(undefined, 'PUT', url, offer)).statusCode).toBe(401);
    for (const who of [premium, administrator]) {
      expect((await request(who.cookie, 'PUT', url, offer)).statusCode).toBe(403);
      expect((await request(who.cookie, 'GET', url)).statusCode).toBe(403);
    }
    expect((await request(admin.cookie, 'GET', url)).json()).toEqual({ offer: null });
    expect((await request(admin.cookie, 'PUT', url, offer)).json()).toEqual({ offer });
    expect((await request(admin.cookie, 'GET', url)).json()).toEqual({ offer });
    expect((await request(admin.cookie, 'PUT', url, { ...offer, hours: '3' })).json().offer.hours).toBe('3');
  });

  it('shows every bad field at once with its Spanish message', async () => {
    const diploma = await createDiploma(t);
    const url = `/api/admin/diplomas/${diploma.id}/credit`;
    for (const hours of ['0', '-2', '1.25', 'doce', '']) {
      const response = await request(admin.cookie, 'PUT', url, { ...offer, hours });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields.hours).toBe(
        'Escribe las horas como un número positivo con un decimal como máximo (por ejemplo, 1.5).',
      );
    }
    const response = await request(admin.cookie, 'PUT', url, {
      ...offer,
      hours: '0',
      bodies: [{ name: 'AAVSB RACE', approvalNumber: '' }],
      validFrom: '2026-06-01',
      validUntil: '2026-05-31',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      hours: expect.stringContaining('número positivo'),
      'bodies.0.approvalNumber': 'Escribe el número de aprobación que dio el organismo.',
      validUntil: 'La vigencia no puede terminar antes de empezar.',
    });
    expect((await request(admin.cookie, 'PUT', url, { ...offer, bodies: [] })).json().fields.bodies).toBe(
      'Agrega al menos un organismo acreditador.',
    );
    expect((await request(admin.cookie, 'PUT', url, { ...offer, hours: '1,5' })).json().offer.hours).toBe('1.5');
  });
});

describe('earning the credit', () => {
  it('is granted once every video is played past 90 %, the exams are passed and the evaluation is sent, with its proof', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium', name: 'Ana Pérez' });
    const diploma = await creditedDiploma([user.id]);
    expect((await request(cookie, 'GET', evaluationUrl(diploma.id))).json()).toMatchObject({
      canAnswer: false,
      sentAt: null,
      credit: null,
      offer: { hours: 12.5, category: 'surgical' },
    });
    await attend(cookie, diploma);
    expect((await request(cookie, 'GET', evaluationUrl(diploma.id))).json()).toMatchObject({ canAnswer: true });
    expect((await myCredits(cookie)).items).toEqual([]);

    const sent = await request(cookie, 'POST', evaluationUrl(diploma.id), answers);
    expect(sent.statusCode).toBe(200);
    expect(sent.json().credit).toMatchObject({ hours: 12.5 });
    const mine = await myCredits(cookie);
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0]).toMatchObject({
      title: 'Cirugía de Tejidos Blandos',
      hours: 12.5,
      watchedPercent: 100,
      exams: [
        { title: 'Examen 1', scorePercent: 100 },
        { title: 'Examen 2', scorePercent: 100 },
      ],
      folio: '001',
      revokedAt: null,
    });
    expect(mine.byBody).toEqual([
      { body: 'AAVSB RACE', hours: 12.5 },
      { body: 'CONCERVET', hours: 12.5 },
    ]);
    expect(mine.byYear).toEqual([{ year: new Date().getFullYear(), hours: 12.5, byBody: mine.byBody }]);
    const [row] = await t.db.select().from(credits).where(eq(credits.userId, user.id));
    const [evaluation] = await t.db.select().from(courseEvaluations).where(eq(courseEvaluations.userId, user.id));
    expect(row!.proof).toEqual({
      videos: [
        { title: 'Clase 1', watchedPercent: 100 },
        { title: 'Clase 2', watchedPercent: 100 },
      ],
      exams: [
        { title: 'Examen 1', scorePercent: 100 },
        { title: 'Examen 2', scorePercent: 100 },
      ],
      evaluationId: evaluation!.id,
    });
    expect(row!.holderName).toBe('Ana Pérez');
  });

  it('counts an evaluation sent twice once: the first answers stay and the hours do not double', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await creditedDiploma([user.id]);
    await attend(cookie, diploma);
    const first = (await request(cookie, 'POST', evaluationUrl(diploma.id), answers)).json();
    const second = await request(cookie, 'POST', evaluationUrl(diploma.id), {
      answers: [1, 1, 1, 1, 1],
      comment: 'otra',
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first);
    const rows = await t.db
      .select()
      .from(courseEvaluations)
      .where(and(eq(courseEvaluations.userId, user.id), eq(courseEvaluations.diplomaId, diploma.id)));
    expect(rows.map((row) => row.answers)).toEqual([answers.answers]);
    expect((await myCredits(cookie)).byBody[0]).toEqual({ body: 'AAVSB RACE', hours: 12.5 });
  });

  it('earns nothing by seeking to the end or calling the completion and evaluation endpoints directly', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await creditedDiploma([user.id]);
    const [video] = diploma.videoIds;
    const complete = await request(cookie, 'POST', `/api/diplomas/${diploma.id}/videos/${video}/complete`);
    expect(complete.json().code).toBe('VIDEO_NOT_WATCHED');
    const token = await takeViewingToken(t, cookie);
    const position = (positionSeconds: number, startsSpan = false) =>
      memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/videos/${video}/position`, {
        positionSeconds,
        durationSeconds: 300,
        viewingToken: token,
        startsSpan,
      });
    await position(0, true);
    expect((await position(299)).json()).toMatchObject({ completed: false });
    // a CxVet diploma's exams are open without the videos, and passing them all reaches 100 %
    for (const exam of diploma.exams) await submitExam(t, cookie, diploma.id, exam, 2);
    expect((await request(cookie, 'GET', `/api/diplomas/${diploma.id}/course`)).json().progressPercent).toBe(100);
    const sent = await request(cookie, 'POST', evaluationUrl(diploma.id), answers);
    expect(sent.statusCode).toBe(409);
    expect(sent.json()).toMatchObject({
      code: 'CREDIT_EVALUATION_LOCKED',
      message: expect.stringContaining('90 %'),
    });
    expect(await myCredits(cookie)).toMatchObject({ items: [], byBody: [], byYear: [] });
    expect(await t.db.select().from(courseEvaluations).where(eq(courseEvaluations.userId, user.id))).toEqual([]);
  });

  it('needs the last video watched even when every exam is passed (a CxVet diploma counts only exams toward 100 %)', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await creditedDiploma([user.id], {}, [2]);
    const token = await takeViewingToken(t, cookie);
    await playDiplomaVideo(t, cookie, diploma.id, diploma.videoIds[0]!, token, {
      to: 300,
      durationSeconds: 300,
      positionStep: 30,
    });
    await submitExam(t, cookie, diploma.id, diploma.exams[0]!, 2);
    const course = (await request(cookie, 'GET', `/api/diplomas/${diploma.id}/course`)).json();
    expect(course.progressPercent).toBe(100);
    expect((await request(cookie, 'POST', evaluationUrl(diploma.id), answers)).statusCode).toBe(409);
    // forged fast saves earn only wall-clock time: still short of 90 %
    await playDiplomaVideo(t, cookie, diploma.id, diploma.videoIds[1]!, token, {
      to: 300,
      durationSeconds: 300,
      positionStep: 100,
      wallSeconds: 10,
    });
    expect((await request(cookie, 'POST', evaluationUrl(diploma.id), answers)).statusCode).toBe(409);
    await playDiplomaVideo(t, cookie, diploma.id, diploma.videoIds[1]!, token, {
      to: 300,
      durationSeconds: 300,
      positionStep: 30,
    });
    expect((await request(cookie, 'POST', evaluationUrl(diploma.id), answers)).json().credit).not.toBeNull();
  });

  it('is not granted for failed exams, nor outside the approval validity (the evaluation is still kept)', async () => {
    const failing = await signedInAs(t, { type: 'Premium' });
    const diploma = await creditedDiploma([failing.user.id], {}, [2]);
    const token = await takeViewingToken(t, failing.cookie);
    await playDiplomaVideo(t, failing.cookie, diploma.id, diploma.videoIds[0]!, token, {
      to: 300,
      durationSeconds: 300,
      positionStep: 30,
    });
    await submitExam(t, failing.cookie, diploma.id, diploma.exams[0]!, 0);
    expect((await request(failing.cookie, 'POST', evaluationUrl(diploma.id), answers)).statusCode).toBe(409);

    const late = await signedInAs(t, { type: 'Premium' });
    const expired = await creditedDiploma([late.user.id], { validFrom: '2020-01-01', validUntil: '2021-12-31' });
    await attend(late.cookie, expired);
    const sent = await request(late.cookie, 'POST', evaluationUrl(expired.id), answers);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ sentAt: expect.any(String), credit: null });
    expect((await myCredits(late.cookie)).items).toEqual([]);
  });

  it('takes the evaluation only from the diploma’s own Premium members, with every statement answered', async () => {
    const member = await signedInAs(t, { type: 'Premium' });
    const diploma = await creditedDiploma([member.user.id]);
    const url = evaluationUrl(diploma.id);
    expect((await request(undefined, 'POST', url, answers)).statusCode).toBe(401);
    const basic = await signedInAs(t, { type: 'Gratis' });
    expect((await request(basic.cookie, 'POST', url, answers)).statusCode).toBe(403);
    const outsider = await signedInAs(t, { type: 'Premium' });
    expect((await request(outsider.cookie, 'POST', url, answers)).statusCode).toBe(403);
    expect((await request(outsider.cookie, 'GET', url)).statusCode).toBe(403);
    expect((await request(admin.cookie, 'POST', url, answers)).statusCode).toBe(403);
    const partial = await request(member.cookie, 'POST', url, { answers: [5, 5], comment: '' });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().fields.answers).toBe('Responde todas las afirmaciones.');
    expect((await request(member.cookie, 'POST', url, { answers: [6, 5, 5, 5, 5] })).statusCode).toBe(400);
    const plain = await createDiploma(t, { memberIds: [member.user.id] });
    expect((await request(member.cookie, 'POST', evaluationUrl(plain.id), answers)).statusCode).toBe(404);
    expect((await request(member.cookie, 'GET', evaluationUrl(plain.id))).json().offer).toBeNull();
  });
});

async function earnedBy(name: string, licenceNumber = '') {
  const member = await signedInAs(t, { type: 'Premium', name });
  if (licenceNumber) await request(member.cookie, 'PUT', '/api/credits/licence', { licenceNumber });
  const diploma = await creditedDiploma([member.user.id]);
  await attend(member.cookie, diploma);
  await request(member.cookie, 'POST', evaluationUrl(diploma.id), answers);
  const item = (await myCredits(member.cookie)).items[0]!;
  return { ...member, diploma, item };
}

async function pdfText(body: Buffer): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(body));
  const { text } = await extractText(document, { mergePages: true });
  return text;
}

describe("'Mis créditos' downloads", () => {
  it('keeps the cédula profesional on the profile, refusing text that is not one', async () => {
    const member = await signedInAs(t, { type: 'Gratis' });
    expect((await request(undefined, 'PUT', '/api/credits/licence', { licenceNumber: '1234567' })).statusCode).toBe(
      401,
    );
    const bad = await request(member.cookie, 'PUT', '/api/credits/licence', { licenceNumber: '<script>' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.licenceNumber).toContain('cédula');
    expect(
      (await request(member.cookie, 'PUT', '/api/credits/licence', { licenceNumber: ' 1234567 ' })).statusCode,
    ).toBe(200);
    expect((await myCredits(member.cookie)).licenceNumber).toBe('1234567');
    expect((await request(undefined, 'GET', '/api/credits')).statusCode).toBe(401);
  });

  it('gives the CSV with the exact columns, a row per body', async () => {
    const { cookie, item } = await earnedBy('Luis "Chato" Gómez', '7654321');
    const response = await request(cookie, 'GET', '/api/credits/creditos.csv');
    expect(response.headers['content-type']).toContain('text/csv');
    const [header, ...rows] = response.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(header).toBe(
      'nombre,cedula_profesional,organismo,numero_aprobacion,titulo,categoria,modalidad,horas,fecha_inicio,fecha_fin,folio,codigo_verificacion',
    );
    expect(creditCsvColumns).toHaveLength(12);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(
      new RegExp(
        `^"Luis ""Chato"" Gómez",7654321,AAVSB RACE,20-123456,Cirugía de Tejidos Blandos,Quirúrgica,"En línea, a su propio ritmo",12.5,\\d{4}-\\d{2}-\\d{2},\\d{4}-\\d{2}-\\d{2},001,${item.verificationCode}$`,
      ),
    );
    expect(rows[1]).toContain('CONCERVET,CV-2026-07');
  });

  it('gives the certificate with the credit lines and the yearly transcript, to their owner only', async () => {
    const { cookie, item } = await earnedBy('Marta Ríos', 'AB-12');
    const certificate = await request(cookie, 'GET', `/api/credits/${item.id}/certificate.pdf`);
    expect(certificate.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(certificate.rawPayload);
    expect(text).toContain(
      'Educación continua: 12.5 horas · Categoría: Quirúrgica · Modalidad: En línea, a su propio ritmo',
    );
    expect(text).toContain('AAVSB RACE, número de aprobación 20-123456');
    const other = await signedInAs(t, { type: 'Premium' });
    expect((await request(other.cookie, 'GET', `/api/credits/${item.id}/certificate.pdf`)).statusCode).toBe(404);

    const year = new Date().getFullYear();
    const transcript = await request(cookie, 'GET', `/api/credits/transcript/${year}`);
    expect(transcript.statusCode).toBe(200);
    const transcriptText = await pdfText(transcript.rawPayload);
    for (const expected of [
      `Constancia anual de educación continua ${year}`,
      'Marta Ríos',
      'Cédula profesional: AB-12',
      'Total del año: 12.5 horas',
      'AAVSB RACE: 12.5 horas',
      'Cirugía de Tejidos Blandos',
      'video visto 100 %',
    ])
      expect(transcriptText).toContain(expected);
    expect(await pdfText((await request(other.cookie, 'GET', `/api/credits/transcript/${year}`)).rawPayload)).toContain(
      'Sin créditos en este año.',
    );
    expect((await request(undefined, 'GET', `/api/credits/transcript/${year}`)).statusCode).toBe(401);
  });
});

describe('revocation', () => {
  it('by an Admin with a reason and a date: gone from the totals, and the verification page says so', async () => {
    const { cookie, item, diploma } = await earnedBy('Revocada Admin');
    const url = `/api/admin/credits/${item.id}/revoke`;
    const premium = await signedInAs(t, { type: 'Premium' });
    expect((await request(premium.cookie, 'POST', url, { reason: 'Plagio', revokedOn: '2026-01-02' })).statusCode).toBe(
      403,
    );
    const future = await request(admin.cookie, 'POST', url, { reason: 'Plagio', revokedOn: '2999-01-01' });
    expect(future.json().fields.revokedOn).toBe('La fecha no puede ser posterior a hoy.');
    expect((await request(admin.cookie, 'POST', url, { reason: 'x', revokedOn: '2026-01-02' })).statusCode).toBe(400);
    expect(
      (await request(admin.cookie, 'POST', url, { reason: 'Examen suplantado', revokedOn: '2026-01-02' })).statusCode,
    ).toBe(200);

    const mine = await myCredits(cookie);
    expect(mine.items[0]!.revokedAt).toMatch(/^2026-01-02/);
    expect(mine.byBody).toEqual([]);
    expect(mine.byYear).toEqual([]);
    expect((await request(cookie, 'GET', `/api/credits/${item.id}/certificate.pdf`)).statusCode).toBe(404);
    const csv = (await request(cookie, 'GET', '/api/credits/creditos.csv')).body;
    expect(csv.trim().split('\r\n')).toHaveLength(1);
    const verification = (await request(undefined, 'GET', `/api/certificates/${item.verificationCode}`)).json();
    expect(verification.revokedAt).toMatch(/^2026-01-02/);
    const listed = (await request(admin.cookie, 'GET', `/api/admin/diplomas/${diploma.id}/credits`)).json().items;
    expect(listed[0]).toMatchObject({
      revokeReason: 'Examen suplantado',
      revokedAt: expect.stringMatching(/^2026-01-02/),
    });
  });

  it('follows a revoked certificate, and an account deletion that chooses revoke; the roster keeps the name', async () => {
    const byCertificate = await earnedBy('Constancia Revocada');
    const [certificate] = (
      await request(admin.cookie, 'GET', `/api/admin/diplomas/${byCertificate.diploma.id}/certificates`)
    ).json().items;
    const revokeUrl = `/api/admin/certificates/${certificate.id}/revoke`;
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const future = await request(admin.cookie, 'POST', revokeUrl, { reason: 'Error de emisión', revokedOn: tomorrow });
    expect(future.json().fields.revokedOn).toBe('La fecha no puede ser posterior a hoy.');
    const revoked = await request(admin.cookie, 'POST', revokeUrl, {
      reason: 'Error de emisión',
      revokedOn: '2026-03-04',
    });
    expect(revoked.statusCode).toBe(200);
    expect((await myCredits(byCertificate.cookie)).byBody).toEqual([]);
    expect((await myCredits(byCertificate.cookie)).items[0]!.revokedAt).toMatch(/^2026-03-04/);
    const verified = await request(undefined, 'GET', `/api/certificates/${byCertificate.item.verificationCode}`);
    expect(verified.json().revokedAt).toMatch(/^2026-03-04/);

    const deleted = await earnedBy('Cuenta Que Se Va', '998877');
    const removed = await request(deleted.cookie, 'POST', '/api/privacy/delete-account', {
      password: testPassword,
      certificates: 'revoke',
    });
    expect(removed.statusCode).toBe(204);
    const [row] = await t.db.select().from(credits).where(eq(credits.id, deleted.item.id));
    expect(row!.revokedAt).not.toBeNull();
    expect(row!.holderName).toBe('Cuenta Que Se Va');
    expect(row!.licenceNumber).toBe('998877');
    expect(
      (await request(undefined, 'GET', `/api/certificates/${deleted.item.verificationCode}`)).json().revokedAt,
    ).not.toBeNull();
  });
});

describe("the provider's records for audits", () => {
  it('exports per diploma and period the roster with attendance proof and the evaluations, for Admins only', async () => {
    const { diploma } = await earnedBy('Rosa Auditada', '555');
    const year = new Date().getFullYear();
    const url = `/api/admin/diplomas/${diploma.id}/credit-records.xlsx?from=${year}-01-01&to=${year}-12-31`;
    const premium = await signedInAs(t, { type: 'Premium' });
    expect((await request(premium.cookie, 'GET', url)).statusCode).toBe(403);
    const response = await request(admin.cookie, 'GET', url);
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const row = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(header.slice(0, 3)).toEqual(['Nombre', 'Cédula profesional', 'Correo']);
    expect(row[0]).toBe('Rosa Auditada');
    expect(row[1]).toBe('555');
    expect(row).toContain('Clase 1: 100 %; Clase 2: 100 %');
    expect(row).toContain('Muy útil para mi práctica.');
    expect(row).toContain('AAVSB RACE (20-123456); CONCERVET (CV-2026-07)');
    expect(sheet.rowCount).toBe(2);
    const before = await request(
      admin.cookie,
      'GET',
      `/api/admin/diplomas/${diploma.id}/credit-records.xlsx?from=2020-01-01&to=2020-12-31`,
    );
    const empty = new ExcelJS.Workbook();
    await empty.xlsx.load(before.rawPayload as unknown as ArrayBuffer);
    expect(empty.worksheets[0]!.rowCount).toBe(1);
    const reversed = await request(
      admin.cookie,
      'GET',
      `/api/admin/diplomas/${diploma.id}/credit-records.xlsx?from=2026-02-01&to=2026-01-01`,
    );
    expect(reversed.statusCode).toBe(400);
  });
});

describe('the four-year retention of provider records', () => {
  it('keeps a deleted account’s name for four years, then keeps only the anonymous figures', async () => {
    const kept = await earnedBy('Sigue Cuatro Años', '112233');
    await request(kept.cookie, 'POST', '/api/privacy/delete-account', { password: testPassword, certificates: 'keep' });
    const active = await earnedBy('Cuenta Activa');
    const [before] = await t.db.select().from(credits).where(eq(credits.id, kept.item.id));
    expect(before!.holderName).toBe('Sigue Cuatro Años');
    const records = t.app.services.creditRecords;
    const inFourYearsLessADay = new Date(before!.earnedAt.getTime() + (4 * 365 - 1) * 86_400_000);
    await records.purgeExpired(inFourYearsLessADay);
    expect((await t.db.select().from(credits).where(eq(credits.id, kept.item.id)))[0]!.holderName).toBe(
      'Sigue Cuatro Años',
    );
    const inFiveYears = new Date(before!.earnedAt.getTime() + 5 * 365 * 86_400_000);
    await records.purgeExpired(inFiveYears);
    const [after] = await t.db.select().from(credits).where(eq(credits.id, kept.item.id));
    expect(after).toMatchObject({ holderName: 'Cuenta eliminada', licenceNumber: '', hours: 12.5 });
    const [evaluation] = await t.db
      .select()
      .from(courseEvaluations)
      .where(eq(courseEvaluations.id, after!.evaluationId!));
    expect(evaluation).toMatchObject({ comment: '', answers: answers.answers });
    const [stillActive] = await t.db.select().from(credits).where(eq(credits.id, active.item.id));
    expect(stillActive!.holderName).toBe('Cuenta Activa');
  });
});
