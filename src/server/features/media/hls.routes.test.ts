import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { videoRenditions } from '#server/db/schema/index.ts';
import { eq } from 'drizzle-orm';
import { findVideoTools } from '#server/features/renditions/video-tools.ts';
import { renditionErrors } from '#shared/renditions/renditions.rules.ts';
import { testLadderFiles, testMasterPlaylist, writeTestLadder } from '#server/testing/ladders.ts';

let t: TestApp;
let gratis: string;
let premium: string;
let admin: string;
let paid: Awaited<ReturnType<typeof createProcedure>>;
/** Ladder folders of the Premium procedure's full video and demo. */
let full: string;
let demo: string;
let halfWritten: string;

beforeAll(async () => {
  t = await createTestApp();
  gratis = (await signedInAs(t, { type: 'Gratis' })).cookie;
  premium = (await signedInAs(t, { type: 'Premium' })).cookie;
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
  paid = await createProcedure(t, { type: 'Premium' });
  full = await writeTestLadder(t, paid.fullVideo!, { ready: true });
  demo = await writeTestLadder(t, paid.demoVideo!, { ready: true });
  const other = await createProcedure(t, { type: 'Gratis' });
  halfWritten = await writeTestLadder(t, other.demoVideo!, { ready: false });
});
afterAll(async () => t.close());

async function viewingToken(cookie: string): Promise<string> {
  return (
    await t.app.inject({ method: 'POST', url: '/api/viewing/token', headers: { cookie, origin: testPublicUrl } })
  ).json().token;
}

const get = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} });
const files = testLadderFiles;

describe('HLS playlists and segments follow their video', () => {
  it("gives a guest and a Basic member the demo's playlists and segments, cacheable", async () => {
    for (const cookie of [undefined, gratis]) {
      for (const file of files) {
        const response = await get(`/media/${demo}/${file}`, cookie);
        expect(response.statusCode).toBe(200);
        expect(response.headers['cache-control']).toBe('public, max-age=3600');
      }
    }
    expect((await get(`/media/${demo}/master.m3u8`)).headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect((await get(`/media/${demo}/240p/seg_00000.ts`)).headers['content-type']).toBe('video/mp2t');
  });

  it("refuses the full video's playlists, segments and poster to a guest (401) and a Basic member (403)", async () => {
    for (const file of [...files, 'poster.jpg']) {
      const guest = await get(`/media/${full}/${file}`);
      expect(guest.statusCode).toBe(401);
      expect(guest.body).not.toContain('EXTM3U');
      expect((await get(`/media/${full}/${file}`, gratis)).statusCode).toBe(403);
    }
  });

  it.each([
    ['Premium', () => premium],
    ['Admin', () => admin],
  ])(
    'gives a %s member the full ladder with the viewing token, carried into every URI of the playlists',
    async (_type, cookie) => {
      const token = await viewingToken(cookie());
      const top = await get(`/media/${full}/master.m3u8?vt=${token}`, cookie());
      expect(top.statusCode).toBe(200);
      expect(top.headers['cache-control']).toBe('private, no-store');
      expect(top.body).toContain(`240p/index.m3u8?vt=${token}`);
      const list = await get(`/media/${full}/240p/index.m3u8?vt=${token}`, cookie());
      expect(list.statusCode).toBe(200);
      expect(list.body).toContain(`seg_00000.ts?vt=${token}`);
      expect(list.body).toContain('#EXT-X-ENDLIST');
      const segment = await get(`/media/${full}/240p/seg_00000.ts?vt=${token}`, cookie());
      expect(segment.statusCode).toBe(200);
      expect(segment.rawPayload.length).toBe(188);
      // the poster is a still image shown before the token is taken
      expect((await get(`/media/${full}/poster.jpg`, cookie())).statusCode).toBe(200);
    },
  );

  it('refuses the full ladder without a viewing token, with a wrong one, and with one another device replaced', async () => {
    const viewer = await signedInAs(t, { type: 'Premium' });
    const first = await viewingToken(viewer.cookie);
    for (const file of files) {
      expect((await get(`/media/${full}/${file}`, viewer.cookie)).statusCode).toBe(409);
      expect((await get(`/media/${full}/${file}?vt=no-es-el-token`, viewer.cookie)).statusCode).toBe(409);
      expect((await get(`/media/${full}/${file}?vt=${first}`, viewer.cookie)).statusCode).toBe(200);
    }
    const second = await viewingToken(viewer.cookie);
    for (const file of files) {
      expect((await get(`/media/${full}/${file}?vt=${first}`, viewer.cookie)).statusCode).toBe(409);
      expect((await get(`/media/${full}/${file}?vt=${second}`, viewer.cookie)).statusCode).toBe(200);
    }
    // a Premium member's token is no key for a guest
    expect((await get(`/media/${full}/master.m3u8?vt=${second}`)).statusCode).toBe(401);
  });

  it('never serves a ladder that is not marked ready, nor a version other than the ready one', async () => {
    for (const file of files) expect((await get(`/media/${halfWritten}/${file}`, admin)).statusCode).toBe(404);
    const otherVersion = full.replace(/\/v1$/, '/v2');
    await t.storage.put(`${otherVersion}/master.m3u8`, Readable.from([testMasterPlaylist]));
    expect((await get(`/media/${otherVersion}/master.m3u8`, admin)).statusCode).toBe(404);
    expect((await get('/media/hls/no-es-uuid/v1/master.m3u8', admin)).statusCode).toBe(404);
  });
});

describe('console status of the ladders', () => {
  it('tells an Admin where each video stands and refuses everyone else', async () => {
    const url = `/api/admin/video-renditions?keys=${encodeURIComponent(`${paid.fullVideo},${paid.demoVideo}`)}`;
    const response = await get(url, admin);
    expect(response.statusCode).toBe(200);
    expect(response.json().items).toHaveLength(2);
    expect(response.json().items[0]).toMatchObject({ status: 'ready', heights: [240], error: null });
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, premium)).statusCode).toBe(403);
  });

  it("queues 'Reintentar' only for a video a record holds", async () => {
    const post = (key: string, cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/video-renditions',
        headers: { cookie, origin: testPublicUrl },
        payload: { key },
      });
    expect((await post(`procedures/${paid.id}/huerfano.mp4`, admin)).statusCode).toBe(404);
    expect((await post(paid.fullVideo!, premium)).statusCode).toBe(403);
    const other = await createProcedure(t, { type: 'Gratis' });
    expect((await post(other.fullVideo!, admin)).statusCode).toBe(202);
    const [row] = await t.db.select().from(videoRenditions).where(eq(videoRenditions.sourceKey, other.fullVideo!));
    expect(row?.status).toMatch(/^(pending|processing|failed)$/);
    await t.app.services.videoJobs.runDue();
    // the factory's video is not a real video: the Admin reads why (on a machine without ffmpeg, that it is missing)
    const [after] = await t.db.select().from(videoRenditions).where(eq(videoRenditions.sourceKey, other.fullVideo!));
    const { ffmpeg, ffprobe } = findVideoTools();
    const reason = ffmpeg && ffprobe ? renditionErrors.unreadable : renditionErrors.noFfmpeg;
    expect(after).toMatchObject({ status: 'failed', error: reason });
  });
});
