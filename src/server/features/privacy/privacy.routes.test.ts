import { PassThrough, Readable } from 'node:stream';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import ExcelJS from 'exceljs';
import { createTestApp, createTestDatabase, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import {
  createProcedure,
  createUser,
  loginCookie,
  randomTestIp,
  signedInAs,
  testPassword,
} from '#server/testing/factories.ts';
import {
  accountDeletions,
  analyticsEvents,
  bulkMailDeliveries,
  certificates,
  consentEvents,
  dataExports,
  diplomas,
  jobs,
  mailOutbox,
  payments,
  paymentSubscriptions,
  sessions,
  users,
  watchPositions,
  watchedTime,
  favoriteProcedures,
  fiscalProfiles,
} from '#server/db/schema/index.ts';
import { subscribeAndApprove } from '#server/features/payments/payments.testing.ts';
import { anonymizedEmail } from '#shared/privacy/privacy.rules.ts';
import { maxExportAttempts } from './data-exports.service.ts';
import { privacyJobKinds } from './privacy.jobs.ts';

let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  t = await createTestApp({ logLevel: 'info' }, undefined, { logStream: stream });
});
afterAll(async () => t.close());

let counter = 0;
const uniqueEmail = (prefix = 'miembro') => `${prefix}-${Date.now()}-${counter++}@example.com`;
const request = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    remoteAddress: randomTestIp(),
    headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
    payload,
  });
const runJobs = () => t.app.services.jobs.runDue();

async function member(values: Parameters<typeof signedInAs>[1] = {}) {
  return signedInAs(t, { email: uniqueEmail(), ...values });
}

async function readyExport(cookie: string) {
  const requested = await request('POST', '/api/privacy/export', cookie);
  expect(requested.statusCode).toBe(202);
  await runJobs();
  const state = (await request('GET', '/api/privacy/export', cookie)).json();
  expect(state.export.status).toBe('LISTA');
  return state.export as { id: string; expiresAt: string; readyAt: string };
}

