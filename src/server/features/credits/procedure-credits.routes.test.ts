import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs, testPassword } from '#server/testing/factories.ts';
import { courseEvaluations, credits } from '#server/db/schema/index.ts';
import { requestsTo } from '#server/features/diplomas/diplomas.testing.ts';
import { testCreditOffer } from './credits.testing.ts';
import type { CreditOfferInput, MyCredits } from '#shared/credits/credits.schemas.ts';
import { dateToZonedWallTime } from '#shared/time-zone.ts';

let t: TestApp;
let admin: { cookie: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAs(t, { type: 'Admin' });
});
afterAll(async () => t.close());

const offer = testCreditOffer('1.5', ['20-777', 'CV-P-9']);
const answers = { answers: [5, 4, 5, 4, 5], comment: 'Muy clara la técnica.' };

const request = requestsTo(() => t);

async function creditedProcedure(values: Partial<CreditOfferInput> = {}, type: 'Gratis' | 'Premium' = 'Premium') {
  const procedure = await createProcedure(t, { name: 'Cistotomía en perro', type });
  const saved = await request(admin.cookie, 'PUT', `/api/admin/procedures/${procedure.id}/credit`, {
    ...offer,
    ...values,
  });
  expect(saved.statusCode).toBe(200);
  return procedure;
}

async function takeToken(cookie: string): Promise<string> {
  const response = await request(cookie, 'POST', '/api/viewing/token');
  return response.json<{ token: string }>().token;
}

/** Position saves as the procedure player sends them, `wallSeconds` of clock per `positionStep` of video. */
async function play(
  cookie: string,
  procedureId: string,
  options: { to: number; durationSeconds: number; positionStep: number; wallSeconds?: number },
) {
  const { to, durationSeconds, positionStep, wallSeconds = positionStep } = options;
  const token = await takeToken(cookie);
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    let position = 0;
    let startsSpan = true;
    for (;;) {
      const saved = await request(cookie, 'POST', `/api/watching/procedures/${procedureId}/position`, {
        positionSeconds: position,
        durationSeconds,
        viewingToken: token,
        startsSpan,
      });
      expect(saved.statusCode).toBe(204);
      if (position >= to) return;
      startsSpan = false;
      position = Math.min(to, position + positionStep);
      vi.setSystemTime(Date.now() + wallSeconds * 1000);
    }
  } finally {
    vi.useRealTimers();
  }
}

const watch = (cookie: string, procedureId: string) =>
  play(cookie, procedureId, { to: 300, durationSeconds: 300, positionStep: 30 });
const evaluationUrl = (procedureId: string) => `/api/procedures/${procedureId}/evaluation`;
const myCredits = async (cookie: string) => (await request(cookie, 'GET', '/api/credits')).json<MyCredits>();

async function pdfText(bytes: Buffer | Uint8Array) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(pdf, { mergePages: true })).text;
}

async function earned(name = 'Ana Procedimiento') {
  const member = await signedInAs(t, { type: 'Premium', name });
  const procedure = await creditedProcedure();
  await watch(member.cookie, procedure.id);
  const sent = await request(member.cookie, 'POST', evaluationUrl(procedure.id), answers);
  expect(sent.statusCode).toBe(200);
  const [item] = (await myCredits(member.cookie)).items;
  return { ...member, procedure, item: item! };
}

