import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { createUser, randomTestIp, testPassword } from '#server/testing/factories.ts';
import { trustedOrigins } from './trusted-origins.ts';

describe('trustedOrigins', () => {
  it('trusts PUBLIC_URL alone in production', () => {
    expect(trustedOrigins({ publicUrl: 'https://cxvet.com', port: 3000, production: true })).toEqual([
      'https://cxvet.com',
    ]);
  });

  it('adds the Vite dev server and every loopback alias of our port in development', () => {
    expect(trustedOrigins({ publicUrl: 'http://localhost:3000', port: 3000, production: false }).sort()).toEqual(
      ['http://127.0.0.1:3000', 'http://[::1]:3000', 'http://localhost:3000', 'http://localhost:5173'].sort(),
    );
  });
});

describe('signing in from each origin', () => {
  let development: TestApp;
  let production: TestApp;
  beforeAll(async () => {
    [development, production] = await Promise.all([
      createTestApp({ port: 3000, publicUrl: 'http://localhost:3000' }),
      createTestApp({ port: 3000, publicUrl: 'https://cxvet.example', production: true }),
    ]);
  });
  afterAll(async () => Promise.all([development.close(), production.close()]));

  async function signIn(t: TestApp, origin: string) {
    const user = await createUser(t);
    return (
      await t.app.inject({
        method: 'POST',
        url: '/api/account/login',
        remoteAddress: randomTestIp(),
        headers: { origin },
        payload: { email: user.email, password: testPassword },
      })
    ).statusCode;
  }

  it('accepts every loopback alias of the configured port in development, and no other port', async () => {
    for (const origin of [
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
      'http://localhost:5173',
    ]) {
      expect(await signIn(development, origin), origin).toBe(200);
    }
    expect(await signIn(development, 'http://127.0.0.1:4000')).toBe(403);
    expect(await signIn(development, 'https://evil.example')).toBe(403);
  });

  it('accepts only PUBLIC_URL in production: not the Vite dev server, not a loopback alias', async () => {
    expect(await signIn(production, 'https://cxvet.example')).toBe(200);
    for (const origin of ['http://localhost:5173', 'http://localhost:3000', 'http://127.0.0.1:3000']) {
      expect(await signIn(production, origin), origin).toBe(403);
    }
  });
});
