import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { Readable } from 'node:stream';
import { createProcedure, createUser, testPassword } from '#server/testing/factories.ts';
import { procedureCaptions, sessions, viewingTokens } from '#server/db/schema/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const chromeOnWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** Signs in from a browser with this user agent and address; returns its Cookie header. */
async function signIn(email: string, userAgent: string, ip: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/account/login',
    remoteAddress: ip,
    headers: { origin: testPublicUrl, 'user-agent': userAgent },
    payload: { email, password: testPassword },
  });
  expect(response.statusCode, response.body).toBe(200);
  const cookies = response.headers['set-cookie'];
  const list = Array.isArray(cookies) ? cookies : cookies ? [cookies] : [];
  return list.map((cookie) => cookie.split(';')[0]).join('; ');
}

const listSessions = (cookie?: string) =>
  t.app.inject({ url: '/api/account/sessions', headers: cookie ? { cookie } : {} });
const closeSession = (cookie: string | undefined, id: string) =>
  t.app.inject({
    method: 'DELETE',
    url: `/api/account/sessions/${id}`,
    headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
  });
const closeOthers = (cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/account/sessions/close-others',
    headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
  });
const me = async (cookie: string) => (await t.app.inject({ url: '/api/me', headers: { cookie } })).json().user;

async function memberOnTwoDevices(type: 'Gratis' | 'Premium' | 'Legacy' | 'Admin' = 'Gratis') {
  const terminationDate = type === 'Legacy' ? new Date(Date.now() + 30 * 86_400_000) : undefined;
  const user = await createUser(t, { type, ...(terminationDate ? { terminationDate } : {}) });
  const desktop = await signIn(user.email, chromeOnWindows, '192.168.1.20');
  const phone = await signIn(user.email, safariOnIphone, '203.0.113.77');
  return { user, desktop, phone };
}

describe('GET /api/account/sessions', () => {
  it('asks a guest to sign in', async () => {
    const response = await listSessions();
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHENTICATED');
  });

  it.each(['Gratis', 'Premium', 'Legacy', 'Admin'] as const)(
    'lists a %s member their own sessions, this device first-marked',
    async (type) => {
      const { desktop } = await memberOnTwoDevices(type);
      const response = await listSessions(desktop);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const list = response.json().sessions as {
        device: string;
        kind: string;
        place: string;
        ipAddress: string | null;
        isCurrent: boolean;
      }[];
      expect(list).toHaveLength(2);
      expect(list.find((session) => session.isCurrent)).toMatchObject({
        device: 'Chrome en Windows',
        kind: 'desktop',
        place: 'Red local',
        ipAddress: '192.168.1.x',
      });
      expect(list.find((session) => !session.isCurrent)).toMatchObject({
        device: 'Safari en iOS',
        kind: 'mobile',
        place: 'Ubicación aproximada no disponible',
        ipAddress: '203.0.113.x',
      });
    },
  );

  it("never lists another member's sessions", async () => {
    const ana = await memberOnTwoDevices();
    const luis = await memberOnTwoDevices();
    const ids = (await listSessions(ana.desktop)).json().sessions.map((session: { id: string }) => session.id);
    const luisIds = (
      await t.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, luis.user.id))
    ).map((row) => row.id);
    expect(ids).toHaveLength(2);
    for (const id of luisIds) expect(ids).not.toContain(id);
  });

  it('marks the device that holds the viewing token (single-device rule)', async () => {
    const { phone, desktop } = await memberOnTwoDevices('Premium');
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/viewing/token',
      headers: { cookie: phone, origin: testPublicUrl },
    });
    expect(taken.statusCode).toBe(200);
    const list = (await listSessions(desktop)).json().sessions as { device: string; isPlaying: boolean }[];
    expect(list.filter((session) => session.isPlaying).map((session) => session.device)).toEqual(['Safari en iOS']);
  });

  it('never answers with the raw address or the session token', async () => {
    const { desktop } = await memberOnTwoDevices();
    const body = (await listSessions(desktop)).body;
    expect(body).not.toContain('192.168.1.20');
    expect(body).not.toContain('203.0.113.77');
    const tokens = (await t.db.select({ token: sessions.token }).from(sessions)).map((row) => row.token);
    for (const token of tokens) expect(body).not.toContain(token);
  });
});