describe("the Admin's continuing-education data on a procedure", () => {
  it('is saved, read back and removed by an Admin only, with the diploma’s Spanish messages', async () => {
    const procedure = await createProcedure(t);
    const url = `/api/admin/procedures/${procedure.id}/credit`;
    expect((await request(undefined, 'PUT', url, offer)).statusCode).toBe(401);
    for (const type of ['Premium', 'Gratis'] as const) {
      const who = await signedInAs(t, { type });
      expect((await request(who.cookie, 'PUT', url, offer)).statusCode).toBe(403);
      expect((await request(who.cookie, 'GET', url)).statusCode).toBe(403);
      expect((await request(who.cookie, 'DELETE', url)).statusCode).toBe(403);
    }
    expect((await request(admin.cookie, 'GET', url)).json()).toEqual({ offer: null });
    expect((await request(admin.cookie, 'PUT', url, offer)).json()).toEqual({ offer });
    expect((await request(admin.cookie, 'GET', url)).json()).toEqual({ offer });
    const bad = await request(admin.cookie, 'PUT', url, {
      ...offer,
      hours: '1.25',
      bodies: [{ name: 'AAVSB RACE', approvalNumber: '' }],
      validFrom: '2026-06-01',
      validUntil: '2026-05-31',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      hours: 'Escribe las horas como un número positivo con un decimal como máximo (por ejemplo, 1.5).',
      'bodies.0.approvalNumber': 'Escribe el número de aprobación que dio el organismo.',
      validUntil: expect.any(String),
    });
    expect((await request(admin.cookie, 'DELETE', url)).statusCode).toBe(200);
    expect((await request(admin.cookie, 'GET', url)).json()).toEqual({ offer: null });
    const missing = `/api/admin/procedures/00000000-0000-4000-8000-000000000000/credit`;
    expect((await request(admin.cookie, 'PUT', missing, offer)).statusCode).toBe(404);
  });
});

