import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { procedureCaptions } from '#server/db/schema/index.ts';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { writeTestLadder } from '#server/testing/ladders.ts';
import { deployedNginxConfig, freePort, nginxBinary, startNginx } from '#server/testing/nginx.ts';
import { mediaUrl } from '#server/services/media-url.ts';

// deploy/nginx.conf in front of the app with MEDIA_ACCEL_REDIRECT: the app decides, nginx sends the bytes
const mebibyte = 1024 * 1024;
let t: TestApp;
let nginx: Awaited<ReturnType<typeof startNginx>>;
let workDir: string;
let gratis: string;
let premium: string;
let token: string;
let paid: Awaited<ReturnType<typeof createProcedure>>;
let ladder: string;
let captions: string;
const video = Buffer.alloc(3 * mebibyte);
for (let index = 0; index < video.length; index += 4) video.writeUInt32LE(index, index);

describe.skipIf(!nginxBinary)('media through nginx (deploy/nginx.conf)', () => {
  beforeAll(async () => {
    t = await createTestApp({ mediaAccelRedirect: '/_media-interno/', trustProxy: 1 });
    gratis = (await signedInAs(t, { type: 'Gratis' })).cookie;
    premium = (await signedInAs(t, { type: 'Premium' })).cookie;
    paid = await createProcedure(t, { type: 'Premium' });
    await t.storage.put(paid.fullVideo!, Readable.from([video]));
    ladder = await writeTestLadder(t, paid.fullVideo!, { ready: true });
    captions = `procedures/${paid.id}/1700000000000_subtítulos es.vtt`;
    await t.storage.put(captions, Readable.from([Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nHola\n')]));
    await t.db
      .insert(procedureCaptions)
      .values({ procedureId: paid.id, video: 'full', language: 'es', fileKey: captions });
    token = (
      await t.app.inject({
        method: 'POST',
        url: '/api/viewing/token',
        headers: { cookie: premium, origin: testPublicUrl },
      })
    ).json().token;
    const appUrl = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    workDir = await mkdtemp(path.join(tmpdir(), 'cxvet-nginx-'));
    const port = await freePort();
    nginx = await startNginx({
      workDir,
      port,
      httpConfig: await deployedNginxConfig({ appPort: Number(appUrl.port), uploadsDir: t.storage.root!, port }),
    });
  });
  afterAll(async () => {
    await nginx?.stop();
    await t?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const viaNginx = (url: string, headers: Record<string, string> = {}) => fetch(`${nginx.url}${url}`, { headers });

  it("sends a Premium member the exact 1 MiB range of the full video, with the app's headers and no internal path", async () => {
    const response = await viaNginx(`/media/${paid.fullVideo}?vt=${token}`, {
      cookie: premium,
      range: `bytes=${mebibyte}-${2 * mebibyte - 1}`,
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${mebibyte}-${2 * mebibyte - 1}/${video.length}`);
    expect(Buffer.from(await response.arrayBuffer()).equals(video.subarray(mebibyte, 2 * mebibyte))).toBe(true);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('x-accel-redirect')).toBeNull();
    // the security headers the app sets on every media answer reach the browser unchanged
    const direct = await t.app.inject({ url: `/media/${paid.fullVideo}?vt=${token}`, headers: { cookie: premium } });
    for (const name of [
      'content-security-policy',
      'x-content-type-options',
      'x-frame-options',
      'cross-origin-resource-policy',
      'referrer-policy',
    ]) {
      expect(response.headers.get(name), name).toBe(direct.headers[name]);
    }
  });

  it('sends the repeat ranges the app answers before Fastify (decision 021) exactly as the first: bytes and headers', async () => {
    const range = (start: number) =>
      viaNginx(`/media/${paid.fullVideo}?vt=${token}`, {
        cookie: premium,
        range: `bytes=${start}-${start + mebibyte - 1}`,
      });
    const answers = [await range(0), await range(0), await range(2 * mebibyte)];
    const headers = (response: Response) =>
      Object.fromEntries([...response.headers].filter(([name]) => !['date', 'content-range'].includes(name)));
    for (const [index, response] of answers.entries()) {
      expect(response.status, String(index)).toBe(206);
      const start = index === 2 ? 2 * mebibyte : 0;
      expect(
        Buffer.from(await response.arrayBuffer()).equals(video.subarray(start, start + mebibyte)),
        String(index),
      ).toBe(true);
      expect(headers(response), String(index)).toEqual(headers(answers[0]!));
    }
  });

  it("answers a HEAD with the file's length and no body", async () => {
    const response = await fetch(`${nginx.url}/media/${paid.fullVideo}?vt=${token}`, {
      method: 'HEAD',
      headers: { cookie: premium },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(video.length));
    expect((await response.arrayBuffer()).byteLength).toBe(0);
    expect((await fetch(`${nginx.url}/media/${paid.fullVideo}`, { method: 'HEAD' })).status).toBe(401);
  });

  it('answers 304 and If-Range from nginx after the app allowed it', async () => {
    const whole = await viaNginx(`/media/${paid.fullVideo}?vt=${token}`, { cookie: premium });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true);
    const etag = whole.headers.get('etag')!;
    expect(
      (await viaNginx(`/media/${paid.fullVideo}?vt=${token}`, { cookie: premium, 'if-none-match': etag })).status,
    ).toBe(304);
    const stale = await viaNginx(`/media/${paid.fullVideo}?vt=${token}`, {
      cookie: premium,
      range: 'bytes=0-3',
      'if-range': '"otra-version"',
    });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    // the guest still learns nothing, even with the right ETag
    expect((await viaNginx(`/media/${paid.fullVideo}`, { 'if-none-match': etag })).status).toBe(401);
  });

  it.each([
    ['a guest', () => ({}), 401],
    ['a Basic member', () => ({ cookie: gratis }), 403],
  ])('refuses %s the range through nginx exactly as the app does', async (_who, headers, status) => {
    for (const url of [`/media/${paid.fullVideo}`, `/media/${ladder}/240p/seg_00000.ts`, mediaUrl(captions)!]) {
      const response = await viaNginx(url, { ...headers(), range: 'bytes=0-1023' });
      expect(response.status, url).toBe(status);
      const body = await response.text();
      expect(body).not.toContain('WEBVTT');
      expect(JSON.parse(body).code).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
    }
  });

  it('keeps the internal location unreachable from outside, whatever headers a visitor sends', async () => {
    expect((await viaNginx(`/_media-interno/${paid.fullVideo}`)).status).toBe(404);
    expect(
      (
        await viaNginx(`/_media-interno/${paid.fullVideo}`, {
          cookie: premium,
          'x-accel-redirect': `/_media-interno/${paid.fullVideo}`,
        })
      ).status,
    ).toBe(404);
    const forged = await viaNginx(`/media/${paid.fullVideo}`, {
      'x-accel-redirect': `/_media-interno/${paid.fullVideo}`,
      range: 'bytes=0-3',
    });
    expect(forged.status).toBe(401);
    for (const url of [
      '/media/procedures/..%2F..%2F..%2Fetc/passwd',
      '/_media-interno/../../../etc/passwd',
      `/media/procedures/${paid.id}/%2e%2e/%2e%2e/session-secret`,
    ]) {
      const response = await viaNginx(url, { cookie: premium });
      // nginx refuses a path climbing above / itself (400); anything else reaches the app's 404
      expect([400, 404], url).toContain(response.status);
      expect(await response.text()).not.toContain('root:');
    }
  });

  it('sends HLS segments and subtitles (names with spaces and accents too) from the file, and playlists from the app', async () => {
    const playlist = await viaNginx(`/media/${ladder}/240p/index.m3u8?vt=${token}`, { cookie: premium });
    expect(await playlist.text()).toContain(`seg_00000.ts?vt=${token}`);
    const segment = await viaNginx(`/media/${ladder}/240p/seg_00000.ts?vt=${token}`, { cookie: premium });
    expect(segment.status).toBe(200);
    expect(segment.headers.get('content-type')).toBe('video/mp2t');
    expect(Buffer.from(await segment.arrayBuffer()).equals(Buffer.alloc(188, 0x47))).toBe(true);
    const vtt = await viaNginx(mediaUrl(captions)!, { cookie: premium });
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toBe('text/vtt');
    expect(await vtt.text()).toContain('Hola');
  });
});
