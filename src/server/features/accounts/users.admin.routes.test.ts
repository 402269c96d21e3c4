import { describe, expect, it } from 'vitest';
import { createTestApp } from '#server/testing/test-app.ts';
import { useConsoleTestApp } from '#server/testing/console-test-app.ts';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';
import { createUser, loginCookie, signedInAs, testPassword } from '#server/testing/factories.ts';
import {
  organizations,
  paymentSubscriptions,
  payments,
  publicUniversities,
  reportExports,
  sessions,
  users,
} from '#server/db/schema/index.ts';

const { state, call: send } = useConsoleTestApp({ type: 'Admin', email: 'jefa@example.com', name: 'Jefa' });
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: object) =>
  send(method, url, payload, cookie ?? null);

describe('users list', () => {
  it('searches name, e-mail and phone ignoring case and accents, pages by 12 and sorts in the database', async () => {
    for (let index = 0; index < 14; index++) {
      await createUser(state.t, {
        name: `Médica ${String(index).padStart(2, '0')}`,
        email: `medica${index}@vet.example`,
        phoneNumber: `+52551000${index}`,
      });
    }
    const page = async (query: string) => (await call('GET', `/api/admin/users?${query}`, state.admin.cookie)).json();
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
    await createUser(state.t, { name: 'Manual', type: 'Premium', subscriptionId: 'MANUAL', paymentDay: new Date() });
    const body = (await call('GET', '/api/admin/users?manualOnly=true', state.admin.cookie)).json();
    expect(body.items.map((item: { name: string }) => item.name)).toEqual(['Manual']);
    expect(body.items[0].isManualPremium).toBe(true);
  });
});

describe('user form', () => {
  it('creates a credentialed Gratis account with the console defaults and remembers a new university', async () => {
    const [university] = await state.t.db
      .insert(organizations)
      .values({ title: 'UNAM', type: 'Universidad' })
      .returning();
    const response = await call('POST', '/api/admin/users', state.admin.cookie, {
      name: 'Nueva',
      email: 'Nueva@Example.com',
      password: 'Clave123',
      phoneNumber: '+525512345678',
      homeUniversity: 'Universidad de Guadalajara',
      organizationId: university!.id,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      email: 'nueva@example.com',
      type: 'Gratis',
      country: 'México',
      city: 'México',
      paymentStatus: 'BIEN',
    });
    const [row] = await state.t.db.select().from(users).where(eq(users.email, 'nueva@example.com'));
    expect(row).toMatchObject({ paymentDay: null, subscriptionId: null, promoMail: false, newsMail: false });
    expect(
      await state.t.db
        .select()
        .from(publicUniversities)
        .where(eq(publicUniversities.name, 'Universidad de Guadalajara')),
    ).toHaveLength(1);
    await loginCookie(state.t, 'nueva@example.com', 'Clave123');
  });

  it('refuses a taken e-mail, a short password and a company as university', async () => {
    const [company] = await state.t.db.insert(organizations).values({ title: 'Empresa', type: 'Empresa' }).returning();
    expect(
      (
        await call('POST', '/api/admin/users', state.admin.cookie, {
          name: 'X',
          email: 'jefa@example.com',
          password: 'Clave123',
        })
      ).json(),
    ).toMatchObject({
      code: 'EMAIL_TAKEN',
      fields: { email: 'Este correo ya está registrado, elige otro por favor.' },
    });
    const short = await call('POST', '/api/admin/users', state.admin.cookie, {
      name: 'X',
      email: 'x1@example.com',
      password: '123',
    });
    expect(short.json().fields).toEqual({ password: 'La contraseña debe tener al menos 6 caracteres.' });
    const wrong = await call('POST', '/api/admin/users', state.admin.cookie, {
      name: 'X',
      email: 'x2@example.com',
      password: 'Clave123',
      organizationId: company!.id,
    });
    expect(wrong.json().fields).toEqual({ organizationId: 'Debes seleccionar un valor' });
  });

  it('changes the e-mail and password: the old ones stop working and sessions end', async () => {
    const user = await createUser(state.t, { email: 'cambia@example.com' });
    const cookie = await loginCookie(state.t, 'cambia@example.com');
    const response = await call('PUT', `/api/admin/users/${user.id}`, state.admin.cookie, {
      name: 'Cambiada',
      email: 'cambiada@example.com',
      password: 'OtraClave9',
      phoneNumber: '',
    });
    expect(response.statusCode).toBe(200);
    expect((await state.t.app.inject({ url: '/api/me', headers: { cookie } })).json().user).toBeNull();
    await loginCookie(state.t, 'cambiada@example.com', 'OtraClave9');
    await expect(loginCookie(state.t, 'cambiada@example.com', testPassword)).rejects.toThrow();
  });

  it('never changes type or payment fields, whatever the body says', async () => {
    const user = await createUser(state.t, { email: 'tipo@example.com' });
    await call('PUT', `/api/admin/users/${user.id}`, state.admin.cookie, {
      name: 'T',
      email: 'tipo@example.com',
      type: 'Admin',
      paymentStatus: 'FALLIDO',
    });
    const [row] = await state.t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ type: 'Gratis', paymentStatus: 'BIEN' });
  });

  it('deletes an account with its sessions, but not the acting administrator', async () => {
    const { user } = await signedInAs(state.t, { email: 'borrar@example.com' });
    expect((await call('DELETE', `/api/admin/users/${user.id}`, state.admin.cookie)).statusCode).toBe(204);
    expect(await state.t.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
    expect(await state.t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await call('DELETE', `/api/admin/users/${state.admin.user.id}`, state.admin.cookie)).statusCode).toBe(403);
  });

  it('anonymises instead of deleting an account with payments, so the accounting records stay', async () => {
    const { user, cookie } = await signedInAs(state.t, { email: 'con-pagos@example.com', name: 'Pagadora Constante' });
    await state.t.db.insert(payments).values({
      userId: user.id,
      provider: 'simulado',
      providerPaymentId: 'pay-admin-delete',
      kind: 'subscription',
      result: 'COMPLETADO',
      amountCents: 999,
    });
    expect((await call('DELETE', `/api/admin/users/${user.id}`, state.admin.cookie)).statusCode).toBe(204);
    const [row] = await state.t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ name: expect.not.stringContaining('Pagadora'), isDisabled: true });
    expect(row!.email).not.toBe('con-pagos@example.com');
    expect(row!.anonymizedAt).not.toBeNull();
    expect(await state.t.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);
    expect(await state.t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await call('GET', '/api/me', cookie)).json()).toMatchObject({ user: null });
    const list = (await call('GET', '/api/admin/users?q=Pagadora', state.admin.cookie)).json() as { total: number };
    expect(list.total).toBe(0);
    // a second delete finds nobody
    expect((await call('DELETE', `/api/admin/users/${user.id}`, state.admin.cookie)).statusCode).toBe(404);
  });

  it('anonymises an account whose only record is a subscription, too: any of the kept records is enough', async () => {
    const { user } = await signedInAs(state.t, { email: 'solo-suscripcion@example.com' });
    await state.t.db
      .insert(paymentSubscriptions)
      .values({ userId: user.id, provider: 'simulado', providerSubscriptionId: 'sub-admin-delete', plan: 'monthly' });
    expect((await call('DELETE', `/api/admin/users/${user.id}`, state.admin.cookie)).statusCode).toBe(204);
    const [row] = await state.t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.anonymizedAt).not.toBeNull();
    expect(
      await state.t.db.select().from(paymentSubscriptions).where(eq(paymentSubscriptions.userId, user.id)),
    ).toHaveLength(1);
  });
});

