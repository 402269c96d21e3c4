import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, type Database } from '#server/db/client.ts';
import { certificates, diplomas, users } from '#server/db/schema/index.ts';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, loginCookie, testPassword } from '#server/testing/factories.ts';
import { notificationsDelivered, willHear } from '#server/testing/notifications.ts';

// A verified session is remembered on each instance so a member's request asks the database nothing; each case warms
// it on two instances (a second request there asks nothing), ends or changes it on one, and expects every instance to
// look the session up again and answer as the database now says.

let t: TestApp;
let other: TestApp;
let otherDatabase: Database;
const queries: string[] = [];
const otherQueries: string[] = [];

beforeAll(async () => {
  t = await createTestApp({}, undefined, { onQuery: (query) => queries.push(query) });
  // a second instance: on PostgreSQL with connections (and LISTEN) of its own; PGlite has only one process
  otherDatabase = t.database.url
    ? await openDatabase({ url: t.database.url, onQuery: (query) => otherQueries.push(query) })
    : t.database;
  other = await createTestApp({}, { database: otherDatabase }, { storage: t.storage });
}, 120_000);
afterAll(async () => {
  await other?.close();
  if (otherDatabase && otherDatabase !== t.database) await otherDatabase.close();
  await t?.close();
});

/** The queries an instance made: its own on PostgreSQL; on PGlite both share one database, so one log. */
const logOf = (app: TestApp) => (app === t || otherDatabase === t.database ? queries : otherQueries);

const me = async (app: TestApp, cookie: string) => {
  const response = await app.app.inject({ url: '/api/me', headers: { cookie } });
  expect(response.statusCode).toBe(200);
  return response.json().user as { id: string; type: string; name: string } | null;
};

const heard = willHear;

/** Asks /api/me twice on `app`; the second answer comes from the remembered session (no query at all). */
async function warm(app: TestApp, cookie: string) {
  // the account's own set-up (its row written by the factory) must not drop the session being warmed
  await notificationsDelivered(app.database);
  expect(await me(app, cookie)).not.toBeNull();
  logOf(app).length = 0;
  expect(await me(app, cookie)).not.toBeNull();
  expect(logOf(app)).toEqual([]);
}

/** The member's /api/me on `app` looks the session up again (it was forgotten) and answers `expected`. */
async function looksUpAgain(app: TestApp, cookie: string) {
  logOf(app).length = 0;
  const user = await me(app, cookie);
  expect(logOf(app).some((query) => query.includes('"sessions"'))).toBe(true);
  return user;
}

async function member(type: 'Premium' | 'Gratis' = 'Premium') {
  const user = await createUser(t, { type });
  return { user, cookie: await loginCookie(t, user.email), secondDevice: await loginCookie(t, user.email) };
}