describe('Descargar mis datos', () => {
  it('refuses a guest every privacy route with 401', async () => {
    expect((await request('GET', '/api/privacy/export')).statusCode).toBe(401);
    expect((await request('POST', '/api/privacy/export')).statusCode).toBe(401);
    expect((await request('GET', `/api/privacy/export/${crypto.randomUUID()}/file`)).statusCode).toBe(401);
    expect(
      (await request('POST', '/api/privacy/delete-account', undefined, { password: 'x', certificates: 'keep' }))
        .statusCode,
    ).toBe(401);
  });

  it('prepares a ZIP with everything of the member and nothing of anyone else, offered for 7 days and mailed as a link', async () => {
    const me = await member({ name: 'Lucía Exportada', city: 'Puebla', promoMail: true, type: 'Premium' });
    const other = await member({ name: 'Otra Persona Ajena', city: 'Mérida' });
    const [diploma] = await t.db.insert(diplomas).values({ title: 'Diplomado de Exportación' }).returning();
    await t.db.insert(certificates).values([
      {
        diplomaId: diploma!.id,
        userId: me.user.id,
        diplomaTitle: 'Diplomado de Exportación',
        folio: 1,
        holderName: 'Lucía Exportada',
      },
      {
        diplomaId: diploma!.id,
        userId: other.user.id,
        diplomaTitle: 'Diplomado de Exportación',
        folio: 2,
        holderName: 'Otra Persona Ajena',
      },
    ]);
    await t.db.insert(payments).values([
      {
        userId: me.user.id,
        provider: 'simulado',
        providerPaymentId: `pay-${counter++}`,
        kind: 'subscription',
        result: 'COMPLETADO',
        amountCents: 999,
      },
      {
        userId: other.user.id,
        provider: 'simulado',
        providerPaymentId: `pay-${counter++}`,
        kind: 'subscription',
        result: 'COMPLETADO',
        amountCents: 9990,
      },
    ]);
    await t.db.insert(analyticsEvents).values([
      { category: 'VIDEOS', label: 'Ovariohisterectomía', userType: 'Premium', userId: me.user.id },
      { category: 'VIDEOS', label: 'Video ajeno', userType: 'Gratis', userId: other.user.id },
    ]);
    await t.app.services.consents.record(me.user.id, null, { promoMail: true, newsMail: false }, 'registro');
    const watched = await createProcedure(t, { name: 'Cistotomía exportada' });
    const foreign = await createProcedure(t, { name: 'Favorito ajeno' });
    await t.db
      .insert(watchPositions)
      .values({ userId: me.user.id, procedureId: watched.id, positionSeconds: 95, durationSeconds: 600 });
    await t.db.insert(watchedTime).values({
      userId: me.user.id,
      procedureId: watched.id,
      durationSeconds: 600,
      spans: [[0, 90]],
      watchedSeconds: 90,
    });
    await t.db.insert(watchedTime).values({
      userId: other.user.id,
      procedureId: watched.id,
      durationSeconds: 600,
      spans: [[0, 45]],
      watchedSeconds: 45,
    });
    await t.db.insert(favoriteProcedures).values([
      { userId: me.user.id, procedureId: watched.id },
      { userId: other.user.id, procedureId: foreign.id },
    ]);

    const before = Date.now();
    const ready = await readyExport(me.cookie);
    expect(new Date(ready.expiresAt).getTime() - new Date(ready.readyAt).getTime()).toBe(7 * 86_400_000);
    expect(new Date(ready.readyAt).getTime()).toBeGreaterThanOrEqual(before - 1000);

    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, me.user.email));
    expect(mail?.subject).toBe('Tus datos de CxVet están listos para descargar');
    expect(mail?.html).toContain(`${testPublicUrl}/perfil/privacidad`);

    const file = await request('GET', `/api/privacy/export/${ready.id}/file`, me.cookie);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    const entries = unzipSync(new Uint8Array(file.rawPayload));
    expect(Object.keys(entries).sort()).toEqual(
      [
        'LEEME.txt',
        'constancias/' +
          Object.keys(entries)
            .find((name) => name.startsWith('constancias/'))!
            .slice(12),
        'datos.json',
      ].sort(),
    );
    const pdfName = Object.keys(entries).find((name) => name.startsWith('constancias/'))!;
    expect(strFromU8(entries[pdfName]!.subarray(0, 5))).toBe('%PDF-');
    const text = strFromU8(entries['datos.json']!);
    const data = JSON.parse(text);
    expect(data.profile).toMatchObject({ name: 'Lucía Exportada', email: me.user.email, city: 'Puebla' });
    expect(data.consents).toMatchObject([
      { kind: 'promoMail', given: true, source: 'registro' },
      { kind: 'newsMail', given: false, source: 'registro' },
    ]);
    expect(data.payments).toMatchObject([{ amount: '9.99', result: 'COMPLETADO' }]);
    expect(data.certificates).toMatchObject([
      { diploma: 'Diplomado de Exportación', folio: 1, holderName: 'Lucía Exportada' },
    ]);
    expect(data.viewingHistory).toMatchObject([{ category: 'VIDEOS', label: 'Ovariohisterectomía' }]);
    expect(data.watchPositions).toMatchObject([
      { procedure: 'Cistotomía exportada', positionSeconds: 95, durationSeconds: 600, watchedAt: null },
    ]);
    expect(data.watchedTime).toEqual([
      expect.objectContaining({
        procedure: 'Cistotomía exportada',
        diploma: null,
        watchedSeconds: 90,
        spans: [[0, 90]],
      }),
    ]);
    expect(data.favorites).toMatchObject([{ procedure: 'Cistotomía exportada' }]);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(JSON.stringify(data.sessions)).not.toContain('token');
    for (const foreign of [
      'Otra Persona Ajena',
      other.user.email,
      other.user.id,
      'Mérida',
      'Video ajeno',
      '99.90',
      'Favorito ajeno',
    ]) {
      expect(text).not.toContain(foreign);
    }
  });

  it('gives the file only to its owner: another member and an Admin get 404', async () => {
    const owner = await member();
    const ready = await readyExport(owner.cookie);
    const stranger = await member();
    const admin = await member({ type: 'Admin' });
    expect((await request('GET', `/api/privacy/export/${ready.id}/file`, stranger.cookie)).statusCode).toBe(404);
    expect((await request('GET', `/api/privacy/export/${ready.id}/file`, admin.cookie)).statusCode).toBe(404);
    expect((await request('GET', '/api/privacy/export', stranger.cookie)).json()).toEqual({ export: null });
    // the file store's public media route never serves the private folder, not even to the owner
    const [row] = await t.db.select().from(dataExports).where(eq(dataExports.id, ready.id));
    expect(row!.storageKey).toMatch(/^private\//);
    expect((await request('GET', `/media/${row!.storageKey}`, owner.cookie)).statusCode).toBe(404);
    expect((await request('GET', `/api/privacy/export/${ready.id}/file`, owner.cookie)).statusCode).toBe(200);
  });

  it('makes one export and one job from two requests at once', async () => {
    const me = await member();
    const [first, second] = await Promise.all([
      request('POST', '/api/privacy/export', me.cookie),
      request('POST', '/api/privacy/export', me.cookie),
    ]);
    expect(first.json().export.id).toBe(second.json().export.id);
    expect(first.json().export.status).toBe('PENDIENTE');
    const rows = await t.db.select().from(dataExports).where(eq(dataExports.userId, me.user.id));
    expect(rows).toHaveLength(1);
    const queued = await t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, privacyJobKinds.export), sql`${jobs.payload}->>'exportId' = ${rows[0]!.id}`));
    expect(queued).toHaveLength(1);
  });

  it('answers an expired export with a Spanish 410 and the sweep deletes its file', async () => {
    const me = await member();
    const ready = await readyExport(me.cookie);
    const [row] = await t.db.select().from(dataExports).where(eq(dataExports.id, ready.id));
    expect(await t.storage.stat(row!.storageKey!)).not.toBeNull();
    await t.db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataExports.id, ready.id));
    const expired = await request('GET', `/api/privacy/export/${ready.id}/file`, me.cookie);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe(
      'Este archivo ya no está disponible: las descargas duran 7 días. Solicita uno nuevo desde tu perfil.',
    );
    expect((await request('GET', '/api/privacy/export', me.cookie)).json().export.status).toBe('EXPIRADA');
    await t.app.services.privacy.sweepExpired();
    expect(await t.storage.stat(row!.storageKey!)).toBeNull();
    const [after] = await t.db.select().from(dataExports).where(eq(dataExports.id, ready.id));
    expect(after).toMatchObject({ status: 'EXPIRADA', storageKey: null });
  });

  it('retries a failing export and then tells the member it failed, so a new one can be asked for', async () => {
    const me = await member();
    // a file where the member's export folder should be: every write of the ZIP fails
    await t.storage.put(`private/data-exports/${me.user.id}`, Readable.from([Buffer.from('x')]));
    // through the service, so no request starts the job before the loop counts its tries
    const requested = { export: await t.app.services.privacy.requestExport(me.user.id) };
    for (let attempt = 1; attempt <= maxExportAttempts; attempt++) {
      await t.db
        .update(jobs)
        .set({ runAt: new Date(Date.now() - 1000) })
        .where(eq(jobs.uniqueKey, `privacy-export:${requested.export.id}`));
      await runJobs();
      const status = (await request('GET', '/api/privacy/export', me.cookie)).json().export.status;
      expect(status).toBe(attempt < maxExportAttempts ? 'PENDIENTE' : 'FALLIDA');
    }
    await t.storage.delete(`private/data-exports/${me.user.id}`);
    const again = (await request('POST', '/api/privacy/export', me.cookie)).json();
    expect(again.export.id).not.toBe(requested.export.id);
    await runJobs();
    expect((await request('GET', '/api/privacy/export', me.cookie)).json().export.status).toBe('LISTA');
  });

  it('finishes an export requested before a restart', async () => {
    const database = await createTestDatabase();
    try {
      const first = await createTestApp({}, { database });
      const user = await createUser(first, { email: uniqueEmail('reinicio') });
      const cookie = await loginCookie(first, user.email);
      // through the service: the route would also start the job at once, and this test is about a job left pending
      expect((await first.app.services.privacy.requestExport(user.id)).status).toBe('PENDIENTE');
      await first.close();

      const second = await createTestApp({}, { database });
      await second.app.services.jobs.runDue();
      const state = await second.app.inject({ url: '/api/privacy/export', headers: { cookie } });
      expect(state.json().export.status).toBe('LISTA');
      await second.close();
    } finally {
      await database.close();
      await database.drop();
    }
  });
});

