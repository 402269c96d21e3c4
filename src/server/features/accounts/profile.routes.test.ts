import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, loginCookie, signedInAs, testPassword } from '#server/testing/factories.ts';
import { certificates, diplomas, sessions, users } from '#server/db/schema/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const day = 86_400_000;
let counter = 0;
const uniqueEmail = () => `perfil-${Date.now()}-${counter++}@example.com`;
const getProfile = (cookie?: string) => t.app.inject({ url: '/api/profile', headers: cookie ? { cookie } : {} });
const putProfile = (cookie: string | undefined, payload: object) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
    payload,
  });

function edit(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Nombre Editado',
    email: uniqueEmail(),
    phoneNumber: '+573001234567',
    country: 'Colombia',
    city: 'Bogotá',
    homeUniversity: '',
    organizationId: null,
    promoMail: false,
    newsMail: true,
    password: '',
    confirmPassword: '',
    ...overrides,
  };
}

describe('GET /api/profile', () => {
  it('shows a Premium member their data, preferences and next payment date', async () => {
    const paymentDay = new Date(Date.now() - 10 * day);
    const { cookie } = await signedInAs(t, {
      type: 'Premium',
      paymentDay,
      subscriptionId: 'I-1',
      city: 'León',
      promoMail: true,
    });
    const body = (await getProfile(cookie)).json();
    expect(body.personal).toMatchObject({ name: 'Usuario de Prueba', city: 'León' });
    expect(body.preferences).toEqual({ promoMail: true, newsMail: false });
    expect(body.membership).toMatchObject({
      type: 'Premium',
      paymentStatus: 'BIEN',
      paymentFailed: false,
      canDowngrade: true,
      canUpgrade: false,
    });
    expect(body.membership.nextPaymentDate).toBe(new Date(paymentDay.getTime() + 30 * day).toISOString());
  });

  it('omits the next payment date when there is no charge (Sin cobro)', async () => {
    const { cookie } = await signedInAs(t, { type: 'Premium', paymentDay: null });
    expect((await getProfile(cookie)).json().membership.nextPaymentDate).toBeNull();
  });

  it('flags a failed payment for the banner', async () => {
    const { cookie } = await signedInAs(t, { type: 'Gratis', paymentStatus: 'FALLIDO' });
    expect((await getProfile(cookie)).json().membership).toMatchObject({ paymentFailed: true, canUpgrade: true });
  });

  it('lists completed diplomas with a three-digit folio for Premium members only', async () => {
    const premium = await signedInAs(t, { type: 'Premium' });
    const basic = await signedInAs(t, { type: 'Gratis' });
    const [diploma] = await t.db.insert(diplomas).values({ title: 'Diplomado de Prueba' }).returning();
    await t.db.insert(certificates).values([
      { diplomaId: diploma!.id, userId: premium.user.id, diplomaTitle: 'Diplomado de Prueba', folio: 7 },
      { diplomaId: diploma!.id, userId: basic.user.id, diplomaTitle: 'Diplomado de Prueba', folio: 8 },
    ]);
    expect((await getProfile(premium.cookie)).json().certificates).toMatchObject([
      { name: 'Diplomado de Prueba', folio: '007' },
    ]);
    expect((await getProfile(basic.cookie)).json().certificates).toEqual([]);
  });

  it('is refused to a guest', async () => {
    expect((await getProfile()).statusCode).toBe(401);
  });
});