describe('a remembered session is dropped on every instance', () => {
  it('answers a signed-in request without a single query once verified', async () => {
    const { cookie } = await member();
    await warm(t, cookie);
    await warm(other, cookie);
  });

  it('on sign-out: this instance at once, another one when the notification arrives', async () => {
    const { user, cookie } = await member();
    await warm(t, cookie);
    await warm(other, cookie);
    const thereHeard = await heard(otherDatabase, 'access_changed', user.id);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/account/logout',
      headers: { cookie, origin: testPublicUrl },
    });
    expect(out.statusCode).toBe(204);
    expect(await looksUpAgain(t, cookie)).toBeNull();
    await thereHeard();
    expect(await looksUpAgain(other, cookie)).toBeNull();
  });

  it("on a password change: the account's other devices are signed out everywhere, this one stays", async () => {
    const { user, cookie, secondDevice } = await member();
    await warm(t, secondDevice);
    await warm(other, secondDevice);
    const thereHeard = await heard(otherDatabase, 'access_changed', user.id);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { cookie, origin: testPublicUrl },
      payload: { currentPassword: testPassword, newPassword: 'OtraClave123' },
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect(await looksUpAgain(t, secondDevice)).toBeNull();
    await thereHeard();
    expect(await looksUpAgain(other, secondDevice)).toBeNull();
    const setCookies = changed.headers['set-cookie'];
    const renewed = (Array.isArray(setCookies) ? setCookies : [setCookies!]).map((c) => c.split(';')[0]).join('; ');
    expect((await me(t, renewed))?.id).toBe(user.id);
    expect((await me(other, renewed))?.id).toBe(user.id);
  });

  it('on a takeover: a second device taking the video makes every instance verify the first one again', async () => {
    const { user, cookie, secondDevice } = await member();
    await warm(t, cookie);
    await warm(other, cookie);
    const hereHeard = await heard(t.database, 'viewing_tokens', user.id);
    const thereHeard = await heard(otherDatabase, 'viewing_tokens', user.id);
    const taken = await other.app.inject({
      method: 'POST',
      url: '/api/viewing/token',
      headers: { cookie: secondDevice, origin: testPublicUrl },
    });
    expect(taken.statusCode).toBe(200);
    await hereHeard();
    await thereHeard();
    expect((await looksUpAgain(t, cookie))?.id).toBe(user.id);
    expect((await looksUpAgain(other, cookie))?.id).toBe(user.id);
  });

  it("when the account's row changes, whoever writes it (a plan job, an Admin, the member's profile)", async () => {
    const { user, cookie } = await member();
    await warm(t, cookie);
    await warm(other, cookie);
    const hereHeard = await heard(t.database, 'account_changed', user.id);
    const thereHeard = await heard(otherDatabase, 'account_changed', user.id);
    await t.db.update(users).set({ type: 'Gratis', name: 'Nombre Nuevo' }).where(eq(users.id, user.id));
    await hereHeard();
    await thereHeard();
    expect(await looksUpAgain(t, cookie)).toMatchObject({ type: 'Gratis', name: 'Nombre Nuevo' });
    expect(await looksUpAgain(other, cookie)).toMatchObject({ type: 'Gratis', name: 'Nombre Nuevo' });
  });

  it("on a plan change (an annual plan's end written by the membership job) on every instance", async () => {
    const { user, cookie } = await member();
    await warm(t, cookie);
    await warm(other, cookie);
    const hereHeard = await heard(t.database, 'access_changed', user.id);
    const thereHeard = await heard(otherDatabase, 'access_changed', user.id);
    await t.db
      .update(users)
      .set({ annualPlan: true, terminationDate: new Date(Date.now() + 86_400_000) })
      .where(eq(users.id, user.id));
    await hereHeard();
    await thereHeard();
    expect(await looksUpAgain(t, cookie)).toMatchObject({ annualPlan: true });
    expect(await looksUpAgain(other, cookie)).toMatchObject({ annualPlan: true });
  });

  it("shows an Admin's change on this instance in its very next answer, before the notification returns", async () => {
    const admin = await createUser(t, { type: 'Admin' });
    const adminCookie = await loginCookie(t, admin.email);
    const { cookie } = await member('Gratis');
    await warm(t, cookie);
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/admin/manual-premium/upgrade',
      headers: { cookie: adminCookie, origin: testPublicUrl },
      payload: { userId: (await me(t, cookie))!.id, period: 'month' },
    });
    expect(up.statusCode).toBe(204);
    expect((await me(t, cookie))?.type).toBe('Premium');
  });

  it('when the account is deleted', async () => {
    const { user, cookie } = await member();
    await warm(t, cookie);
    await warm(other, cookie);
    const hereHeard = await heard(t.database, 'access_changed', user.id);
    const thereHeard = await heard(otherDatabase, 'access_changed', user.id);
    await t.app.services.accounts.deleteAccount(user.id);
    await hereHeard();
    await thereHeard();
    expect(await looksUpAgain(t, cookie)).toBeNull();
    expect(await looksUpAgain(other, cookie)).toBeNull();
  });

  it('keeps the profile with the session until a certificate is issued to the account', async () => {
    const { user, cookie } = await member();
    const profile = async (app: TestApp) => {
      const response = await app.app.inject({ url: '/api/profile', headers: { cookie } });
      expect(response.statusCode).toBe(200);
      return response.json().certificates as { name: string }[];
    };
    await warm(other, cookie);
    expect(await profile(other)).toEqual([]);
    logOf(other).length = 0;
    expect(await profile(other)).toEqual([]);
    expect(logOf(other)).toEqual([]);
    const [diploma] = await t.db.insert(diplomas).values({ title: 'Diplomado en Cirugía' }).returning();
    const thereHeard = await heard(otherDatabase, 'account_changed', user.id);
    await t.db
      .insert(certificates)
      .values({ diplomaId: diploma!.id, userId: user.id, diplomaTitle: 'Diplomado en Cirugía', folio: 1 });
    await thereHeard();
    expect(await profile(other)).toMatchObject([{ name: 'Diplomado en Cirugía' }]);
  });

  it("keeps another account's remembered session when one account changes", async () => {
    const one = await member();
    const someoneElse = await member();
    await warm(t, one.cookie);
    const hereHeard = await heard(t.database, 'account_changed', someoneElse.user.id);
    await t.db.update(users).set({ type: 'Gratis' }).where(eq(users.id, someoneElse.user.id));
    await hereHeard();
    queries.length = 0;
    expect(await me(t, one.cookie)).not.toBeNull();
    expect(queries).toEqual([]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('while the LISTEN connection is down (PostgreSQL)', () => {
  it('every instance verifies each request again, and remembers again only once its listener is back', async () => {
    const { cookie } = await member();
    await warm(t, cookie);
    await warm(other, cookie);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const name = new URL(t.database.url!).pathname.slice(1);
    try {
      // the listeners cannot connect again until allowed; the pools keep the connections they hold
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query like 'listen %'",
        [name],
      );
      await expect.poll(() => t.database.listening() || otherDatabase.listening()).toBe(false);
      for (const app of [t, other]) {
        expect((await looksUpAgain(app, cookie))?.type).toBe('Premium');
        // nothing was remembered from that lookup either
        expect((await looksUpAgain(app, cookie))?.type).toBe('Premium');
      }
      await admin.query(`alter database ${name} allow_connections true`);
      await expect
        .poll(() => t.database.listening() && otherDatabase.listening(), { timeout: 30_000, interval: 100 })
        .toBe(true);
      await warm(t, cookie);
      await warm(other, cookie);
    } finally {
      await admin.query(`alter database ${name} allow_connections true`).catch(() => {});
      await admin.end();
    }
  }, 60_000);
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('while the embedded database thread restarts (PGlite)', () => {
  it('nothing is served from the cache, and it resumes empty once the thread listens again', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'cxvet-session-cache-'));
    const log: string[] = [];
    const database = await openDatabase({ pgliteDir: folder, onQuery: (query) => log.push(query) });
    await database.migrate();
    const own = await createTestApp({}, { database });
    try {
      const user = await createUser(own, { type: 'Premium' });
      const cookie = await loginCookie(own, user.email);
      await notificationsDelivered(database);
      expect(await me(own, cookie)).not.toBeNull();
      log.length = 0;
      expect(await me(own, cookie)).not.toBeNull();
      expect(log).toEqual([]);
      await database.pglite!.terminateThread();
      await expect.poll(() => database.listening()).toBe(false);
      // a remembered session would answer 200; the lookup goes to the database, which is away
      const away = await own.app.inject({ url: '/api/me', headers: { cookie } });
      expect(away.statusCode).toBe(503);
      await expect.poll(() => database.listening(), { timeout: 60_000, interval: 100 }).toBe(true);
      log.length = 0;
      expect((await me(own, cookie))?.id).toBe(user.id);
      expect(log.some((query) => query.includes('"sessions"'))).toBe(true);
      log.length = 0;
      expect((await me(own, cookie))?.id).toBe(user.id);
      expect(log).toEqual([]);
    } finally {
      await own.close();
      await database.close();
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