describe('Eliminar mi cuenta', () => {
  const remove = (cookie: string | undefined, payload: object) =>
    request('POST', '/api/privacy/delete-account', cookie, payload);

  it('refuses a wrong password in Spanish and changes nothing', async () => {
    const me = await member({ name: 'Clave Equivocada' });
    const response = await remove(me.cookie, { password: 'NoEsLaClave1', certificates: 'keep' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      code: 'LOGIN_WRONG_PASSWORD',
      fields: { password: 'La contraseña no es correcta.' },
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    expect(row).toMatchObject({ name: 'Clave Equivocada', anonymizedAt: null });
    expect((await request('GET', '/api/profile', me.cookie)).statusCode).toBe(200);
  });

  it('cancels the live subscription first, anonymises the account, keeps payments without identity and mails the old address', async () => {
    const email = uniqueEmail('premium');
    const me = await member({
      email,
      name: 'Mario Suscrito',
      phoneNumber: '+525511112222',
      city: 'Toluca',
      country: 'México',
      promoMail: true,
    });
    const subscriptionId = await subscribeAndApprove(t, me.cookie);
    await runJobs();
    const [paid] = await t.db.select().from(payments).where(eq(payments.userId, me.user.id));
    expect(paid).toBeDefined();
    const otherSession = await loginCookie(t, email);
    const [diploma] = await t.db.insert(diplomas).values({ title: 'Diplomado Conservado' }).returning();
    const [certificate] = await t.db
      .insert(certificates)
      .values({
        diplomaId: diploma!.id,
        userId: me.user.id,
        diplomaTitle: 'Diplomado Conservado',
        folio: 1,
        holderName: 'Mario Suscrito',
      })
      .returning();

    const procedure = await createProcedure(t);
    await t.db
      .insert(watchPositions)
      .values({ userId: me.user.id, procedureId: procedure.id, positionSeconds: 30, durationSeconds: 600 });
    await t.db.insert(watchedTime).values({
      userId: me.user.id,
      procedureId: procedure.id,
      durationSeconds: 600,
      spans: [[0, 30]],
      watchedSeconds: 30,
    });
    await t.db.insert(favoriteProcedures).values({ userId: me.user.id, procedureId: procedure.id });
    await t.db.insert(fiscalProfiles).values({
      userId: me.user.id,
      rfc: 'GODE561231GR8',
      legalName: 'EMILIA GOMEZ DIAZ',
      taxSystem: '612',
      cfdiUse: 'G03',
      zip: '06600',
    });

    const response = await remove(me.cookie, { password: testPassword, certificates: 'keep' });
    expect(response.statusCode).toBe(204);
    expect(await t.db.select().from(watchPositions).where(eq(watchPositions.userId, me.user.id))).toEqual([]);
    expect(await t.db.select().from(favoriteProcedures).where(eq(favoriteProcedures.userId, me.user.id))).toEqual([]);
    expect(await t.db.select().from(watchedTime).where(eq(watchedTime.userId, me.user.id))).toEqual([]);
    expect(await t.db.select().from(fiscalProfiles).where(eq(fiscalProfiles.userId, me.user.id))).toEqual([]);

    expect((await t.app.services.paymentProvider.getSubscription(subscriptionId))?.status).toBe('CANCELLED');
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    expect(row).toMatchObject({
      name: 'Cuenta eliminada',
      email: anonymizedEmail(me.user.id),
      phoneNumber: '',
      city: '',
      country: '',
      promoMail: false,
      isDisabled: true,
      subscriptionId: null,
    });
    expect(row!.anonymizedAt).not.toBeNull();
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, me.user.id))).toEqual([]);
    expect((await request('GET', '/api/profile', me.cookie)).statusCode).toBe(401);
    expect((await request('GET', '/api/profile', otherSession)).statusCode).toBe(401);
    const [kept] = await t.db.select().from(payments).where(eq(payments.id, paid!.id));
    expect(kept).toMatchObject({ amountCents: paid!.amountCents, occurredAt: paid!.occurredAt });
    const verification = await request('GET', `/api/certificates/${certificate!.verificationCode}`);
    expect(verification.json()).toMatchObject({
      holderName: '',
      diplomaTitle: 'Diplomado Conservado',
      revokedAt: null,
    });
    expect(await t.db.select().from(consentEvents).where(eq(consentEvents.userId, me.user.id))).toMatchObject([
      { kind: 'promoMail', given: false, source: 'eliminación de cuenta' },
    ]);
    const [audit] = await t.db.select().from(accountDeletions).where(eq(accountDeletions.userId, me.user.id));
    expect(audit).toMatchObject({
      bySelf: true,
      actorId: me.user.id,
      certificates: 'keep',
      cancelledSubscriptionId: subscriptionId,
    });

    await runJobs();
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mails.map((mail) => mail.subject)).toEqual(['Tu cuenta de CxVet fue eliminada']);
    const mailJobs = await t.db.select().from(jobs).where(eq(jobs.kind, privacyJobKinds.mail));
    expect(JSON.stringify(mailJobs.map((job) => job.payload))).not.toContain(email);

    const login = await request('POST', '/api/account/login', undefined, { email, password: testPassword });
    expect(login.statusCode).toBe(404);
    const again = await createUser(t, { email, name: 'Mario de Nuevo' });
    expect(again.id).not.toBe(me.user.id);
  });

  it('stops and deletes nothing when the payments provider refuses to cancel', async () => {
    const me = await member({ name: 'Proveedor Rechaza', type: 'Premium' });
    await t.db.insert(paymentSubscriptions).values({
      userId: me.user.id,
      provider: 'simulado',
      providerSubscriptionId: `SIM-DESCONOCIDA-${counter++}`,
      plan: 'monthly',
      state: 'ACTIVA',
    });
    const response = await remove(me.cookie, { password: testPassword, certificates: 'keep' });
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toContain('No pudimos cancelar tu suscripción con el proveedor de pagos');
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    expect(row).toMatchObject({ name: 'Proveedor Rechaza', anonymizedAt: null, type: 'Premium' });
    expect((await request('GET', '/api/profile', me.cookie)).statusCode).toBe(200);
  });

  it('revokes the certificates when the member chooses so', async () => {
    const me = await member({ name: 'Revoca Constancias' });
    const [diploma] = await t.db.insert(diplomas).values({ title: 'Diplomado Revocado' }).returning();
    const [certificate] = await t.db
      .insert(certificates)
      .values({
        diplomaId: diploma!.id,
        userId: me.user.id,
        diplomaTitle: 'Diplomado Revocado',
        folio: 1,
        holderName: 'Revoca Constancias',
      })
      .returning();
    expect((await remove(me.cookie, { password: testPassword, certificates: 'revoke' })).statusCode).toBe(204);
    const [row] = await t.db.select().from(certificates).where(eq(certificates.id, certificate!.id));
    expect(row!.revokedAt).not.toBeNull();
    expect(row!.holderName).toBe('');
  });

  it('writes the deletion to the ledger beside the backups: the id and the certificate choice, no personal data', async () => {
    const email = uniqueEmail('libro');
    const me = await member({ email, name: 'Libro Mayor' });
    expect((await remove(me.cookie, { password: testPassword, certificates: 'revoke' })).statusCode).toBe(204);
    const ledger = await readFile(path.join(t.config.backup.dir, 'cuentas-eliminadas.jsonl'), 'utf8');
    const line = ledger.split('\n').find((each) => each.includes(me.user.id));
    expect(JSON.parse(line!)).toMatchObject({ userId: me.user.id, certificates: 'revoke' });
    expect(ledger).not.toContain(email);
    expect(ledger).not.toContain('Libro Mayor');
  });

  it('adds to the ledger at start an anonymised account it misses (a crash after the deletion, before the ledger line)', async () => {
    const me = await member({ name: 'Sin Renglón' });
    await t.db.update(users).set({ anonymizedAt: new Date() }).where(eq(users.id, me.user.id));
    const file = path.join(t.config.backup.dir, 'cuentas-eliminadas.jsonl');
    const result = await t.app.services.privacy.reconcileDeletions();
    expect(result.recorded).toBeGreaterThanOrEqual(1);
    expect(await readFile(file, 'utf8')).toContain(me.user.id);
    expect(await t.app.services.privacy.reconcileDeletions()).toEqual({ replayed: 0, recorded: 0 });
  });

  it('deletes once when asked twice at once, live subscription included: one audit entry, one mail', async () => {
    const me = await member();
    const subscriptionId = await subscribeAndApprove(t, me.cookie);
    await runJobs();
    const responses = await Promise.all([
      remove(me.cookie, { password: testPassword, certificates: 'keep' }),
      remove(me.cookie, { password: testPassword, certificates: 'keep' }),
    ]);
    expect(responses.map((response) => response.statusCode)).toContain(204);
    for (const response of responses) expect([204, 401]).toContain(response.statusCode);
    expect(await t.db.select().from(accountDeletions).where(eq(accountDeletions.userId, me.user.id))).toHaveLength(1);
    expect((await t.app.services.paymentProvider.getSubscription(subscriptionId))?.status).toBe('CANCELLED');
    await runJobs();
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, me.user.email));
    expect(mails.map((mail) => mail.subject)).toEqual(['Tu cuenta de CxVet fue eliminada']);
  });

  it('writes nothing when the deletion fails between two writes', async () => {
    const me = await member({ name: 'Caída a Medias', city: 'Querétaro', promoMail: true });
    await t.db.execute(
      sql`create function fail_account_deletion() returns trigger language plpgsql as $$ begin raise exception 'simulated crash'; end $$`,
    );
    await t.db.execute(
      sql`create trigger fail_account_deletion before insert on account_deletions for each row execute function fail_account_deletion()`,
    );
    try {
      const response = await remove(me.cookie, { password: testPassword, certificates: 'revoke' });
      expect(response.statusCode).toBe(500);
    } finally {
      await t.db.execute(sql`drop trigger fail_account_deletion on account_deletions`);
      await t.db.execute(sql`drop function fail_account_deletion()`);
    }
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    expect(row).toMatchObject({
      name: 'Caída a Medias',
      city: 'Querétaro',
      email: me.user.email,
      promoMail: true,
      anonymizedAt: null,
    });
    expect((await t.db.select().from(sessions).where(eq(sessions.userId, me.user.id))).length).toBeGreaterThan(0);
    expect(await t.db.select().from(consentEvents).where(eq(consentEvents.userId, me.user.id))).toEqual([]);
    expect(
      await t.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, privacyJobKinds.mail), sql`${jobs.payload}->>'to' = ${me.user.email}`)),
    ).toEqual([]);
    await runJobs();
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, me.user.email))).toEqual([]);
    expect((await request('GET', '/api/profile', me.cookie)).statusCode).toBe(200);
  });
});

