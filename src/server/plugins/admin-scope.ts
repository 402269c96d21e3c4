import type { FastifyInstance } from 'fastify';
import { requireAdmin } from './authorization.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** True inside the Admin scope (and the scopes it contains). */
    isAdminScope: boolean;
    /** Every route as declared (method and URL), for the tests that walk the route table. */
    routeTable: { method: string; url: string }[];
  }
}

export const adminPathPrefix = '/api/admin';

/**
 * Every /api/admin route is registered through here, inside one scope whose onRequest hook requires an Admin
 * (before the body is read, so a guest learns nothing from validation errors).
 */
export async function registerAdminScope(app: FastifyInstance, register: (admin: FastifyInstance) => Promise<void>) {
  await app.register(async (admin) => {
    admin.decorate('isAdminScope', true);
    admin.addHook('onRequest', async (request) => {
      await requireAdmin(request);
    });
    await register(admin);
  });
}

/** Refuses, at start-up, any /api/admin route declared outside the Admin scope: it would be unguarded. */
export function forbidUnguardedAdminRoutes(app: FastifyInstance) {
  app.decorate('isAdminScope', false);
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url });
    if (route.url.startsWith(adminPathPrefix) && !this.isAdminScope) {
      throw new Error(`${route.method} ${route.url} is outside the Admin scope: register it through registerAdminScope`);
    }
  });
}