describe("a procedure's credit", () => {
  it('is granted once the full video is played past 90 % and the evaluation is sent, with its proof', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium', name: 'Laura Cirujana' });
    const procedure = await creditedProcedure();
    const before = (await request(cookie, 'GET', evaluationUrl(procedure.id))).json();
    expect(before).toMatchObject({ canAnswer: false, sentAt: null, credit: null, offer: { hours: 1.5 } });
    await watch(cookie, procedure.id);
    expect((await request(cookie, 'GET', evaluationUrl(procedure.id))).json().canAnswer).toBe(true);
    const sent = await request(cookie, 'POST', evaluationUrl(procedure.id), answers);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ canAnswer: true, sentAt: expect.any(String), credit: { hours: 1.5 } });
    const [evaluation] = await t.db.select().from(courseEvaluations).where(eq(courseEvaluations.userId, user.id));
    const [row] = await t.db.select().from(credits).where(eq(credits.userId, user.id));
    expect(row).toMatchObject({
      procedureId: procedure.id,
      diplomaId: null,
      certificateId: null,
      folio: 1,
      title: 'Cistotomía en perro',
      holderName: 'Laura Cirujana',
      evaluationId: evaluation!.id,
      proof: {
        videos: [{ title: 'Cistotomía en perro', watchedPercent: 100 }],
        exams: [],
        evaluationId: evaluation!.id,
      },
    });
    expect(row!.verificationCode).toMatch(/^[A-Z2-9]{12}$/);
    const mine = await myCredits(cookie);
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0]).toMatchObject({
      title: 'Cistotomía en perro',
      hours: 1.5,
      watchedPercent: 100,
      folio: '001',
    });
    expect(mine.byBody).toEqual([
      { body: 'AAVSB RACE', hours: 1.5 },
      { body: 'CONCERVET', hours: 1.5 },
    ]);
    expect(mine.byYear[0]).toMatchObject({ hours: 1.5 });
  });

  it('counts an evaluation sent twice, or twice at once, once', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const procedure = await creditedProcedure();
    await watch(cookie, procedure.id);
    const [first, second] = await Promise.all([
      request(cookie, 'POST', evaluationUrl(procedure.id), answers),
      request(cookie, 'POST', evaluationUrl(procedure.id), { answers: [1, 1, 1, 1, 1], comment: 'otra' }),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const third = await request(cookie, 'POST', evaluationUrl(procedure.id), answers);
    expect(third.json()).toEqual(second.json());
    const evaluations = await t.db
      .select()
      .from(courseEvaluations)
      .where(and(eq(courseEvaluations.userId, user.id), eq(courseEvaluations.procedureId, procedure.id)));
    expect(evaluations).toHaveLength(1);
    expect(await t.db.select().from(credits).where(eq(credits.userId, user.id))).toHaveLength(1);
    expect((await myCredits(cookie)).byBody[0]).toEqual({ body: 'AAVSB RACE', hours: 1.5 });
  });

  it('gives two members of the same procedure their own folios, also when they finish at once', async () => {
    const procedure = await creditedProcedure();
    const members = await Promise.all([1, 2, 3].map(() => signedInAs(t, { type: 'Premium' })));
    for (const member of members) await watch(member.cookie, procedure.id);
    await Promise.all(members.map((m) => request(m.cookie, 'POST', evaluationUrl(procedure.id), answers)));
    const rows = await t.db.select().from(credits).where(eq(credits.procedureId, procedure.id));
    expect(rows.map((row) => row.folio).sort()).toEqual([1, 2, 3]);
    const listed = await request(admin.cookie, 'GET', `/api/admin/procedures/${procedure.id}/credits`);
    expect(listed.json().items.map((item: { folio: string }) => item.folio)).toEqual(
      expect.arrayContaining(['001', '002', '003']),
    );
    const premium = await signedInAs(t, { type: 'Premium' });
    expect((await request(premium.cookie, 'GET', `/api/admin/procedures/${procedure.id}/credits`)).statusCode).toBe(
      403,
    );
  });

  it('earns nothing by seeking to the end, forged fast saves or calling the evaluation directly', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const procedure = await creditedProcedure();
    const locked = async () => {
      const sent = await request(cookie, 'POST', evaluationUrl(procedure.id), answers);
      expect(sent.statusCode).toBe(409);
      expect(sent.json()).toMatchObject({ code: 'CREDIT_EVALUATION_LOCKED', message: expect.stringContaining('90 %') });
    };
    await locked();
    // a seek: one save at the start, the next at the end a second later
    await play(cookie, procedure.id, { to: 299, durationSeconds: 300, positionStep: 299, wallSeconds: 1 });
    await locked();
    // saves that run ahead of the clock earn only the wall-clock time
    await play(cookie, procedure.id, { to: 300, durationSeconds: 300, positionStep: 100, wallSeconds: 10 });
    await locked();
    expect(await myCredits(cookie)).toMatchObject({ items: [], byBody: [], byYear: [] });
    expect(await t.db.select().from(courseEvaluations).where(eq(courseEvaluations.userId, user.id))).toEqual([]);
  });

  it('is only for Premium members whom the page gives the full video', async () => {
    const procedure = await creditedProcedure();
    const free = await creditedProcedure({}, 'Gratis');
    expect((await request(undefined, 'GET', evaluationUrl(procedure.id))).statusCode).toBe(401);
    expect((await request(undefined, 'POST', evaluationUrl(procedure.id), answers)).statusCode).toBe(401);
    const basic = await signedInAs(t, { type: 'Gratis' });
    // a free (Gratis) member may play a free procedure in full, yet credit is a Premium benefit
    await watch(basic.cookie, free.id);
    for (const id of [procedure.id, free.id]) {
      expect((await request(basic.cookie, 'GET', evaluationUrl(id))).statusCode).toBe(403);
      expect((await request(basic.cookie, 'POST', evaluationUrl(id), answers)).statusCode).toBe(403);
    }
    expect((await myCredits(basic.cookie)).items).toEqual([]);
    const premium = await signedInAs(t, { type: 'Premium' });
    expect((await request(premium.cookie, 'GET', evaluationUrl(free.id))).json().offer).not.toBeNull();
    const unknown = evaluationUrl('00000000-0000-4000-8000-000000000000');
    expect((await request(premium.cookie, 'GET', unknown)).statusCode).toBe(404);
    const plain = await createProcedure(t, { type: 'Premium' });
    expect((await request(premium.cookie, 'GET', evaluationUrl(plain.id))).json()).toEqual({
      offer: null,
      canAnswer: false,
      sentAt: null,
      credit: null,
    });
    expect((await request(premium.cookie, 'POST', evaluationUrl(plain.id), answers)).statusCode).toBe(404);
    const bad = await request(premium.cookie, 'POST', evaluationUrl(procedure.id), { answers: [5, 9] });
    expect(bad.statusCode).toBe(400);
  });

  it('is not granted outside the approval validity (the evaluation is still kept)', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const procedure = await creditedProcedure({ validFrom: '2020-01-01', validUntil: '2021-12-31' });
    await watch(cookie, procedure.id);
    const sent = await request(cookie, 'POST', evaluationUrl(procedure.id), answers);
    expect(sent.json()).toMatchObject({ credit: null, sentAt: expect.any(String) });
    expect(await t.db.select().from(credits).where(eq(credits.userId, user.id))).toEqual([]);
  });
});

