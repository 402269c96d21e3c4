import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { constants } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  diplomaVideoChapters,
  diplomaVideos,
  procedureChapters,
  procedures,
  videoRenditions,
} from '#server/db/schema/index.ts';
import type { FileStorage } from '#server/services/storage.ts';
import { JobRequeued } from '#server/services/jobs.ts';
import { mediaUrl } from '#server/services/media-url.ts';
import { AppError } from '#shared/errors.ts';
import { heightsFor, keyframeTimes, renditionErrors } from '#shared/renditions/renditions.rules.ts';
import type { VideoTools } from './video-tools.ts';
import { RenditionFailure, ladderArgs, listFiles, probe, run, segmentSeconds } from './ffmpeg-ladder.ts';

export const transcodeJobKind = 'video.transcode';

const progressEveryMs = 1000;

type Log = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};
type Schedule = (kind: string, options: { payload?: object; uniqueKey?: string; tx?: Db }) => Promise<void>;

/** The server is stopping: the job goes back to the queue for the next start (or another instance). */
class Interrupted extends JobRequeued {}

/** Only procedure and diploma videos get a ladder (landing slides stay as they are). */
function wantsLadder(key: string): boolean {
  return /^(procedures|diplomados)\//.test(key) && /\.(mp4|webm|ogg|ogv)$/i.test(key);
}

/** The storage folder of one attempt's files. */
export function ladderPrefix(id: string, version: string): string {
  return `hls/${id}/${version}`;
}

/**
 * HLS ladders (240p/360p/720p, never above the source) and a poster for uploaded procedure and diploma videos,
 * made by a job with ffmpeg. The original file stays what is served until a ladder is marked ready.
 */
