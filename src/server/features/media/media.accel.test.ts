import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { procedureCaptions } from '#server/db/schema/index.ts';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { writeTestLadder } from '#server/testing/ladders.ts';
import { internalMediaPath } from '#server/services/media-url.ts';

// MEDIA_ACCEL_REDIRECT: the same checks as ever, then nginx sends the file (decision 019); never a redirect without them
const prefix = '/_media-interno/';
let t: TestApp;
let gratis: string;
let premium: string;
let paid: Awaited<ReturnType<typeof createProcedure>>;
let free: Awaited<ReturnType<typeof createProcedure>>;
let ladder: string;
let fullCaptions: string;
let demoCaptions: string;

beforeAll(async () => {
  t = await createTestApp({ mediaAccelRedirect: prefix });
  gratis = (await signedInAs(t, { type: 'Gratis' })).cookie;
  premium = (await signedInAs(t, { type: 'Premium' })).cookie;
  paid = await createProcedure(t, { type: 'Premium' });
  free = await createProcedure(t, { type: 'Gratis' });
  ladder = await writeTestLadder(t, paid.fullVideo!, { ready: true });
  fullCaptions = `procedures/${paid.id}/1700000000000_es.vtt`;
  demoCaptions = `procedures/${paid.id}/1700000000001_es.vtt`;
  for (const [key, video] of [
    [fullCaptions, 'full'],
    [demoCaptions, 'demo'],
  ] as const) {
    await t.storage.put(key, Readable.from([Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nHola\n')]));
    await t.db.insert(procedureCaptions).values({ procedureId: paid.id, video, language: 'es', fileKey: key });
  }
});
afterAll(async () => t.close());

const tokens = new Map<string, string>();
async function viewingToken(cookie: string) {
  if (!tokens.has(cookie)) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/viewing/token',
      headers: { cookie, origin: testPublicUrl },
    });
    tokens.set(cookie, response.json().token);
  }
  return tokens.get(cookie)!;
}

const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url, headers: { ...(cookie ? { cookie } : {}), ...headers } });

/** A permitted answer handed to nginx: no body, the file's type and caching, the internal path of exactly this key. */
function expectHandedOver(
  response: Awaited<ReturnType<typeof get>>,
  key: string,
  contentType: string,
  cacheControl: string,
) {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['x-accel-redirect']).toBe(`${prefix}${key}`);
  expect(response.rawPayload.length).toBe(0);
  expect(response.headers['content-type']).toBe(contentType);
  expect(response.headers['cache-control']).toBe(cacheControl);
}

