import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { startS3TestServer } from '#server/testing/s3-test-server.ts';
import { createS3Storage } from '#server/services/s3-storage.ts';
import { testLadderFiles, testVariantPlaylist, writeTestLadder } from '#server/testing/ladders.ts';

// HLS ladders in the bucket: hls.js fetches playlists and segments from our origin (no CORS on the bucket), so the
// server reads them from S3 and applies the same rules as on disk
let s3: Awaited<ReturnType<typeof startS3TestServer>>;
let storage: ReturnType<typeof createS3Storage>;
let t: TestApp;
let full: string;
let demo: string;
let halfWritten: string;

beforeAll(async () => {
  s3 = await startS3TestServer();
  storage = createS3Storage(s3.settings);
  t = await createTestApp({ storage: 's3' }, undefined, { storage });
  const paid = await createProcedure(t, { type: 'Premium' });
  full = await writeTestLadder(t, paid.fullVideo!, { ready: true });
  demo = await writeTestLadder(t, paid.demoVideo!, { ready: true });
  const other = await createProcedure(t, { type: 'Gratis' });
  halfWritten = await writeTestLadder(t, other.demoVideo!, { ready: false });
});
afterAll(async () => {
  await t.close();
  storage.close?.();
  await s3.close();
});

const get = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} });

describe('HLS ladders on S3-compatible storage', () => {
  it("serves a Premium member the full video's master playlist, variant playlist and segment from the bucket, through the server", async () => {
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const token = (
      await t.app.inject({ method: 'POST', url: '/api/viewing/token', headers: { cookie, origin: testPublicUrl } })
    ).json().token;
    const master = await get(`/media/${full}/master.m3u8?vt=${token}`, cookie);
    expect(master.statusCode).toBe(200);
    expect(master.headers.location).toBeUndefined();
    expect(master.headers['cache-control']).toBe('private, no-store');
    expect(master.body).toContain(`240p/index.m3u8?vt=${token}`);
    const variant = await get(`/media/${full}/240p/index.m3u8?vt=${token}`, cookie);
    expect(variant.statusCode).toBe(200);
    expect(variant.body).toBe(
      testVariantPlaylist
        .replace('seg_00000.ts', `seg_00000.ts?vt=${token}`)
        .replace('seg_00001.ts', `seg_00001.ts?vt=${token}`),
    );
    const segment = await get(`/media/${full}/240p/seg_00000.ts?vt=${token}`, cookie);
    expect(segment.statusCode).toBe(200);
    expect(segment.headers['content-type']).toBe('video/mp2t');
    expect(segment.rawPayload.equals(Buffer.alloc(188, 0x47))).toBe(true);
    // without the current viewing token: the single-device rule, as on disk
    expect((await get(`/media/${full}/240p/seg_00000.ts`, cookie)).statusCode).toBe(409);
  });

  it("refuses a Premium video's ladder to a guest (401) and a Basic member (403), and serves both the demo's", async () => {
    const { cookie: basic } = await signedInAs(t, { type: 'Gratis' });
    for (const file of testLadderFiles) {
      const guest = await get(`/media/${full}/${file}`);
      expect(guest.statusCode).toBe(401);
      expect(guest.body).not.toContain('EXTM3U');
      expect((await get(`/media/${full}/${file}?vt=x`, basic)).statusCode).toBe(403);
      for (const cookie of [undefined, basic]) {
        const response = await get(`/media/${demo}/${file}`, cookie);
        expect(response.statusCode).toBe(200);
        expect(response.headers['cache-control']).toBe('public, max-age=3600');
      }
    }
    expect((await get(`/media/${demo}/master.m3u8`)).body).toContain('240p/index.m3u8');
  });

  it('serves no ladder that is not marked ready, though its files are in the bucket', async () => {
    for (const file of testLadderFiles)
      expect(
        (await get(`/media/${halfWritten}/${file}`, (await signedInAs(t, { type: 'Admin' })).cookie)).statusCode,
      ).toBe(404);
  });
});
