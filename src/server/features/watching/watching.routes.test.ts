import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { favoriteProcedures, users, watchedTime, watchPositions } from '#server/db/schema/index.ts';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createClassroom, createProcedure, signedInAs } from '#server/testing/factories.ts';
import { notificationsDelivered } from '#server/testing/notifications.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const json = { origin: testPublicUrl };

async function takeToken(cookie: string): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/api/viewing/token', headers: { cookie, ...json } });
  return response.json<{ token: string }>().token;
}

function save(
  cookie: string,
  procedureId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/watching/procedures/${procedureId}/position`,
    headers: { cookie, ...json, ...headers },
    payload: body,
  });
}

/** What navigator.sendBeacon sends for a text Blob: the same JSON as text/plain, with the session cookie. */
function beacon(cookie: string, procedureId: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/watching/procedures/${procedureId}/position`,
    headers: {
      cookie,
      origin: testPublicUrl,
      'sec-fetch-site': 'same-origin',
      'content-type': 'text/plain;charset=UTF-8',
    },
    payload: JSON.stringify(body),
  });
}

/**
 * Saves as a player would while `wallSeconds` of wall clock pass per `positionStep` seconds of video (the
 * clock is moved by hand): equal steps are real-time play, a larger position step is a forged fast save.
 */
async function play(
  cookie: string,
  procedureId: string,
  token: string,
  options: { from?: number; to: number; durationSeconds: number; positionStep?: number; wallSeconds?: number },
) {
  const { from = 0, to, durationSeconds, positionStep = 10, wallSeconds = positionStep } = options;
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    let position = from;
    let startsSpan = true;
    for (;;) {
      const response = await save(cookie, procedureId, {
        positionSeconds: position,
        durationSeconds,
        viewingToken: token,
        startsSpan,
      });
      expect(response.statusCode).toBe(204);
      if (position >= to) break;
      startsSpan = false;
      position = Math.min(to, position + positionStep);
      vi.setSystemTime(Date.now() + wallSeconds * 1000);
    }
  } finally {
    vi.useRealTimers();
  }
}

async function watchedRow(userId: string, procedureId: string) {
  const [row] = await t.db
    .select()
    .from(watchedTime)
    .where(and(eq(watchedTime.userId, userId), eq(watchedTime.procedureId, procedureId)));
  return row;
}

async function progress(cookie: string, procedureId: string) {
  const response = await t.app.inject({ url: `/api/watching/procedures/${procedureId}`, headers: { cookie } });
  expect(response.statusCode).toBe(200);
  return response.json<{
    positionSeconds: number | null;
    durationSeconds: number | null;
    isWatched: boolean;
    isFavorite: boolean;
  }>();
}

async function storedRows(userId: string) {
  return t.db.select().from(watchPositions).where(eq(watchPositions.userId, userId));
}

