import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import {
  createClassroom,
  createProcedure,
  createUser,
  randomTestIp,
  signedInAs,
  testPassword,
} from '#server/testing/factories.ts';
import { createDiploma } from '#server/features/diplomas/diplomas.testing.ts';
import { startFakePlatform, type FakePlatform } from '#server/testing/lti-platform.ts';
import {
  classroomCoAdmins,
  classroomUsers,
  classrooms,
  diplomaUsers,
  examResults,
  jobs,
  ltiAccounts,
  ltiScores,
  users,
  watchPositions,
} from '#server/db/schema/index.ts';
import { toolJwks } from './lti-key.ts';

const lti = 'https://purl.imsglobal.org/spec/lti/claim/';
const learner = ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'];
const instructor = ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor'];

let t: TestApp;
let platform: FakePlatform;
let admin: { cookie: string };
let platformId = '';
let organizationId = '';
let classroomId = '';

const form = (values: Record<string, string>) => ({
  'content-type': 'application/x-www-form-urlencoded',
  payload: new URLSearchParams(values).toString(),
});

/** The platform's side of a launch: login initiation, then its id_token posted back with the state. */
async function initiate(extra: Record<string, string> = {}) {
  const { payload, 'content-type': type } = form({
    iss: platform.issuer,
    login_hint: 'pista',
    target_link_uri: `${testPublicUrl}/api/lti/launch`,
    client_id: platform.clientId,
    lti_deployment_id: 'despliegue-1',
    ...extra,
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/lti/login',
    remoteAddress: randomTestIp(),
    headers: { 'content-type': type, origin: platform.base, 'sec-fetch-site': 'cross-site' },
    payload,
  });
  return response;
}

async function postLaunch(idToken: string, state: string) {
  const { payload, 'content-type': type } = form({ id_token: idToken, state });
  return t.app.inject({
    method: 'POST',
    url: '/api/lti/launch',
    remoteAddress: randomTestIp(),
    headers: { 'content-type': type, origin: platform.base, 'sec-fetch-site': 'cross-site' },
    payload,
  });
}

type Sign = Parameters<FakePlatform['idToken']>[1];

async function launch(claims: Record<string, unknown>, sign: Sign = {}) {
  const login = await initiate();
  expect(login.statusCode).toBe(302);
  const location = new URL(login.headers.location as string);
  const state = location.searchParams.get('state')!;
  const nonce = location.searchParams.get('nonce')!;
  const idToken = await platform.idToken({ nonce, ...claims }, sign);
  return { response: await postLaunch(idToken, state), idToken, state };
}

const launchCookieOf = (response: { headers: Record<string, unknown> }) => {
  const raw = response.headers['set-cookie'];
  const list = (Array.isArray(raw) ? raw : raw ? [raw] : []) as string[];
  return list.find((cookie) => cookie.startsWith('cxvet_lti='));
};

/** Where a launch lands: its continue page, followed with the launch cookie as the framed browser does. */
async function destination(response: { headers: Record<string, unknown> }) {
  const cookie = launchCookieOf(response)!.split(';')[0]!;
  const next = await t.app.inject({ method: 'GET', url: response.headers.location as string, headers: { cookie } });
  expect(next.statusCode).toBe(303);
  return next.headers.location as string;
}

const userCount = async () => (await t.db.select({ n: count() }).from(users))[0]!.n;

