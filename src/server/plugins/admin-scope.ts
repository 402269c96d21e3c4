import type { FastifyInstance } from 'fastify';
import { AppError } from '#shared/errors.ts';
import { isAdmin } from '#shared/accounts/accounts.rules.ts';
import { requireAdmin, requireUser } from './authorization.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** True inside the Admin scope (and the scopes it contains). */
    isAdminScope: boolean;
    /** Inside a managed scope, its prefix; null elsewhere. */
    managedScopePrefix: ManagedScopePrefix | null;
    /** Every route as declared (method, URL and schema), for the tests that walk the route table. */
    routeTable: DeclaredRoute[];
  }
}

/** A route as declared: its schema lets the attack test derive bodies from the route's own contract. */
export type DeclaredRoute = { method: string; url: string; schema?: { body?: unknown; querystring?: unknown } };

const adminPathPrefix = '/api/admin';

/** The APIs of delegated administrators (aulas, diplomas): each one scope, registered through registerManagedScope. */
const managedScopePrefixes = ['/api/classroom-admin', '/api/diploma-admin'] as const;
type ManagedScopePrefix = (typeof managedScopePrefixes)[number];

const writeMethods = new Set(['POST', 'PUT', 'PATCH']);

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
    // every Admin write takes a JSON object (or a multipart upload): null, an array or a bare value is a 400 here,
    // whatever a route's schema would make of it
    admin.addHook('preValidation', async (request) => {
      if (!writeMethods.has(request.method) || !request.headers['content-type']?.includes('json')) return;
      const body: unknown = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('VALIDATION');
    });
    await register(admin);
  });
}

/**
 * The scope of one kind of delegated administrator: its onRequest hook admits an Admin or an account that
 * administers at least one active record of the kind. Routes still check each record: one the account does not
 * manage is NOT_FOUND (404), so ids reveal nothing.
 */
export async function registerManagedScope(
  app: FastifyInstance,
  options: { prefix: ManagedScopePrefix; isAdministrator: (userId: string) => Promise<boolean> },
  register: (scope: FastifyInstance) => Promise<void> | void,
) {
  await app.register(async (scope) => {
    scope.decorate('managedScopePrefix', options.prefix);
    scope.addHook('onRequest', async (request) => {
      const user = await requireUser(request);
      // Admins pass (the web lets them open the managed pages) but still see only the records they administer
      if (!isAdmin(user) && !(await options.isAdministrator(user.id))) throw new AppError('FORBIDDEN');
    });
    await register(scope);
  });
}

const underPrefix = (url: string, prefix: string) => url === prefix || url.startsWith(`${prefix}/`);

/**
 * Refuses, at start-up, any /api/admin route declared outside the Admin scope and any managed route declared outside
 * its managed scope: it would be unguarded.
 */
export function forbidUnguardedAdminRoutes(app: FastifyInstance) {
  app.decorate('isAdminScope', false);
  app.decorate('managedScopePrefix', null);
  const routeTable: DeclaredRoute[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url, schema: route.schema });
    if (route.url.startsWith(adminPathPrefix) && !this.isAdminScope) {
      throw new Error(
        `${route.method} ${route.url} is outside the Admin scope: register it through registerAdminScope`,
      );
    }
    const managedPrefix = managedScopePrefixes.find((prefix) => underPrefix(route.url, prefix));
    if (managedPrefix && this.managedScopePrefix !== managedPrefix) {
      throw new Error(
        `${route.method} ${route.url} is outside the ${managedPrefix} scope: register it through registerManagedScope`,
      );
    }
  });
}
