import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';
import { createReadStream } from 'node:fs';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, loginCookie, signedInAs, testPassword } from '#server/testing/factories.ts';
import { analyticsEvents, bulkMailDeliveries, mailOutbox, organizations, publicUniversities, reportExports, sessions, users } from '#server/db/schema/index.ts';

let t: TestApp;
let admin: { cookie: string; user: { id: string } };
let gratis: string;
let premium: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAs(t, { type: 'Admin', email: 'jefa@example.com', name: 'Jefa' });
  gratis = (await signedInAs(t, { type: 'Gratis' })).cookie;
  premium = (await signedInAs(t, { type: 'Premium' })).cookie;
});
afterAll(async () => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) }, ...(payload ? { payload } : {}) });

describe('every people endpoint is for Admins only', () => {
  it.each([
    ['GET', '/api/admin/users'],
    ['GET', '/api/admin/users/report.xlsx'],
    ['GET', '/api/admin/users/x'],
    ['POST', '/api/admin/users'],
    ['PUT', '/api/admin/users/x'],
    ['DELETE', '/api/admin/users/x'],
    ['GET', '/api/admin/manual-premium'],
    ['GET', '/api/admin/manual-premium/candidates'],
    ['POST', '/api/admin/manual-premium/upgrade'],
    ['POST', '/api/admin/manual-premium/downgrade'],
    ['GET', '/api/admin/statistics'],
    ['POST', '/api/admin/mailing'],
  ] as const)('%s %s', async (method, url) => {
    expect((await call(method, url, undefined, method === 'GET' || method === 'DELETE' ? undefined : {})).statusCode).toBe(401);
    expect((await call(method, url, gratis, method === 'GET' || method === 'DELETE' ? undefined : {})).statusCode).toBe(403);
    expect((await call(method, url, premium, method === 'GET' || method === 'DELETE' ? undefined : {})).statusCode).toBe(403);
  });
});

describe('users list', () => {
  it('searches name, e-mail and phone ignoring case and accents, pages by 12 and sorts in the database', async () => {
    for (let index = 0; index < 14; index++) {
      await createUser(t, { name: `Médica ${String(index).padStart(2, '0')}`, email: `medica${index}@vet.example`, phoneNumber: `+52551000${index}` });
    }
    const page = async (query: string) => (await call('GET', `/api/admin/users?${query}`, admin.cookie)).json();
    const first = await page('q=MEDICA&sort=name&dir=asc');
    expect(first.total).toBe(14);
    expect(first.items).toHaveLength(12);
    expect(first.items[0].name).toBe('Médica 00');
    const second = await page('q=medica&sort=name&dir=asc&page=2');
    expect(second.items.map((item: { name: string }) => item.name)).toEqual(['Médica 12', 'Médica 13']);
    expect((await page('q=vet.example&sort=email&dir=desc')).items[0].email).toBe('medica9@vet.example');
    expect((await page('q=5510003')).items.map((item: { name: string }) => item.name)).toEqual(['Médica 03']);
  });

  it('shows only manual Premium users when asked', async () => {
    await createUser(t, { name: 'Manual', type: 'Premium', subscriptionId: 'MANUAL', paymentDay: new Date() });
    const body = (await call('GET', '/api/admin/users?manualOnly=true', admin.cookie)).json();
    expect(body.items.map((item: { name: string }) => item.name)).toEqual(['Manual']);
    expect(body.items[0].isManualPremium).toBe(true);
  });
});