describe('Admin deletion on request', () => {
  const adminDelete = (
    cookie: string | undefined,
    id: string,
    payload: object = { reason: 'Solicitud por correo del titular', certificates: 'keep' },
  ) => request('POST', `/api/admin/users/${id}/delete-data`, cookie, payload);

  it('is refused to a guest (401) and to every non-Admin type (403)', async () => {
    const target = await createUser(t, { email: uniqueEmail() });
    expect((await adminDelete(undefined, target.id)).statusCode).toBe(401);
    for (const type of ['Gratis', 'Premium', 'Legacy'] as const) {
      const someone = await member({ type });
      expect((await adminDelete(someone.cookie, target.id)).statusCode).toBe(403);
    }
    const [row] = await t.db.select().from(users).where(eq(users.id, target.id));
    expect(row!.anonymizedAt).toBeNull();
  });

  it('anonymises the member and records who, when and why', async () => {
    const admin = await member({ type: 'Admin' });
    const target = await createUser(t, { email: uniqueEmail('solicitud'), name: 'Pide Borrado' });
    expect((await adminDelete(admin.cookie, target.id, { reason: 'ab', certificates: 'keep' })).statusCode).toBe(400);
    expect((await adminDelete(admin.cookie, target.id)).statusCode).toBe(204);
    const [audit] = await t.db.select().from(accountDeletions).where(eq(accountDeletions.userId, target.id));
    expect(audit).toMatchObject({ actorId: admin.user.id, bySelf: false, reason: 'Solicitud por correo del titular' });
    expect(audit!.createdAt).toBeInstanceOf(Date);
    expect((await adminDelete(admin.cookie, target.id)).statusCode).toBe(409);
    await runJobs();
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, target.email));
    expect(mail?.text).toContain('un administrador eliminó tu cuenta');
  });

  it('does not let an Admin delete their own account from the console', async () => {
    const admin = await member({ type: 'Admin' });
    expect((await adminDelete(admin.cookie, admin.user.id)).statusCode).toBe(403);
  });
});

