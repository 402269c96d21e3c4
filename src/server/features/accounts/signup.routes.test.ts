import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, randomTestIp } from '#server/testing/factories.ts';
import { mailOutbox, organizations, publicUniversities, users } from '#server/db/schema/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

let counter = 0;
const uniqueEmail = () => `alta-${Date.now()}-${counter++}@example.com`;

function validInput(overrides: Record<string, unknown> = {}) {
  const email = (overrides.email as string | undefined) ?? uniqueEmail();
  return {
    plan: 'basic',
    name: 'Laura Pérez',
    email,
    confirmEmail: email,
    phoneNumber: '+525512345678',
    confirmPhoneNumber: '+525512345678',
    password: 'Secreta1',
    confirmPassword: 'Secreta1',
    country: 'México',
    city: 'Puebla',
    homeUniversity: '',
    organizationId: null,
    promoMail: true,
    newsMail: false,
    terms: true,
    ...overrides,
  };
}

const signUp = (payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/account/signup',
    remoteAddress: randomTestIp(),
    headers: { origin: testPublicUrl },
    payload,
  });

describe('POST /api/account/signup', () => {
  it('creates a Basic account with empty payment fields, signs it in and answers what /registro-finalizar needs', async () => {
    const input = validInput({ plan: 'annual' });
    const response = await signUp(input);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      email: input.email,
      userName: 'Laura Pérez',
      planAnual: true,
      paymentType: 'annual',
      type: 'Premium',
    });
    const [row] = await t.db.select().from(users).where(eq(users.email, input.email));
    expect(row).toMatchObject({
      id: body.uid,
      type: 'Gratis',
      paymentStatus: 'BIEN',
      annualPlan: false,
      paymentDay: null,
      subscriptionId: null,
      terminationDate: null,
      country: 'México',
      city: 'Puebla',
      phoneNumber: '+525512345678',
      promoMail: true,
      newsMail: false,
    });
    const cookie = String(response.headers['set-cookie']).split(';')[0]!;
    const me = await t.app.inject({ url: '/api/me', headers: { cookie } });
    expect(me.json().user).toMatchObject({ id: body.uid, type: 'Gratis' });
  });

  it('ignores a type, status or price the browser tries to set', async () => {
    const input = {
      ...validInput(),
      type: 'Premium',
      paymentStatus: 'BIEN',
      annualPlan: true,
      subscriptionId: 'X',
      paymentDay: new Date().toISOString(),
    };
    expect((await signUp(input)).statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.email, input.email));
    expect(row).toMatchObject({ type: 'Gratis', annualPlan: false, subscriptionId: null, paymentDay: null });
  });

  it('names every empty required field with Debes llenar este campo', async () => {
    const response = await signUp({
      plan: 'basic',
      name: '',
      email: '',
      confirmEmail: '',
      phoneNumber: '',
      confirmPhoneNumber: '',
      password: '',
      confirmPassword: '',
      country: '',
      city: '',
      terms: true,
    });
    expect(response.statusCode).toBe(400);
    const required = 'Debes llenar este campo';
    expect(response.json().fields).toEqual({
      name: required,
      email: required,
      confirmEmail: required,
      phoneNumber: required,
      confirmPhoneNumber: required,
      password: required,
      confirmPassword: required,
      country: required,
      city: required,
    });
  });

  it.each([
    [
      'an e-mail without the standard pattern',
      { email: 'no-es-correo', confirmEmail: 'no-es-correo' },
      'email',
      'Introduce un correo válido.',
    ],
    [
      'a different e-mail confirmation',
      { confirmEmail: 'otro@example.com' },
      'confirmEmail',
      'Las direcciones de correo deben ser idénticas.',
    ],
    [
      'a phone number that is not valid',
      { phoneNumber: '+52 123', confirmPhoneNumber: '+52 123' },
      'phoneNumber',
      'Introduce un número de teléfono válido.',
    ],
    [
      'a different phone confirmation',
      { confirmPhoneNumber: '+525598765432' },
      'confirmPhoneNumber',
      'Los números de teléfono deben ser idénticos.',
    ],
    [
      'a password shorter than 6 characters',
      { password: '12345', confirmPassword: '12345' },
      'password',
      'La contraseña debe tener al menos 6 caracteres.',
    ],
    [
      'a different password confirmation',
      { confirmPassword: 'Otra1234' },
      'confirmPassword',
      'Las contraseñas deben ser idénticas.',
    ],
    ['terms not accepted', { terms: false }, 'terms', 'Debes leer y aceptar los términos y condiciones.'],
    ['a country outside the list', { country: 'Atlántida' }, 'country', 'Debes llenar este campo'],
    ['no plan', { plan: 'gold' }, 'plan', 'Debes seleccionar un valor'],
  ])('refuses %s with the spec message', async (_case, overrides, field, message) => {
    const response = await signUp(validInput(overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ [field]: message });
  });

  it('leaves no half-created account when the credential cannot be written, so the same e-mail signs up again', async () => {
    const input = validInput();
    // a failure between the user row and its credential, at the database
    await t.db.execute(
      sql`create function fail_credential() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`,
    );
    await t.db.execute(
      sql`create trigger fail_credential before insert on auth_accounts for each row execute function fail_credential()`,
    );
    try {
      const failed = await signUp(input);
      expect(failed.statusCode).toBe(500);
      expect(failed.json().message).toBe(
        'No se pudo crear usuario, intenta de nuevo. Si el error persiste contáctanos',
      );
      expect(await t.db.select().from(users).where(eq(users.email, input.email))).toHaveLength(0);
    } finally {
      await t.db.execute(sql`drop trigger fail_credential on auth_accounts`);
      await t.db.execute(sql`drop function fail_credential()`);
    }
    const again = await signUp(input);
    expect(again.statusCode).toBe(200);
    expect(await t.db.select().from(users).where(eq(users.email, input.email))).toHaveLength(1);
  });

  it('refuses an e-mail already registered, whatever its case', async () => {
    const existing = await createUser(t, { email: uniqueEmail() });
    const upper = existing.email.toUpperCase();
    const response = await signUp(validInput({ email: upper, confirmEmail: upper }));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'EMAIL_TAKEN',
      fields: { email: 'Este correo ya está registrado, elige otro por favor.' },
    });
  });

  it('adds a typed home university to the public catalogue once', async () => {
    await signUp(validInput({ homeUniversity: 'Universidad Veterinaria del Norte' }));
    await signUp(validInput({ homeUniversity: 'universidad veterinaria del norte' }));
    const rows = await t.db
      .select()
      .from(publicUniversities)
      .where(eq(publicUniversities.name, 'Universidad Veterinaria del Norte'));
    expect(rows).toHaveLength(1);
    const suggestions = await t.app.inject({ url: '/api/public-universities?q=veterinaria del' });
    expect(suggestions.json().universities).toContainEqual({
      name: 'Universidad Veterinaria del Norte',
      organizationId: null,
    });
  });

  it('accepts a public university organization but not a private one or a company', async () => {
    const [open] = await t.db
      .insert(organizations)
      .values({ title: 'Universidad Abierta Prueba', type: 'Universidad' })
      .returning();
    const [closed] = await t.db
      .insert(organizations)
      .values({ title: 'Universidad Cerrada Prueba', type: 'Universidad', isPrivate: true })
      .returning();
    const [company] = await t.db.insert(organizations).values({ title: 'Empresa Prueba', type: 'Empresa' }).returning();
    const ok = validInput({ organizationId: open!.id, homeUniversity: 'Universidad Abierta Prueba' });
    expect((await signUp(ok)).statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.email, ok.email));
    expect(row!.organizationId).toBe(open!.id);
    for (const organization of [closed!, company!]) {
      const response = await signUp(validInput({ organizationId: organization.id }));
      expect(response.statusCode).toBe(400);
    }
    const suggestions = (await t.app.inject({ url: '/api/public-universities?q=prueba' })).json().universities;
    expect(suggestions).toContainEqual({ name: 'Universidad Abierta Prueba', organizationId: open!.id });
    expect(suggestions.map((each: { name: string }) => each.name)).not.toContain('Universidad Cerrada Prueba');
    expect(suggestions.map((each: { name: string }) => each.name)).not.toContain('Empresa Prueba');
  });

  it('refuses a sign-up posted from another site', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/signup',
      headers: { origin: 'https://evil.example' },
      payload: validInput(),
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /api/account/email-available', () => {
  it('tells whether an e-mail is free', async () => {
    const user = await createUser(t, { email: uniqueEmail() });
    const check = async (email: string) =>
      (await t.app.inject({ url: `/api/account/email-available?email=${encodeURIComponent(email)}` })).json();
    expect(await check(user.email.toUpperCase())).toEqual({ available: false });
    expect(await check(uniqueEmail())).toEqual({ available: true });
  });

  it('is rate-limited', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 65; i++) {
      const response = await t.app.inject({
        url: `/api/account/email-available?email=x${i}@example.com`,
        remoteAddress: '10.250.1.1',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('POST /api/account/signup limit', () => {
  it('takes config.signUpsPerTenMinutes sign-ups from one address in 10 minutes (20 by default), then 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/account/signup',
        payload: {},
        remoteAddress: '10.250.2.2',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 20).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('POST /api/account/signup/finish', () => {
  it('sends the SIGNUP e-mail to the new Basic member', async () => {
    const input = validInput();
    const response = await signUp(input);
    const cookie = String(response.headers['set-cookie']).split(';')[0]!;
    const finish = await t.app.inject({
      method: 'POST',
      url: '/api/account/signup/finish',
      headers: { cookie, origin: testPublicUrl },
    });
    expect(finish.statusCode).toBe(204);
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, input.email));
    expect(mails.map((mail) => mail.subject)).toEqual(['Bienvenido a CxVet']);
  });

  it('is refused to a guest', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/signup/finish',
      headers: { origin: testPublicUrl },
    });
    expect(response.statusCode).toBe(401);
  });
});
