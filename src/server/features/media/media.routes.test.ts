import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { truncate } from 'node:fs/promises';
import path from 'node:path';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createClassroom, createProcedure, signedInAs } from '#server/testing/factories.ts';
import { createViewingService, viewingTokensChannel } from '#server/features/viewing/viewing.service.ts';

let t: TestApp;
let gratis: string;
let premium: string;
let legacyEnded: string;
let admin: string;
let classroomMember: { cookie: string; user: { id: string } };
let free: Awaited<ReturnType<typeof createProcedure>>;
let paid: Awaited<ReturnType<typeof createProcedure>>;
let inClassroom: Awaited<ReturnType<typeof createProcedure>>;
let inOpenClassroom: Awaited<ReturnType<typeof createProcedure>>;

const queries: string[] = [];

beforeAll(async () => {
  t = await createTestApp({}, undefined, { onQuery: (query) => queries.push(query) });
  gratis = (await signedInAs(t, { type: 'Gratis' })).cookie;
  premium = (await signedInAs(t, { type: 'Premium' })).cookie;
  legacyEnded = (await signedInAs(t, { type: 'Legacy', terminationDate: new Date(Date.now() - 1000) })).cookie;
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
  classroomMember = await signedInAs(t, { type: 'Gratis' });
  free = await createProcedure(t, { type: 'Gratis' });
  paid = await createProcedure(t, { type: 'Premium' });
  inClassroom = await createProcedure(t, { type: 'Premium' });
  inOpenClassroom = await createProcedure(t, { type: 'Premium' });
  await createClassroom(t, { procedureIds: [inClassroom.id], userIds: [classroomMember.user.id] });
  await createClassroom(t, { procedureIds: [inOpenClassroom.id], values: { accessType: 'Acceso libre' } });
});
afterAll(async () => t.close());

const tokens = new Map<string, string>();

/** Opens the file as the browser does: full videos carry the account's viewing token. */
async function get(key: string, cookie?: string, headers: Record<string, string> = {}) {
  let query = '';
  if (cookie && key.endsWith('_video.mp4')) {
    if (!tokens.has(cookie)) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/viewing/token',
        headers: { cookie, origin: testPublicUrl },
      });
      tokens.set(cookie, response.json().token);
    }
    query = `?vt=${tokens.get(cookie)}`;
  }
  return t.app.inject({ url: `/media/${key}${query}`, headers: { ...(cookie ? { cookie } : {}), ...headers } });
}

