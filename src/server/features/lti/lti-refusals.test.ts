import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createClassroom, createUser, randomTestIp, signedInAs } from '#server/testing/factories.ts';
import { startFakePlatform, type FakePlatform } from '#server/testing/lti-platform.ts';
import {
  classroomCoAdmins,
  jobs,
  ltiAccounts,
  ltiLinkMembers,
  ltiLinks,
  ltiScores,
  users,
} from '#server/db/schema/index.ts';
import { scoreAttempts } from './lti-grades.ts';
import { toolJwks } from './lti-key.ts';

/**
 * Decision 069: the LTI tool tried against what the standard tells it to refuse, and against the least-privileged
 * caller, two requests at once, a crash between two writes, a hostile input and a revoked right.
 */
const lti = 'https://purl.imsglobal.org/spec/lti/claim/';
const learner = ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'];

let t: TestApp;
const logLines: string[] = [];
let platform: FakePlatform;
let organizationId = '';
let classroomId = '';
const platforms: FakePlatform[] = [];
let nextPort = 34221;

const formHeaders = (from: FakePlatform) => ({
  'content-type': 'application/x-www-form-urlencoded',
  origin: from.base,
  'sec-fetch-site': 'cross-site',
});

/** Another LMS on its own port, registered by the Admin in an organization. */
async function registerPlatform(orgId: string): Promise<FakePlatform> {
  const admin = await signedInAs(t, { type: 'Admin' });
  const started = await startFakePlatform({ port: nextPort++, toolJwks: () => toolJwks(t.config.ltiKey!) });
  platforms.push(started);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/admin/lti/platforms',
    headers: { cookie: admin.cookie, origin: testPublicUrl },
    payload: { ...started.registration, organizationId: orgId },
  });
  expect(created.statusCode).toBe(200);
  return started;
}

async function initiate(from: FakePlatform, extra: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/lti/login',
    remoteAddress: randomTestIp(),
    headers: formHeaders(from),
    payload: new URLSearchParams({
      iss: from.issuer,
      login_hint: 'pista',
      target_link_uri: `${testPublicUrl}/api/lti/launch`,
      client_id: from.clientId,
      lti_deployment_id: 'despliegue-1',
      ...extra,
    }).toString(),
  });
}

async function postLaunch(from: FakePlatform, idToken: string, state: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/lti/launch',
    remoteAddress: randomTestIp(),
    headers: formHeaders(from),
    payload: new URLSearchParams({ id_token: idToken, state }).toString(),
  });
}

/** A login initiation's state and nonce. */
async function login(from: FakePlatform) {
  const response = await initiate(from);
  expect(response.statusCode).toBe(302);
  const location = new URL(response.headers.location as string);
  return { state: location.searchParams.get('state')!, nonce: location.searchParams.get('nonce')! };
}

type Sign = Parameters<FakePlatform['idToken']>[1];
async function launch(claims: Record<string, unknown>, sign: Sign = {}, from: FakePlatform = platform) {
  const { state, nonce } = await login(from);
  const idToken = await from.idToken({ nonce, ...claims }, sign);
  return postLaunch(from, idToken, state);
}

const aula = (id = classroomId) => ({ [`${lti}custom`]: { cxvet_kind: 'aula', cxvet_id: id } });
const userCount = async () => (await t.db.select({ n: count() }).from(users))[0]!.n;
const launchCookieOf = (response: { headers: Record<string, unknown> }) => {
  const raw = response.headers['set-cookie'];
  const list = (Array.isArray(raw) ? raw : raw ? [raw] : []) as string[];
  return list.find((cookie) => cookie.startsWith('cxvet_lti='))?.split(';')[0];
};
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A refusal: its Spanish page, no launch cookie, no account made. */
async function expectRefused(response: Awaited<ReturnType<typeof postLaunch>>, text: string, before: number) {
  expect(response.statusCode).toBe(401);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.body).toContain(text);
  expect(launchCookieOf(response)).toBeUndefined();
  expect(await userCount()).toBe(before);
}

beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));
  t = await createTestApp({ logLevel: 'debug' }, undefined, { logStream });
  const classroom = await createClassroom(t, { procedureIds: [] });
  classroomId = classroom.id;
  organizationId = classroom.organizationId;
  platform = await registerPlatform(organizationId);
});
afterAll(async () => {
  for (const each of platforms) await each.close();
  await t?.close();
});

describe('what the Security Framework (5.1.3) tells a tool to refuse', () => {
  it('an audience beside CxVet, even with azp naming CxVet; an azp naming another tool', async () => {
    const before = await userCount();
    const several = await launch(
      { sub: 'dos-audiencias', azp: platform.clientId, ...aula() },
      { audience: [platform.clientId, 'otra-herramienta'] },
    );
    await expectRefused(several, 'no está dirigido a CxVet', before);
    const azp = await launch({ sub: 'azp-ajeno', azp: 'otra-herramienta', ...aula() });
    await expectRefused(azp, 'no está dirigido a CxVet', before);
    // the same launch naming CxVet alone is taken
    expect((await launch({ sub: 'azp-propio', azp: platform.clientId, ...aula() })).statusCode).toBe(303);
  });

  it('an iat too old (5 minutes) though exp is ahead, and an iat in the future', async () => {
    const before = await userCount();
    const now = Math.floor(Date.now() / 1000);
    const old = await launch({ sub: 'iat-viejo', ...aula() }, { issuedAt: now - 10 * 60, expiresIn: now + 3600 });
    await expectRefused(old, 'venció', before);
    const ahead = await launch({ sub: 'iat-futuro', ...aula() }, { issuedAt: now + 600, expiresIn: now + 3600 });
    expect(ahead.statusCode).toBe(401);
    expect(await userCount()).toBe(before);
  });

  it("alg none, HS256 keyed with the platform's public key (key confusion), and a key its JWKS does not list", async () => {
    const before = await userCount();
    const { state, nonce } = await login(platform);
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: platform.issuer,
      aud: platform.clientId,
      sub: 'sin-firma',
      iat: now,
      exp: now + 300,
      nonce,
      [`${lti}message_type`]: 'LtiResourceLinkRequest',
      [`${lti}version`]: '1.3.0',
      [`${lti}deployment_id`]: 'despliegue-1',
      [`${lti}resource_link`]: { id: 'enlace-1' },
      [`${lti}roles`]: learner,
      ...aula(),
    };
    const none = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
    await expectRefused(await postLaunch(platform, none, state), 'La firma del mensaje', before);

    const second = await login(platform);
    const { createHmac, createPublicKey } = await import('node:crypto');
    const pem = createPublicKey({ key: platform.jwk as never, format: 'jwk' }).export({ format: 'pem', type: 'spki' });
    const signingInput = `${base64url({ alg: 'HS256', typ: 'JWT', kid: 'plataforma-1' })}.${base64url({ ...claims, nonce: second.nonce })}`;
    const hs256 = `${signingInput}.${createHmac('sha256', pem).update(signingInput).digest('base64url')}`;
    await expectRefused(await postLaunch(platform, hs256, second.state), 'La firma del mensaje', before);

    const unknown = await launch({ sub: 'llave-ajena', ...aula() }, { key: platform.otherKey, kid: 'desconocida' });
    await expectRefused(unknown, 'La firma del mensaje', before);
  });

  it('a token without sub: CxVet needs a person, so the anonymous launch is refused', async () => {
    const before = await userCount();
    await expectRefused(await launch({ sub: undefined, ...aula() }), 'No pudimos abrir CxVet', before);
  });

  it('a target_link_uri outside our origin leads nowhere: the browser goes to the platform, then to our page', async () => {
    const response = await initiate(platform, { target_link_uri: 'https://atacante.example/robar' });
    expect(response.statusCode).toBe(302);
    const location = new URL(response.headers.location as string);
    expect(location.origin + location.pathname).toBe(`${platform.base}/auth`);
    expect(location.searchParams.get('redirect_uri')).toBe(`${testPublicUrl}/api/lti/launch`);
    expect(response.headers.location).not.toContain('atacante');
    const token = await platform.idToken({
      nonce: location.searchParams.get('nonce'),
      sub: 'destino-ajeno',
      [`${lti}target_link_uri`]: 'https://atacante.example/robar',
      ...aula(),
    });
    const launched = await postLaunch(platform, token, location.searchParams.get('state')!);
    expect(launched.statusCode).toBe(303);
    expect(launched.headers.location).toMatch(/^\/api\/lti\//);
  });
});