describe('user form', () => {
  it('creates a credentialed Gratis account with the console defaults and remembers a new university', async () => {
    const [university] = await t.db.insert(organizations).values({ title: 'UNAM', type: 'Universidad' }).returning();
    const response = await call('POST', '/api/admin/users', admin.cookie, {
      name: 'Nueva', email: 'Nueva@Example.com', password: 'Clave123', phoneNumber: '+525512345678',
      homeUniversity: 'Universidad de Guadalajara', organizationId: university!.id,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ email: 'nueva@example.com', type: 'Gratis', country: 'México', city: 'México', paymentStatus: 'BIEN' });
    const [row] = await t.db.select().from(users).where(eq(users.email, 'nueva@example.com'));
    expect(row).toMatchObject({ paymentDay: null, subscriptionId: null, promoMail: false, newsMail: false });
    expect(await t.db.select().from(publicUniversities).where(eq(publicUniversities.name, 'Universidad de Guadalajara'))).toHaveLength(1);
    await loginCookie(t, 'nueva@example.com', 'Clave123');
  });

  it('refuses a taken e-mail, a short password and a company as university', async () => {
    const [company] = await t.db.insert(organizations).values({ title: 'Empresa', type: 'Empresa' }).returning();
    expect((await call('POST', '/api/admin/users', admin.cookie, { name: 'X', email: 'jefa@example.com', password: 'Clave123' })).json()).toMatchObject({
      code: 'EMAIL_TAKEN',
      fields: { email: 'Este correo ya está registrado, elige otro por favor.' },
    });
    const short = await call('POST', '/api/admin/users', admin.cookie, { name: 'X', email: 'x1@example.com', password: '123' });
    expect(short.json().fields).toEqual({ password: 'La contraseña debe tener al menos 6 caracteres.' });
    const wrong = await call('POST', '/api/admin/users', admin.cookie, { name: 'X', email: 'x2@example.com', password: 'Clave123', organizationId: company!.id });
    expect(wrong.json().fields).toEqual({ organizationId: 'Debes seleccionar un valor' });
  });

  it('changes the e-mail and password: the old ones stop working and sessions end', async () => {
    const user = await createUser(t, { email: 'cambia@example.com' });
    const cookie = await loginCookie(t, 'cambia@example.com');
    const response = await call('PUT', `/api/admin/users/${user.id}`, admin.cookie, {
      name: 'Cambiada', email: 'cambiada@example.com', password: 'OtraClave9', phoneNumber: '',
    });
    expect(response.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/me', headers: { cookie } })).json().user).toBeNull();
    await loginCookie(t, 'cambiada@example.com', 'OtraClave9');
    await expect(loginCookie(t, 'cambiada@example.com', testPassword)).rejects.toThrow();
  });

  it('never changes type or payment fields, whatever the body says', async () => {
    const user = await createUser(t, { email: 'tipo@example.com' });
    await call('PUT', `/api/admin/users/${user.id}`, admin.cookie, { name: 'T', email: 'tipo@example.com', type: 'Admin', paymentStatus: 'FALLIDO' });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ type: 'Gratis', paymentStatus: 'BIEN' });
  });

  it('deletes an account with its sessions, but not the acting administrator', async () => {
    const { user } = await signedInAs(t, { email: 'borrar@example.com' });
    expect((await call('DELETE', `/api/admin/users/${user.id}`, admin.cookie)).statusCode).toBe(204);
    expect(await t.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await call('DELETE', `/api/admin/users/${admin.user.id}`, admin.cookie)).statusCode).toBe(403);
  });
});

describe('users report', () => {
  it('streams Usuarios-{date}.xlsx with the spec columns, order, exclusions and renewal dates', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin' });
      const day = (iso: string) => new Date(iso);
      await createUser(fresh, { name: 'Gratis Uno', city: 'Puebla', country: 'México', phoneNumber: '' });
      await createUser(fresh, { name: 'Mensual', type: 'Premium', paymentDay: day('2026-11-01T00:00:00Z'), homeUniversity: 'UNAM' });
      await createUser(fresh, { name: 'Anual', type: 'Premium', annualPlan: true, paymentDay: day('2026-01-10T00:00:00Z') });
      await createUser(fresh, { name: '=HYPERLINK("http://evil")', type: 'Legacy' });
      const response = await fresh.app.inject({ url: '/api/admin/users/report.xlsx', headers: { cookie: boss.cookie } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="Usuarios-\d{4}-\d{2}-\d{2}\.xlsx"$/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.read(Readable.from(response.rawPayload));
      const sheet = workbook.getWorksheet('Usuarios')!;
      const rows = sheet.getSheetValues().slice(1).map((row) => (row as unknown[]).slice(1));
      expect(rows[0]).toEqual(['Nombre', 'Correo', 'Teléfono', 'Membresía', 'Ciudad', 'País', 'Fecha de registro', 'Universidad de origen', 'Fecha de renovación']);
      expect(rows.slice(1).map((row) => row[0])).toEqual(['Anual', 'Mensual', 'Gratis Uno', '=HYPERLINK("http://evil")']);
      expect(rows[1]![3]).toBe('Premium anual');
      expect(rows[2]![7]).toBe('UNAM');
      expect(rows[3]![2]).toBe('-');
      expect(rows[3]![8]).toBe('N/A');
      expect(String(rows[2]![8])).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const formulaCell = sheet.getRow(5).getCell(1);
      expect(formulaCell.type).toBe(ExcelJS.ValueType.String);
      expect(formulaCell.formula).toBeUndefined();
      const [exported] = await fresh.db.select().from(reportExports);
      expect(exported).toMatchObject({ requestedBy: boss.user.id, rowCount: 4 });
    } finally {
      await fresh.close();
    }
  });
});