beforeAll(async () => {
  t = await createTestApp();
  platform = await startFakePlatform({ port: 34201, toolJwks: () => toolJwks(t.config.ltiKey!) });
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

describe('Plataformas LTI in the console', () => {
  it('an Admin registers a platform and sees the URLs and keys to paste into the LMS; others are refused', async () => {
    const member = await signedInAs(t, { type: 'Premium' });
    const body = { ...platform.registration, organizationId };
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/admin/lti/platforms',
      headers: { cookie: member.cookie, origin: testPublicUrl },
      payload: body,
    });
    expect(refused.statusCode).toBe(403);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/lti/platforms',
      headers: { cookie: admin.cookie, origin: testPublicUrl },
      payload: body,
    });
    expect(created.statusCode).toBe(200);
    platformId = created.json().id;
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/lti/platforms',
      headers: { cookie: admin.cookie, origin: testPublicUrl },
      payload: body,
    });
    expect(again.statusCode).toBe(409);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/admin/lti/platforms',
      headers: { cookie: admin.cookie },
    });
    expect(list.json().tool).toMatchObject({
      loginUrl: `${testPublicUrl}/api/lti/login`,
      launchUrl: `${testPublicUrl}/api/lti/launch`,
      jwksUrl: `${testPublicUrl}/api/lti/jwks`,
    });
    expect(list.json().tool.jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', kid: t.config.ltiKey!.kid });
    expect(list.json().tool.jwks.keys[0].d).toBeUndefined();
    expect(list.json().items).toEqual([
      expect.objectContaining({ id: platformId, organizationTitle: 'Universidad Prueba' }),
    ]);
    const jwks = await t.app.inject({ method: 'GET', url: '/api/lti/jwks' });
    expect(jwks.json()).toEqual(list.json().tool.jwks);
  });
});