describe('media access by user type', () => {
  it('serves previews and demos to anyone, cacheable', async () => {
    for (const key of [paid.previewImage!, paid.demoVideo!]) {
      const response = await get(key);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=3600');
    }
  });

  it('never gives a guest the full video or guide, even of a Gratis procedure', async () => {
    for (const key of [free.fullVideo!, free.guidePdf!, paid.fullVideo!, paid.guidePdf!]) {
      const response = await get(key);
      expect(response.statusCode).toBe(401);
      expect(response.body).not.toContain('contenido');
    }
  });

  it.each([
    ['Gratis', () => gratis, { free: 200, paid: 403 }],
    ['Premium', () => premium, { free: 200, paid: 200 }],
    ['Legacy past termination', () => legacyEnded, { free: 200, paid: 403 }],
    ['Admin', () => admin, { free: 200, paid: 200 }],
  ])('gives a %s member what spec 1 §6 allows', async (_type, cookie, expected) => {
    expect((await get(free.fullVideo!, cookie())).statusCode).toBe(expected.free);
    expect((await get(free.guidePdf!, cookie())).statusCode).toBe(expected.free);
    expect((await get(paid.fullVideo!, cookie())).statusCode).toBe(expected.paid);
    expect((await get(paid.guidePdf!, cookie())).statusCode).toBe(expected.paid);
  });

  it('marks protected files private and not sniffable', async () => {
    const response = await get(paid.fullVideo!, premium);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-type']).toBe('video/mp4');
  });

  it('opens a Premium procedure to a Basic member of a controlled aula, not to others', async () => {
    expect((await get(inClassroom.fullVideo!, classroomMember.cookie)).statusCode).toBe(200);
    expect((await get(inClassroom.fullVideo!, gratis)).statusCode).toBe(403);
    expect((await get(paid.fullVideo!, classroomMember.cookie)).statusCode).toBe(403);
  });

  it('opens a free-access aula to any account but not to guests', async () => {
    expect((await get(inOpenClassroom.fullVideo!, gratis)).statusCode).toBe(200);
    expect((await get(inOpenClassroom.fullVideo!)).statusCode).toBe(401);
  });

  it('answers 404 for files no record owns and for unsafe paths', async () => {
    await t.storage.put(`procedures/${paid.id}/huerfano.mp4`, Readable.from([Buffer.from('x')]));
    expect((await get(`procedures/${paid.id}/huerfano.mp4`, admin)).statusCode).toBe(404);
    expect((await get('procedures/no-es-uuid/x.mp4', admin)).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/media/procedures/..%2F..%2Fetc/passwd' })).statusCode).toBe(404);
    expect((await get('desconocido/x/y.png')).statusCode).toBe(404);
  });
});

describe('single-device rule on media', () => {
  it('plays the full video only with the current viewing token of the account', async () => {
    const viewer = await signedInAs(t, { type: 'Premium' });
    const issue = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/viewing/token',
          headers: { cookie: viewer.cookie, origin: testPublicUrl },
        })
      ).json().token as string;
    const play = (token?: string) =>
      t.app.inject({
        url: `/media/${paid.fullVideo}${token ? `?vt=${token}` : ''}`,
        headers: { cookie: viewer.cookie },
      });
    expect((await play()).statusCode).toBe(409);
    const first = await issue();
    expect((await play(first)).statusCode).toBe(200);
    const second = await issue();
    const stale = await play(first);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe('Detectamos que se ha ingresado con esta cuenta en otro dispositivo.');
    expect((await play(second)).statusCode).toBe(200);
  });

  it('does not let a guest take a viewing token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/viewing/token',
      headers: { origin: testPublicUrl },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('revalidation', () => {
  it('answers 304 to a known ETag or an unchanged date, with no body', async () => {
    const first = await get(paid.demoVideo!);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(first.headers['last-modified']).toBeTruthy();
    const byTag = await get(paid.demoVideo!, undefined, { 'if-none-match': etag });
    expect(byTag.statusCode).toBe(304);
    expect(byTag.rawPayload.length).toBe(0);
    const byDate = await get(paid.demoVideo!, undefined, {
      'if-modified-since': String(first.headers['last-modified']),
    });
    expect(byDate.statusCode).toBe(304);
    expect((await get(paid.demoVideo!, undefined, { 'if-none-match': '"otra-version"' })).statusCode).toBe(200);
  });

  it('checks permission before a 304, so a guest learns nothing of a protected file', async () => {
    const owner = await get(paid.fullVideo!, premium);
    const response = await get(paid.fullVideo!, undefined, { 'if-none-match': String(owner.headers.etag) });
    expect(response.statusCode).toBe(401);
  });

  it('sends the whole file when If-Range names another version, and the range when it names this one', async () => {
    const full = await get(paid.demoVideo!);
    const stale = await get(paid.demoVideo!, undefined, { range: 'bytes=0-3', 'if-range': '"otra-version"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(full.rawPayload.length);
    const current = await get(paid.demoVideo!, undefined, {
      range: 'bytes=0-3',
      'if-range': String(full.headers.etag),
    });
    expect(current.statusCode).toBe(206);
  });
});

describe('byte ranges', () => {
  it('answers a single range with 206 and the slice', async () => {
    const full = await get(paid.demoVideo!);
    const response = await get(paid.demoVideo!, undefined, { range: 'bytes=5-14' });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes 5-14/${full.rawPayload.length}`);
    expect(response.rawPayload.equals(full.rawPayload.subarray(5, 15))).toBe(true);
  });

  it('answers an open-ended and a suffix range', async () => {
    const full = await get(paid.demoVideo!);
    const size = full.rawPayload.length;
    const tail = await get(paid.demoVideo!, undefined, { range: `bytes=${size - 3}-` });
    expect(tail.rawPayload.equals(full.rawPayload.subarray(size - 3))).toBe(true);
    const suffix = await get(paid.demoVideo!, undefined, { range: 'bytes=-4' });
    expect(suffix.headers['content-range']).toBe(`bytes ${size - 4}-${size - 1}/${size}`);
  });

  it('refuses an unsatisfiable range with 416 and answers several ranges with the whole file', async () => {
    const past = await get(paid.demoVideo!, undefined, { range: 'bytes=999999-' });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toMatch(/^bytes \*\/\d+$/);
    const many = await get(paid.demoVideo!, undefined, { range: 'bytes=0-1,5-6,10-11' });
    expect(many.statusCode).toBe(200);
    expect(many.headers['content-range']).toBeUndefined();
  });

  it('seeks past 4 GiB in a large video', async () => {
    const big = await createProcedure(t, { type: 'Gratis' });
    const file = path.join(t.storage.root!, ...big.fullVideo!.split('/'));
    const size = 5 * 1024 ** 3;
    await truncate(file, size);
    const start = 4 * 1024 ** 3 + 7;
    const response = await get(big.fullVideo!, gratis, { range: `bytes=${start}-${start + 9}` });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes ${start}-${start + 9}/${size}`);
    expect(response.rawPayload.length).toBe(10);
  });

  it('asks the database once per range of a full video after the first, and still cuts a replaced device off', async () => {
    const viewer = await signedInAs(t, { type: 'Premium' });
    const issue = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/viewing/token',
          headers: { cookie: viewer.cookie, origin: testPublicUrl },
        })
      ).json().token as string;
    const play = (token: string) =>
      t.app.inject({
        url: `/media/${paid.fullVideo}?vt=${token}`,
        headers: { cookie: viewer.cookie, range: 'bytes=0-3' },
      });
    const first = await issue();
    expect((await play(first)).statusCode).toBe(206);
    queries.length = 0;
    for (let index = 0; index < 5; index++) expect((await play(first)).statusCode).toBe(206);
    // the permission and the viewing token are both remembered: no query at all
    expect(queries).toEqual([]);
    await issue();
    expect((await play(first)).statusCode).toBe(409);
  });

  it('cuts a device off as soon as another instance gives the viewing token to a new device', async () => {
    const viewer = await signedInAs(t, { type: 'Premium' });
    const first = (
      await t.app.inject({
        method: 'POST',
        url: '/api/viewing/token',
        headers: { cookie: viewer.cookie, origin: testPublicUrl },
      })
    ).json().token as string;
    const play = () =>
      t.app.inject({
        url: `/media/${paid.fullVideo}?vt=${first}`,
        headers: { cookie: viewer.cookie, range: 'bytes=0-3' },
      });
    expect((await play()).statusCode).toBe(206);
    queries.length = 0;
    expect((await play()).statusCode).toBe(206);
    expect(queries).toEqual([]);
    // another server on the same database: its new token reaches this one only through NOTIFY
    let heard!: () => void;
    const notified = new Promise<void>((resolve) => (heard = resolve));
    const stop = await t.database.listen(viewingTokensChannel, (userId) => userId === viewer.user.id && heard());
    const otherInstance = createViewingService({ database: t.database });
    await otherInstance.issue(viewer.user.id);
    // this instance's viewing service listened first, so it has forgotten the old token by now
    await notified;
    stop();
    const stale = await play();
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe('Detectamos que se ha ingresado con esta cuenta en otro dispositivo.');
  });

  it('serves a public demo range without asking the database once permitted', async () => {
    await get(paid.demoVideo!, undefined, { range: 'bytes=0-3' });
    queries.length = 0;
    expect((await get(paid.demoVideo!, undefined, { range: 'bytes=4-7' })).statusCode).toBe(206);
    expect(queries).toEqual([]);
  });

  it('checks permission before answering a range', async () => {
    expect((await get(paid.fullVideo!, undefined, { range: 'bytes=0-3' })).statusCode).toBe(401);
  });
});
