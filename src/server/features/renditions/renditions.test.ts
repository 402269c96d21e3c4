import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReadStream } from 'node:fs';
import { promisify } from 'node:util';
import { PassThrough, Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { jobs, procedureChapters, videoRenditions } from '#server/db/schema/index.ts';
import { renditionErrors } from '#shared/renditions/renditions.rules.ts';
import { ladderPrefix } from './renditions.service.ts';
import { findVideoTools } from './video-tools.ts';

const run = promisify(execFile);
const tools = findVideoTools();
const needsFfmpeg = !tools.ffmpeg || !tools.ffprobe;
if (needsFfmpeg)
  console.log('skipped: the video ladder job tests need ffmpeg and ffprobe on PATH (apt-get install ffmpeg)');
let work: string;
let clip: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'cxvet-clip-'));
  clip = path.join(work, 'clip.mp4');
  // without ffmpeg nothing can read the file anyway: any bytes stand for the uploaded video
  if (needsFfmpeg) return writeFile(clip, 'not a video');
  // 6 s, 480x400 with a tone: big enough for 240p and 360p, too small for 720p
  await run(tools.ffmpeg!, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=480x400:rate=15:duration=6',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=6',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    clip,
  ]);
});
afterAll(async () => rm(work, { recursive: true, force: true }));

async function procedureWithClip(t: TestApp) {
  const procedure = await createProcedure(t, { type: 'Premium' });
  await t.storage.put(procedure.fullVideo!, createReadStream(clip));
  await t.db.insert(procedureChapters).values([
    { procedureId: procedure.id, position: 0, name: 'Inicio', timeSeconds: 0 },
    { procedureId: procedure.id, position: 1, name: 'Incisión', timeSeconds: 3 },
  ]);
  return procedure;
}

async function keyframeSeconds(playlist: string): Promise<number[]> {
  const { stdout } = await run(tools.ffprobe!, [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-skip_frame',
    'nokey',
    '-show_entries',
    'frame=pts_time',
    '-of',
    'csv=p=0',
    playlist,
  ]);
  const times = stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => Number.parseFloat(line));
  return times.map((time) => Math.round((time - times[0]!) * 100) / 100);
}

async function makesTheLadder(t: TestApp) {
  const procedure = await procedureWithClip(t);
  await t.db.transaction(async (tx) => t.app.services.renditions.queueFor([procedure.fullVideo!], tx as never));
  const [queued] = await t.db.select().from(videoRenditions).where(eq(videoRenditions.sourceKey, procedure.fullVideo!));
  expect(queued!.status).toBe('pending');

  expect(await t.app.services.videoJobs.runDue()).toBe(1);
  const [row] = await t.db.select().from(videoRenditions).where(eq(videoRenditions.id, queued!.id));
  expect(row).toMatchObject({
    status: 'ready',
    progress: 100,
    error: null,
    heights: [240, 360],
    workingVersion: null,
  });
  const prefix = ladderPrefix(row!.id, row!.readyVersion!);
  const root = t.storage.root!;

  const master = await readFile(path.join(root, prefix, 'master.m3u8'), 'utf8');
  expect(master).toContain('240p/index.m3u8');
  expect(master).toContain('360p/index.m3u8');
  expect(master).not.toContain('720p');
  expect(master).toMatch(/RESOLUTION=\d+x240/);
  expect(master).toMatch(/RESOLUTION=\d+x360/);
  for (const height of [240, 360]) {
    const variant = await readFile(path.join(root, prefix, `${height}p`, 'index.m3u8'), 'utf8');
    expect(variant).toContain('#EXT-X-ENDLIST');
    expect(variant).toContain('seg_00000.ts');
    expect(await t.storage.stat(`${prefix}/${height}p/seg_00000.ts`)).not.toBeNull();
  }
  expect(await t.storage.stat(`${prefix}/720p/index.m3u8`)).toBeNull();
  const poster = await readFile(path.join(root, prefix, 'poster.jpg'));
  expect(poster.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  // the chapter at 3 s starts on a keyframe, so a jump to it decodes at once
  expect(await keyframeSeconds(path.join(root, prefix, '360p', 'index.m3u8'))).toContain(3);

  // the procedure page now names the playlist for a Premium member
  const premium = await signedInAs(t, { type: 'Premium' });
  const detail = (
    await t.app.inject({ url: `/api/catalog/procedures/${procedure.id}`, headers: { cookie: premium.cookie } })
  ).json();
  expect(detail.videoUrl).toBe(`/media/${procedure.fullVideo}`);
  expect(detail.hlsUrl).toBe(`/media/${prefix}/master.m3u8`);
}

describe.skipIf(needsFfmpeg)('the transcoding job', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('makes the master playlist, the renditions up to the source height and a poster, then marks the ladder ready', async () => {
    await makesTheLadder(t);
  });

  it('starts over after a crash: the half-written attempt is deleted and never served', async () => {
    const procedure = await procedureWithClip(t);
    const [row] = await t.db
      .insert(videoRenditions)
      .values({ sourceKey: procedure.fullVideo!, status: 'processing', progress: 40, workingVersion: 'crashed' })
      .returning();
    const half = `${ladderPrefix(row!.id, 'crashed')}/240p`;
    await t.storage.put(`${half}/index.m3u8`, Readable.from(['#EXTM3U\n']));
    await t.storage.put(`${half}/seg_00000.ts`, Readable.from(['x']));
    const admin = await signedInAs(t, { type: 'Admin' });
    expect(
      (await t.app.inject({ url: `/media/${half}/index.m3u8`, headers: { cookie: admin.cookie } })).statusCode,
    ).toBe(404);

    // the job was claimed by the instance that died; its claim has expired
    await t.db.insert(jobs).values({ kind: 'video.transcode', payload: { renditionId: row!.id }, attempts: 1 });
    await t.app.services.videoJobs.runDue();
    const [after] = await t.db.select().from(videoRenditions).where(eq(videoRenditions.id, row!.id));
    expect(after!.status).toBe('ready');
    expect(after!.readyVersion).not.toBe('crashed');
    expect(await t.storage.stat(`${half}/seg_00000.ts`)).toBeNull();
    expect(await t.storage.stat(`${half}/index.m3u8`)).toBeNull();
  });

  it('deletes the ladder with its video when the video is replaced or its record deleted', async () => {
    const procedure = await procedureWithClip(t);
    await t.db.transaction(async (tx) => t.app.services.renditions.queueFor([procedure.fullVideo!], tx as never));
    await t.app.services.videoJobs.runDue();
    const [row] = await t.db.select().from(videoRenditions).where(eq(videoRenditions.sourceKey, procedure.fullVideo!));
    const prefix = ladderPrefix(row!.id, row!.readyVersion!);
    expect(await t.storage.stat(`${prefix}/360p/seg_00001.ts`)).not.toBeNull();
    await t.app.services.uploads.removeFiles([procedure.fullVideo]);
    expect(await t.db.select().from(videoRenditions).where(eq(videoRenditions.id, row!.id))).toEqual([]);
    for (const file of ['master.m3u8', 'poster.jpg', '240p/index.m3u8', '360p/seg_00000.ts', '360p/seg_00001.ts']) {
      expect(await t.storage.stat(`${prefix}/${file}`)).toBeNull();
    }
  });
});

