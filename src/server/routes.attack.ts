import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createClassroom, createProcedure, randomTestIp, signedInAs } from '#server/testing/factories.ts';
import { createDiploma } from '#server/features/diplomas/diplomas.testing.ts';
import { classrooms, diplomas } from '#server/db/schema/index.ts';
import type { DeclaredRoute } from '#server/plugins/admin-scope.ts';

/**
 * Every registered route, as each role, with bodies and queries derived from its zod schema and then broken (wrong
 * types, missing fields, 9,000-deep nesting, 1 MB strings, NUL bytes): never a 5xx, and never a 2xx a role must
 * not get. Run with `npm run test:attack`.
 */

type Role = 'guest' | 'Gratis' | 'Premium' | 'Legacy' | 'aula administrator' | 'diploma administrator' | 'Admin';
const roles: Role[] = ['guest', 'Gratis', 'Premium', 'Legacy', 'aula administrator', 'diploma administrator', 'Admin'];

/** Routes a guest may get a 2xx from: everything else needs an account. */
const publicRoutes = [
  /^\/api\/health$/,
  /^\/api\/ready$/,
  /^\/api\/me$/,
  /^\/api\/account\/(login|logout|signup|email-available|password-reset(\/.*)?|password\/.*|reset.*|forgot.*)$/,
  /^\/api\/public-universities$/,
  /^\/api\/payments\/config$/,
  /^\/api\/catalog(\/.*)?$/,
  /^\/api\/landing(\/.*)?$/,
  /^\/api\/events(\/.*)?$/,
  /^\/api\/contact$/,
  /^\/api\/newsletter(\/.*)?$/,
  /^\/api\/mailing\/.*$/,
  /^\/api\/organizations(\/.*)?$/,
  // Facturapi's notification only makes us read the invoice back from Facturapi (decision 052)
  /^\/api\/payments\/webhooks\/(:provider|facturapi)$/,
  /^\/api\/diplomas(\/:id)?$/,
  /^\/api\/certificates\/.*$/,
  // the issuer's public side: status lists and the check of a credential anyone holds
  /^\/api\/credentials\/.*$/,
  // the LTI tool's side an LMS reaches: its keys, login initiation and launch, the pages of a launch, and dynamic
  // registration (its one-time URL is the authority)
  /^\/api\/lti\/(jwks|auto-submit\.js|login|launch|link|deep-linking|continue|open|register-close\.js)$/,
  /^\/api\/lti\/register\/:token$/,
  /^\/api\/simulated-checkout(\/.*)?$/,
  /^\/api\/privacy\/(consents|policy).*$/,
];

/** Routes that answer with a stream kept open (server-sent events). */
const streams = ['/api/viewing/events'];

const sampleId = '00000000-0000-4000-8000-000000000000';
const nul = '\u0000';
const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const megabyte = 'a'.repeat(1_000_000);

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def | null => (schema as { _zod?: { def?: Def } } | null)?._zod?.def ?? null;

/** The schema under optional, nullable, default, pipe and the like. */
function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let guard = 0; guard < 20; guard += 1) {
    const def = defOf(current);
    if (!def) return current;
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type)) {
      current = def.innerType;
    } else if (def.type === 'pipe') current = def.in;
    else return current;
  }
  return current;
}

/** A plausible value for a schema: the starting point the broken variants are made from. */
function sample(schema: unknown, depth = 0): unknown {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (!def || depth > 6) return 'texto';
  switch (def.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, unknown>).map(([key, value]) => [key, sample(value, depth + 1)]),
      );
    case 'string': {
      const format = (def.format as string | undefined) ?? '';
      if (format === 'uuid' || format === 'guid') return sampleId;
      if (format === 'email') return 'ataque@example.com';
      if (format === 'datetime' || format === 'date') return new Date().toISOString();
      if (format === 'url') return 'https://example.com/';
      return 'texto';
    }
    case 'number':
    case 'int':
    case 'bigint':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [sample(def.element, depth + 1)];
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'union':
      return sample((def.options as unknown[])[0], depth + 1);
    case 'record':
      return { clave: 'valor' };
    case 'date':
      return new Date().toISOString();
    default:
      return 'texto';
  }
}

