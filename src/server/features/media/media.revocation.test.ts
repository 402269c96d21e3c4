import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, type Database } from '#server/db/client.ts';
import { classroomUsers, classrooms, users } from '#server/db/schema/index.ts';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createClassroom, createProcedure, signedInAs } from '#server/testing/factories.ts';
import { accessChangedChannel, everyAccount } from '#server/features/accounts/devices.service.ts';

// A cached media grant must not outlive the right it rests on: each case warms the cache (a second request asks the
// database nothing), takes the right away, and expects the very next request refused.

let t: TestApp;
let other: TestApp;
let otherDatabase: Database;
let admin: string;
let paid: Awaited<ReturnType<typeof createProcedure>>;
const queries: string[] = [];

beforeAll(async () => {
  t = await createTestApp({}, undefined, { onQuery: (query) => queries.push(query) });
  // a second instance: on PostgreSQL with connections (and LISTEN) of its own; PGlite has only one process
  otherDatabase = t.database.url ? await openDatabase({ url: t.database.url }) : t.database;
  other = await createTestApp({}, { database: otherDatabase }, { storage: t.storage });
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
  paid = await createProcedure(t, { type: 'Premium' });
}, 120_000);
afterAll(async () => {
  await other?.close();
  if (otherDatabase && otherDatabase !== t.database) await otherDatabase.close();
  await t?.close();
});

/** The guide PDF of a Premium procedure: no viewing token, so only the grant decides. */
const guide = (app: TestApp, cookie: string) => app.app.inject({ url: `/media/${paid.guidePdf}`, headers: { cookie } });

/** Resolves once `database` delivered an access change for this account (or for every account) to its listeners. */
async function heard(database: Database, userId: string) {
  let done!: () => void;
  const delivered = new Promise<void>((resolve) => (done = resolve));
  const stop = await database.listen(accessChangedChannel, (payload) => {
    if (payload === userId || payload === everyAccount) done();
  });
  return async () => {
    await delivered;
    stop();
  };
}

/** Waits until every change announced so far reached `database`'s listeners: notifications arrive in commit order. */
async function settle(database: Database) {
  const probe = `probe-${randomUUID()}`;
  const delivered = await heard(database, probe);
  await database.notify(accessChangedChannel, probe);
  await delivered();
}

/** Serves the guide twice on `app`; the second answer comes from the cache (no query on the first instance). */
async function warm(app: TestApp, cookie: string) {
  // the account's own set-up (its plan written by the factory) must not drop the grant being warmed
  await settle(app.database);
  expect((await guide(app, cookie)).statusCode).toBe(200);
  queries.length = 0;
  expect((await guide(app, cookie)).statusCode).toBe(200);
  if (app === t) expect(queries).toEqual([]);
}

describe('a cached media grant ends with the right it rests on', () => {
  it('on sign-out, on this instance and on another one', async () => {
    const member = await signedInAs(t, { type: 'Premium' });
    await warm(t, member.cookie);
    await warm(other, member.cookie);
    const hereHeard = await heard(t.database, member.user.id);
    const thereHeard = await heard(otherDatabase, member.user.id);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/account/logout',
      headers: { cookie: member.cookie, origin: testPublicUrl },
    });
    expect(out.statusCode).toBeLessThan(300);
    await hereHeard();
    await thereHeard();
    expect((await guide(t, member.cookie)).statusCode).toBe(401);
    expect((await guide(other, member.cookie)).statusCode).toBe(401);
  });

  it('when an Admin removes a manual Premium', async () => {
    const member = await signedInAs(t, { type: 'Gratis' });
    const headers = { cookie: admin, origin: testPublicUrl };
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/admin/manual-premium/upgrade',
      headers,
      payload: { userId: member.user.id, period: 'month' },
    });
    expect(up.statusCode).toBe(204);
    await warm(t, member.cookie);
    await warm(other, member.cookie);
    // each instance drops its grants when it hears the change, its own NOTIFY included (milliseconds on PostgreSQL)
    const hereHeard = await heard(t.database, member.user.id);
    const thereHeard = await heard(otherDatabase, member.user.id);
    const down = await t.app.inject({
      method: 'POST',
      url: '/api/admin/manual-premium/downgrade',
      headers,
      payload: { userId: member.user.id },
    });
    expect(down.statusCode).toBe(204);
    await hereHeard();
    await thereHeard();
    expect((await guide(t, member.cookie)).statusCode).toBe(403);
    expect((await guide(other, member.cookie)).statusCode).toBe(403);
  });

  it('when a payments or membership job changes the plan, whoever writes the row', async () => {
    const member = await signedInAs(t, { type: 'Premium' });
    await warm(other, member.cookie);
    const thereHeard = await heard(otherDatabase, member.user.id);
    await t.db.update(users).set({ type: 'Gratis', paymentStatus: 'BIEN' }).where(eq(users.id, member.user.id));
    await thereHeard();
    expect((await guide(other, member.cookie)).statusCode).toBe(403);
  });

  it('when a Premium ending on a date reaches it, with no row changed', async () => {
    const member = await signedInAs(t, {
      type: 'Gratis',
      paymentStatus: 'POR_TERMINAR',
      terminationDate: new Date(Date.now() + 1500),
    });
    await warm(t, member.cookie);
    await new Promise((resolve) => setTimeout(resolve, 1700));
    expect((await guide(t, member.cookie)).statusCode).toBe(403);
  });

  it('when the account leaves its aula, or the aula is deactivated', async () => {
    const member = await signedInAs(t, { type: 'Gratis' });
    const procedure = await createProcedure(t, { type: 'Premium' });
    const aula = await createClassroom(t, { procedureIds: [procedure.id], userIds: [member.user.id] });
    const file = (app: TestApp) =>
      app.app.inject({ url: `/media/${procedure.guidePdf}`, headers: { cookie: member.cookie } });
    expect((await file(other)).statusCode).toBe(200);
    let thereHeard = await heard(otherDatabase, member.user.id);
    await t.db.delete(classroomUsers).where(eq(classroomUsers.userId, member.user.id));
    await thereHeard();
    expect((await file(other)).statusCode).toBe(403);

    await t.db.insert(classroomUsers).values({ classroomId: aula.id, userId: member.user.id });
    expect((await file(other)).statusCode).toBe(200);
    thereHeard = await heard(otherDatabase, member.user.id);
    await t.db.update(classrooms).set({ isActive: false }).where(eq(classrooms.id, aula.id));
    await thereHeard();
    expect((await file(other)).statusCode).toBe(403);
  });

  it("keeps the cache when another account's rights change", async () => {
    const member = await signedInAs(t, { type: 'Premium' });
    const someoneElse = await signedInAs(t, { type: 'Premium' });
    await warm(t, member.cookie);
    const hereHeard = await heard(t.database, someoneElse.user.id);
    await t.db.update(users).set({ type: 'Gratis' }).where(eq(users.id, someoneElse.user.id));
    await hereHeard();
    queries.length = 0;
    expect((await guide(t, member.cookie)).statusCode).toBe(200);
    expect(queries).toEqual([]);
  });
});