describe('nothing a member deleted reappears', () => {
  it('leaves the users list, the users report, bulk mail and the statistics', async () => {
    const admin = await member({ type: 'Admin' });
    const gone = await member({ name: 'Zacarías Borrado', country: 'Islandia', promoMail: true });
    const stays = await member({ name: 'Zoe Permanece', country: 'Islandia', promoMail: true });
    const statsBefore = (await request('GET', '/api/admin/statistics', admin.cookie)).json();
    expect(
      (
        await request('POST', '/api/privacy/delete-account', gone.cookie, {
          password: testPassword,
          certificates: 'keep',
        })
      ).statusCode,
    ).toBe(204);

    const statsAfter = (await request('GET', '/api/admin/statistics', admin.cookie)).json();
    expect(statsAfter.users.total).toBe(statsBefore.users.total - 1);
    expect(statsAfter.users.gratis).toBe(statsBefore.users.gratis - 1);
    const iceland = (stats: { topCountries: { country: string; users: number }[] }) =>
      stats.topCountries.find((row) => row.country === 'Islandia')?.users ?? 0;
    expect(iceland(statsAfter)).toBe(iceland(statsBefore) - 1);

    const list = (await request('GET', `/api/admin/users?q=${encodeURIComponent('eliminada-')}`, admin.cookie)).json();
    expect(list.items).toEqual([]);
    const listed = (await request('GET', '/api/admin/users?q=Borrado', admin.cookie)).json();
    expect(listed.items).toEqual([]);

    const report = await request('GET', '/api/admin/users/report.xlsx', admin.cookie);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(report.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    workbook.getWorksheet('Usuarios')!.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value))));
    expect(cells).toContain('Zoe Permanece');
    expect(cells).not.toContain('Cuenta eliminada');
    expect(cells).not.toContain(anonymizedEmail(gone.user.id));
    expect(cells).not.toContain(gone.user.email);

    const mailing = await request('POST', '/api/admin/mailing', admin.cookie, {
      subject: 'Promoción',
      title: 'Nuevos videos',
      message: 'Hola',
    });
    expect(mailing.statusCode).toBe(202);
    const recipients = await t.db
      .select()
      .from(bulkMailDeliveries)
      .where(eq(bulkMailDeliveries.bulkMailId, mailing.json().id));
    expect(recipients.map((row) => row.userId)).toContain(stays.user.id);
    expect(recipients.map((row) => row.userId)).not.toContain(gone.user.id);
  });
});