describe('the least-privileged caller', () => {
  it('a Learner claiming system and institution administrator roles stays a Gratis member of the aula', async () => {
    const response = await launch({
      sub: 'alumno-admin',
      [`${lti}roles`]: [
        ...learner,
        'http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator',
        'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
      ],
      ...aula(),
    });
    expect(response.statusCode).toBe(303);
    const cookie = launchCookieOf(response)!;
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.json().user.type).toBe('Gratis');
    const console = await t.app.inject({ method: 'GET', url: '/api/admin/lti/platforms', headers: { cookie } });
    expect(console.statusCode).toBe(403);
    const coAdmins = await t.db.select().from(classroomCoAdmins).where(eq(classroomCoAdmins.userId, me.json().user.id));
    expect(coAdmins).toHaveLength(0);
  });

  it("another platform's launch: the same sub is another person, and the first organization's aula is not its to open", async () => {
    const other = await createClassroom(t, { procedureIds: [] });
    const second = await registerPlatform(other.organizationId);
    const mine = await launch({ sub: 'mismo-sub', ...aula() });
    expect(mine.statusCode).toBe(303);
    const theirs = await launch({ sub: 'mismo-sub', ...aula(other.id) }, {}, second);
    expect(theirs.statusCode).toBe(303);
    const accounts = await t.db.select().from(ltiAccounts).where(eq(ltiAccounts.sub, 'mismo-sub'));
    expect(new Set(accounts.map((row) => row.userId)).size).toBe(2);
    const crossing = await launch({ sub: 'mismo-sub', ...aula(classroomId) }, {}, second);
    expect(crossing.statusCode).toBe(404);
    expect(launchCookieOf(crossing)).toBeUndefined();
  });

  it('a deactivated CxVet account is refused, whether linked by an earlier launch or matched by its e-mail', async () => {
    const first = await launch({ sub: 'se-desactiva', ...aula() });
    expect(first.statusCode).toBe(303);
    const [account] = await t.db.select().from(ltiAccounts).where(eq(ltiAccounts.sub, 'se-desactiva'));
    await t.db.update(users).set({ isDisabled: true }).where(eq(users.id, account!.userId));
    const again = await launch({ sub: 'se-desactiva', ...aula() });
    expect(again.statusCode).toBe(403);
    expect(launchCookieOf(again)).toBeUndefined();
    const owner = await createUser(t, { email: 'desactivada@example.com' });
    await t.db.update(users).set({ isDisabled: true }).where(eq(users.id, owner.id));
    const byEmail = await launch({ sub: 'por-correo', email: 'desactivada@example.com', ...aula() });
    expect(byEmail.statusCode).toBe(403);
    expect(byEmail.body).not.toContain('Vincula tu cuenta');
  });
});