describe('DELETE /api/account/sessions/:id', () => {
  it('signs the other browser out at once and ends its hold on the video', async () => {
    const { user, desktop, phone } = await memberOnTwoDevices('Premium');
    await t.app.inject({
      method: 'POST',
      url: '/api/viewing/token',
      headers: { cookie: phone, origin: testPublicUrl },
    });
    const other = (await listSessions(desktop))
      .json()
      .sessions.find((session: { isCurrent: boolean }) => !session.isCurrent);
    const response = await closeSession(desktop, other.id);
    expect(response.statusCode).toBe(204);
    expect(await me(phone)).toBeNull();
    expect(await me(desktop)).toMatchObject({ id: user.id });
    expect(await t.db.select().from(viewingTokens).where(eq(viewingTokens.userId, user.id))).toEqual([]);
    expect((await listSessions(desktop)).json().sessions).toHaveLength(1);
  });

  it('stops serving the closed browser the files it had already opened', async () => {
    const { desktop, phone } = await memberOnTwoDevices('Premium');
    const procedure = await createProcedure(t, { type: 'Premium' });
    const key = `procedures/${procedure.id}/1700000000000_subtitulos.vtt`;
    await t.storage.put(key, Readable.from([Buffer.from('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHola\n')]));
    await t.db
      .insert(procedureCaptions)
      .values({ procedureId: procedure.id, video: 'full', language: 'es', fileKey: key });
    const fetchAs = async (cookie: string) =>
      (await t.app.inject({ url: `/media/${key}`, headers: { cookie } })).statusCode;
    expect(await fetchAs(phone)).toBe(200);
    expect(await fetchAs(phone)).toBe(200);
    const other = (await listSessions(desktop))
      .json()
      .sessions.find((session: { isCurrent: boolean }) => !session.isCurrent);
    await closeSession(desktop, other.id);
    // the permission cache hears of the closed session through a database notification
    await expect.poll(() => fetchAs(phone), { timeout: 3000 }).toBe(401);
    expect(await fetchAs(desktop)).toBe(200);
  });

  it("answers 404 for another member's session and leaves it signed in", async () => {
    const ana = await memberOnTwoDevices();
    const luis = await memberOnTwoDevices();
    const [luisSession] = await t.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, luis.user.id));
    const response = await closeSession(ana.desktop, luisSession!.id);
    expect(response.statusCode).toBe(404);
    expect(await me(luis.desktop)).toMatchObject({ id: luis.user.id });
    expect(await me(luis.phone)).toMatchObject({ id: luis.user.id });
  });

  it('lets an Admin close only their own sessions too', async () => {
    const admin = await memberOnTwoDevices('Admin');
    const member = await memberOnTwoDevices('Premium');
    const [memberSession] = await t.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, member.user.id));
    expect((await closeSession(admin.desktop, memberSession!.id)).statusCode).toBe(404);
    expect(await me(member.desktop)).not.toBeNull();
  });

  it('asks a guest to sign in', async () => {
    const { desktop } = await memberOnTwoDevices();
    const [row] = await t.db.select({ id: sessions.id }).from(sessions).limit(1);
    expect((await closeSession(undefined, row!.id)).statusCode).toBe(401);
    expect(await me(desktop)).not.toBeNull();
  });

  it('refuses a request from another site', async () => {
    const { desktop, phone } = await memberOnTwoDevices();
    const other = (await listSessions(desktop))
      .json()
      .sessions.find((session: { isCurrent: boolean }) => !session.isCurrent);
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/sessions/${other.id}`,
      headers: { origin: 'https://evil.example', cookie: desktop },
    });
    expect(response.statusCode).toBe(403);
    expect(await me(phone)).not.toBeNull();
  });
});

describe('POST /api/account/sessions/close-others', () => {
  it('signs out every other device and keeps this one', async () => {
    const { user, desktop, phone } = await memberOnTwoDevices();
    const tablet = await signIn(user.email, chromeOnWindows, '10.0.0.9');
    const response = await closeOthers(desktop);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ closed: 2 });
    expect(await me(phone)).toBeNull();
    expect(await me(tablet)).toBeNull();
    expect(await me(desktop)).toMatchObject({ id: user.id });
  });

  it("leaves other members' sessions alone", async () => {
    const ana = await memberOnTwoDevices();
    const luis = await memberOnTwoDevices();
    await closeOthers(ana.desktop);
    expect(await me(luis.desktop)).not.toBeNull();
    expect(await me(luis.phone)).not.toBeNull();
  });

  it('asks a guest to sign in', async () => {
    expect((await closeOthers()).statusCode).toBe(401);
  });

  it('closes each session once when two requests race', async () => {
    const { user, desktop, phone } = await memberOnTwoDevices();
    const [first, second] = await Promise.all([closeOthers(desktop), closeOthers(phone)]);
    const closed = [first, second]
      .filter((response) => response.statusCode === 200)
      .reduce((sum, response) => sum + response.json().closed, 0);
    const left = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    // each session is either still signed in or counted once as closed, never both and never twice
    expect(left.length + closed).toBe(2);
  });
});