describe('PUT /api/profile', () => {
  it('saves personal data and preferences, and a new e-mail becomes the sign-in e-mail', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    // read once, so the profile is remembered with the session before it changes
    const before = (await getProfile(cookie)).json().personal;
    const input = edit();
    const response = await putProfile(cookie, input);
    expect(response.statusCode).toBe(200);
    const saved = {
      name: 'Nombre Editado',
      email: input.email,
      phoneNumber: '+573001234567',
      phoneNumberDisplay: '+57 300 1234567',
      country: 'Colombia',
      city: 'Bogotá',
    };
    expect(before.phoneNumberDisplay).not.toBe(saved.phoneNumberDisplay);
    expect(response.json().personal).toMatchObject(saved);
    expect((await getProfile(cookie)).json().personal).toMatchObject(saved);
    expect(response.json().preferences).toEqual({ promoMail: false, newsMail: true });
    await loginCookie(t, input.email);
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      remoteAddress: '10.9.9.9',
      headers: { origin: testPublicUrl },
      payload: { email: user.email, password: testPassword },
    });
    expect(old.statusCode).toBe(404);
  });

  it('changes the password when one is given', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const response = await putProfile(
      cookie,
      edit({ email: user.email, password: 'NuevaClave7', confirmPassword: 'NuevaClave7' }),
    );
    expect(response.statusCode).toBe(200);
    await loginCookie(t, user.email, 'NuevaClave7');
  });

  it('signs every other device out when the password changes; this one stays signed in', async () => {
    const { cookie: laptop, user } = await signedInAs(t, { type: 'Gratis' });
    const phone = await loginCookie(t, user.email);
    const response = await putProfile(
      phone,
      edit({ email: user.email, password: 'NuevaClave7', confirmPassword: 'NuevaClave7' }),
    );
    expect(response.statusCode).toBe(200);
    const me = async (cookie: string) => (await t.app.inject({ url: '/api/me', headers: { cookie } })).json().user;
    expect(await me(laptop)).toBeNull();
    expect((await me(phone))?.id).toBe(user.id);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
  });

  it('keeps every session when only personal data changes', async () => {
    const { cookie: laptop, user } = await signedInAs(t, { type: 'Gratis' });
    const phone = await loginCookie(t, user.email);
    expect((await putProfile(phone, edit({ email: user.email, city: 'Quito' }))).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/me', headers: { cookie: laptop } })).json().user?.id).toBe(user.id);
  });

  it('changes the e-mail or password only right after a sign-in; other data any time', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    await t.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 20 * 60_000) })
      .where(eq(sessions.userId, user.id));
    for (const change of [
      { email: uniqueEmail() },
      { email: user.email, password: 'OtraClave8', confirmPassword: 'OtraClave8' },
    ]) {
      const stale = await putProfile(cookie, edit(change));
      expect(stale.statusCode).toBe(403);
      expect(stale.json()).toMatchObject({
        code: 'REAUTH_REQUIRED',
        message: 'Por tu seguridad, vuelve a iniciar sesión para editar tu cuenta.',
      });
    }
    expect((await putProfile(cookie, edit({ email: user.email, city: 'Lima' }))).statusCode).toBe(200);
    await loginCookie(t, user.email);
  });

  it('never changes type, payment status or subscription fields', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis', paymentStatus: 'FALLIDO' });
    const response = await putProfile(cookie, {
      ...edit({ email: user.email }),
      type: 'Premium',
      paymentStatus: 'BIEN',
      annualPlan: true,
      subscriptionId: 'MANUAL',
      paymentDay: new Date().toISOString(),
      terminationDate: new Date(Date.now() + 365 * day).toISOString(),
    });
    expect(response.statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({
      type: 'Gratis',
      paymentStatus: 'FALLIDO',
      annualPlan: false,
      subscriptionId: null,
      paymentDay: null,
      terminationDate: null,
    });
  });

  it('refuses an e-mail another account uses', async () => {
    const other = await createUser(t, { email: uniqueEmail() });
    const { cookie } = await signedInAs(t, { type: 'Gratis' });
    const response = await putProfile(cookie, edit({ email: other.email.toUpperCase() }));
    expect(response.statusCode).toBe(409);
    expect(response.json().fields).toEqual({ email: 'Este correo ya está registrado, elige otro por favor.' });
  });

  it('refuses a name with characters the certificate cannot print, naming them; Chinese and emoji are printable', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const refused = await putProfile(cookie, edit({ email: user.email, name: 'Omar عمر' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({
      name: 'Tu constancia no puede imprimir estos caracteres del nombre: ع م ر. Escríbelos de otra forma, por favor.',
    });
    const saved = await putProfile(cookie, edit({ email: user.email, name: 'Pablo 李 Prémium Ñúñez 🐶' }));
    expect(saved.statusCode).toBe(200);
    expect(saved.json().personal.name).toBe('Pablo 李 Prémium Ñúñez 🐶');
  });

  it('names every missing field and the e-mail, phone and password rules', async () => {
    const { cookie } = await signedInAs(t, { type: 'Gratis' });
    const empty = await putProfile(cookie, edit({ name: '', email: '', phoneNumber: '', country: '', city: '' }));
    expect(empty.statusCode).toBe(400);
    const required = 'Debes llenar este campo';
    expect(empty.json().fields).toEqual({
      name: required,
      email: required,
      phoneNumber: required,
      country: required,
      city: required,
    });
    const wrong = await putProfile(
      cookie,
      edit({ email: 'mal', phoneNumber: '+1 2', password: '123', confirmPassword: '123' }),
    );
    expect(wrong.json().fields).toEqual({
      email: 'Introduce un correo válido.',
      phoneNumber: 'Introduce un número de teléfono válido.',
      password: 'La contraseña debe tener al menos 6 caracteres.',
    });
  });

  it('is refused to a guest and from another site', async () => {
    expect((await putProfile(undefined, edit())).statusCode).toBe(401);
    const { cookie } = await signedInAs(t, { type: 'Gratis' });
    const crossSite = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: { cookie, origin: 'https://evil.example' },
      payload: edit(),
    });
    expect(crossSite.statusCode).toBe(403);
  });
});
