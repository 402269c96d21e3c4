import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, randomTestIp, signedInAs } from '#server/testing/factories.ts';
import { mailOutbox } from '#server/db/schema/index.ts';
import { serializeError } from './request-log.ts';

let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  t = await createTestApp({ logLevel: 'info' }, undefined, { logStream: stream });
});
afterAll(async () => t.close());

const name = 'Graciela Privada Montes';
const email = 'graciela.privada@example.com';
const password = 'ClaveSecreta9';
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: randomTestIp(),
    headers: { origin: testPublicUrl, ...headers },
    payload,
  });

function signUpInput(address: string) {
  return {
    plan: 'basic',
    name,
    email: address,
    confirmEmail: address,
    phoneNumber: '+525598765432',
    confirmPhoneNumber: '+525598765432',
    password,
    confirmPassword: password,
    country: 'México',
    city: 'Oaxaca',
    homeUniversity: '',
    organizationId: null,
    promoMail: false,
    newsMail: false,
    terms: true,
  };
}

describe('the log', () => {
  it('holds one line per request and no name, e-mail, password, reset code, cookie or SQL parameter', async () => {
    // a sign-up that fails at the database between its writes: the error is logged, its parameters are not
    await t.db.execute(
      sql`create function fail_credential() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`,
    );
    await t.db.execute(
      sql`create trigger fail_credential before insert on auth_accounts for each row execute function fail_credential()`,
    );
    expect((await post('/api/account/signup', signUpInput(email))).statusCode).toBe(500);
    await t.db.execute(sql`drop trigger fail_credential on auth_accounts`);

    const signedUp = await post('/api/account/signup', signUpInput(email));
    expect(signedUp.statusCode).toBe(200);
    const cookie = String(signedUp.headers['set-cookie']).split(';')[0]!;
    expect((await t.app.inject({ url: '/api/me', headers: { cookie } })).statusCode).toBe(200);
    expect((await post('/api/account/password-reset', { email })).statusCode).toBe(204);
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    const code = new URL(/https?:\/\/\S+\/reasignar_password\?\S+/.exec(mail!.text)![0]).searchParams.get('oobCode')!;
    expect((await t.app.inject({ url: `/api/account/password-reset/${code}` })).json()).toEqual({ valid: true });
    const newPassword = 'OtraClaveSecreta8';
    expect(
      (await post('/api/account/password-reset/confirm', { code, password: newPassword, confirmPassword: newPassword }))
        .statusCode,
    ).toBe(204);
    expect((await post('/api/account/login', { email, password: 'equivocada' })).statusCode).toBe(401);

    const text = lines.join('\n');
    const cookieValue = cookie.split('=')[1]!;
    for (const secret of [
      name,
      email,
      password,
      newPassword,
      code,
      cookieValue,
      decodeURIComponent(cookieValue),
      'Oaxaca',
      '+525598765432',
    ]) {
      expect(text, `the log holds ${secret}`).not.toContain(secret);
    }
    expect(text).not.toMatch(/params:/);

    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((entry) => entry.msg === 'request');
    expect(requests).toHaveLength(7);
    expect(requests.find((entry) => entry.route === '/api/me')).toMatchObject({
      method: 'GET',
      status: 200,
      userId: expect.any(String),
      reqId: expect.any(String),
      ms: expect.any(Number),
    });
    expect(requests.find((entry) => entry.route === '/api/account/password-reset/:code')).toMatchObject({
      method: 'GET',
      status: 200,
      userId: null,
    });
    // Fastify's own request lines (with the URL) are off
    expect(entries.some((entry) => entry.msg === 'incoming request' || entry.msg === 'request completed')).toBe(false);
    const failure = entries.find((entry) => entry.msg === 'sign-up failed');
    expect(failure?.err).toMatchObject({ type: expect.any(String) });
  });

  it('holds a line for a video range the app writes itself, without its viewing token', async () => {
    const procedure = await createProcedure(t, { type: 'Gratis' });
    const { cookie } = await signedInAs(t, { type: 'Gratis' });
    const token = (
      await t.app.inject({ method: 'POST', url: '/api/viewing/token', headers: { cookie, origin: testPublicUrl } })
    ).json().token as string;
    const response = await t.app.inject({
      url: `/media/${procedure.fullVideo}?vt=${token}`,
      headers: { cookie, range: 'bytes=0-9' },
    });
    expect(response.statusCode).toBe(206);
    await vi.waitFor(() =>
      expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toContainEqual(
        expect.objectContaining({
          msg: 'request',
          method: 'GET',
          route: '/media/*',
          status: 206,
          userId: expect.any(String),
        }),
      ),
    );
    expect(lines.join('\n')).not.toContain(token);
  });
});

describe('serializeError', () => {
  it('drops the parameters Drizzle appends to a failed query, and a database error message that may quote a value', () => {
    const cause = Object.assign(new Error('invalid input syntax for type uuid: "ana@example.com"'), {
      severity: 'ERROR',
      code: '22P02',
    });
    const error = Object.assign(new Error('Failed query: select * from users where id = $1\nparams: ana@example.com'), {
      cause,
      params: ['ana@example.com'],
    });
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain('ana@example.com');
    expect(logged).toContain('Failed query: select * from users where id = $1');
    expect(logged).toContain('22P02');
  });
});
