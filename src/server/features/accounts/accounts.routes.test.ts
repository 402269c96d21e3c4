import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, loginCookie, randomTestIp, signedInAs, testPassword } from '#server/testing/factories.ts';
import { mailOutbox, sessions, users } from '#server/db/schema/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const login = (payload: object, headers: Record<string, string> = {}, remoteAddress = randomTestIp()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/account/login',
    remoteAddress,
    headers: { origin: testPublicUrl, ...headers },
    payload,
  });

describe('GET /api/me', () => {
  it('answers a guest with a null user', async () => {
    const response = await t.app.inject({ url: '/api/me' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: null });
  });

  it('treats a forged session cookie as a guest', async () => {
    const response = await t.app.inject({
      url: '/api/me',
      headers: { cookie: 'better-auth.session_token=forged.value' },
    });
    expect(response.json()).toEqual({ user: null });
  });

  it('describes the signed-in member without secrets', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium', annualPlan: true });
    const response = await t.app.inject({ url: '/api/me', headers: { cookie } });
    const body = response.json();
    expect(body.user).toMatchObject({ id: user.id, type: 'Premium', annualPlan: true, hasPremiumAccess: true });
    expect(JSON.stringify(body)).not.toMatch(/password|argon2/i);
  });

  it('gives a Legacy member Premium access only until the termination date', async () => {
    const active = await signedInAs(t, { type: 'Legacy', terminationDate: new Date(Date.now() + 86_400_000) });
    const ended = await signedInAs(t, { type: 'Legacy', terminationDate: new Date(Date.now() - 86_400_000) });
    const me = async (cookie: string) => (await t.app.inject({ url: '/api/me', headers: { cookie } })).json().user;
    expect((await me(active.cookie)).hasPremiumAccess).toBe(true);
    expect((await me(ended.cookie)).hasPremiumAccess).toBe(false);
  });
});

describe('POST /api/account/login', () => {
  it('signs in with an httpOnly SameSite=Lax session cookie', async () => {
    const user = await createUser(t, { email: 'ana@example.com' });
    const response = await login({ email: 'Ana@Example.com ', password: testPassword });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(user.id);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('stores the password as an argon2id hash', async () => {
    await createUser(t, { email: 'hash@example.com' });
    const rows = await t.db.execute<{ password: string }>(
      `select a.password from auth_accounts a join users u on u.id = a.user_id where u.email = 'hash@example.com'` as never,
    );
    const hash = (rows as unknown as { rows: { password: string }[] }).rows[0]!.password;
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('asks for both fields with the spec message', async () => {
    const response = await login({ email: '', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { email: 'Debes llenar este campo', password: 'Debes llenar este campo' },
    });
  });

  it.each([
    [
      'an address that is not an e-mail',
      { email: 'no-es-correo', password: 'x' },
      400,
      'Dirección de correo inválida.',
    ],
    ['an unknown account', { email: 'nadie@example.com', password: 'x' }, 404, 'Usuario no encontrado.'],
  ])('names %s with the catalogue text', async (_case, payload, status, message) => {
    const response = await login(payload);
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toBe(message);
  });

  it('names a wrong password', async () => {
    await createUser(t, { email: 'wrong@example.com' });
    const response = await login({ email: 'wrong@example.com', password: 'incorrecta' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'LOGIN_WRONG_PASSWORD', message: 'Contraseña incorrecta' });
  });

  it('refuses a disabled account after checking its password, leaving no session', async () => {
    const user = await createUser(t, { email: 'off@example.com', isDisabled: true });
    const response = await login({ email: 'off@example.com', password: testPassword });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Este usuario está deshabilitado, por favor contacta con el administrador.');
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });

  it('throttles one account after repeated failures, whatever the IP', async () => {
    await createUser(t, { email: 'target@example.com' });
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await login({ email: 'target@example.com', password: `mala-${attempt}` });
      expect(response.statusCode).toBe(401);
    }
    const blocked = await login({ email: 'target@example.com', password: testPassword });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('RATE_LIMITED');
  });

  it('ignores a spoofed X-Forwarded-For when no proxy is trusted (the account + IP limit still applies)', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const response = await login(
        { email: 'spoof@example.com', password: 'x' },
        { 'x-forwarded-for': `203.0.113.${attempt}` },
        '10.201.0.1',
      );
      statuses.push(response.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
  });

  it('refuses a sign-in posted from another site', async () => {
    await createUser(t, { email: 'csrf@example.com' });
    const other = await login(
      { email: 'csrf@example.com', password: testPassword },
      { origin: 'https://evil.example', cookie: 'x=1' },
    );
    expect(other.statusCode).toBe(403);
  });
});

describe('sessions', () => {
  it('logs out and the old cookie stops working at once', async () => {
    const { cookie } = await signedInAs(t);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/account/logout',
      headers: { cookie, origin: testPublicUrl },
    });
    expect(out.statusCode).toBe(204);
    const me = await t.app.inject({ url: '/api/me', headers: { cookie } });
    expect(me.json().user).toBeNull();
  });

  it('ends a session older than the absolute lifetime even if refreshed', async () => {
    const { cookie, user } = await signedInAs(t);
    await t.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 31 * 86_400_000) })
      .where(eq(sessions.userId, user.id));
    const me = await t.app.inject({ url: '/api/me', headers: { cookie } });
    expect(me.json().user).toBeNull();
  });

  it('revokes the sessions of a deleted account', async () => {
    const { cookie, user } = await signedInAs(t);
    await t.app.services.accounts.deleteAccount(user.id);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await t.app.inject({ url: '/api/me', headers: { cookie } })).json().user).toBeNull();
  });
});

