import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('health', () => {
  it('answers ok after a database round trip', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 when the database is down', async () => {
    const other = await createTestApp();
    await other.database.close();
    const response = await other.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('SERVICE_UNAVAILABLE');
    await other.app.close();
    await other.database.drop();
  });
});

describe('errors', () => {
  it('answers unknown API routes with the JSON error shape', async () => {
    const response = await t.app.inject({ url: '/api/no-existe' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'NOT_FOUND', message: 'Página no encontrada' });
  });

  it('never shows a stack trace', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      headers: { origin: testPublicUrl, 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).not.toMatch(/at .*\.ts|node_modules/);
  });
});

describe('admin endpoints', () => {
  it('refuse a guest with 401 and a non-admin with 403, and admit an Admin', async () => {
    expect((await t.app.inject({ url: '/api/admin/outbox' })).statusCode).toBe(401);
    for (const type of ['Gratis', 'Premium', 'Legacy'] as const) {
      const { cookie } = await signedInAs(t, { type });
      const response = await t.app.inject({ url: '/api/admin/outbox', headers: { cookie } });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('No tienes permiso para realizar esta acción.');
    }
    const { cookie } = await signedInAs(t, { type: 'Admin' });
    const ok = await t.app.inject({ url: '/api/admin/outbox', headers: { cookie } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toHaveProperty('mails');
  });
});

describe('security headers', () => {
  it('sends a CSP that forbids framing and foreign scripts', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a state-changing request from another site', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/logout',
      headers: { origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
  });
});