/** A value of another kind than the schema takes. */
function wrongType(schema: unknown): unknown {
  const def = defOf(unwrap(schema));
  switch (def?.type) {
    case 'string':
    case 'enum':
    case 'literal':
      return 12345;
    case 'number':
    case 'int':
    case 'boolean':
      return 'no es un número';
    case 'array':
      return { not: 'an array' };
    default:
      return ['not', 'an', 'object'];
  }
}

/** JSON bodies for a route: its sample, then the sample broken field by field, then bodies of no shape at all. */
function bodies(schema: unknown): string[] {
  const out = ['{}', 'null', '[]', '"x"', '7', deepJson(9000), `{"a":${deepJson(9000)}}`, '{"a":"b\\u0000c"}'];
  const def = defOf(unwrap(schema));
  if (!def) return out;
  const base = sample(schema);
  out.push(JSON.stringify(base));
  if (def.type !== 'object' || typeof base !== 'object' || base === null) return out;
  const shape = def.shape as Record<string, unknown>;
  let megabytes = 0;
  for (const [key, field] of Object.entries(shape)) {
    const fieldDef = defOf(unwrap(field));
    const { [key]: _dropped, ...missing } = base as Record<string, unknown>;
    out.push(JSON.stringify(missing));
    out.push(JSON.stringify({ ...base, [key]: wrongType(field) }));
    out.push(JSON.stringify({ ...base, [key]: null }));
    if (fieldDef?.type === 'string') {
      out.push(JSON.stringify({ ...base, [key]: `a${nul}b` }));
      if (megabytes < 1) {
        megabytes += 1;
        out.push(JSON.stringify({ ...base, [key]: megabyte }));
      }
    }
    if (fieldDef?.type === 'array') {
      out.push(JSON.stringify({ ...base, [key]: [null, 'x', 7, {}, []] }));
      out.push(JSON.stringify({ ...base, [key]: Array.from({ length: 300 }, () => sample(fieldDef.element)) }));
    }
    if (fieldDef?.type === 'object') {
      const nested = sample(field) as Record<string, unknown>;
      for (const nestedKey of Object.keys(fieldDef.shape as object)) {
        out.push(JSON.stringify({ ...base, [key]: { ...nested, [nestedKey]: ['x'] } }));
      }
    }
  }
  return out;
}

/** Query strings for a route: its sample, and each key emptied, mistyped, with a NUL byte, long or repeated. */
function queries(schema: unknown): string[] {
  const out = ['', '?q=%00', `?q=${'a'.repeat(10_000)}`];
  const def = defOf(unwrap(schema));
  if (def?.type !== 'object') return out;
  const base = Object.fromEntries(
    Object.entries(sample(schema) as Record<string, unknown>).map(([key, value]) => [key, String(value)]),
  );
  const encode = (values: Record<string, string>) => `?${new URLSearchParams(values).toString()}`;
  out.push(encode(base));
  for (const key of Object.keys(base)) {
    for (const value of ['x', '-1', `a${nul}b`, 'a'.repeat(10_000)]) {
      out.push(encode({ ...base, [key]: value }));
    }
    out.push(`${encode(base)}&${key}=otra&${key}=mas`);
  }
  return out;
}

let t: TestApp;
const cookies = new Map<Role, string>();
let classroomId = '';
let diplomaId = '';
let memberId = '';

beforeAll(async () => {
  t = await createTestApp();
  const procedure = await createProcedure(t);
  const aula = await signedInAs(t, { type: 'Gratis' });
  const classroom = await createClassroom(t, { procedureIds: [procedure.id] });
  await t.db.update(classrooms).set({ adminUserId: aula.user.id }).where(eq(classrooms.id, classroom.id));
  classroomId = classroom.id;
  const diplomaAdmin = await signedInAs(t, { type: 'Premium' });
  const diploma = await createDiploma(t, { isExternal: true, videos: 1, examQuestions: [2] });
  await t.db.update(diplomas).set({ adminUserId: diplomaAdmin.user.id }).where(eq(diplomas.id, diploma.id));
  diplomaId = diploma.id;
  cookies.set('aula administrator', aula.cookie);
  cookies.set('diploma administrator', diplomaAdmin.cookie);
  for (const type of ['Gratis', 'Premium', 'Legacy', 'Admin'] as const) {
    const member = await signedInAs(t, { type });
    cookies.set(type, member.cookie);
    if (type === 'Gratis') memberId = member.user.id;
  }
});
afterAll(async () => t?.close());