describe('a conversion running at shutdown', () => {
  it('goes back to the queue, its video pending again, logged at info level with no error line', async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const t = await createTestApp({ logLevel: 'info' }, undefined, { logStream: stream });
    try {
      const procedure = await procedureWithClip(t);
      await t.db.transaction(async (tx) => t.app.services.renditions.queueFor([procedure.fullVideo!], tx as never));
      const running = t.app.services.videoJobs.runDue();
      await expect
        .poll(
          async () =>
            (await t.db.select().from(videoRenditions).where(eq(videoRenditions.sourceKey, procedure.fullVideo!)))[0]!
              .workingVersion,
          { timeout: 30_000, interval: 20 },
        )
        .not.toBeNull();
      // what app.close() does on SIGTERM
      t.app.services.renditions.stop();
      await t.app.services.videoJobs.stop();
      await running;
      const [rendition] = await t.db
        .select()
        .from(videoRenditions)
        .where(eq(videoRenditions.sourceKey, procedure.fullVideo!));
      expect(rendition!.status).toBe('pending');
      const [job] = await t.db.select().from(jobs).where(eq(jobs.kind, 'video.transcode'));
      expect(job).toMatchObject({ doneAt: null, lockedUntil: null, lastError: null });
      expect(job!.runAt.getTime()).toBeLessThanOrEqual(Date.now());
      expect(lines.some((line) => line.includes('job put back in the queue') && line.includes('"level":30'))).toBe(
        true,
      );
      expect(lines.filter((line) => line.includes('"level":50'))).toEqual([]);
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe('without ffmpeg', () => {
  let t: TestApp;
  let emptyPath: string;
  beforeAll(async () => {
    emptyPath = await mkdtemp(path.join(tmpdir(), 'cxvet-no-ffmpeg-'));
    const systemPath = process.env.PATH;
    // the app looks for ffmpeg on PATH when it is built: a PATH without it is a machine without it
    process.env.PATH = emptyPath;
    try {
      t = await createTestApp();
    } finally {
      process.env.PATH = systemPath;
    }
  });
  afterAll(async () => {
    await t.close();
    await rm(emptyPath, { recursive: true, force: true });
  });

  it('marks the ladder failed with a Spanish reason, and the page keeps playing the original file', async () => {
    const procedure = await procedureWithClip(t);
    await t.db.transaction(async (tx) => t.app.services.renditions.queueFor([procedure.fullVideo!], tx as never));
    await t.app.services.videoJobs.runDue();
    const [row] = await t.db.select().from(videoRenditions).where(eq(videoRenditions.sourceKey, procedure.fullVideo!));
    expect(row).toMatchObject({ status: 'failed', error: renditionErrors.noFfmpeg, readyVersion: null });
    // not retried by itself: the same server fails the same way until an Admin asks again
    const pending = await t.db.select().from(jobs).where(eq(jobs.kind, 'video.transcode'));
    expect(pending.every((job) => job.doneAt !== null)).toBe(true);

    const premium = await signedInAs(t, { type: 'Premium' });
    const detail = (
      await t.app.inject({ url: `/api/catalog/procedures/${procedure.id}`, headers: { cookie: premium.cookie } })
    ).json();
    expect(detail.hlsUrl).toBeNull();
    expect(detail.videoUrl).toBe(`/media/${procedure.fullVideo}`);
    const token = (
      await t.app.inject({
        method: 'POST',
        url: '/api/viewing/token',
        headers: { cookie: premium.cookie, origin: 'http://localhost:3000' },
      })
    ).json().token;
    const video = await t.app.inject({ url: `${detail.videoUrl}?vt=${token}`, headers: { cookie: premium.cookie } });
    expect(video.statusCode).toBe(200);
    expect(video.headers['content-type']).toBe('video/mp4');
  });
});
