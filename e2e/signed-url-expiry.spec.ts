import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { createS3Storage } from '../src/server/services/s3-storage.ts';
import { startS3TestServer } from '../src/server/testing/s3-test-server.ts';
import { expect, pressPlay, test } from './fixtures.ts';
import { deviceSignedIn, serverInstances, type Instance } from './server-instances.ts';

// On STORAGE=s3 the full video plays from a signed URL that Chromium keeps using for later range requests:
// past its lifetime the bucket refuses them, and the player must ask /media again without a reload.
const lifetimeSeconds = 5;
const clipSeconds = 100;
const seekTo = 80;
const premiumProcedure = 'Reparación de ligamento cruzado craneal';

const videoTime = (page: Page) => page.locator('video').evaluate((video: HTMLVideoElement) => video.currentTime);

test.describe('a full video on object storage, past its signed URL', () => {
  test.describe.configure({ mode: 'serial', retries: 0 });
  test.setTimeout(240_000);

  const instances = serverInstances();
  let s3: Awaited<ReturnType<typeof startS3TestServer>>;
  let clipDir: string;
  let site: Instance;
  let procedureId: string;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    s3 = await startS3TestServer();
    // long enough (about 19 MB at 1.5 Mbit/s) that Chromium cannot have buffered the seek target
    clipDir = await mkdtemp(path.join(tmpdir(), 'cxvet-clip-'));
    const clip = path.join(clipDir, 'clip.mp4');
    await promisify(execFile)('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25`, '-t', String(clipSeconds)],
      ...[
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-g',
        '50',
        '-b:v',
        '1500k',
        '-maxrate',
        '1500k',
        '-bufsize',
        '3000k',
      ],
      ...['-movflags', '+faststart', clip],
    ]);
    // no ffmpeg for ladders: the procedure plays its MP4 through the signed URL, as before its ladder is ready
    site = await instances.start({
      ...s3.env,
      SEED_DEMO: '1',
      PAYMENTS_PROVIDER: 'simulado',
      S3_SIGNED_URL_SECONDS: String(lifetimeSeconds),
      FFMPEG_PATH: '/nonexistent/ffmpeg',
    });

    const catalog = (await (await fetch(`${site.url}/api/catalog/procedures?q=ligamento`)).json()) as {
      items: { id: string; name: string }[];
    };
    procedureId = catalog.items.find((item) => item.name === premiumProcedure)!.id;
    const detail = (await (await fetch(`${site.url}/api/catalog/procedures/${procedureId}`)).json()) as {
      videoUrl: string;
    };
    // the guest's answer names the demo; the full video lies beside it under the same stamp
    const fullVideoKey = detail.videoUrl.replace(/^\/media\//, '').replace(/_demo\.mp4$/, '_video.mp4');
    const storage = createS3Storage(s3.settings);
    await storage.put(fullVideoKey, createReadStream(clip));
    storage.close?.();
  });

  test.afterAll(async () => {
    test.setTimeout(90_000);
    await instances.stopAll();
    if (s3) await s3.close();
    if (clipDir) await rm(clipDir, { recursive: true, force: true });
  });

  test('a Premium member seeks after the signed URL expired and playback goes on without a reload', async ({
    browser,
  }) => {
    const page = await deviceSignedIn(browser, site);
    try {
      const signed: string[] = [];
      page.on('response', (response) => {
        if (/\/media\/procedures\/.+_video\.mp4/.test(response.url()) && response.status() === 302)
          signed.push(response.headers().location!);
      });
      await page.goto(`/procedimiento/${procedureId}`);
      await expect(page.getByRole('heading', { level: 1, name: premiumProcedure })).toBeVisible();
      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      await pressPlay(page);
      await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(0.5);
      expect(signed.length).toBeGreaterThan(0);

      // the URL the browser holds is now refused by the bucket
      const first = signed[0]!;
      await expect
        .poll(async () => (await fetch(first, { headers: { range: 'bytes=0-0' } })).status, {
          timeout: (lifetimeSeconds + 10) * 1000,
          intervals: [500],
        })
        .toBe(403);
      const bufferedEnd = await page
        .locator('video')
        .evaluate((video: HTMLVideoElement) =>
          video.buffered.length ? video.buffered.end(video.buffered.length - 1) : 0,
        );
      expect(bufferedEnd).toBeLessThan(seekTo);

      await page.locator('video').evaluate((video: HTMLVideoElement, to) => (video.currentTime = to), seekTo);
      await expect.poll(() => videoTime(page), { timeout: 30_000 }).toBeGreaterThan(seekTo + 1.5);
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      await expect(page.getByRole('alert')).toHaveCount(0);
      // the player asked /media again and got a fresh signature
      expect(new Set(signed).size).toBeGreaterThan(1);
    } finally {
      await page.context().close();
    }
  });
});
