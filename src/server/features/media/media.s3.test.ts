import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { procedureCaptions } from '#server/db/schema/index.ts';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { startS3TestServer } from '#server/testing/s3-test-server.ts';
import { createS3Storage } from '#server/services/s3-storage.ts';
import { publicSignedUrlSeconds } from './media.routes.ts';

// media on object storage: the same permission check as on disk, then a redirect to a short-lived signed URL
let s3: Awaited<ReturnType<typeof startS3TestServer>>;
let storage: ReturnType<typeof createS3Storage>;
let t: TestApp;
let paid: Awaited<ReturnType<typeof createProcedure>>;
const video = randomBytes(200_000);

beforeAll(async () => {
  s3 = await startS3TestServer();
  storage = createS3Storage(s3.settings);
  t = await createTestApp({}, undefined, { storage });
  paid = await createProcedure(t, { type: 'Premium' });
  await storage.put(paid.fullVideo!, Readable.from([video]));
});
afterAll(async () => {
  await t.close();
  storage.close?.();
  await s3.close();
});

async function viewingToken(cookie: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/viewing/token',
    headers: { cookie, origin: testPublicUrl },
  });
  return response.json().token as string;
}

describe('media on S3-compatible storage', () => {
  it('redirects a Premium member to a signed URL of the full video that serves the right bytes by range, for a few minutes', async () => {
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const response = await t.app.inject({
      url: `/media/${paid.fullVideo}?vt=${await viewingToken(cookie)}`,
      headers: { cookie },
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const location = new URL(String(response.headers.location));
    expect(location.origin).toBe(s3.endpoint);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');

    const ranged = await fetch(location, { headers: { range: 'bytes=1000-1999' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 1000-1999/${video.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(video.subarray(1000, 2000))).toBe(true);
    // the object itself is not readable without the signature
    expect((await fetch(new URL(location.pathname, location.origin))).status).toBe(403);
  });

  it('signs private URLs for S3_SIGNED_URL_SECONDS, and the bucket refuses one once it has expired', async () => {
    // X-Amz-Date is whole seconds, so a URL signed late in a second has up to 1 s less than its lifetime: 3 s leaves
    // the first fetch at least 2 s on a busy machine (1 s failed CI once), and the wait covers lifetime + truncation
    const short = await createTestApp({ signedUrlSeconds: 3 }, { database: t.database }, { storage });
    try {
      const { cookie } = await signedInAs(short, { type: 'Premium' });
      const token = (
        await short.app.inject({
          method: 'POST',
          url: '/api/viewing/token',
          headers: { cookie, origin: testPublicUrl },
        })
      ).json().token;
      const response = await short.app.inject({ url: `/media/${paid.fullVideo}?vt=${token}`, headers: { cookie } });
      const location = new URL(String(response.headers.location));
      expect(location.searchParams.get('X-Amz-Expires')).toBe('3');
      expect((await fetch(location, { headers: { range: 'bytes=0-9' } })).status).toBe(206);
      await new Promise((resolve) => setTimeout(resolve, 4100));
      expect((await fetch(location, { headers: { range: 'bytes=0-9' } })).status).toBe(403);
    } finally {
      await short.close();
    }
  });

  it('refuses a guest (401) and a Basic member (403) before any URL is signed', async () => {
    const guest = await t.app.inject({ url: `/media/${paid.fullVideo}` });
    expect(guest.statusCode).toBe(401);
    expect(guest.headers.location).toBeUndefined();
    const { cookie } = await signedInAs(t, { type: 'Gratis' });
    const basic = await t.app.inject({ url: `/media/${paid.fullVideo}?vt=x`, headers: { cookie } });
    expect(basic.statusCode).toBe(403);
    expect(basic.headers.location).toBeUndefined();
  });

  it('keeps the single-device rule: no redirect without the current viewing token', async () => {
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const first = await viewingToken(cookie);
    await viewingToken(cookie); // another device takes over
    const stale = await t.app.inject({ url: `/media/${paid.fullVideo}?vt=${first}`, headers: { cookie } });
    expect(stale.statusCode).toBe(409);
    expect(stale.headers.location).toBeUndefined();
  });

  it('gives public files (preview, demo) a longer URL and a cacheable redirect', async () => {
    const response = await t.app.inject({ url: `/media/${paid.demoVideo}` });
    expect(response.statusCode).toBe(302);
    expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    const location = new URL(String(response.headers.location));
    expect(location.searchParams.get('X-Amz-Expires')).toBe(String(publicSignedUrlSeconds(300)));
    expect(publicSignedUrlSeconds(300)).toBe(3600);
    const served = await fetch(location);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('contenido de demoVideo');
  });

  it('allows the bucket as an image and media source in the Content-Security-Policy', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(new RegExp(`img-src [^;]*${s3.endpoint.replaceAll('.', '\\.')}`));
    expect(csp).toMatch(new RegExp(`media-src [^;]*${s3.endpoint.replaceAll('.', '\\.')}`));
  });

  it('serves subtitles through the server (a <track> must stay on our origin) with the video rule', async () => {
    const key = `procedures/${paid.id}/1700000000000_es.vtt`;
    await storage.put(key, Readable.from([Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nHola\n')]));
    await t.db.insert(procedureCaptions).values({ procedureId: paid.id, video: 'demo', language: 'es', fileKey: key });
    const response = await t.app.inject({ url: `/media/${key}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Hola');
  });

  it('still redirects to the bucket with MEDIA_ACCEL_REDIRECT set: nginx has no folder to send from', async () => {
    const withAccel = await createTestApp(
      { mediaAccelRedirect: '/_media-interno/' },
      { database: t.database },
      { storage },
    );
    try {
      const response = await withAccel.app.inject({ url: `/media/${paid.demoVideo}` });
      expect(response.statusCode).toBe(302);
      expect(response.headers['x-accel-redirect']).toBeUndefined();
    } finally {
      await withAccel.close();
    }
  });
});