describe('consents', () => {
  it('records sign-up and profile changes with when and how', async () => {
    const email = uniqueEmail('registro');
    const signUp = await request('POST', '/api/account/signup', undefined, {
      plan: 'basic',
      name: 'Consiente Todo',
      email,
      confirmEmail: email,
      phoneNumber: '+525598765432',
      confirmPhoneNumber: '+525598765432',
      password: 'ClaveSecreta9',
      confirmPassword: 'ClaveSecreta9',
      country: 'México',
      city: 'Oaxaca',
      homeUniversity: '',
      organizationId: null,
      promoMail: true,
      newsMail: false,
      terms: true,
    });
    expect(signUp.statusCode).toBe(200);
    const userId = signUp.json().uid as string;
    const cookie = await loginCookie(t, email, 'ClaveSecreta9');
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: { origin: testPublicUrl, cookie },
      payload: {
        name: 'Consiente Todo',
        email,
        phoneNumber: '+525598765432',
        country: 'México',
        city: 'Oaxaca',
        homeUniversity: '',
        organizationId: null,
        promoMail: false,
        newsMail: true,
        password: '',
        confirmPassword: '',
      },
    });
    expect(put.statusCode).toBe(200);
    const log = await t.db.select().from(consentEvents).where(eq(consentEvents.userId, userId));
    expect(log.map(({ kind, given, source }) => ({ kind, given, source }))).toEqual([
      { kind: 'promoMail', given: true, source: 'registro' },
      { kind: 'newsMail', given: false, source: 'registro' },
      { kind: 'promoMail', given: false, source: 'perfil' },
      { kind: 'newsMail', given: true, source: 'perfil' },
    ]);
  });

  it('writes the sign-up consents with the account: when the log cannot be written, no account is left behind', async () => {
    const email = uniqueEmail('registro-caida');
    await t.db.execute(
      sql`create function fail_consent_log() returns trigger language plpgsql as $$ begin raise exception 'simulated crash'; end $$`,
    );
    await t.db.execute(
      sql`create trigger fail_consent_log before insert on consent_events for each row execute function fail_consent_log()`,
    );
    try {
      const signUp = await request('POST', '/api/account/signup', undefined, {
        plan: 'basic',
        name: 'Sin Registro',
        email,
        confirmEmail: email,
        phoneNumber: '+525598765431',
        confirmPhoneNumber: '+525598765431',
        password: 'ClaveSecreta9',
        confirmPassword: 'ClaveSecreta9',
        country: 'México',
        city: 'Oaxaca',
        homeUniversity: '',
        organizationId: null,
        promoMail: true,
        newsMail: true,
        terms: true,
      });
      expect(signUp.statusCode).toBe(500);
    } finally {
      await t.db.execute(sql`drop trigger fail_consent_log on consent_events`);
      await t.db.execute(sql`drop function fail_consent_log()`);
    }
    expect(await t.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('unsubscribes with one click (RFC 8058 POST) without signing in, and logs the withdrawal', async () => {
    const me = await member({ promoMail: true });
    const admin = await member({ type: 'Admin' });
    const mailing = await request('POST', '/api/admin/mailing', admin.cookie, {
      subject: 'Oferta',
      title: 'Oferta',
      message: 'Texto',
    });
    expect(mailing.statusCode).toBe(202);
    await runJobs();
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, me.user.email));
    const link = new URL(/href="([^"]*unsubscribe[^"]*)"/.exec(mail!.html)![1]!.replaceAll('&amp;', '&'));

    const forged = await t.app.inject({
      method: 'POST',
      url: `${link.pathname}?u=${me.user.id}&t=falso`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(forged.statusCode).toBe(400);
    const oneClick = await t.app.inject({
      method: 'POST',
      url: link.pathname + link.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example.net' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    expect(row!.promoMail).toBe(false);
    expect(await t.db.select().from(consentEvents).where(eq(consentEvents.userId, me.user.id))).toMatchObject([
      { kind: 'promoMail', given: false, source: 'enlace de baja' },
    ]);
    const page = await t.app.inject({ url: link.pathname + link.search });
    expect(page.statusCode).toBe(200);
  });

  it('unsubscribes with the multipart/form-data one-click POST that RFC 8058 recommends', async () => {
    const me = await member({ promoMail: true });
    const link = new URL(t.app.services.mailing.unsubscribeUrl(me.user.id));
    const boundary = 'cxvetboundary';
    const oneClick = await t.app.inject({
      method: 'POST',
      url: link.pathname + link.search,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json()).toEqual({ unsubscribed: true });
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    expect(row!.promoMail).toBe(false);
  });

  it('only asks on a GET of the link (mail scanners fetch links): the member stays subscribed until the button posts', async () => {
    const me = await member({ promoMail: true });
    const link = new URL(t.app.services.mailing.unsubscribeUrl(me.user.id));
    const page = await t.app.inject({ url: link.pathname + link.search });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const action = /<form method="post" action="([^"]+)"/.exec(page.body)![1]!.replaceAll('&amp;', '&');
    expect(page.body).toContain('Dejar de recibir correos promocionales</button>');
    const [before] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    expect(before!.promoMail).toBe(true);
    expect(await t.db.select().from(consentEvents).where(eq(consentEvents.userId, me.user.id))).toEqual([]);

    const pressed = await t.app.inject({
      method: 'POST',
      url: action,
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', origin: testPublicUrl },
      payload: '',
    });
    expect(pressed.statusCode).toBe(200);
    expect(pressed.body).toContain('Listo: ya no recibirás correos promocionales de CxVet.');
    const [after] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    expect(after!.promoMail).toBe(false);
  });

  it('shows a forged link as not valid on GET and refuses it on POST, changing nothing', async () => {
    const me = await member({ promoMail: true });
    const page = await t.app.inject({ url: `/api/mailing/unsubscribe?u=${me.user.id}&t=falso` });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('El enlace no es válido.');
    expect(page.body).not.toContain('<form');
    const posted = await t.app.inject({ method: 'POST', url: `/api/mailing/unsubscribe?u=${me.user.id}&t=falso` });
    expect(posted.statusCode).toBe(400);
    expect(posted.json()).toMatchObject({ code: 'UNSUBSCRIBE_LINK_INVALID', message: 'El enlace no es válido.' });
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    expect(row!.promoMail).toBe(true);
  });
});

describe('the log', () => {
  it('holds no name, e-mail or phone of a member who exported and deleted their data', async () => {
    const email = uniqueEmail('bitacora');
    const me = await member({ email, name: 'Bitácora Secreta', phoneNumber: '+525577778888' });
    const from = lines.length;
    await readyExport(me.cookie);
    const state = (await request('GET', '/api/privacy/export', me.cookie)).json();
    await request('GET', `/api/privacy/export/${state.export.id}/file`, me.cookie);
    await request('POST', '/api/privacy/delete-account', me.cookie, { password: 'Equivocada9', certificates: 'keep' });
    await request('POST', '/api/privacy/delete-account', me.cookie, { password: testPassword, certificates: 'keep' });
    await runJobs();
    const written = lines.slice(from).join('\n');
    expect(written).toContain('/api/privacy/delete-account');
    for (const secret of [email, 'Bitácora Secreta', '+525577778888', testPassword, 'Equivocada9'])
      expect(written).not.toContain(secret);
  });
});

describe('a deletion whose ledger cannot be written', () => {
  it('is not reported done and changes nothing: no deletion is ever missing from the ledger', async () => {
    // a path under a file: the ledger's folder cannot be created
    const broken = await createTestApp({ deletionLedgerPath: '/dev/null/cuentas-eliminadas.jsonl' });
    try {
      const me = await signedInAs(broken, { email: uniqueEmail('sin-libro'), name: 'Sin Libro' });
      const response = await broken.app.inject({
        method: 'POST',
        url: '/api/privacy/delete-account',
        remoteAddress: randomTestIp(),
        headers: { origin: testPublicUrl, cookie: me.cookie },
        payload: { password: testPassword, certificates: 'keep' },
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(500);
      const [row] = await broken.db.select().from(users).where(eq(users.id, me.user.id));
      expect(row).toMatchObject({ name: 'Sin Libro', anonymizedAt: null });
    } finally {
      await broken.close();
    }
  });
});
