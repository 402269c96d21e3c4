import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { randomTestIp } from '#server/testing/factories.ts';
import {
  classroomProcedures,
  classroomUsers,
  classrooms,
  diplomaUsers,
  diplomaVideoChapters,
  diplomaVideoFiles,
  procedureCaptions,
  diplomaVideos,
  diplomas,
  events,
  examQuestions,
  examResults,
  exams,
  landingSlides,
  organizations,
  procedureChapters,
  procedureTags,
  procedures,
  publicUniversities,
  siteSettings,
  tags,
  users,
} from '#server/db/schema/index.ts';
import { findWebVttProblem } from '#server/features/uploads/webvtt.ts';
import { openDatabase } from '#server/db/client.ts';
import { seedDemo } from './demo.ts';
import { demoAccounts, demoPassword } from './demo-accounts.ts';

let t: TestApp;
let firstRun: boolean;
beforeAll(async () => {
  t = await createTestApp();
  firstRun = await seedDemo({ database: t.database, storage: t.storage, accounts: t.app.services.accounts });
}, 60_000);
afterAll(async () => t?.close());

const total = async (table: PgTable) => {
  const [row] = await t.db.select({ value: count() }).from(table);
  return Number(row?.value ?? 0);
};

describe('seedDemo', () => {
  it('fills an empty database once and leaves a filled one alone', async () => {
    expect(firstRun).toBe(true);
    const usersBefore = await total(users);
    expect(await seedDemo({ database: t.database, storage: t.storage, accounts: t.app.services.accounts })).toBe(false);
    expect(await total(users)).toBe(usersBefore);
    expect(await total(procedures)).toBe(15);
  });

  it('creates a catalogue with every species, both types, tags and chapters inside the video', async () => {
    const rows = await t.db.select().from(procedures);
    expect(rows.length).toBeGreaterThanOrEqual(12);
    expect(new Set(rows.map((row) => row.species))).toEqual(new Set(['Perro', 'Gato', 'Otras especies']));
    expect(new Set(rows.map((row) => row.type))).toEqual(new Set(['Gratis', 'Premium']));
    expect(await total(tags)).toBeGreaterThanOrEqual(8);

    const chapters = await t.db.select().from(procedureChapters);
    const links = await t.db.select().from(procedureTags);
    for (const procedure of rows) {
      const own = chapters.filter((chapter) => chapter.procedureId === procedure.id);
      expect(own.length).toBeGreaterThanOrEqual(3);
      expect(own.length).toBeLessThanOrEqual(5);
      expect(own.every((chapter) => chapter.timeSeconds >= 0 && chapter.timeSeconds < 30)).toBe(true);
      const tagCount = links.filter((link) => link.procedureId === procedure.id).length;
      expect(tagCount).toBeGreaterThanOrEqual(1);
      expect(tagCount).toBeLessThanOrEqual(3);
      expect(procedure.detail.split('\n').length).toBeGreaterThanOrEqual(2);
      // demo and full video are separate keys, so the media guard can tell them apart
      expect(procedure.demoVideo).not.toBe(procedure.fullVideo);
      expect(procedure.previewImage).toMatch(new RegExp(`^procedures/${procedure.id}/\\d+_preview\\.jpg$`));
      expect(procedure.guidePdf).toMatch(new RegExp(`^procedures/${procedure.id}/\\d+_guia\\.pdf$`));
    }
  });

  it('adds active and inactive events, landing slides and the slide time', async () => {
    const eventRows = await t.db.select().from(events);
    expect(eventRows.filter((event) => event.status === 'Activo')).toHaveLength(3);
    expect(eventRows.filter((event) => event.status === 'Inactivo')).toHaveLength(1);
    expect(eventRows.some((event) => event.promoVideoId)).toBe(true);
    expect(eventRows.every((event) => /^\d{1,2} de [a-z]+ de \d{4}$/.test(event.displayDate))).toBe(true);

    const slides = await t.db.select().from(landingSlides).orderBy(landingSlides.position);
    expect(slides.map((slide) => slide.position)).toEqual(slides.map((_, index) => index + 1));
    expect(slides.some((slide) => !slide.isVideo && slide.title && slide.subtitle)).toBe(true);
    const [settings] = await t.db.select().from(siteSettings);
    expect(settings).toMatchObject({ id: 1, slideSeconds: 6 });
    expect(await total(publicUniversities)).toBeGreaterThanOrEqual(3);
  });

  it('adds both organization types, an aula and a diploma with exams', async () => {
    const orgs = await t.db.select().from(organizations);
    expect(orgs.filter((org) => org.type === 'Empresa')).toHaveLength(1);
    expect(orgs.filter((org) => org.type === 'Universidad')).toHaveLength(2);
    expect(orgs.some((org) => org.isPrivate)).toBe(true);
    expect(orgs.find((org) => org.type === 'Empresa')).toMatchObject({ promoLink: expect.stringMatching(/^https:/) });

    const byEmail = async (email: string) => {
      const [row] = await t.db.select().from(users).where(eq(users.email, email));
      return row!;
    };
    const basic = await byEmail('basico@demo.cxvet.com');
    const premium = await byEmail('premium@demo.cxvet.com');
    const admin = await byEmail('admin@demo.cxvet.com');

    const classroomAdmin = await byEmail('aula@demo.cxvet.com');
    expect(classroomAdmin).toMatchObject({ type: 'Gratis', organizationId: basic.organizationId });
    const aulas = await t.db.select().from(classrooms);
    expect(aulas).toHaveLength(3);
    const aula = aulas.find((row) => row.title === 'Aula de Cirugía de Tejidos Blandos')!;
    expect(aula).toMatchObject({
      accessType: 'Acceso controlado',
      organizationType: 'Universidad',
      adminUserId: classroomAdmin.id,
      isActive: true,
    });
    expect(aula.organizationId).toBe(basic.organizationId);
    expect(aula.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50 * 86_400_000);
    const members = await t.db.select().from(classroomUsers);
    expect(members.filter((row) => row.classroomId === aula.id)).toEqual([{ classroomId: aula.id, userId: basic.id }]);
    const aulaProcedures = await t.db
      .select({ type: procedures.type })
      .from(classroomProcedures)
      .innerJoin(procedures, eq(procedures.id, classroomProcedures.procedureId))
      .where(eq(classroomProcedures.classroomId, aula.id));
    expect(aulaProcedures).toEqual([{ type: 'Premium' }, { type: 'Premium' }, { type: 'Premium' }]);
    expect(aulas.find((row) => row.accessType === 'Acceso libre')).toMatchObject({
      organizationType: 'Empresa',
      isActive: true,
    });
    const expiring = aulas.find((row) => row.expiresAt.getTime() < Date.now() + 3 * 86_400_000)!;
    expect(expiring.expiresAt.getTime()).toBeGreaterThan(Date.now() + 86_400_000);
    expect(members.filter((row) => row.classroomId === expiring.id)).toEqual([
      { classroomId: expiring.id, userId: basic.id },
    ]);

    const diplomaAdmin = await byEmail('diplomado@demo.cxvet.com');
    expect(diplomaAdmin.type).toBe('Premium');
    const allDiplomas = await t.db.select().from(diplomas);
    expect(allDiplomas).toHaveLength(3);
    const diploma = allDiplomas.find((row) => !row.isExternal && !row.isTest);
    expect(diploma).toMatchObject({
      costCents: 4990,
      isExternal: false,
      organizationId: null,
      adminUserId: diplomaAdmin.id,
    });
    expect(diploma!.adminUserId).not.toBe(admin.id);
    // an External diploma with a cost that premium is not in, to try the purchase
    const external = allDiplomas.find((row) => row.isExternal);
    expect(external).toMatchObject({ isActive: true, isTest: false, organizationId: expect.any(String) });
    expect(external!.costCents).toBeGreaterThan(0);
    expect(allDiplomas.filter((row) => row.isTest)).toHaveLength(1);
    expect(
      await t.db
        .select({ userId: diplomaUsers.userId })
        .from(diplomaUsers)
        .where(eq(diplomaUsers.diplomaId, diploma!.id)),
    ).toEqual([{ userId: premium.id }]);
    expect(
      await t.db
        .select({ userId: diplomaUsers.userId })
        .from(diplomaUsers)
        .where(eq(diplomaUsers.diplomaId, external!.id)),
    ).toEqual([]);
    expect(await t.db.select().from(diplomaVideos).where(eq(diplomaVideos.diplomaId, diploma!.id))).toHaveLength(3);
    expect(await total(diplomaVideoChapters)).toBeGreaterThanOrEqual(3);
    expect(await total(diplomaVideoFiles)).toBe(2);
    const examRows = await t.db.select().from(exams);
    expect(examRows).toHaveLength(2);
    // premium passed the first exam, not the second
    const results = await t.db.select().from(examResults).where(eq(examResults.userId, premium.id));
    expect(results).toMatchObject([
      { examId: examRows.find((exam) => exam.afterVideoPosition === 0)!.id, passed: true, scorePercent: 100 },
    ]);
    const questions = await t.db.select().from(examQuestions);
    for (const exam of examRows) {
      const own = questions.filter((question) => question.examId === exam.id);
      expect(own).toHaveLength(3);
      for (const question of own) {
        expect(question.answers.length).toBeGreaterThanOrEqual(3);
        expect(question.answers.length).toBeLessThanOrEqual(4);
        expect(question.correctAnswer).toBeLessThan(question.answers.length);
      }
    }
  });

  it('stores every referenced file', async () => {
    const keys = [
      ...(await t.db.select().from(procedures)).flatMap((row) => [
        row.previewImage,
        row.demoVideo,
        row.fullVideo,
        row.guidePdf,
      ]),
      ...(await t.db.select().from(events)).flatMap((row) => [row.image, row.pdf, row.programPdf]),
      ...(await t.db.select().from(landingSlides)).map((row) => row.media),
      ...(await t.db.select().from(organizations)).flatMap((row) => [row.logoImage, row.promoImage]),
      ...(await t.db.select().from(classrooms)).flatMap((row) => [row.previewImage, row.previewPdf]),
      ...(await t.db.select().from(diplomas)).flatMap((row) => [
        row.previewImage,
        row.previewPdf,
        row.certificateImage,
      ]),
      ...(await t.db.select().from(diplomaVideos)).map((row) => row.video),
      ...(await t.db.select().from(diplomaVideoFiles)).map((row) => row.file),
      ...(await t.db.select().from(procedureCaptions)).map((row) => row.fileKey),
    ].filter((key): key is string => Boolean(key));
    expect(keys.length).toBeGreaterThan(70);
    for (const key of keys) {
      expect(key, key).not.toMatch(/^(https?:)?\//);
      expect(await t.storage.stat(key), key).toMatchObject({ size: expect.any(Number) });
      expect((await t.storage.stat(key))!.size, key).toBeGreaterThan(0);
    }
  });

  it('gives the newest procedures Spanish subtitles that pass the upload check', async () => {
    const rows = await t.db.select().from(procedureCaptions);
    expect(rows.filter((row) => row.language === 'es' && row.video === 'full').length).toBeGreaterThanOrEqual(1);
    expect(rows.filter((row) => row.language === 'es' && row.video === 'demo').length).toBeGreaterThanOrEqual(1);
    for (const row of rows) {
      const chunks: Buffer[] = [];
      for await (const chunk of t.storage.read(row.fileKey)) chunks.push(chunk as Buffer);
      expect(findWebVttProblem(Buffer.concat(chunks)), row.fileKey).toBeNull();
    }
  });

  it.each(demoAccounts.map((account) => [account.email, account.type] as const))(
    '%s signs in as %s with the demo password',
    async (email, type) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/account/login',
        remoteAddress: randomTestIp(),
        headers: { origin: t.config.publicUrl },
        payload: { email, password: demoPassword },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().user).toMatchObject({ email, type });
    },
  );

  it('gives the demo accounts their membership details', async () => {
    const rows = await t.db.select().from(users);
    const byEmail = (email: string) => rows.find((row) => row.email === email)!;
    const premium = byEmail('premium@demo.cxvet.com');
    expect(premium).toMatchObject({ subscriptionId: 'DEMO-SUB', annualPlan: false, paymentStatus: 'BIEN' });
    const daysSincePayment = (Date.now() - premium.paymentDay!.getTime()) / 86_400_000;
    expect(daysSincePayment).toBeGreaterThan(9);
    expect(daysSincePayment).toBeLessThan(11);
    const legacy = byEmail('legacy@demo.cxvet.com');
    expect(legacy.terminationDate!.getTime()).toBeGreaterThan(Date.now() + 300 * 86_400_000);
    for (const row of rows) {
      expect(row).toMatchObject({ country: 'México', phoneNumber: expect.stringMatching(/^\+52\d{10}$/) });
    }
  });
});

describe('seedDemo on two instances starting at once', () => {
  it('makes one set of demo content: one seed fills the empty database, the other finds it filled', async () => {
    const first = await createTestApp();
    // on PostgreSQL a second connection pool, as another instance has; PGlite is only ever opened by one process
    const otherDatabase = first.database.url ? await openDatabase({ url: first.database.url }) : first.database;
    const second = await createTestApp({}, { database: otherDatabase });
    try {
      const outcomes = await Promise.all(
        [first, second].map((app) =>
          seedDemo({ database: app.database, storage: app.storage, accounts: app.app.services.accounts }),
        ),
      );
      expect(outcomes.sort()).toEqual([false, true]);
      const [userRows] = await first.db.select({ value: count() }).from(users);
      expect(Number(userRows?.value)).toBe(demoAccounts.length);
      const [procedureRows] = await first.db.select({ value: count() }).from(procedures);
      expect(Number(procedureRows?.value)).toBe(15);
    } finally {
      await second.close();
      if (otherDatabase !== first.database) await otherDatabase.close();
      await first.close();
    }
  }, 120_000);
});
