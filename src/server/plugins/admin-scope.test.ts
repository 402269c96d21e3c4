import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { forbidUnguardedAdminRoutes, registerAdminScope, registerManagedScope } from './admin-scope.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const sampleId = '00000000-0000-4000-8000-000000000000';

describe('the Admin scope', () => {
  it('guards every /api/admin route in the route table: 401 for a guest, 403 for a Basic or Premium member', async () => {
    const adminRoutes = t.app.routeTable.filter(
      (route) => route.url.startsWith('/api/admin') && route.method !== 'HEAD',
    );
    expect(adminRoutes.length).toBeGreaterThan(20);
    const basic = await signedInAs(t, { type: 'Gratis' });
    const premium = await signedInAs(t, { type: 'Premium' });
    for (const route of adminRoutes) {
      const url = route.url.replace(/:[A-Za-z]+/g, sampleId).replace('*', 'x');
      const request = {
        method: route.method as 'GET',
        url,
        headers: { origin: testPublicUrl, 'content-type': 'application/json' },
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
      };
      const guest = await t.app.inject(request);
      expect(guest.statusCode, `${route.method} ${route.url} as a guest`).toBe(401);
      for (const member of [basic, premium]) {
        const response = await t.app.inject({ ...request, headers: { ...request.headers, cookie: member.cookie } });
        expect(response.statusCode, `${route.method} ${route.url} as ${member.user.type}`).toBe(403);
      }
    }
  });

  it.each(['/api/classroom-admin', '/api/diploma-admin'])(
    'guards every %s route in its own scope: 401 for a guest, 403 for a Basic or Premium member who administers nothing',
    async (prefix) => {
      const routes = t.app.routeTable.filter((route) => route.url.startsWith(prefix) && route.method !== 'HEAD');
      expect(routes.length).toBeGreaterThan(3);
      const members = [await signedInAs(t, { type: 'Gratis' }), await signedInAs(t, { type: 'Premium' })];
      for (const route of routes) {
        const url = route.url.replace(/:[A-Za-z]+/g, sampleId).replace('*', 'x');
        const request = {
          method: route.method as 'GET',
          url,
          headers: { origin: testPublicUrl, 'content-type': 'application/json' },
          payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
        };
        expect((await t.app.inject(request)).statusCode, `${route.method} ${route.url} as a guest`).toBe(401);
        for (const member of members) {
          const response = await t.app.inject({ ...request, headers: { ...request.headers, cookie: member.cookie } });
          expect(response.statusCode, `${route.method} ${route.url} as ${member.user.type}`).toBe(403);
        }
      }
    },
  );

  it('refuses to start when an /api/admin route is declared outside it', async () => {
    const app = Fastify();
    forbidUnguardedAdminRoutes(app);
    await registerAdminScope(app, async (admin) => {
      admin.get('/api/admin/guarded', async () => 'ok');
    });
    expect(() => app.get('/api/admin/unguarded', async () => 'ok')).toThrow(/outside the Admin scope/);
    await app.ready();
    expect(app.hasRoute({ method: 'GET', url: '/api/admin/guarded' })).toBe(true);
  });

  it.each(['/api/classroom-admin', '/api/diploma-admin'] as const)(
    'refuses to start when a %s route is declared outside its managed scope, or inside the other one',
    async (prefix) => {
      const app = Fastify();
      forbidUnguardedAdminRoutes(app);
      const other = prefix === '/api/classroom-admin' ? '/api/diploma-admin' : '/api/classroom-admin';
      await registerManagedScope(app, { prefix, isAdministrator: async () => true }, (scope) => {
        scope.get(`${prefix}/guarded`, async () => 'ok');
        expect(() => scope.get(`${other}/misplaced`, async () => 'ok')).toThrow(/outside the .* scope/);
      });
      expect(() => app.get(`${prefix}/unguarded`, async () => 'ok')).toThrow(new RegExp(`outside the ${prefix} scope`));
      await registerAdminScope(app, async (admin) => {
        expect(() => admin.get(`${prefix}/in-admin`, async () => 'ok')).toThrow(/registerManagedScope/);
      });
      await app.ready();
      expect(app.hasRoute({ method: 'GET', url: `${prefix}/guarded` })).toBe(true);
    },
  );
});