describe('media handed to nginx (MEDIA_ACCEL_REDIRECT)', () => {
  it("hands a Premium member's full video and guide to nginx, private", async () => {
    const token = await viewingToken(premium);
    expectHandedOver(
      await get(`/media/${paid.fullVideo}?vt=${token}`, premium),
      paid.fullVideo!,
      'video/mp4',
      'private, no-store',
    );
    expectHandedOver(
      await get(`/media/${paid.guidePdf}`, premium),
      paid.guidePdf!,
      'application/pdf',
      'private, no-store',
    );
  });

  it('leaves Range and revalidation to nginx: the app answers the same hand-over', async () => {
    const token = await viewingToken(premium);
    const ranged = await get(`/media/${paid.fullVideo}?vt=${token}`, premium, {
      range: 'bytes=0-3',
      'if-none-match': '"x"',
    });
    expectHandedOver(ranged, paid.fullVideo!, 'video/mp4', 'private, no-store');
    expect(ranged.headers['content-range']).toBeUndefined();
  });

  it('hands public previews and demos to nginx for anyone, cacheable', async () => {
    expectHandedOver(await get(`/media/${paid.demoVideo}`), paid.demoVideo!, 'video/mp4', 'public, max-age=3600');
    expectHandedOver(
      await get(`/media/${paid.previewImage}`),
      paid.previewImage!,
      'image/jpeg',
      'public, max-age=3600',
    );
  });

  it.each([
    ['a guest', () => undefined, 401],
    ['a Basic member', () => gratis, 403],
  ])(
    "never hands %s a Premium procedure's protected files: the same refusal as without nginx",
    async (_who, cookie, status) => {
      for (const key of [paid.fullVideo!, paid.guidePdf!, fullCaptions]) {
        const response = await get(`/media/${key}`, cookie());
        expect(response.statusCode).toBe(status);
        expect(response.headers['x-accel-redirect']).toBeUndefined();
      }
      for (const file of ['master.m3u8', '240p/index.m3u8', '240p/seg_00000.ts', 'poster.jpg']) {
        const response = await get(`/media/${ladder}/${file}`, cookie());
        expect(response.statusCode).toBe(status);
        expect(response.headers['x-accel-redirect']).toBeUndefined();
      }
    },
  );

  it('refuses the full video without the current viewing token, never handing it over', async () => {
    const viewer = await signedInAs(t, { type: 'Premium' });
    const none = await get(`/media/${paid.fullVideo}`, viewer.cookie);
    expect(none.statusCode).toBe(409);
    expect(none.headers['x-accel-redirect']).toBeUndefined();
    const first = await viewingToken(viewer.cookie);
    expect(
      (await get(`/media/${paid.fullVideo}?vt=${first}`, viewer.cookie)).headers['x-accel-redirect'],
    ).toBeDefined();
    await t.app.inject({
      method: 'POST',
      url: '/api/viewing/token',
      headers: { cookie: viewer.cookie, origin: testPublicUrl },
    });
    const stale = await get(`/media/${paid.fullVideo}?vt=${first}`, viewer.cookie);
    expect(stale.statusCode).toBe(409);
    expect(stale.headers['x-accel-redirect']).toBeUndefined();
  });

  it('gives a Basic member a Gratis procedure through nginx', async () => {
    const token = await viewingToken(gratis);
    expectHandedOver(
      await get(`/media/${free.fullVideo}?vt=${token}`, gratis),
      free.fullVideo!,
      'video/mp4',
      'private, no-store',
    );
  });

  it("sends the ladder's playlists itself (each carries the viewing token) and hands its segments and poster to nginx", async () => {
    const token = await viewingToken(premium);
    const master = await get(`/media/${ladder}/master.m3u8?vt=${token}`, premium);
    expect(master.statusCode).toBe(200);
    expect(master.headers['x-accel-redirect']).toBeUndefined();
    expect(master.body).toContain(`240p/index.m3u8?vt=${token}`);
    const variant = await get(`/media/${ladder}/240p/index.m3u8?vt=${token}`, premium);
    expect(variant.headers['x-accel-redirect']).toBeUndefined();
    expect(variant.body).toContain(`seg_00000.ts?vt=${token}`);
    expectHandedOver(
      await get(`/media/${ladder}/240p/seg_00000.ts?vt=${token}`, premium),
      `${ladder}/240p/seg_00000.ts`,
      'video/mp2t',
      'private, no-store',
    );
    expectHandedOver(
      await get(`/media/${ladder}/poster.jpg`, premium),
      `${ladder}/poster.jpg`,
      'image/jpeg',
      'private, no-store',
    );
    // a segment without the viewing token is refused like the full video
    expect((await get(`/media/${ladder}/240p/seg_00000.ts`, premium)).statusCode).toBe(409);
  });

  it("hands subtitles to nginx under their video's rule", async () => {
    expectHandedOver(await get(`/media/${demoCaptions}`), demoCaptions, 'text/vtt', 'public, max-age=3600');
    expectHandedOver(await get(`/media/${fullCaptions}`, premium), fullCaptions, 'text/vtt', 'private, no-store');
  });

  it('answers 404 itself for a permitted record whose file is gone', async () => {
    const gone = await createProcedure(t, { type: 'Gratis' });
    await rm(path.join(t.storage.root!, ...gone.demoVideo!.split('/')));
    const response = await get(`/media/${gone.demoVideo}`);
    expect(response.statusCode).toBe(404);
    expect(response.headers['x-accel-redirect']).toBeUndefined();
  });

  it('never hands over a path that could leave the upload folder', async () => {
    for (const url of [
      '/media/procedures/..%2F..%2F..%2Fetc/passwd',
      `/media/procedures/${paid.id}/..%2F..%2F..%2Fetc%2Fpasswd`,
      `/media/procedures/${paid.id}/%2e%2e/%2e%2e/session-secret`,
      `/media/procedures/${paid.id}/%252e%252e/x.mp4`,
      '/media/%2Fetc/passwd',
      `/media/procedures/${paid.id}/x%5C..%5C..%5Csession-secret`,
    ]) {
      const response = await get(url, premium);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['x-accel-redirect'], url).toBeUndefined();
    }
    // a NUL never reaches the route (the control-character check refuses the request first)
    const nul = await get(`/media/procedures/${paid.id}/x%00.mp4`, premium);
    expect(nul.statusCode).toBe(400);
    expect(nul.headers['x-accel-redirect']).toBeUndefined();
  });

  it('percent-encodes every segment of the internal path, so nginx decodes it back to the key alone', () => {
    expect(internalMediaPath(prefix, 'procedures/a b/ñandú?x=1#y.mp4')).toBe(
      '/_media-interno/procedures/a%20b/%C3%B1and%C3%BA%3Fx%3D1%23y.mp4',
    );
    expect(internalMediaPath(prefix, 'procedures/x/%2e%2e.mp4')).toBe('/_media-interno/procedures/x/%252e%252e.mp4');
    for (const key of [
      '../session-secret',
      'procedures/../../etc/passwd',
      '/etc/passwd',
      'procedures/x\\..\\y',
      'a/./b',
      'a//b',
      'a/\0',
    ]) {
      expect(() => internalMediaPath(prefix, key), key).toThrow(/unsafe storage key/);
    }
  });
});