describe('manual Premium', () => {
  it('upgrades a free user for a month, lists it with its expiry, and downgrades it', async () => {
    const user = await createUser(t, { email: 'mano@example.com' });
    expect((await call('GET', '/api/admin/manual-premium/candidates?q=mano', admin.cookie)).json().users.map((u: { email: string }) => u.email)).toEqual(['mano@example.com']);
    expect((await call('POST', '/api/admin/manual-premium/upgrade', admin.cookie, { userId: user.id, period: 'month' })).statusCode).toBe(204);
    const [upgraded] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(upgraded).toMatchObject({ type: 'Premium', subscriptionId: 'MANUAL', annualPlan: false, paymentStatus: 'BIEN' });
    const listed = (await call('GET', '/api/admin/manual-premium', admin.cookie)).json().users.find((u: { id: string }) => u.id === user.id);
    expect(listed.plan).toBe('Mensual');
    expect(new Date(listed.expiresAt).getTime() - new Date(listed.paymentDay).getTime()).toBe(30 * 86_400_000);
    expect((await call('POST', '/api/admin/manual-premium/upgrade', admin.cookie, { userId: user.id, period: 'year' })).statusCode).toBe(409);
    expect((await call('POST', '/api/admin/manual-premium/downgrade', admin.cookie, { userId: user.id })).statusCode).toBe(204);
    const [downgraded] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(downgraded).toMatchObject({ type: 'Gratis', subscriptionId: null, paymentDay: null, terminationDate: null, annualPlan: false, paymentStatus: 'BIEN' });
  });

  it('does not downgrade a paying subscriber', async () => {
    const user = await createUser(t, { type: 'Premium', subscriptionId: 'I-PAYPAL' });
    expect((await call('POST', '/api/admin/manual-premium/downgrade', admin.cookie, { userId: user.id })).statusCode).toBe(409);
  });
});

