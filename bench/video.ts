// Data-saver video: time to first frame and bytes for the first minute, 360p HLS vs the original MP4,
// in Chromium throttled to 1.6 Mbit/s. Skipped with BENCH_VIDEO=0, or when ffmpeg or Chromium is missing.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { chromium, type Browser } from '@playwright/test';
import { openDatabase } from '#server/db/client.ts';
import { buildApp } from '#server/app.ts';
import { createLocalStorage } from '#server/services/storage.ts';
import { createMailer } from '#server/services/mail.ts';
import { procedures, videoRenditions } from '#server/db/schema/index.ts';
import { testConfig } from '#server/testing/test-app.ts';
import { ladderPrefix } from '#server/features/renditions/renditions.service.ts';

const run = promisify(execFile);
const throttleBitsPerSecond = 1_600_000;
const latencyMs = 150;
const sourceSeconds = 70;

export type VideoRow = { figure: string; value: string; goal: string; holds: boolean | null };

/** Bytes a player must fetch to play the first `seconds` of a progressive MP4: up to the end of the last packet it needs. */
async function mp4BytesFor(file: string, seconds: number): Promise<number> {
  const { stdout } = await run(
    '/usr/bin/ffprobe',
    ['-v', 'error', '-show_entries', 'packet=pts_time,pos,size', '-of', 'csv=p=0', file],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  let end = 0;
  for (const line of stdout.split('\n')) {
    const [pts, size, pos] = line.split(',').map(Number);
    if (pts !== undefined && size !== undefined && pos !== undefined && pts < seconds && pos + size > end)
      end = pos + size;
  }
  return end;
}

/** Bytes of the variant playlist and every segment that starts in the first `seconds`. */
async function hlsBytesFor(folder: string, seconds: number): Promise<number> {
  const playlist = await readFile(path.join(folder, 'index.m3u8'), 'utf8');
  let total = Buffer.byteLength(playlist);
  let at = 0;
  let duration = 0;
  for (const line of playlist.split('\n')) {
    const extinf = /^#EXTINF:([\d.]+)/.exec(line);
    if (extinf) duration = Number(extinf[1]);
    else if (line && !line.startsWith('#')) {
      if (at < seconds) total += (await stat(path.join(folder, line))).size;
      at += duration;
    }
  }
  return total;
}

/** Opens one video on a throttled, cache-less page; returns ms to the first presented frame and bytes received meanwhile. */
async function firstFrame(
  browser: Browser,
  baseUrl: string,
  cookie: string,
  source: { kind: 'mp4' | 'hls'; url: string },
) {
  // the API answer's CSP would refuse the injected player script; the page is ours and only measures
  const context = await browser.newContext({ bypassCSP: true });
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const [key, ...rest] = pair.split('=');
      return { name: key!, value: rest.join('='), url: baseUrl };
    }),
  );
  const page = await context.newPage();
  await page.goto(`${baseUrl}/api/health`);
  await page.setContent('<!doctype html><body></body>');
  if (source.kind === 'hls') await page.addScriptTag({ path: 'node_modules/hls.js/dist/hls.light.min.js' });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: latencyMs,
    downloadThroughput: throttleBitsPerSecond / 8,
    uploadThroughput: throttleBitsPerSecond / 8,
  });
  let bytes = 0;
  cdp.on(
    'Network.dataReceived',
    (event: { encodedDataLength: number; dataLength: number }) =>
      void (bytes += event.encodedDataLength || event.dataLength),
  );
  const ms = await page.evaluate(
    ({ kind, url }) =>
      new Promise<number>((resolve, reject) => {
        const video = document.createElement('video');
        video.muted = true;
        video.playsInline = true;
        document.body.append(video);
        const started = performance.now();
        video.requestVideoFrameCallback(() => resolve(performance.now() - started));
        video.addEventListener('error', () => reject(new Error(`video error ${video.error?.code}`)));
        if (kind === 'hls') {
          const Hls = (
            window as unknown as {
              Hls: new () => { loadSource(url: string): void; attachMedia(video: HTMLVideoElement): void };
            }
          ).Hls;
          const hls = new Hls();
          hls.loadSource(url);
          hls.attachMedia(video);
        } else {
          video.src = url;
        }
        void video.play().catch(() => {});
        setTimeout(() => reject(new Error('no frame in 60 s')), 60_000);
      }),
    source,
  );
  await context.close();
  return { ms, bytes };
}