describe('saving positions', () => {
  it('keeps a Premium member’s place per procedure and shows it to no other member', async () => {
    const gratis = await createProcedure(t, { type: 'Gratis' });
    const premium = await createProcedure(t, { type: 'Premium' });
    const member = await signedInAs(t, { type: 'Premium' });
    const other = await signedInAs(t, { type: 'Premium' });
    const token = await takeToken(member.cookie);

    expect(
      (await save(member.cookie, premium.id, { positionSeconds: 754.4, durationSeconds: 1800, viewingToken: token }))
        .statusCode,
    ).toBe(204);
    expect(
      (await save(member.cookie, gratis.id, { positionSeconds: 30, durationSeconds: 45, viewingToken: token }))
        .statusCode,
    ).toBe(204);

    expect(await progress(member.cookie, premium.id)).toEqual({
      positionSeconds: 754.4,
      durationSeconds: 1800,
      isWatched: false,
      isFavorite: false,
    });
    expect((await progress(member.cookie, gratis.id)).positionSeconds).toBe(30);
    expect((await progress(other.cookie, premium.id)).positionSeconds).toBeNull();
    expect(await storedRows(other.user.id)).toHaveLength(0);
  });

  it('refuses guests everywhere', async () => {
    const procedure = await createProcedure(t);
    for (const [method, url] of [
      ['POST', `/api/watching/procedures/${procedure.id}/position`],
      ['GET', `/api/watching/procedures/${procedure.id}`],
      ['GET', '/api/watching/continue'],
      ['GET', '/api/favorites'],
      ['PUT', `/api/favorites/${procedure.id}`],
      ['DELETE', `/api/favorites/${procedure.id}`],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: json,
        ...(method === 'POST' ? { payload: { positionSeconds: 1, durationSeconds: 2, viewingToken: 'x' } } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('never stores a Basic member’s demo of a Premium procedure as progress', async () => {
    const premium = await createProcedure(t, { type: 'Premium' });
    const basic = await signedInAs(t, { type: 'Gratis' });
    const token = await takeToken(basic.cookie);
    const response = await save(basic.cookie, premium.id, {
      positionSeconds: 20,
      durationSeconds: 30,
      viewingToken: token,
    });
    expect(response.statusCode).toBe(403);
    expect(
      (await beacon(basic.cookie, premium.id, { positionSeconds: 20, durationSeconds: 30, viewingToken: token }))
        .statusCode,
    ).toBe(403);
    expect(await storedRows(basic.user.id)).toHaveLength(0);
    expect((await progress(basic.cookie, premium.id)).positionSeconds).toBeNull();
  });

  it('lets every role save what it may watch in full: Basic on Gratis, Legacy, Admin, and an aula member on its Premium procedure', async () => {
    const gratis = await createProcedure(t, { type: 'Gratis' });
    const premium = await createProcedure(t, { type: 'Premium' });
    const basic = await signedInAs(t, { type: 'Gratis' });
    const legacy = await signedInAs(t, { type: 'Legacy', terminationDate: new Date(Date.now() + 86_400_000) });
    const admin = await signedInAs(t, { type: 'Admin' });
    const student = await signedInAs(t, { type: 'Gratis' });
    await createClassroom(t, { procedureIds: [premium.id], userIds: [student.user.id] });

    const cases = [
      [basic, gratis.id],
      [legacy, premium.id],
      [admin, premium.id],
      [student, premium.id],
    ] as const;
    for (const [member, procedureId] of cases) {
      const token = await takeToken(member.cookie);
      expect(
        (await save(member.cookie, procedureId, { positionSeconds: 12, durationSeconds: 45, viewingToken: token }))
          .statusCode,
      ).toBe(204);
      expect((await progress(member.cookie, procedureId)).positionSeconds).toBe(12);
    }
  });

  it('ignores a device that lost the viewing token to another one', async () => {
    const procedure = await createProcedure(t);
    const member = await signedInAs(t, { type: 'Premium' });
    const laptop = await takeToken(member.cookie);
    expect(
      (await save(member.cookie, procedure.id, { positionSeconds: 100, durationSeconds: 600, viewingToken: laptop }))
        .statusCode,
    ).toBe(204);
    const phone = await takeToken(member.cookie);
    expect(
      (await save(member.cookie, procedure.id, { positionSeconds: 200, durationSeconds: 600, viewingToken: phone }))
        .statusCode,
    ).toBe(204);

    const late = await beacon(member.cookie, procedure.id, {
      positionSeconds: 110,
      durationSeconds: 600,
      viewingToken: laptop,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('VIEWING_TOKEN_REPLACED');
    expect((await progress(member.cookie, procedure.id)).positionSeconds).toBe(200);
  });

  it('accepts the leaving beacon (text/plain JSON with the cookie) and refuses it from another site', async () => {
    const procedure = await createProcedure(t);
    const member = await signedInAs(t, { type: 'Premium' });
    const token = await takeToken(member.cookie);
    expect(
      (await beacon(member.cookie, procedure.id, { positionSeconds: 42, durationSeconds: 600, viewingToken: token }))
        .statusCode,
    ).toBe(204);
    expect((await progress(member.cookie, procedure.id)).positionSeconds).toBe(42);

    const crossSite = await t.app.inject({
      method: 'POST',
      url: `/api/watching/procedures/${procedure.id}/position`,
      headers: { cookie: member.cookie, origin: 'https://evil.example', 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({ positionSeconds: 1, durationSeconds: 600, viewingToken: token }),
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await progress(member.cookie, procedure.id)).positionSeconds).toBe(42);
  });

  it('answers bad positions with Spanish messages and stores nothing', async () => {
    const procedure = await createProcedure(t);
    const member = await signedInAs(t, { type: 'Premium' });
    const token = await takeToken(member.cookie);
    const past = await save(member.cookie, procedure.id, {
      positionSeconds: 700,
      durationSeconds: 600,
      viewingToken: token,
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().fields.positionSeconds).toBe('La posición no puede pasar del final del video.');
    expect(
      (await save(member.cookie, procedure.id, { positionSeconds: -1, durationSeconds: 600, viewingToken: token }))
        .statusCode,
    ).toBe(400);
    const garbage = await t.app.inject({
      method: 'POST',
      url: `/api/watching/procedures/${procedure.id}/position`,
      headers: { cookie: member.cookie, ...json, 'content-type': 'text/plain' },
      payload: 'no es json',
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().message).toMatch(/[a-zá-ú]/i);
    expect(
      (
        await save(member.cookie, '00000000-0000-4000-8000-000000000000', {
          positionSeconds: 1,
          durationSeconds: 600,
          viewingToken: token,
        })
      ).statusCode,
    ).toBe(404);
    expect(await storedRows(member.user.id)).toHaveLength(0);
  });

  it('keeps one row when two saves arrive at once; watched stays watched and updated_at never goes back', async () => {
    const procedure = await createProcedure(t);
    const member = await signedInAs(t, { type: 'Premium' });
    const token = await takeToken(member.cookie);
    const responses = await Promise.all(
      [41, 42, 43, 44].map((positionSeconds) =>
        save(member.cookie, procedure.id, { positionSeconds, durationSeconds: 45, viewingToken: token }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([204, 204, 204, 204]);
    const [seeked, ...rest] = await storedRows(member.user.id);
    expect(rest).toHaveLength(0);
    expect(seeked!.watchedAt).toBeNull();

    await play(member.cookie, procedure.id, token, { to: 45, durationSeconds: 45 });
    const [first] = await storedRows(member.user.id);
    expect(first!.watchedAt).not.toBeNull();

    // watching again from the start: the place moves back, 'Visto' and the time order do not
    await save(member.cookie, procedure.id, { positionSeconds: 5, durationSeconds: 45, viewingToken: token });
    const [again] = await storedRows(member.user.id);
    expect(again!.positionSeconds).toBe(5);
    expect(again!.watchedAt!.getTime()).toBe(first!.watchedAt!.getTime());
    expect(again!.updatedAt.getTime()).toBeGreaterThanOrEqual(first!.updatedAt.getTime());
    expect((await progress(member.cookie, procedure.id)).isWatched).toBe(true);
  });

  it('survives a restart of the server', async () => {
    const procedure = await createProcedure(t);
    const member = await signedInAs(t, { type: 'Premium' });
    await save(member.cookie, procedure.id, {
      positionSeconds: 321,
      durationSeconds: 600,
      viewingToken: await takeToken(member.cookie),
    });
    const second = await createTestApp({}, { database: t.database });
    try {
      const response = await second.app.inject({
        url: `/api/watching/procedures/${procedure.id}`,
        headers: { cookie: member.cookie },
      });
      expect(response.json().positionSeconds).toBe(321);
    } finally {
      await second.close();
    }
  });
});

describe('Seguir viendo', () => {
  it('lists started, unfinished procedures newest first, only the member’s own and only what they may still watch', async () => {
    const [older, newer, finished, premium] = [
      await createProcedure(t, { name: 'Más antigua' }),
      await createProcedure(t, { name: 'Más nueva' }),
      await createProcedure(t, { name: 'Terminada' }),
      await createProcedure(t, { type: 'Premium', name: 'Premium' }),
    ];
    const member = await signedInAs(t, { type: 'Premium' });
    const other = await signedInAs(t, { type: 'Premium' });
    const token = await takeToken(member.cookie);
    for (const [procedure, position] of [
      [older, 10],
      [premium, 20],
      [finished, 44],
      [newer, 30],
    ] as const) {
      await save(member.cookie, procedure.id, { positionSeconds: position, durationSeconds: 45, viewingToken: token });
    }
    await save(other.cookie, older.id, {
      positionSeconds: 10,
      durationSeconds: 45,
      viewingToken: await takeToken(other.cookie),
    });

    const list = await t.app.inject({ url: '/api/watching/continue', headers: { cookie: member.cookie } });
    expect(list.json().map((item: { procedure: { name: string } }) => item.procedure.name)).toEqual([
      'Más nueva',
      'Premium',
      'Más antigua',
    ]);
    expect(list.json()[0]).toMatchObject({ positionSeconds: 30, durationSeconds: 45 });

    // Premium ended: its procedure leaves the row and its place is no longer offered
    await t.db.update(users).set({ type: 'Gratis' }).where(eq(users.id, member.user.id));
    // written behind the server's back: its remembered session goes when the users trigger's NOTIFY arrives
    await notificationsDelivered(t.database);
    const after = await t.app.inject({ url: '/api/watching/continue', headers: { cookie: member.cookie } });
    expect(after.json().map((item: { procedure: { name: string } }) => item.procedure.name)).toEqual([
      'Más nueva',
      'Más antigua',
    ]);
    expect((await progress(member.cookie, premium.id)).positionSeconds).toBeNull();
  });
});

describe('watched time', () => {
  it('earns nothing by seeking to the end: saves from the start and near the end leave it unwatched', async () => {
    const procedure = await createProcedure(t);
    const member = await signedInAs(t, { type: 'Premium' });
    const token = await takeToken(member.cookie);
    await save(member.cookie, procedure.id, {
      positionSeconds: 0,
      durationSeconds: 600,
      viewingToken: token,
      startsSpan: true,
    });
    await save(member.cookie, procedure.id, { positionSeconds: 599, durationSeconds: 600, viewingToken: token });
    expect((await progress(member.cookie, procedure.id)).isWatched).toBe(false);
    expect((await watchedRow(member.user.id, procedure.id))!.watchedSeconds).toBeLessThan(5);
    expect((await storedRows(member.user.id))[0]!.watchedAt).toBeNull();
  });

  it('earns real-time play, and counts a stretch watched twice once', async () => {
    const procedure = await createProcedure(t);
    const member = await signedInAs(t, { type: 'Premium' });
    const token = await takeToken(member.cookie);
    await play(member.cookie, procedure.id, token, { to: 300, durationSeconds: 600 });
    await play(member.cookie, procedure.id, token, { to: 300, durationSeconds: 600 });
    expect((await watchedRow(member.user.id, procedure.id))!.watchedSeconds).toBe(300);
    expect((await progress(member.cookie, procedure.id)).isWatched).toBe(false);
    await play(member.cookie, procedure.id, token, { from: 300, to: 540, durationSeconds: 600 });
    expect((await watchedRow(member.user.id, procedure.id))!.watchedSeconds).toBe(540);
    expect((await progress(member.cookie, procedure.id)).isWatched).toBe(true);
  });

  it('earns only wall-clock time from forged saves faster than it, and nothing from another device’s token', async () => {
    const procedure = await createProcedure(t);
    const member = await signedInAs(t, { type: 'Premium' });
    const token = await takeToken(member.cookie);
    // 600 seconds of video claimed in 60 seconds
    await play(member.cookie, procedure.id, token, { to: 600, durationSeconds: 600, positionStep: 60, wallSeconds: 6 });
    const row = await watchedRow(member.user.id, procedure.id);
    expect(row!.watchedSeconds).toBe(60);
    expect(row!.watchedAt).toBeNull();
    expect((await progress(member.cookie, procedure.id)).isWatched).toBe(false);

    // a save under a token that is no longer current is refused and earns nothing
    await takeToken(member.cookie);
    expect(
      (await save(member.cookie, procedure.id, { positionSeconds: 10, durationSeconds: 600, viewingToken: token }))
        .statusCode,
    ).toBe(409);
    expect((await watchedRow(member.user.id, procedure.id))!.watchedSeconds).toBe(60);
  });
});

describe('catalogue marks', () => {
  it('shows Visto and the heart to members only, and filters No vistos together with the other filters', async () => {
    const watchedDog = await createProcedure(t, { species: 'Otras especies', name: 'Vista conejo' });
    const unwatchedDog = await createProcedure(t, { species: 'Otras especies', name: 'No vista conejo' });
    const member = await signedInAs(t, { type: 'Premium' });
    const token = await takeToken(member.cookie);
    await play(member.cookie, watchedDog.id, token, { to: 45, durationSeconds: 45 });
    await t.app.inject({
      method: 'PUT',
      url: `/api/favorites/${unwatchedDog.id}`,
      headers: { cookie: member.cookie, ...json },
    });

    const all = await t.app.inject({
      url: '/api/catalog/procedures?species=Otras%20especies&q=conejo',
      headers: { cookie: member.cookie },
    });
    const byName = new Map(all.json().items.map((card: { name: string }) => [card.name, card]));
    expect(byName.get('Vista conejo')).toMatchObject({ isWatched: true, isFavorite: false });
    expect(byName.get('No vista conejo')).toMatchObject({ isWatched: false, isFavorite: true });

    const unwatched = await t.app.inject({
      url: '/api/catalog/procedures?species=Otras%20especies&q=conejo&unwatched=1',
      headers: { cookie: member.cookie },
    });
    expect(unwatched.json().items.map((card: { name: string }) => card.name)).toEqual(['No vista conejo']);
    expect(unwatched.json().total).toBe(1);
    // the count of the same filter without 'No vistos' is not mixed up with it
    const again = await t.app.inject({
      url: '/api/catalog/procedures?species=Otras%20especies&q=conejo',
      headers: { cookie: member.cookie },
    });
    expect(again.json().total).toBe(2);

    const guest = await t.app.inject({ url: '/api/catalog/procedures?species=Otras%20especies&q=conejo&unwatched=1' });
    expect(guest.json().total).toBe(2);
    for (const card of guest.json().items) {
      expect(card).not.toHaveProperty('isWatched');
      expect(card).not.toHaveProperty('isFavorite');
    }
  });
});

describe('favourites', () => {
  it('adds twice harmlessly, works for Basic members on Premium procedures, lists newest first and removes', async () => {
    const gratis = await createProcedure(t, { name: 'Favorita gratis' });
    const premium = await createProcedure(t, { type: 'Premium', name: 'Favorita premium' });
    const basic = await signedInAs(t, { type: 'Gratis' });
    const put = (id: string) =>
      t.app.inject({ method: 'PUT', url: `/api/favorites/${id}`, headers: { cookie: basic.cookie, ...json } });
    expect((await put(gratis.id)).statusCode).toBe(204);
    expect((await put(premium.id)).statusCode).toBe(204);
    expect((await put(premium.id)).statusCode).toBe(204);

    const list = await t.app.inject({ url: '/api/favorites', headers: { cookie: basic.cookie } });
    expect(list.json().map((card: { name: string; isLocked: boolean }) => [card.name, card.isLocked])).toEqual([
      ['Favorita premium', true],
      ['Favorita gratis', false],
    ]);
    expect((await progress(basic.cookie, premium.id)).isFavorite).toBe(true);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/favorites/${premium.id}`,
      headers: { cookie: basic.cookie, ...json },
    });
    expect(removed.statusCode).toBe(204);
    const after = await t.app.inject({ url: '/api/favorites', headers: { cookie: basic.cookie } });
    expect(after.json().map((card: { name: string }) => card.name)).toEqual(['Favorita gratis']);
  });

  it('never shows or changes another member’s favourites', async () => {
    const procedure = await createProcedure(t);
    const owner = await signedInAs(t, { type: 'Premium' });
    const other = await signedInAs(t, { type: 'Premium' });
    await t.app.inject({
      method: 'PUT',
      url: `/api/favorites/${procedure.id}`,
      headers: { cookie: owner.cookie, ...json },
    });
    expect((await t.app.inject({ url: '/api/favorites', headers: { cookie: other.cookie } })).json()).toEqual([]);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/favorites/${procedure.id}`,
      headers: { cookie: other.cookie, ...json },
    });
    expect((await t.app.inject({ url: '/api/favorites', headers: { cookie: owner.cookie } })).json()).toHaveLength(1);
  });

  it('answers 404 for a procedure that does not exist', async () => {
    const member = await signedInAs(t, { type: 'Premium' });
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/favorites/no-existe',
      headers: { cookie: member.cookie, ...json },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('log', () => {
  it('keeps viewing tokens and positions out of the request log', async () => {
    const lines: string[] = [];
    const { Writable } = await import('node:stream');
    const logged = await createTestApp(
      { logLevel: 'info' },
      { database: t.database },
      {
        logStream: new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }),
      },
    );
    try {
      const procedure = await createProcedure(logged);
      const member = await signedInAs(logged, { type: 'Premium' });
      const token = (
        await logged.app.inject({
          method: 'POST',
          url: '/api/viewing/token',
          headers: { cookie: member.cookie, ...json },
        })
      ).json().token as string;
      const response = await logged.app.inject({
        method: 'POST',
        url: `/api/watching/procedures/${procedure.id}/position`,
        headers: { cookie: member.cookie, ...json },
        payload: { positionSeconds: 98.765, durationSeconds: 600, viewingToken: token },
      });
      expect(response.statusCode).toBe(204);
      const log = lines.join('');
      expect(log).toContain('/position');
      expect(log).not.toContain(token);
      expect(log).not.toContain('98.765');
      expect(log).not.toContain(member.user.email);
    } finally {
      await logged.close();
    }
    expect(
      await t.db
        .select()
        .from(watchPositions)
        .where(and(eq(watchPositions.positionSeconds, 98.765))),
    ).toHaveLength(1);
  });
});

describe('guests', () => {
  it('the guest catalogue and landing never query positions or favourites; a member’s catalogue does', async () => {
    const queries: string[] = [];
    const own = await createTestApp({}, undefined, { onQuery: (query) => queries.push(query) });
    try {
      await createProcedure(own);
      const member = await signedInAs(own, { type: 'Premium' });
      queries.length = 0;
      for (const url of [
        '/api/catalog/procedures',
        '/api/catalog/procedures?unwatched=1&page=2',
        '/api/catalog/procedures?species=Perro&unwatched=1',
        '/api/landing',
      ]) {
        expect((await own.app.inject({ url })).statusCode, url).toBe(200);
      }
      expect(queries.filter((query) => /watch_positions|favorite_procedures/.test(query))).toEqual([]);
      await own.app.inject({ url: '/api/catalog/procedures?unwatched=1', headers: { cookie: member.cookie } });
      expect(queries.filter((query) => /watch_positions|favorite_procedures/.test(query)).length).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });

  it("a Premium member's search is the guests' shared page plus their marks in one query", async () => {
    const queries: string[] = [];
    const own = await createTestApp({}, undefined, { onQuery: (query) => queries.push(query) });
    try {
      const procedure = await createProcedure(own, { type: 'Premium', name: 'Enucleación compartida' });
      const member = await signedInAs(own, { type: 'Premium' });
      await own.app.inject({
        method: 'PUT',
        url: `/api/favorites/${procedure.id}`,
        headers: { cookie: member.cookie, ...json },
      });
      // the favourite's trigger notifies too: once it arrived, nothing drops the session warmed below
      await notificationsDelivered(own.database);
      const url = '/api/catalog/procedures?q=compartida';
      const guest = (await own.app.inject({ url })).json();
      expect(guest.items[0]).toMatchObject({ id: procedure.id, isLocked: true });
      // the first request verifies the session; the next ones find it remembered
      await own.app.inject({ url: '/api/me', headers: { cookie: member.cookie } });
      queries.length = 0;
      const signedIn = (await own.app.inject({ url, headers: { cookie: member.cookie } })).json();
      expect(signedIn.items[0]).toMatchObject({
        id: procedure.id,
        isLocked: false,
        isFavorite: true,
        isWatched: false,
      });
      expect(signedIn.total).toBe(guest.total);
      expect(queries).toHaveLength(1);
      expect(queries[0]).toMatch(/watch_positions.*union all.*favorite_procedures/s);
      // the marks are kept with the session: the next search asks nothing
      queries.length = 0;
      const again = (await own.app.inject({ url, headers: { cookie: member.cookie } })).json();
      expect(again.items[0]).toMatchObject({ id: procedure.id, isFavorite: true });
      expect(queries).toEqual([]);
      // a favourite removed behind this server's back (another instance) shows once its trigger's NOTIFY arrived
      await own.db.delete(favoriteProcedures).where(eq(favoriteProcedures.userId, member.user.id));
      await notificationsDelivered(own.database);
      const removed = (await own.app.inject({ url, headers: { cookie: member.cookie } })).json();
      expect(removed.items[0]).toMatchObject({ id: procedure.id, isFavorite: false });
    } finally {
      await own.close();
    }
  });
});
