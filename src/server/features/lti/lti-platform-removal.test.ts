import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createClassroom, createProcedure, loginCookie, randomTestIp, signedInAs } from '#server/testing/factories.ts';
import { startFakePlatform, type FakePlatform } from '#server/testing/lti-platform.ts';
import { classroomCoAdmins, ltiLaunchSessions, mailOutbox } from '#server/db/schema/index.ts';
import { toolJwks } from './lti-key.ts';

const lti = 'https://purl.imsglobal.org/spec/lti/claim/';
const instructor = ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor'];

let t: TestApp;
let platform: FakePlatform;
let admin: { cookie: string };
let organizationId = '';
let classroomId = '';

const formHeaders = {
  'content-type': 'application/x-www-form-urlencoded',
  'sec-fetch-site': 'cross-site',
};

async function registerPlatform(): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/admin/lti/platforms',
    headers: { cookie: admin.cookie, origin: testPublicUrl },
    payload: { ...platform.registration, organizationId },
  });
  expect(created.statusCode).toBe(200);
  return created.json().id;
}

async function deletePlatform(id: string) {
  const removed = await t.app.inject({
    method: 'DELETE',
    url: `/api/admin/lti/platforms/${id}`,
    headers: { cookie: admin.cookie, origin: testPublicUrl },
  });
  expect(removed.statusCode).toBe(200);
}

/** A full launch into the aula: login initiation, then the platform's id_token; the launch cookie and where it goes. */
async function launch(claims: Record<string, unknown>) {
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/lti/login',
    remoteAddress: randomTestIp(),
    headers: { ...formHeaders, origin: platform.base },
    payload: new URLSearchParams({
      iss: platform.issuer,
      login_hint: 'pista',
      target_link_uri: `${testPublicUrl}/api/lti/launch`,
      client_id: platform.clientId,
      lti_deployment_id: 'despliegue-1',
    }).toString(),
  });
  expect(login.statusCode).toBe(302);
  const location = new URL(login.headers.location as string);
  const idToken = await platform.idToken({
    nonce: location.searchParams.get('nonce'),
    [`${lti}custom`]: { cxvet_kind: 'aula', cxvet_id: classroomId },
    ...claims,
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/lti/launch',
    remoteAddress: randomTestIp(),
    headers: { ...formHeaders, origin: platform.base },
    payload: new URLSearchParams({ id_token: idToken, state: location.searchParams.get('state')! }).toString(),
  });
  expect(response.statusCode).toBe(303);
  const raw = response.headers['set-cookie'];
  const cookies = (Array.isArray(raw) ? raw : [raw]) as string[];
  const cookie = cookies.find((value) => value.startsWith('cxvet_lti='))!.split(';')[0]!;
  return { cookie, continueUrl: response.headers.location as string };
}

const me = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).json().user as {
    id: string;
  } | null;

/** An HTML page of a launch: its frame-ancestors. */
async function framers(cookie: string) {
  const page = await t.app.inject({ method: 'GET', url: '/api/lti/continue?ticket=x', headers: { cookie } });
  expect(page.headers['content-type']).toMatch(/^text\/html/);
  return String(page.headers['content-security-policy']);
}

beforeAll(async () => {
  t = await createTestApp();
  platform = await startFakePlatform({ toolJwks: () => toolJwks(t.config.ltiKey!) });
  admin = await signedInAs(t, { type: 'Admin' });
  const procedure = await createProcedure(t);
  const classroom = await createClassroom(t, { procedureIds: [procedure.id] });
  classroomId = classroom.id;
  organizationId = classroom.organizationId;
});
afterAll(async () => {
  await platform?.close();
  await t?.close();
});

describe('a deleted platform', () => {
  it('stops framing launched pages: its origin leaves the cached list at once', async () => {
    const id = await registerPlatform();
    const { cookie } = await launch({ sub: 'enmarcada' });
    expect(await framers(cookie)).toContain(`frame-ancestors ${platform.base}`);
    // read again from the cache: still there
    expect(await framers(cookie)).toContain(`frame-ancestors ${platform.base}`);
    await deletePlatform(id);
    expect(await framers(cookie)).toContain("frame-ancestors 'none'");
  });

  it('gives a browser still holding the launch cookie no rights: its session, window ticket and co-administration end', async () => {
    const id = await registerPlatform();
    const student = await launch({ sub: 'alumna-borrada' });
    const professor = await launch({ sub: 'profe-borrado', [`${lti}roles`]: instructor });
    const professorId = (await me(professor.cookie))!.id;
    expect(await me(student.cookie)).not.toBeNull();
    const coAdmins = () => t.db.select().from(classroomCoAdmins).where(eq(classroomCoAdmins.userId, professorId));
    expect(await coAdmins()).toHaveLength(1);
    // the one-time window ticket of the launch, not yet used
    const framed = await t.app.inject({ method: 'GET', url: student.continueUrl });
    const open = /href="([^"]+)" target="_blank"/.exec(framed.body)![1]!.replace(/&#38;/g, '&');

    await deletePlatform(id);
    expect(await me(student.cookie)).toBeNull();
    expect(await me(professor.cookie)).toBeNull();
    expect(await coAdmins()).toHaveLength(0);
    expect(await t.db.select().from(ltiLaunchSessions)).toHaveLength(0);
    const managed = await t.app.inject({
      method: 'GET',
      url: '/api/classroom-admin/classrooms',
      headers: { cookie: professor.cookie },
    });
    expect(managed.statusCode).toBe(401);
    const opened = await t.app.inject({ method: 'GET', url: open });
    expect(opened.statusCode).toBe(401);
    expect(opened.body).toContain('Esta plataforma no está registrada en CxVet.');
    expect(opened.headers['set-cookie']).toBeUndefined();
    // the admin's own session is untouched
    expect(await me(admin.cookie)).not.toBeNull();
  });
});

describe('an account made by a launch', () => {
  it("sets a password through '¿Olvidaste tu contraseña?' and then signs in on CxVet directly", async () => {
    await registerPlatform();
    const { cookie } = await launch({ sub: 'sin-clave', email: 'sin-clave@example.com', name: 'Sin Clave' });
    const launched = await me(cookie);
    expect(launched).not.toBeNull();
    // no password yet: signing in is refused
    const before = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      remoteAddress: randomTestIp(),
      headers: { origin: testPublicUrl },
      payload: { email: 'sin-clave@example.com', password: 'NuevaClave1' },
    });
    expect(before.statusCode).toBeGreaterThanOrEqual(400);

    const requested = await t.app.inject({
      method: 'POST',
      url: '/api/account/password-reset',
      remoteAddress: randomTestIp(),
      headers: { origin: testPublicUrl },
      payload: { email: 'sin-clave@example.com' },
    });
    expect(requested.statusCode).toBe(204);
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'sin-clave@example.com'));
    const link = /https?:\/\/\S+\/reasignar_password\?\S+/.exec(mail!.text)![0];
    const code = new URL(link).searchParams.get('oobCode')!;
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/account/password-reset/confirm',
      headers: { origin: testPublicUrl },
      payload: { code, password: 'NuevaClave1', confirmPassword: 'NuevaClave1' },
    });
    expect(confirmed.statusCode).toBe(204);
    const direct = await loginCookie(t, 'sin-clave@example.com', 'NuevaClave1');
    expect((await me(direct))!.id).toBe(launched!.id);
  });
});