describe('users report', () => {
  it('streams Usuarios-{date}.xlsx with the spec columns, order, exclusions and renewal dates', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin' });
      const day = (iso: string) => new Date(iso);
      await createUser(fresh, { name: 'Gratis Uno', city: ' Puebla & <Cholula>', country: 'México', phoneNumber: '' });
      await createUser(fresh, {
        name: 'Mensual',
        type: 'Premium',
        paymentDay: day('2026-11-01T00:00:00Z'),
        homeUniversity: 'UNAM',
      });
      await createUser(fresh, {
        name: 'Anual',
        type: 'Premium',
        annualPlan: true,
        paymentDay: day('2026-01-10T00:00:00Z'),
      });
      await createUser(fresh, { name: '=HYPERLINK("http://evil")', type: 'Legacy' });
      const response = await fresh.app.inject({
        url: '/api/admin/users/report.xlsx',
        headers: { cookie: boss.cookie },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="Usuarios-\d{4}-\d{2}-\d{2}\.xlsx"$/,
      );
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.read(Readable.from(response.rawPayload));
      const sheet = workbook.getWorksheet('Usuarios')!;
      const rows = sheet
        .getSheetValues()
        .slice(1)
        .map((row) => (row as unknown[]).slice(1));
      expect(rows[0]).toEqual([
        'Nombre',
        'Correo',
        'Teléfono',
        'Membresía',
        'Ciudad',
        'País',
        'Fecha de registro (America/Mexico_City)',
        'Universidad de origen',
        'Fecha de renovación (America/Mexico_City)',
      ]);
      expect(rows.slice(1).map((row) => row[0])).toEqual([
        'Anual',
        'Mensual',
        'Gratis Uno',
        '=HYPERLINK("http://evil")',
      ]);
      expect(rows[1]![3]).toBe('Premium anual');
      expect(rows[2]![7]).toBe('UNAM');
      expect(rows[3]![2]).toBe('-');
      expect(rows[3]![8]).toBe('N/A');
      // real date cells with a date format, which spreadsheet apps sort and filter as dates
      expect(rows[2]![8]).toBeInstanceOf(Date);
      expect(rows[2]![6]).toBeInstanceOf(Date);
      expect(sheet.getRow(3).getCell(9).numFmt).toBe('dd/mm/yyyy');
      // XML's special characters and a leading space come back as written
      expect(rows[3]![4]).toBe(' Puebla & <Cholula>');
      const formulaCell = sheet.getRow(5).getCell(1);
      expect(formulaCell.type).toBe(ExcelJS.ValueType.String);
      expect(formulaCell.formula).toBeUndefined();
      // shown as text, never evaluated: the Text number format; ordinary cells keep the general one
      expect(formulaCell.numFmt).toBe('@');
      expect(sheet.getRow(4).getCell(1).numFmt).toBeUndefined();
      expect(sheet.columns.map((column) => column.width)).toEqual([30, 34, 18, 18, 18, 18, 18, 30, 20]);
      // read again through the zip's central directory, as a desktop spreadsheet opens it
      const whole = new ExcelJS.Workbook();
      await whole.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      expect(
        whole
          .getWorksheet('Usuarios')!
          .getSheetValues()
          .slice(1)
          .map((row) => (row as unknown[]).slice(1)),
      ).toEqual(rows);
      const [exported] = await fresh.db.select().from(reportExports);
      expect(exported).toMatchObject({ requestedBy: boss.user.id, rowCount: 4 });
    } finally {
      await fresh.close();
    }
  });

  it("writes the dates on the site's clock: an evening sign-up in Mexico City is that day, not the next", async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin' });
      const evening = await createUser(fresh, { name: 'Tarde' });
      await fresh.db
        .update(users)
        // 21:30 on 26 November in Mexico City (UTC-6)
        .set({ createdAt: new Date('2026-11-27T03:30:00Z') })
        .where(eq(users.id, evening.id));
      const response = await fresh.app.inject({
        url: '/api/admin/users/report.xlsx',
        headers: { cookie: boss.cookie },
      });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      const row = workbook.getWorksheet('Usuarios')!.getRow(2);
      expect(row.getCell(1).value).toBe('Tarde');
      // a spreadsheet date has no zone: the reader shows the serial's day, which ExcelJS hands over as UTC midnight
      expect(row.getCell(7).value).toEqual(new Date('2026-11-26T00:00:00Z'));
      expect(row.getCell(7).numFmt).toBe('dd/mm/yyyy');
    } finally {
      await fresh.close();
    }
  });

  it('writes every member once and in order across several read batches', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin' });
      // 1,234 members: two full batches of 500 and a partial one; every 7th Premium, every 14th of those annual
      await fresh.db.insert(users).values(
        Array.from({ length: 1234 }, (_, index) => ({
          id: `lote-${index}`,
          name: `Miembro ${String(index).padStart(4, '0')}`,
          email: `lote${index}@example.com`,
          type: index % 7 === 0 ? ('Premium' as const) : ('Gratis' as const),
          annualPlan: index % 14 === 0,
        })),
      );
      const response = await fresh.app.inject({
        url: '/api/admin/users/report.xlsx',
        headers: { cookie: boss.cookie },
      });
      expect(response.statusCode).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.read(Readable.from(response.rawPayload));
      const rows = workbook
        .getWorksheet('Usuarios')!
        .getSheetValues()
        .slice(2)
        .map((row) => (row as unknown[]).slice(1));
      const names = rows.map((row) => String(row[0]));
      expect(names).toHaveLength(1234);
      expect(new Set(names).size).toBe(1234);
      const memberships = rows.map((row) => String(row[3]));
      const firstMonthly = memberships.indexOf('Premium mensual');
      const firstGratis = memberships.indexOf('Gratis');
      expect(memberships.slice(0, firstMonthly).every((membership) => membership === 'Premium anual')).toBe(true);
      expect(memberships.slice(firstMonthly, firstGratis).every((membership) => membership === 'Premium mensual')).toBe(
        true,
      );
      expect(memberships.slice(firstGratis).every((membership) => membership === 'Gratis')).toBe(true);
      expect(firstMonthly).toBe(Math.ceil(1234 / 14));
      expect(firstGratis).toBe(Math.ceil(1234 / 7));
      const [exported] = await fresh.db.select().from(reportExports);
      expect(exported).toMatchObject({ rowCount: 1234 });
    } finally {
      await fresh.close();
    }
  });
});