describe('two requests at once', () => {
  it('two first launches of one new LMS user: both open, one account', async () => {
    const before = await userCount();
    const [a, b] = await Promise.all([
      launch({ sub: 'a-la-vez', email: 'alavez@example.com', ...aula() }),
      launch({ sub: 'a-la-vez', email: 'alavez@example.com', ...aula() }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([303, 303]);
    expect(await userCount()).toBe(before + 1);
    expect(await t.db.select().from(ltiAccounts).where(eq(ltiAccounts.sub, 'a-la-vez'))).toHaveLength(1);
  });
});

describe('the grade passback', () => {
  /** A link with a line item and its member, and a score owed to it. */
  async function owed(sub: string, lineItem: string) {
    const response = await launch({
      sub,
      [`${lti}resource_link`]: { id: `enlace-${sub}` },
      'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': { lineitem: `${platform.base}/lineitems/${lineItem}` },
      ...aula(),
    });
    expect(response.statusCode).toBe(303);
    const [member] = await t.db
      .select({ linkId: ltiLinkMembers.linkId, userId: ltiLinkMembers.userId })
      .from(ltiLinkMembers)
      .innerJoin(ltiLinks, eq(ltiLinks.id, ltiLinkMembers.linkId))
      .where(and(eq(ltiLinkMembers.sub, sub), eq(ltiLinks.resourceLinkId, `enlace-${sub}`)));
    return member!;
  }
  const score = async (member: { linkId: string; userId: string }, given: number, createdAt: Date) =>
    (
      await t.db
        .insert(ltiScores)
        .values({ ...member, scoreGiven: given, scoreMaximum: 100, createdAt })
        .returning()
    )[0]!;
  const grades = () => t.app.services.lti.grades!;

  it('carries when the score was recorded: a late retry of an older result never replaces a newer one (AGS 3.4)', async () => {
    const member = await owed('notas-orden', 'orden');
    const older = await score(member, 60, new Date(Date.now() - 120_000));
    const newer = await score(member, 90, new Date(Date.now() - 60_000));
    await grades().send(newer.id);
    await grades().send(older.id);
    const received = platform.scores.filter((each) => each.lineItem === 'orden');
    expect(received.map((each) => each.scoreGiven)).toEqual([90, 60]);
    expect(received[0]!.timestamp).toBe(newer.createdAt.toISOString());
    expect(received[1]!.timestamp).toBe(older.createdAt.toISOString());
    // the platform keeps the result whose timestamp is latest: 90
    expect(Date.parse(received[1]!.timestamp!)).toBeLessThan(Date.parse(received[0]!.timestamp!));
  });

  it('a score sent again (a crash before it was recorded, or two sends at once) is the same update', async () => {
    const member = await owed('notas-doble', 'doble');
    const once = await score(member, 75, new Date(Date.now() - 1000));
    await Promise.all([grades().send(once.id), grades().send(once.id)]);
    // the crash: the platform has it, our row still says it is owed
    await t.db.update(ltiScores).set({ status: 'fallida' }).where(eq(ltiScores.id, once.id));
    await grades().send(once.id);
    const received = platform.scores.filter((each) => each.lineItem === 'doble');
    expect(received.length).toBeGreaterThanOrEqual(2);
    expect(new Set(received.map((each) => JSON.stringify({ ...each, comment: undefined }))).size).toBe(1);
    const [row] = await t.db.select().from(ltiScores).where(eq(ltiScores.id, once.id));
    expect(row!.status).toBe('enviada');
  });

  it('ends after a bounded number of tries while the platform stays down, the reason kept', async () => {
    const member = await owed('notas-caida', 'caida');
    const stuck = await score(member, 50, new Date());
    await t.app.services.jobs.schedule('lti.send-score', { payload: { scoreId: stuck.id } });
    platform.state.down = true;
    try {
      await t.app.services.jobs.runDue();
      const [job] = await t.db.select().from(jobs).where(eq(jobs.kind, 'lti.send-score'));
      expect(job!.doneAt).toBeNull();
      // the tries a day of backoff would have made, then the last one
      await t.db
        .update(jobs)
        .set({ attempts: scoreAttempts - 1, runAt: new Date() })
        .where(eq(jobs.id, job!.id));
      await t.app.services.jobs.runDue();
      const [ended] = await t.db.select().from(jobs).where(eq(jobs.id, job!.id));
      expect(ended!.doneAt).not.toBeNull();
      expect(ended!.lastError).toContain(`(${scoreAttempts} tries)`);
      const [row] = await t.db.select().from(ltiScores).where(eq(ltiScores.id, stuck.id));
      expect(row).toMatchObject({ status: 'fallida' });
      expect(row!.lastError).toContain('503');
    } finally {
      platform.state.down = false;
    }
  });
});

describe('hostile input', () => {
  it('an id_token of 1 MB is refused before it is read', async () => {
    const before = await userCount();
    const { state } = await login(platform);
    const response = await postLaunch(platform, 'a'.repeat(1024 * 1024), state);
    expect(response.statusCode).toBe(413);
    expect(await userCount()).toBe(before);
  });

  it('deeply nested claims and a deeply nested header are answered, never a 500', async () => {
    const deep = JSON.parse(`${'['.repeat(1000)}${']'.repeat(1000)}`) as unknown;
    const nested = await launch({ sub: 'anidado', [`${lti}custom`]: { cxvet_kind: 'aula', cxvet_id: deep } });
    expect(nested.statusCode).toBe(404);
    const { state } = await login(platform);
    const header = `{"alg":"RS256","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const token = `${Buffer.from(header).toString('base64url')}.${base64url({ sub: 'x' })}.firma`;
    const response = await postLaunch(platform, token, state);
    expect(response.statusCode).toBe(401);
  });

  it('a key set of 10 000 keys is refused, not read whole', async () => {
    const big = await registerPlatform(organizationId);
    big.state.jwks = {
      keys: [...Array.from({ length: 10_000 }, (_, index) => ({ ...big.otherJwk, kid: `k-${index}` })), big.jwk],
    };
    const before = await userCount();
    await expectRefused(await launch({ sub: 'diez-mil', ...aula() }, {}, big), 'La firma del mensaje', before);
  });

  it('a key set that never ends is given up after the 5 s timeout', async () => {
    const slow = await registerPlatform(organizationId);
    slow.state.jwks = 'no-answer';
    const before = await userCount();
    const started = Date.now();
    await expectRefused(await launch({ sub: 'sin-fin', ...aula() }, {}, slow), 'La firma del mensaje', before);
    expect(Date.now() - started).toBeLessThan(8000);
  }, 15_000);
});

describe('how long a revoked right lives', () => {
  it("a key the platform rotated out works at most 10 minutes (the key set's cache), then only the new one", async () => {
    const rotating = await registerPlatform(organizationId);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect((await launch({ sub: 'rota-1', ...aula() }, {}, rotating)).statusCode).toBe(303);
      rotating.state.jwks = { keys: [rotating.otherJwk] };
      vi.setSystemTime(Date.now() + 5 * 60_000);
      expect((await launch({ sub: 'rota-2', ...aula() }, {}, rotating)).statusCode).toBe(303);
      vi.setSystemTime(Date.now() + 5 * 60_000 + 1000);
      const before = await userCount();
      await expectRefused(await launch({ sub: 'rota-3', ...aula() }, {}, rotating), 'La firma del mensaje', before);
      const newKey = { key: rotating.otherKey, kid: 'plataforma-2' };
      expect((await launch({ sub: 'rota-4', ...aula() }, newKey, rotating)).statusCode).toBe(303);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the log', () => {
  it('holds no id_token, access token, private key or e-mail after all of the above', async () => {
    const text = logLines.join('');
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+/);
    for (const each of [platform, ...platforms]) {
      for (const token of each.accessTokens) expect(text).not.toContain(token);
    }
    const pem = t.config.ltiKey!.privateKeyPem;
    expect(text).not.toContain(pem.split('\n')[1]!.slice(0, 40));
    expect(text).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
  });
});