describe('launch', () => {
  it('a first launch creates a Gratis account in the organization, without a password, and opens the aula', async () => {
    const before = await userCount();
    const { response } = await launch({
      sub: 'alumna-1',
      name: 'Ana Alumna',
      [`${lti}custom`]: { cxvet_kind: 'aula', cxvet_id: classroomId },
    });
    expect(response.statusCode).toBe(303);
    expect(await destination(response)).toBe(`/mis-aulas/aula/${classroomId}`);
    const cookie = launchCookieOf(response)!;
    expect(cookie).toMatch(/; HttpOnly; SameSite=None; Secure; Partitioned$/);
    expect(await userCount()).toBe(before + 1);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookie.split(';')[0]! } });
    expect(me.json().user).toMatchObject({ name: 'Ana Alumna', type: 'Gratis' });
    const [account] = await t.db
      .select({ user: users })
      .from(ltiAccounts)
      .innerJoin(users, eq(users.id, ltiAccounts.userId))
      .where(eq(ltiAccounts.sub, 'alumna-1'));
    expect(account!.user.organizationId).toBe(organizationId);
    const member = await t.db
      .select()
      .from(classroomUsers)
      .where(and(eq(classroomUsers.classroomId, classroomId), eq(classroomUsers.userId, account!.user.id)));
    expect(member).toHaveLength(1);

    const second = await launch({ sub: 'alumna-1', [`${lti}custom`]: { cxvet_kind: 'aula', cxvet_id: classroomId } });
    expect(second.response.statusCode).toBe(303);
    expect(await userCount()).toBe(before + 1);
  });

  it("a browser that refused the launch cookie is offered 'Abrir en una ventana nueva', usable once", async () => {
    const { response } = await launch({
      sub: 'alumna-1',
      [`${lti}custom`]: { cxvet_kind: 'aula', cxvet_id: classroomId },
    });
    const framed = await t.app.inject({ method: 'GET', url: response.headers.location as string });
    expect(framed.statusCode).toBe(200);
    expect(framed.body).toContain('Abrir en una ventana nueva');
    expect(framed.headers['content-security-policy']).toContain(`frame-ancestors ${platform.base}`);
    const open = /href="([^"]+)" target="_blank"/.exec(framed.body)![1]!.replace(/&#38;/g, '&');
    const opened = await t.app.inject({ method: 'GET', url: open });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/mis-aulas/aula/${classroomId}`);
    const cookie = String(opened.headers['set-cookie']);
    expect(cookie).toMatch(/^better-auth\.session_token=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookie.split(';')[0]! } });
    expect(me.json().user.name).toBe('Ana Alumna');
    const again = await t.app.inject({ method: 'GET', url: open });
    expect(again.statusCode).toBe(401);
    expect(again.body).toContain('Este enlace de inicio ya se usó.');
  });

  it('an instructor becomes co-administrator of the aula; its administrator is unchanged', async () => {
    const owner = await createUser(t, { type: 'Gratis' });
    await t.db.update(classrooms).set({ adminUserId: owner.id }).where(eq(classrooms.id, classroomId));
    const { response } = await launch({
      sub: 'profe-1',
      [`${lti}roles`]: instructor,
      [`${lti}custom`]: { cxvet_kind: 'aula', cxvet_id: classroomId },
    });
    expect(response.statusCode).toBe(303);
    expect(await destination(response)).toBe(`/administrar-aula/aula/${classroomId}`);
    const coAdmins = await t.db.select().from(classroomCoAdmins).where(eq(classroomCoAdmins.classroomId, classroomId));
    expect(coAdmins).toHaveLength(1);
    const [classroom] = await t.db.select().from(classrooms).where(eq(classrooms.id, classroomId));
    expect(classroom!.adminUserId).toBe(owner.id);
    // inside the frame the instructor administers the aula as its administrator does
    const cookie = launchCookieOf(response)!.split(';')[0]!;
    const managed = await t.app.inject({ method: 'GET', url: '/api/classroom-admin/classrooms', headers: { cookie } });
    expect(managed.statusCode).toBe(200);
    expect(managed.json().items.map((item: { id: string }) => item.id)).toEqual([classroomId]);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.json().user).toMatchObject({ type: 'Gratis' });
  });

  it('an e-mail that already has an account is never merged silently: its owner links by signing in once', async () => {
    const owner = await createUser(t, { email: 'duena@example.com' });
    const before = await userCount();
    const { response } = await launch({ sub: 'duena-lms', email: 'Duena@example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Vincula tu cuenta de CxVet');
    expect(launchCookieOf(response)).toBeUndefined();
    expect(await userCount()).toBe(before);
    const linkId = /name="link" value="([^"]+)"/.exec(response.body)![1]!;
    const post = (password: string, email = 'duena@example.com') =>
      t.app.inject({
        method: 'POST',
        url: '/api/lti/link',
        remoteAddress: randomTestIp(),
        headers: { origin: testPublicUrl, ...{ 'content-type': 'application/x-www-form-urlencoded' } },
        payload: new URLSearchParams({ link: linkId, email, password }).toString(),
      });
    const wrong = await post('otra-clave-mala');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('El correo o la contraseña no son correctos.');
    const other = await createUser(t, { email: 'otra@example.com' });
    expect((await post(testPassword, other.email)).statusCode).toBe(403);
    const linked = await post(testPassword);
    expect(linked.statusCode).toBe(200);
    expect(linked.body).toContain('Tu cuenta de CxVet quedó vinculada');
    const next = await launch({
      sub: 'duena-lms',
      email: 'duena@example.com',
      [`${lti}custom`]: { cxvet_kind: 'aula', cxvet_id: classroomId },
    });
    expect(next.response.statusCode).toBe(303);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: launchCookieOf(next.response)!.split(';')[0]! },
    });
    expect(me.json().user.id).toBe(owner.id);
  });
});

describe('every refusal shows a Spanish page and creates nothing', () => {
  const aula = () => ({ [`${lti}custom`]: { cxvet_kind: 'aula', cxvet_id: classroomId } });
  let before = 0;
  beforeEach(async () => {
    before = await userCount();
  });
  const expectRefused = async (response: Awaited<ReturnType<typeof postLaunch>>, text: string) => {
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('No pudimos abrir CxVet');
    expect(response.body).toContain(text);
    expect(launchCookieOf(response)).toBeUndefined();
    expect(await userCount()).toBe(before);
  };

  it('a wrong signature', async () => {
    const { response } = await launch({ sub: 'nuevo-firma', ...aula() }, { key: platform.otherKey });
    await expectRefused(response, 'La firma del mensaje de tu plataforma no es válida.');
  });
  it('a wrong audience', async () => {
    const { response } = await launch({ sub: 'nuevo-aud', ...aula() }, { audience: 'otra-herramienta' });
    await expectRefused(response, 'no está dirigido a CxVet');
  });
  it('several audiences without azp naming CxVet', async () => {
    const { response } = await launch({ sub: 'nuevo-azp', ...aula() }, { audience: [platform.clientId, 'otra'] });
    await expectRefused(response, 'no está dirigido a CxVet');
  });
  it('an expired token', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    const { response } = await launch({ sub: 'nuevo-exp', ...aula() }, { issuedAt: past - 60, expiresIn: past });
    await expectRefused(response, 'venció');
  });
  it('a replayed launch (the same nonce and state again)', async () => {
    const first = await launch({ sub: 'nuevo-replay', ...aula() });
    expect(first.response.statusCode).toBe(303);
    before = await userCount();
    await expectRefused(await postLaunch(first.idToken, first.state), 'Este enlace de inicio ya se usó.');
  });
  it("a nonce that is not the login's", async () => {
    const login = await initiate();
    const state = new URL(login.headers.location as string).searchParams.get('state')!;
    const token = await platform.idToken({ nonce: 'otro-nonce', sub: 'nuevo-nonce', ...aula() });
    await expectRefused(await postLaunch(token, state), 'no corresponde a este inicio de sesión');
  });
  it('an unknown deployment', async () => {
    const { response } = await launch({ sub: 'nuevo-dep', [`${lti}deployment_id`]: 'despliegue-x', ...aula() });
    await expectRefused(response, 'Este despliegue de la herramienta no está registrado');
    const login = await initiate({ lti_deployment_id: 'despliegue-x' });
    expect(login.statusCode).toBe(400);
    expect(login.body).toContain('Este despliegue de la herramienta no está registrado');
  });
  it('a wrong LTI version or message type, and an unknown state', async () => {
    const version = await launch({ sub: 'nuevo-ver', [`${lti}version`]: '1.1', ...aula() });
    await expectRefused(version.response, 'no es de LTI 1.3');
    const type = await launch({ sub: 'nuevo-tipo', [`${lti}message_type`]: 'LtiStartProctoring', ...aula() });
    await expectRefused(type.response, 'no es de LTI 1.3');
    const token = await platform.idToken({ nonce: 'x', sub: 'nuevo-estado' });
    await expectRefused(await postLaunch(token, 'estado-inventado'), 'No reconocemos este inicio de sesión.');
  });
  it('an unregistered issuer at login initiation', async () => {
    const login = await initiate({ iss: 'https://lms.desconocido.example' });
    expect(login.statusCode).toBe(400);
    expect(login.body).toContain('Esta plataforma no está registrada en CxVet.');
  });
});

describe('deep linking, grades and roster', () => {
  let diplomaId = '';
  let examId = '';
  let studentId = '';

  it('a professor picks a diploma; the answer is signed by CxVet for the platform and carries it', async () => {
    const diploma = await createDiploma(t, {
      isExternal: true,
      videos: 1,
      examQuestions: [2],
      values: { organizationId },
    });
    diplomaId = diploma.id;
    examId = diploma.exams[0]!.id;
    const learnerTry = await launch({
      sub: 'alumno-dl',
      [`${lti}message_type`]: 'LtiDeepLinkingRequest',
      'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
        deep_link_return_url: `${platform.base}/deep-link-return`,
        accept_types: ['ltiResourceLink'],
      },
    });
    expect(learnerTry.response.statusCode).toBe(403);
    const { response } = await launch({
      sub: 'profe-dl',
      [`${lti}roles`]: instructor,
      [`${lti}message_type`]: 'LtiDeepLinkingRequest',
      [`${lti}resource_link`]: undefined,
      'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
        deep_link_return_url: `${platform.base}/deep-link-return`,
        accept_types: ['ltiResourceLink'],
        data: 'dato-opaco',
      },
    });
    expect(response.statusCode).toBe(303);
    const cookie = launchCookieOf(response)!.split(';')[0]!;
    const picker = await t.app.inject({ method: 'GET', url: await destination(response), headers: { cookie } });
    expect(picker.statusCode).toBe(200);
    expect(picker.body).toContain('Agrega contenido de CxVet a tu curso');
    expect(picker.body).toContain(`diplomado:${diplomaId}`);
    expect(picker.body).toContain(`aula:${classroomId}`);
    // the picker is framed by the registered platform only
    expect(picker.headers['content-security-policy']).toContain(`frame-ancestors ${platform.base}`);
    expect(picker.headers['x-frame-options']).toBeUndefined();
    const context = /name="context" value="([^"]+)"/.exec(picker.body)![1]!;
    const stranger = await signedInAs(t, { type: 'Gratis' });
    const pick = (who: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/lti/deep-linking',
        headers: { cookie: who, origin: testPublicUrl, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ context, target: `diplomado:${diplomaId}` }).toString(),
      });
    expect((await pick(stranger.cookie)).statusCode).toBe(401);
    const answer = await pick(cookie);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain(`action="${platform.base}/deep-link-return"`);
    const jwt = /name="JWT" value="([^"]+)"/.exec(answer.body)![1]!;
    const message = await platform.readDeepLinkingResponse(jwt);
    expect(message[`${lti}message_type`]).toBe('LtiDeepLinkingResponse');
    expect(message['https://purl.imsglobal.org/spec/lti-dl/claim/data']).toBe('dato-opaco');
    expect(message['https://purl.imsglobal.org/spec/lti-dl/claim/content_items']).toEqual([
      expect.objectContaining({
        type: 'ltiResourceLink',
        url: `${testPublicUrl}/api/lti/launch`,
        custom: { cxvet_kind: 'diplomado', cxvet_id: diplomaId },
      }),
    ]);
  });

  it("a diploma link enrols when the platform's organization owns it, else shows the purchase page", async () => {
    const { response } = await launch({
      sub: 'alumno-diploma',
      [`${lti}resource_link`]: { id: 'enlace-diplomado' },
      [`${lti}custom`]: { cxvet_kind: 'diplomado', cxvet_id: diplomaId },
    });
    expect(response.statusCode).toBe(303);
    expect(await destination(response)).toBe(`/mis-diplomados/diplomado/${diplomaId}`);
    const [account] = await t.db.select().from(ltiAccounts).where(eq(ltiAccounts.sub, 'alumno-diploma'));
    studentId = account!.userId;
    const enrolled = await t.db.select().from(diplomaUsers).where(eq(diplomaUsers.userId, studentId));
    expect(enrolled).toHaveLength(1);

    const foreign = await createDiploma(t, { isExternal: true, videos: 1, examQuestions: [1] });
    const other = await launch({
      sub: 'alumno-ajeno',
      [`${lti}resource_link`]: { id: 'enlace-ajeno' },
      [`${lti}custom`]: { cxvet_kind: 'diplomado', cxvet_id: foreign.id },
    });
    expect(await destination(other.response)).toBe(`/mis-diplomados/diplomado-preview/${foreign.id}`);
    const none = await t.db.select().from(diplomaUsers).where(eq(diplomaUsers.diplomaId, foreign.id));
    expect(none).toHaveLength(0);
  });

  it("an exam result reaches the platform's gradebook, retried while the platform is down", async () => {
    await t.db.insert(examResults).values({ examId, userId: studentId, scorePercent: 85, passed: true });
    platform.state.down = true;
    await t.app.services.jobs.schedule('lti.collect-scores');
    await t.app.services.jobs.runDue();
    const [failed] = await t.db.select().from(ltiScores).where(eq(ltiScores.userId, studentId));
    expect(failed).toMatchObject({ status: 'fallida', attempts: 1, scoreGiven: 85, scoreMaximum: 100 });
    expect(failed!.lastError).toContain('503');
    const [queued] = await t.db.select().from(jobs).where(eq(jobs.kind, 'lti.send-score'));
    expect(queued!.runAt.getTime()).toBeGreaterThan(Date.now());
    const console1 = await t.app.inject({
      method: 'GET',
      url: '/api/admin/lti/scores',
      headers: { cookie: admin.cookie },
    });
    expect(console1.json().items[0]).toMatchObject({ status: 'fallida', platformName: 'Moodle de prueba' });

    platform.state.down = false;
    await t.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.kind, 'lti.send-score'));
    await t.app.services.jobs.runDue();
    expect(platform.scores).toEqual([
      {
        lineItem: '1',
        userId: 'alumno-diploma',
        scoreGiven: 85,
        scoreMaximum: 100,
        comment: 'Examen del diplomado',
        timestamp: expect.any(String),
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
      },
    ]);
    const [sent] = await t.db.select().from(ltiScores).where(eq(ltiScores.userId, studentId));
    expect(sent).toMatchObject({ status: 'enviada', attempts: 2, lastError: null });
    // a second collection owes nothing more
    await t.app.services.jobs.schedule('lti.collect-scores');
    await t.app.services.jobs.runDue();
    expect(platform.scores).toHaveLength(1);
    const member = await signedInAs(t, { type: 'Premium' });
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/admin/lti/scores',
      headers: { cookie: member.cookie },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('a procedure watched to the end reaches the gradebook once, through a procedure link', async () => {
    const procedure = await createProcedure(t);
    const { response } = await launch({
      sub: 'alumno-video',
      [`${lti}resource_link`]: { id: 'enlace-video' },
      'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': { lineitem: `${platform.base}/lineitems/2` },
      [`${lti}custom`]: { cxvet_kind: 'procedimiento', cxvet_id: procedure.id },
    });
    expect(await destination(response)).toBe(`/procedimiento/${procedure.id}`);
    const [account] = await t.db.select().from(ltiAccounts).where(eq(ltiAccounts.sub, 'alumno-video'));
    const position = { userId: account!.userId, procedureId: procedure.id, positionSeconds: 50, durationSeconds: 100 };
    await t.db.insert(watchPositions).values(position);
    await t.app.services.jobs.schedule('lti.collect-scores');
    await t.app.services.jobs.runDue();
    expect(platform.scores.filter((score) => score.lineItem === '2')).toHaveLength(0);
    await t.db.update(watchPositions).set({ watchedAt: new Date() }).where(eq(watchPositions.userId, account!.userId));
    for (let round = 0; round < 2; round++) {
      await t.app.services.jobs.schedule('lti.collect-scores');
      await t.app.services.jobs.runDue();
    }
    expect(platform.scores.filter((score) => score.lineItem === '2')).toEqual([
      expect.objectContaining({ userId: 'alumno-video', scoreGiven: 1, scoreMaximum: 1 }),
    ]);
  });

  it('a roster sync fills the aula through the import preview, and a later one removes only whom it added', async () => {
    const procedure = await createProcedure(t);
    const owner = await signedInAs(t, { type: 'Gratis' });
    const classroom = await createClassroom(t, { procedureIds: [procedure.id] });
    await t.db
      .update(classrooms)
      .set({ adminUserId: owner.user.id, organizationId })
      .where(eq(classrooms.id, classroom.id));
    const byHand = await createUser(t, { organizationId });
    await t.db.insert(classroomUsers).values({ classroomId: classroom.id, userId: byHand.id });
    const prof = await launch({
      sub: 'profe-roster',
      [`${lti}roles`]: instructor,
      [`${lti}resource_link`]: { id: 'enlace-roster' },
      [`${lti}custom`]: { cxvet_kind: 'aula', cxvet_id: classroom.id },
    });
    const profCookie = launchCookieOf(prof.response)!.split(';')[0]!;
    platform.state.members = [
      { user_id: 'r-1', name: 'Rosa Uno', email: 'rosa1@example.com', roles: learner },
      { user_id: 'r-2', name: 'Rita Dos', roles: learner },
      { user_id: 'r-3', name: 'Raúl Tres', email: 'raul3@example.com', roles: learner },
      { user_id: 'profe-roster', name: 'Profe', roles: instructor },
    ];
    const sync = (cookie?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/lti/classrooms/${classroom.id}/roster-sync`,
        headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
      });
    expect((await sync()).statusCode).toBe(401);
    expect((await sync((await signedInAs(t, { type: 'Premium' })).cookie)).statusCode).toBe(404);
    const courses = await t.app.inject({
      method: 'GET',
      url: `/api/lti/classrooms/${classroom.id}/roster`,
      headers: { cookie: owner.cookie },
    });
    expect(courses.json()).toEqual({ courses: ['Cirugía I'] });
    const first = await sync(profCookie);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ added: 3, removed: 0, skipped: 0 });
    const members = async () =>
      (await t.db.select().from(classroomUsers).where(eq(classroomUsers.classroomId, classroom.id))).length;
    expect(await members()).toBe(4);

    platform.state.members = platform.state.members.filter((member) => member.user_id !== 'r-2');
    const second = await sync(owner.cookie);
    expect(second.json()).toEqual({ added: 0, removed: 1, skipped: 0 });
    const left = await t.db.select().from(classroomUsers).where(eq(classroomUsers.classroomId, classroom.id));
    expect(left.map((row) => row.userId)).toContain(byHand.id);
    expect(left).toHaveLength(3);

    platform.state.down = true;
    expect((await sync(owner.cookie)).statusCode).toBe(503);
    platform.state.down = false;
  });

  it("pages outside a launch keep frame-ancestors 'none'", async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});