describe('password reset', () => {
  const requestReset = (email: string, remoteAddress = randomTestIp()) =>
    t.app.inject({
      method: 'POST',
      url: '/api/account/password-reset',
      remoteAddress,
      headers: { origin: testPublicUrl },
      payload: { email },
    });

  async function resetCodeFor(email: string): Promise<string> {
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    const link = /https?:\/\/\S+\/reasignar_password\?\S+/.exec(mail!.text)![0];
    const url = new URL(link);
    expect(url.searchParams.get('mode')).toBe('resetPassword');
    expect(url.searchParams.get('apiKey')).toBeTruthy();
    return url.searchParams.get('oobCode')!;
  }

  it('mails a single-use link that sets a new password and ends every session', async () => {
    const { cookie } = await signedInAs(t, { email: 'olvido@example.com' });
    expect((await requestReset('olvido@example.com')).statusCode).toBe(204);
    const code = await resetCodeFor('olvido@example.com');

    const check = await t.app.inject({ url: `/api/account/password-reset/${code}` });
    expect(check.json()).toEqual({ valid: true });

    const confirm = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/account/password-reset/confirm',
        headers: { origin: testPublicUrl },
        payload: { code, password, confirmPassword: password },
      });
    expect((await confirm('NuevaClave1')).statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/me', headers: { cookie } })).json().user).toBeNull();
    await loginCookie(t, 'olvido@example.com', 'NuevaClave1');

    const again = await confirm('OtraClave2');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: 'El código ya no es válido', title: 'CÓDIGO INVÁLIDO' });
    expect((await t.app.inject({ url: `/api/account/password-reset/${code}` })).json()).toEqual({ valid: false });
  });

  it('checks the new password with the reset-form messages', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/password-reset/confirm',
      headers: { origin: testPublicUrl },
      payload: { code: 'abc', password: '123', confirmPassword: '456' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({ password: 'El password debe tener al menos 6 caracteres' });
  });

  it('mails one account at most three times an hour, from any address, with the same answer', async () => {
    await createUser(t, { email: 'inundado@example.com' });
    for (let attempt = 0; attempt < 6; attempt++)
      expect((await requestReset('inundado@example.com')).statusCode).toBe(204);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'inundado@example.com'))).toHaveLength(3);
  });

  it('caps the requests from one address across accounts', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      await createUser(t, { email: `ip-reset-${attempt}@example.com` });
      statuses.push((await requestReset(`ip-reset-${attempt}@example.com`, '10.202.0.1')).statusCode);
    }
    expect(statuses).toEqual([204, 204, 204, 204, 204, 429]);
  });

  it('names an unknown address', async () => {
    const response = await requestReset('desconocido@example.com');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Usuario no encontrado.');
  });
});

describe('password change', () => {
  it('needs the current password and keeps the user signed in', async () => {
    const { cookie } = await signedInAs(t, { email: 'cambio@example.com' });
    const change = (currentPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/account/password',
        headers: { cookie, origin: testPublicUrl },
        payload: { currentPassword, newPassword: 'ClaveNueva9' },
      });
    expect((await change('equivocada')).statusCode).toBe(401);
    const ok = await change(testPassword);
    expect(ok.statusCode).toBe(204);
    await loginCookie(t, 'cambio@example.com', 'ClaveNueva9');
  });

  it('signs out every other device; the one that changed it stays signed in', async () => {
    const { user, cookie: other } = await signedInAs(t, { email: 'dos-equipos@example.com' });
    const cookie = await loginCookie(t, user.email);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { cookie, origin: testPublicUrl },
      payload: { currentPassword: testPassword, newPassword: 'ClaveNueva9' },
    });
    expect(ok.statusCode).toBe(204);
    const setCookie = [ok.headers['set-cookie']]
      .flat()
      .filter(Boolean)
      .map((line) => String(line).split(';')[0])
      .join('; ');
    const me = async (header: string) =>
      (await t.app.inject({ url: '/api/me', headers: { cookie: header } })).json().user;
    expect(await me(other)).toBeNull();
    expect((await me(setCookie || cookie))?.id).toBe(user.id);
  });

  it('is refused to a guest', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { origin: testPublicUrl },
      payload: { currentPassword: 'a', newPassword: 'bbbbbbb' },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('better-auth endpoints', () => {
  it('are not reachable directly, so nobody signs up around our validation', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: testPublicUrl },
      payload: { name: 'X', email: 'x@example.com', password: 'abcdefgh' },
    });
    expect(response.statusCode).toBe(404);
    expect(await t.db.select().from(users).where(eq(users.email, 'x@example.com'))).toHaveLength(0);
  });
});