describe("a procedure credit's proof", () => {
  it('has its own certificate, verifiable by its code, in the CSV and the transcript, to its owner only', async () => {
    const { cookie, item } = await earned('Marta Procedimiento');
    const certificate = await request(cookie, 'GET', `/api/credits/${item.id}/certificate.pdf`);
    expect(certificate.statusCode).toBe(200);
    expect(certificate.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(certificate.rawPayload);
    for (const expected of [
      'Marta Procedimiento',
      'por haber visto y evaluado el procedimiento',
      'Cistotomía en perro',
      'Educación continua: 1.5 horas · Categoría: Quirúrgica · Modalidad: En línea, a su propio ritmo',
      'AAVSB RACE, número de aprobación 20-777',
      item.verificationCode!,
    ])
      expect(text).toContain(expected);
    const other = await signedInAs(t, { type: 'Premium' });
    expect((await request(other.cookie, 'GET', `/api/credits/${item.id}/certificate.pdf`)).statusCode).toBe(404);
    const verified = await request(undefined, 'GET', `/api/certificates/${item.verificationCode!.toLowerCase()}`);
    expect(verified.json()).toEqual({
      holderName: 'Marta Procedimiento',
      diplomaTitle: 'Cistotomía en perro',
      folio: '001',
      completedAt: item.earnedAt,
      issuedAt: item.earnedAt,
      issuerName: 'CxVet',
      revokedAt: null,
    });
    const csv = (await request(cookie, 'GET', '/api/credits/creditos.csv')).body.split('\r\n');
    expect(csv[1]).toMatch(
      new RegExp(`AAVSB RACE,20-777,Cistotomía en perro,Quirúrgica,.*,1.5,.*,001,${item.verificationCode}$`),
    );
    expect(csv[2]).toContain('CONCERVET,CV-P-9');
    const year = new Date(item.earnedAt).getFullYear();
    const transcript = await pdfText((await request(cookie, 'GET', `/api/credits/transcript/${year}`)).rawPayload);
    expect(transcript).toContain('Cistotomía en perro');
    expect(transcript).toContain(item.verificationCode!);
  });

  it("takes the Admin's today when it is already tomorrow in the site's zone, dated no later than now", async () => {
    const { item } = await earned();
    // 00:30 UTC on the 28th is 18:30 on the 27th in Mexico City: a browser in UTC defaults the form to the 28th
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-28T00:30:00Z') });
    try {
      const url = `/api/admin/credits/${item.id}/revoke`;
      const answer = await request(admin.cookie, 'POST', url, { reason: 'Duplicado', revokedOn: '2026-11-28' });
      expect(answer.statusCode, answer.body).toBe(200);
      const [stored] = await t.db.select().from(credits).where(eq(credits.id, item.id));
      expect(stored!.revokedAt!.getTime()).toBeLessThanOrEqual(Date.now());
      const later = await request(admin.cookie, 'POST', url, { reason: 'Duplicado', revokedOn: '2026-11-29' });
      expect(later.json().fields.revokedOn).toBe('La fecha no puede ser posterior a hoy.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves the totals and shows as revoked on the verification page once an Admin revokes it', async () => {
    const { cookie, item } = await earned();
    const url = `/api/admin/credits/${item.id}/revoke`;
    // today where the site is (Mexico City): from midnight to 6:00 UTC, the UTC date is still tomorrow there
    const today = dateToZonedWallTime(new Date(), t.config.timeZone).slice(0, 10);
    const body = { reason: 'Evaluación duplicada', revokedOn: today };
    const premium = await signedInAs(t, { type: 'Premium' });
    expect((await request(premium.cookie, 'POST', url, body)).statusCode).toBe(403);
    expect((await request(admin.cookie, 'POST', url, body)).statusCode).toBe(200);
    const mine = await myCredits(cookie);
    expect(mine.items[0]!.revokedAt).not.toBeNull();
    expect(mine).toMatchObject({ byBody: [], byYear: [] });
    expect((await request(cookie, 'GET', `/api/credits/${item.id}/certificate.pdf`)).statusCode).toBe(404);
    const verified = await request(undefined, 'GET', `/api/certificates/${item.verificationCode}`);
    expect(verified.json().revokedAt).not.toBeNull();
    expect((await request(cookie, 'GET', '/api/credits/creditos.csv')).body.split('\r\n').filter(Boolean)).toHaveLength(
      1,
    );
  });

  it('follows an account deletion: revoked when it chooses revoke, nameless on the verification page when it keeps', async () => {
    const revoked = await earned('Cuenta Que Revoca');
    const gone = await request(revoked.cookie, 'POST', '/api/privacy/delete-account', {
      password: testPassword,
      certificates: 'revoke',
    });
    expect(gone.statusCode).toBe(204);
    const page = await request(undefined, 'GET', `/api/certificates/${revoked.item.verificationCode}`);
    expect(page.json()).toMatchObject({ holderName: '', revokedAt: expect.any(String) });
    const [row] = await t.db.select().from(credits).where(eq(credits.id, revoked.item.id));
    // the audit roster keeps the frozen name four years (decision 009)
    expect(row!.holderName).toBe('Cuenta Que Revoca');
    const kept = await earned('Cuenta Que Conserva');
    await request(kept.cookie, 'POST', '/api/privacy/delete-account', { password: testPassword, certificates: 'keep' });
    const keptPage = await request(undefined, 'GET', `/api/certificates/${kept.item.verificationCode}`);
    expect(keptPage.json()).toMatchObject({ holderName: '', revokedAt: null, diplomaTitle: 'Cistotomía en perro' });
  });

  it('is in the Admin’s audit export of the procedure and period, with the attendance proof and the evaluation', async () => {
    const { procedure, item } = await earned('Rosa Auditada');
    const year = new Date().getFullYear();
    const url = `/api/admin/procedures/${procedure.id}/credit-records.xlsx?from=${year}-01-01&to=${year}-12-31`;
    const premium = await signedInAs(t, { type: 'Premium' });
    expect((await request(premium.cookie, 'GET', url)).statusCode).toBe(403);
    const response = await request(admin.cookie, 'GET', url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('Registros-');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toContain('La técnica se explicó paso a paso con claridad.');
    expect(header).not.toContain('Los exámenes evaluaron lo que se enseñó.');
    const row = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(row[0]).toBe('Rosa Auditada');
    expect(row).toContain('Cistotomía en perro: 100 %');
    expect(row).toContain(answers.comment);
    expect(row).toContain('AAVSB RACE (20-777); CONCERVET (CV-P-9)');
    expect(row).toContain(item.verificationCode);
    expect(sheet.rowCount).toBe(2);
    const missing = `/api/admin/procedures/00000000-0000-4000-8000-000000000000/credit-records.xlsx?from=${year}-01-01&to=${year}-12-31`;
    expect((await request(admin.cookie, 'GET', missing)).statusCode).toBe(404);
  });
});