export function createRenditionsService(deps: {
  db: Db;
  storage: FileStorage;
  schedule: Schedule;
  /** From findVideoTools: the settings, else the programs on PATH. */
  tools: VideoTools;
  log?: Log;
}) {
  const { db, storage, schedule } = deps;
  const ffmpegPath = deps.tools.ffmpeg ?? '';
  const ffprobePath = deps.tools.ffprobe ?? '';
  const log = deps.log ?? { info() {}, warn() {}, error() {} };
  const children = new Set<ChildProcess>();
  let stopping = false;

  /** Queues a ladder for each of these video keys; call it in the transaction that saves them into a record. */
  async function queueFor(keys: string[], tx: Db = db): Promise<void> {
    for (const key of keys.filter(wantsLadder)) {
      const [row] = await tx
        .insert(videoRenditions)
        .values({ sourceKey: key })
        .onConflictDoUpdate({
          target: videoRenditions.sourceKey,
          set: { status: 'pending', progress: 0, error: null, updatedAt: new Date() },
        })
        .returning({ id: videoRenditions.id });
      await schedule(transcodeJobKind, {
        payload: { renditionId: row!.id },
        uniqueKey: `${transcodeJobKind}:${row!.id}`,
        tx,
      });
    }
  }

  /** 'Reintentar' (or a first ladder for a video saved before ladders existed): the key must be a saved video. */
  async function prepare(key: string): Promise<void> {
    if (!wantsLadder(key)) throw new AppError('NOT_FOUND');
    const [procedure] = await db
      .select({ id: procedures.id })
      .from(procedures)
      .where(or(eq(procedures.fullVideo, key), eq(procedures.demoVideo, key)));
    const [diplomaVideo] = procedure
      ? []
      : await db.select({ id: diplomaVideos.id }).from(diplomaVideos).where(eq(diplomaVideos.video, key));
    if (!procedure && !diplomaVideo) throw new AppError('NOT_FOUND');
    const [current] = await db
      .select({ status: videoRenditions.status })
      .from(videoRenditions)
      .where(eq(videoRenditions.sourceKey, key));
    // one being made is left alone; a pending one is queued again (the job's unique key keeps it to one job)
    if (current?.status === 'processing') return;
    await db.transaction(async (tx) => queueFor([key], tx as unknown as Db));
  }

  /** Where each of these videos' ladders stands, for the console. */
  async function statusOf(keys: string[]) {
    if (keys.length === 0) return [];
    const rows = await db.select().from(videoRenditions).where(inArray(videoRenditions.sourceKey, keys));
    return rows.map((row) => ({
      key: row.sourceKey,
      status: row.status,
      progress: row.progress,
      error: row.error,
      heights: row.status === 'ready' ? row.heights : [],
    }));
  }

  /** The master playlist and poster of a ready ladder, or null (the original file is played then). */
  async function ready(key: string | null | undefined): Promise<{ hlsUrl: string; posterUrl: string } | null> {
    if (!key) return null;
    const [row] = await db
      .select({ id: videoRenditions.id, version: videoRenditions.readyVersion })
      .from(videoRenditions)
      .where(and(eq(videoRenditions.sourceKey, key), eq(videoRenditions.status, 'ready')));
    if (!row?.version) return null;
    const prefix = ladderPrefix(row.id, row.version);
    return { hlsUrl: mediaUrl(`${prefix}/master.m3u8`)!, posterUrl: mediaUrl(`${prefix}/poster.jpg`)! };
  }

  /** The source video of a ladder file, when that file belongs to the ladder being served (never a half-written attempt). */
  async function sourceOf(id: string, version: string): Promise<string | null> {
    const [row] = await db
      .select({ sourceKey: videoRenditions.sourceKey })
      .from(videoRenditions)
      .where(
        and(eq(videoRenditions.id, id), eq(videoRenditions.readyVersion, version), eq(videoRenditions.status, 'ready')),
      );
    return row?.sourceKey ?? null;
  }

  /** Deletes every file of one attempt; segment names are numbered, so they are found without listing the store. */
  async function deleteVersion(id: string, version: string, heights: readonly number[]): Promise<void> {
    const prefix = ladderPrefix(id, version);
    await Promise.all(['master.m3u8', 'poster.jpg'].map((name) => storage.delete(`${prefix}/${name}`)));
    for (const height of heights) {
      await storage.delete(`${prefix}/${height}p/index.m3u8`);
      for (let index = 0; ; index++) {
        const key = `${prefix}/${height}p/seg_${String(index).padStart(5, '0')}.ts`;
        if (!(await storage.stat(key))) break;
        await storage.delete(key);
      }
    }
  }

  /** Deletes the ladders of videos that were replaced or whose record was deleted. */
  async function removeFor(keys: string[]): Promise<void> {
    const videoKeys = keys.filter(wantsLadder);
    if (videoKeys.length === 0) return;
    const rows = await db.delete(videoRenditions).where(inArray(videoRenditions.sourceKey, videoKeys)).returning();
    for (const row of rows) {
      if (row.readyVersion) await deleteVersion(row.id, row.readyVersion, row.heights);
      if (row.workingVersion) await deleteVersion(row.id, row.workingVersion, [240, 360, 720]);
    }
  }

  async function chapterSeconds(key: string): Promise<number[]> {
    const [procedure] = await db.select({ id: procedures.id }).from(procedures).where(eq(procedures.fullVideo, key));
    if (procedure) {
      const rows = await db
        .select({ seconds: procedureChapters.timeSeconds })
        .from(procedureChapters)
        .where(eq(procedureChapters.procedureId, procedure.id))
        .orderBy(asc(procedureChapters.position));
      return rows.map((row) => row.seconds);
    }
    const rows = await db
      .select({ seconds: diplomaVideoChapters.timeSeconds })
      .from(diplomaVideoChapters)
      .innerJoin(diplomaVideos, eq(diplomaVideos.id, diplomaVideoChapters.videoId))
      .where(eq(diplomaVideos.video, key));
    return rows.map((row) => row.seconds);
  }

  async function ffmpegAvailable(): Promise<boolean> {
    try {
      if (!ffmpegPath || !ffprobePath) return false;
      await access(ffmpegPath, constants.X_OK);
      await access(ffprobePath, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }

  async function setProgress(id: string, version: string, progress: number) {
    await db
      .update(videoRenditions)
      .set({ progress, updatedAt: new Date() })
      .where(and(eq(videoRenditions.id, id), eq(videoRenditions.workingVersion, version)));
  }

  /** The job: one attempt at the whole ladder; files go up under a fresh folder and are served only once marked ready. */
  async function transcode(renditionId: string): Promise<void> {
    const [row] = await db.select().from(videoRenditions).where(eq(videoRenditions.id, renditionId));
    if (!row || row.status === 'ready') return;
    // a crashed attempt left files nobody serves: they go first
    if (row.workingVersion) await deleteVersion(row.id, row.workingVersion, [240, 360, 720]);
    const version = randomUUID();
    await db
      .update(videoRenditions)
      .set({ status: 'processing', progress: 0, error: null, workingVersion: version, updatedAt: new Date() })
      .where(eq(videoRenditions.id, row.id));
    const work = await mkdtemp(path.join(tmpdir(), 'cxvet-hls-'));
    try {
      if (!(await ffmpegAvailable())) throw new RenditionFailure(renditionErrors.noFfmpeg);
      if (!(await storage.stat(row.sourceKey))) throw new RenditionFailure(renditionErrors.missingSource);
      const input = path.join(work, `source${path.extname(row.sourceKey)}`);
      await pipeline(storage.read(row.sourceKey), createWriteStream(input));
      const source = await probe(ffprobePath, input);
      const heights = heightsFor(source.height);
      const out = path.join(work, 'out');
      for (const height of heights) await mkdir(path.join(out, `${height}p`), { recursive: true });

      let lastWrite = 0;
      const args = ladderArgs(
        input,
        out,
        heights,
        source.hasAudio,
        keyframeTimes(source.duration, await chapterSeconds(row.sourceKey), segmentSeconds),
      );
      const result = await run(ffmpegPath, args, children, (line) => {
        const match = /^out_time_us=(\d+)/.exec(line);
        if (!match || Date.now() - lastWrite < progressEveryMs) return;
        lastWrite = Date.now();
        // the last percent is the upload: 'Listo' only when everything is stored
        const percent = Math.min(95, Math.floor((Number(match[1]) / 1e6 / source.duration) * 95));
        void setProgress(row.id, version, percent).catch(() => {});
      });
      if (stopping) throw new Interrupted('server stopping');
      if (result.code !== 0) {
        log.warn({ renditionId: row.id, stderr: result.stderr.slice(-1000) }, 'ffmpeg failed');
        throw new RenditionFailure(renditionErrors.unreadable);
      }
      const poster = await run(
        ffmpegPath,
        [
          '-hide_banner',
          '-nostdin',
          '-y',
          '-ss',
          String(Math.min(5, source.duration / 10)),
          '-i',
          input,
          '-frames:v',
          '1',
          '-vf',
          `scale=-2:${Math.min(720, source.height)}`,
          '-q:v',
          '4',
          path.join(out, 'poster.jpg'),
        ],
        children,
      );
      if (stopping) throw new Interrupted('server stopping');
      if (poster.code !== 0) throw new RenditionFailure(renditionErrors.unreadable);

      const prefix = ladderPrefix(row.id, version);
      const files = await listFiles(out);
      const segmentCount = files.filter((file) => file.startsWith(`${heights[0]}p/seg_`)).length;
      for (const [index, file] of files.entries()) {
        await storage.put(`${prefix}/${file}`, createReadStream(path.join(out, file)));
        if (index % 20 === 0) await setProgress(row.id, version, 95 + Math.floor((index / files.length) * 4));
      }
      // one update makes the ladder live; a crash before it leaves the MP4 served and this folder to the next attempt
      const marked = await db
        .update(videoRenditions)
        .set({
          status: 'ready',
          progress: 100,
          error: null,
          readyVersion: version,
          workingVersion: null,
          heights,
          segmentCount,
          durationSeconds: source.duration,
          updatedAt: new Date(),
        })
        .where(and(eq(videoRenditions.id, row.id), eq(videoRenditions.workingVersion, version)))
        .returning({ id: videoRenditions.id });
      if (marked.length === 0) {
        // the video was replaced or deleted meanwhile: these files belong to nobody
        await deleteVersion(row.id, version, heights);
        return;
      }
      if (row.readyVersion) await deleteVersion(row.id, row.readyVersion, row.heights);
      log.info({ renditionId: row.id, heights, segmentCount }, 'video ladder ready');
    } catch (error) {
      if (error instanceof Interrupted || stopping) {
        // left pending for the next start; the job runner puts the job back in the queue
        await db
          .update(videoRenditions)
          .set({ status: 'pending', progress: 0, updatedAt: new Date() })
          .where(eq(videoRenditions.id, row.id));
        throw error instanceof Interrupted ? error : new Interrupted('server stopping');
      }
      const message = error instanceof RenditionFailure ? error.message : renditionErrors.unexpected;
      if (!(error instanceof RenditionFailure)) log.error({ err: error, renditionId: row.id }, 'video ladder failed');
      else log.warn({ renditionId: row.id, reason: message }, 'video ladder failed');
      // not retried by itself: the same file fails the same way; the Admin sees the error and 'Reintentar'
      await db
        .update(videoRenditions)
        .set({ status: 'failed', error: message, progress: 0, updatedAt: new Date() })
        .where(and(eq(videoRenditions.id, row.id), eq(videoRenditions.workingVersion, version)));
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** Ends running ffmpeg processes at shutdown; their jobs run again after the restart. */
  function stop(): void {
    stopping = true;
    for (const child of children) child.kill('SIGKILL');
  }

  return { queueFor, prepare, statusOf, ready, sourceOf, removeFor, transcode, stop, ffmpegAvailable };
}

export type RenditionsService = ReturnType<typeof createRenditionsService>;