/** A route's URL with real records where the path names them, so a role that must not get one really is refused. */
function urlOf(route: DeclaredRoute): string {
  return route.url
    .replace(/(classrooms\/):id/, `$1${classroomId}`)
    .replace(/(diplomas\/):id/, `$1${diplomaId}`)
    .replace(/(users\/):(id|userId)/, `$1${memberId}`)
    .replace(/:[A-Za-z]+/g, sampleId)
    .replace('*', 'x');
}

/** Whether a 2xx for this role on this route is a leak. */
function forbiddenSuccess(role: Role, route: DeclaredRoute): boolean {
  if (route.url.startsWith('/api/admin')) return role !== 'Admin';
  if (route.url.startsWith('/api/classroom-admin')) return role !== 'aula administrator' && role !== 'Admin';
  if (route.url.startsWith('/api/diploma-admin')) return role !== 'diploma administrator' && role !== 'Admin';
  if (role === 'guest') return !publicRoutes.some((pattern) => pattern.test(route.url));
  return false;
}

/** Sign-out and account removal last, so they do not end a role's session before its other routes are tried. */
const endsSession = (route: DeclaredRoute) =>
  route.method === 'DELETE' || /logout|sign-?out|sessions|devices|password|privacy|account\/delete/.test(route.url);

/**
 * The role each route is built for gets every broken body; the others get the sample and the shapeless bodies,
 * which is what reaches their door (a few minutes on two cores instead of half an hour).
 */
function ownerOf(route: DeclaredRoute): Role[] {
  if (route.url.startsWith('/api/admin')) return ['Admin'];
  if (route.url.startsWith('/api/classroom-admin')) return ['aula administrator'];
  if (route.url.startsWith('/api/diploma-admin')) return ['diploma administrator'];
  return ['guest', 'Premium'];
}

describe('the attack run', () => {
  it('gets no 5xx on any route as any role, and no 2xx a role must not get', { timeout: 900_000 }, async () => {
    const routes = t.app.routeTable
      .filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS' && route.url.startsWith('/api'))
      .sort((a, b) => Number(endsSession(a)) - Number(endsSession(b)));
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let sent = 0;
    const started = Date.now();
    for (const role of roles) {
      for (const route of routes) {
        // an event stream stays open for a signed-in member: only its door is tried
        if (role !== 'guest' && streams.includes(route.url)) continue;
        const cookie = cookies.get(role);
        const url = urlOf(route);
        const withBody = route.method !== 'GET' && route.method !== 'DELETE';
        const send = async (path: string, payload?: string) => {
          sent += 1;
          const response = await t.app.inject({
            method: route.method as 'GET',
            url: path,
            remoteAddress: randomTestIp(),
            headers: {
              origin: testPublicUrl,
              ...(cookie ? { cookie } : {}),
              ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(payload === undefined ? {} : { payload }),
          });
          const what = `${role} ${route.method} ${route.url} ${path.slice(url.length, url.length + 60)} ${payload?.slice(0, 80) ?? ''}`;
          if (response.statusCode >= 500)
            failures.push(`${response.statusCode} ${what}: ${response.body.slice(0, 200)}`);
          if (response.statusCode < 300 && forbiddenSuccess(role, route))
            failures.push(`${response.statusCode} ${what}`);
          return response.statusCode;
        };
        const first = withBody ? await send(url, JSON.stringify(sample(route.schema?.body) ?? {})) : await send(url);
        const full = ownerOf(route).includes(role) && first !== 401 && first !== 403;
        for (const query of full ? queries(route.schema?.querystring) : ['?q=%00']) await send(`${url}${query}`);
        for (const param of full ? ['x', '%00', 'a'.repeat(1000), '..%2F..%2Fetc%2Fpasswd'] : []) {
          if (route.url.includes(':')) await send(url.replace(sampleId, param));
        }
        if (!withBody) continue;
        const list = bodies(route.schema?.body);
        for (const payload of full ? list : list.slice(0, 8)) await send(url, payload);
      }
      console.info(`attack run: ${role} done, ${sent} requests in ${Math.round((Date.now() - started) / 1000)} s`);
    }
    expect(failures).toEqual([]);
  });
});