export async function measureVideo(step: (what: string) => void): Promise<VideoRow[]> {
  if (process.env.BENCH_VIDEO === '0') return [];
  if (!existsSync('/usr/bin/ffmpeg') || !existsSync('/usr/bin/chromium')) {
    return [
      {
        figure: 'data-saver video',
        value: 'skipped: needs /usr/bin/ffmpeg and /usr/bin/chromium',
        goal: 'info',
        holds: null,
      },
    ];
  }
  const work = await mkdtemp(path.join(tmpdir(), 'cxvet-bench-video-'));
  const database = await openDatabase({ pgliteDir: 'memory://' });
  let browser: Browser | null = null;
  try {
    step('video: a 70 s 720p original (H.264 2.5 Mbit/s, AAC, faststart)');
    const original = path.join(work, 'original.mp4');
    await run('/usr/bin/ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1280x720:rate=30:duration=${sourceSeconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${sourceSeconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-b:v',
      '2500k',
      '-maxrate',
      '3000k',
      '-bufsize',
      '5000k',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-movflags',
      '+faststart',
      '-shortest',
      original,
    ]);

    await database.migrate();
    const storage = createLocalStorage(path.join(work, 'uploads'));
    const config = testConfig({ dataDir: work });
    const mailer = createMailer({ db: database.db, from: config.mailFrom, log: { info() {} } });
    const app = await buildApp({ config, database, storage, mailer, distDir: null });
    try {
      const id = randomUUID();
      const key = `procedures/${id}/original.mp4`;
      await database.db
        .insert(procedures)
        .values({ id, name: 'Bench', detail: 'Bench', species: 'Perro', type: 'Premium', fullVideo: key });
      await storage.put(key, createReadStream(original));
      step('video: the transcoding job (240p, 360p, 720p and a poster)');
      const transcodeStarted = performance.now();
      await database.db.transaction(async (tx) => app.services.renditions.queueFor([key], tx as never));
      await app.services.videoJobs.runDue();
      const transcodeSeconds = (performance.now() - transcodeStarted) / 1000;
      const [ladder] = await database.db.select().from(videoRenditions).where(eq(videoRenditions.sourceKey, key));
      if (ladder?.status !== 'ready') throw new Error(`the ladder is ${ladder?.status}: ${ladder?.error}`);
      const prefix = ladderPrefix(ladder.id, ladder.readyVersion!);

      await app.services.accounts.createAccount({
        name: 'Bench Video',
        email: 'bench-video@bench.example',
        password: 'Bench1234',
        values: { type: 'Premium' },
      });
      const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
      const login = await fetch(`${baseUrl}/api/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
        body: JSON.stringify({ email: 'bench-video@bench.example', password: 'Bench1234' }),
      });
      const cookie = login.headers
        .getSetCookie()
        .map((each) => each.split(';')[0])
        .join('; ');
      const token = async () =>
        (
          (await (
            await fetch(`${baseUrl}/api/viewing/token`, {
              method: 'POST',
              headers: { cookie, origin: 'http://localhost:3000' },
            })
          ).json()) as { token: string }
        ).token;

      step('video: first frame at 1.6 Mbit/s in Chromium');
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
      const mp4 = await firstFrame(browser, baseUrl, cookie, {
        kind: 'mp4',
        url: `${baseUrl}/media/${key}?vt=${await token()}`,
      });
      const hls = await firstFrame(browser, baseUrl, cookie, {
        kind: 'hls',
        url: `${baseUrl}/media/${prefix}/360p/index.m3u8?vt=${await token()}`,
      });
      const mp4Minute = await mp4BytesFor(original, 60);
      const hlsMinute = await hlsBytesFor(path.join(work, 'uploads', ...prefix.split('/'), '360p'), 60);
      const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
      return [
        {
          figure: `video ladder job for a ${sourceSeconds} s 720p original (240p, 360p, 720p, poster)`,
          value: `${transcodeSeconds.toFixed(1)} s`,
          goal: 'info',
          holds: null,
        },
        {
          figure: 'time to first frame at 1.6 Mbit/s, 360p HLS (hls.js already loaded)',
          value: `${(hls.ms / 1000).toFixed(2)} s (${mib(hls.bytes)} received)`,
          goal: '< 3 s',
          holds: hls.ms < 3000,
        },
        {
          figure: 'time to first frame at 1.6 Mbit/s, original MP4',
          value: `${(mp4.ms / 1000).toFixed(2)} s (${mib(mp4.bytes)} received)`,
          goal: 'info',
          holds: null,
        },
        {
          figure: 'bytes for the first minute: 360p HLS vs original MP4',
          value: `${mib(hlsMinute)} vs ${mib(mp4Minute)} (${((hlsMinute / mp4Minute) * 100).toFixed(0)} %)`,
          goal: '360p smaller',
          holds: hlsMinute < mp4Minute,
        },
      ];
    } finally {
      await app.close();
    }
  } finally {
    await browser?.close();
    await database.close();
    await rm(work, { recursive: true, force: true });
  }
}