describe('statistics', () => {
  it('counts users by type with Premium monthly = Premium − annual, events by label and type, and top countries', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin', country: 'México' });
      await createUser(fresh, { type: 'Premium', annualPlan: true, country: 'México' });
      await createUser(fresh, { type: 'Premium', country: 'Perú' });
      await createUser(fresh, { type: 'Premium', country: 'Perú' });
      await createUser(fresh, { type: 'Gratis', country: 'Chile' });
      await fresh.db.insert(analyticsEvents).values([
        { category: 'VIDEOS', label: 'Cistotomía', userType: 'Gest', createdAt: new Date('2026-10-01T10:00:00Z') },
        { category: 'VIDEOS', label: 'Cistotomía', userType: 'Premium', createdAt: new Date('2026-10-02T10:00:00Z') },
        { category: 'VIDEOS', label: 'Enucleación', userType: 'Gratis', createdAt: new Date('2026-11-02T10:00:00Z') },
        { category: 'FASCICULOS', label: 'Cistotomía', userType: 'Premium', createdAt: new Date('2026-10-02T10:00:00Z') },
      ]);
      const get = async (query = '') => (await fresh.app.inject({ url: `/api/admin/statistics${query}`, headers: { cookie: boss.cookie } })).json();
      const all = await get();
      expect(all.users).toEqual({ total: 5, gratis: 1, premium: 3, premiumAnnual: 1, premiumMonthly: 2, legacy: 0, admin: 1 });
      expect(all.tables.VIDEOS).toEqual([
        { label: 'Cistotomía', total: 2, byUserType: { Gest: 1, Premium: 1 } },
        { label: 'Enucleación', total: 1, byUserType: { Gratis: 1 } },
      ]);
      expect(all.tables.DIPLOMADO_PREVIEW_PAGE).toEqual([]);
      expect(all.topCountries).toEqual([
        { country: 'México', users: 2 },
        { country: 'Perú', users: 2 },
        { country: 'Chile', users: 1 },
      ]);
      const october = await get('?from=2026-10-02&to=2026-10-31&category=VIDEOS');
      expect(october.tables.VIDEOS).toEqual([{ label: 'Cistotomía', total: 1, byUserType: { Premium: 1 } }]);
      expect(october.tables.FASCICULOS).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe('bulk e-mail', () => {
  it('checks the fields with the spec messages', async () => {
    const empty = await call('POST', '/api/admin/mailing', admin.cookie, { subject: '', title: '', message: '' });
    expect(empty.json().fields).toMatchObject({ subject: 'Debes llenar este campo.', title: 'Debes llenar este campo.' });
    const noBody = await call('POST', '/api/admin/mailing', admin.cookie, { subject: 'A', title: 'B', message: '' });
    expect(noBody.json().fields).toEqual({ message: 'Debes agregar un mensaje o seleccionar una imagen' });
  });

  it('queues a mail to exactly the opted-in members, sends each once and lets them unsubscribe', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin' });
      const yes = await createUser(fresh, { email: 'si@example.com', promoMail: true });
      await createUser(fresh, { email: 'tambien@example.com', promoMail: true, type: 'Premium' });
      await createUser(fresh, { email: 'no@example.com', promoMail: false });
      const response = await fresh.app.inject({
        method: 'POST',
        url: '/api/admin/mailing',
        headers: { cookie: boss.cookie, origin: testPublicUrl },
        payload: { subject: 'Novedades\r\nBcc: todos@evil.example', title: 'Nuevos videos', message: 'Hola\nHay cirugías nuevas' },
      });
      expect(response.statusCode).toBe(202);
      expect(response.json().recipients).toBe(2);
      expect(await fresh.db.select().from(mailOutbox)).toHaveLength(0);
      await fresh.app.services.jobs.runDue();
      await fresh.app.services.jobs.runDue();
      const mails = await fresh.db.select().from(mailOutbox);
      expect(mails.map((mail) => mail.to).sort()).toEqual(['si@example.com', 'tambien@example.com']);
      expect(mails.every((mail) => mail.subject === 'Novedades Bcc: todos@evil.example')).toBe(true);
      const deliveries = await fresh.db.select().from(bulkMailDeliveries);
      expect(deliveries.every((delivery) => delivery.sentAt && delivery.attempts === 1)).toBe(true);

      const link = /http\S+\/api\/mailing\/unsubscribe\?\S+/.exec(mails.find((mail) => mail.to === 'si@example.com')!.text)![0];
      const url = new URL(link);
      const forged = await fresh.app.inject({ url: `${url.pathname}?u=${url.searchParams.get('u')}&t=forged` });
      expect(forged.statusCode).toBe(400);
      const unsubscribed = await fresh.app.inject({ url: `${url.pathname}${url.search}` });
      expect(unsubscribed.statusCode).toBe(200);
      expect(unsubscribed.body).toContain('ya no recibirás correos promocionales');
      const [row] = await fresh.db.select().from(users).where(eq(users.id, yes.id));
      expect(row!.promoMail).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('sends an uploaded image with the mail and refuses any other file key', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin' });
      await createUser(fresh, { email: 'img@example.com', promoMail: true });
      const post = (image: string) =>
        fresh.app.inject({
          method: 'POST',
          url: '/api/admin/mailing',
          headers: { cookie: boss.cookie, origin: testPublicUrl },
          payload: { subject: 'S', title: 'Cartel', message: '', image },
        });
      const { key } = await fresh.app.services.uploads.store({
        target: 'bulk-mail-image',
        fileName: 'cartel.png',
        stream: createReadStream('assets/demo/logo.png'),
      });
      expect((await post('procedures/x/1_video.mp4')).json().fields).toEqual({ image: 'El formato del archivo no es correcto.' });
      expect((await post(key)).statusCode).toBe(202);
      await fresh.app.services.jobs.runDue();
      const [mail] = await fresh.db.select().from(mailOutbox);
      expect(mail!.html).toContain(`${testPublicUrl}/media/${key}`);
      expect(await fresh.app.services.uploads.isPending(key)).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('never mails twice a recipient whose send was cut off by a restart', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin' });
      await createUser(fresh, { email: 'a@example.com', promoMail: true });
      await createUser(fresh, { email: 'b@example.com', promoMail: true });
      const created = await fresh.app.inject({
        method: 'POST',
        url: '/api/admin/mailing',
        headers: { cookie: boss.cookie, origin: testPublicUrl },
        payload: { subject: 'S', title: 'T', message: 'M' },
      });
      // the previous process had claimed a@ (attempt marked) and died before recording the result
      const [userA] = await fresh.db.select().from(users).where(eq(users.email, 'a@example.com'));
      await fresh.db.update(bulkMailDeliveries).set({ attempts: 1 }).where(eq(bulkMailDeliveries.userId, userA!.id));
      await fresh.app.services.jobs.runDue();
      expect((await fresh.db.select().from(mailOutbox)).map((mail) => mail.to)).toEqual(['b@example.com']);
      expect(created.statusCode).toBe(202);
    } finally {
      await fresh.close();
    }
  });
});
