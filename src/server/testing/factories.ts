import { randomUUID } from 'node:crypto';
import type { TestApp } from './test-app.ts';
import { testPublicUrl } from './test-app.ts';
import type { users } from '#server/db/schema/index.ts';

export const testPassword = 'Secreta123';

type UserValues = Partial<Omit<typeof users.$inferInsert, 'id' | 'email' | 'name' | 'userNumber'>>;

/** An account of the given type with a known password. */
export async function createUser(t: TestApp, values: UserValues & { email?: string; name?: string } = {}) {
  const { email = `u-${randomUUID().slice(0, 8)}@example.com`, name = 'Usuario de Prueba', ...rest } = values;
  return t.app.services.accounts.createAccount({ name, email, password: testPassword, values: rest });
}

/** Signs in through the public endpoint and returns the Cookie header to send afterwards. */
export async function loginCookie(t: TestApp, email: string, password = testPassword): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/account/login',
    remoteAddress: randomTestIp(),
    headers: { origin: testPublicUrl },
    payload: { email, password },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const cookies = response.headers['set-cookie'];
  const list = Array.isArray(cookies) ? cookies : cookies ? [cookies] : [];
  return list.map((cookie) => cookie.split(';')[0]).join('; ');
}

/** Creates an account of the type and returns its Cookie header. */
export async function signedInAs(t: TestApp, values: UserValues & { email?: string } = {}) {
  const user = await createUser(t, values);
  return { user, cookie: await loginCookie(t, user.email) };
}

/** Each simulated client its own address, so the per-IP sign-in limit does not bleed between tests. */
export function randomTestIp(): string {
  const octet = () => Math.floor(Math.random() * 250) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}
