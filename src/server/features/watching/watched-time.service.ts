import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { videoRenditions, watchedTime } from '#server/db/schema/index.ts';
import {
  coveredSeconds,
  earnedSpan,
  isWatchedTime,
  unionOfSpans,
  watchedTimePercent,
  type Span,
} from '#shared/watching/watched-time.rules.ts';

/** One video of the platform: a catalogue procedure or a diploma's own video. */
export type WatchedVideo = { procedureId: string } | { diplomaVideoId: string };

export type WatchedTimeSave = {
  /** The storage key of the file played, whose known length wins over the one the player reports. */
  videoKey: string | null;
  positionSeconds: number;
  durationSeconds: number;
  viewingToken: string;
  startsSpan: boolean;
};

export type WatchedState = {
  watchedSeconds: number;
  durationSeconds: number;
  watchedPercent: number;
  isWatched: boolean;
};

// a forged client could send thousands of tiny spans; real viewing leaves a handful
const maxSpans = 2000;

/**
 * The watched rule, shared by procedures, diploma videos and whatever reads progress later (institutions,
 * LTI grades, continuing-education credit): a video is watched when the time really played covers 90 %.
 */
export function createWatchedTimeService(deps: { db: Db; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  function rowOf(userId: string, video: WatchedVideo): SQL {
    return 'procedureId' in video
      ? and(eq(watchedTime.userId, userId), eq(watchedTime.procedureId, video.procedureId))!
      : and(eq(watchedTime.userId, userId), eq(watchedTime.diplomaVideoId, video.diplomaVideoId))!;
  }

  /** The length the transcoder measured, when it has; the player's figure otherwise. */
  async function knownDuration(videoKey: string | null): Promise<number | null> {
    if (!videoKey) return null;
    const [rendition] = await db
      .select({ durationSeconds: videoRenditions.durationSeconds })
      .from(videoRenditions)
      .where(eq(videoRenditions.sourceKey, videoKey));
    return rendition?.durationSeconds ?? null;
  }

  /**
   * Adds what one position save earned to the member's watched time of the video (one locked row per
   * member and video: two saves at once are measured one after the other). Returns the state after it.
   */
  async function recordSave(userId: string, video: WatchedVideo, save: WatchedTimeSave): Promise<WatchedState> {
    const measured = await knownDuration(save.videoKey);
    const savedAt = now();
    return db.transaction(async (tx) => {
      await tx
        .insert(watchedTime)
        .values({ userId, ...video, durationSeconds: measured ?? save.durationSeconds })
        .onConflictDoNothing();
      const [row] = await tx.select().from(watchedTime).where(rowOf(userId, video)).for('update');
      // a player reporting a shorter video than before cannot shrink the 90 % it must cover
      const durationSeconds = measured ?? Math.max(row!.durationSeconds, save.durationSeconds);
      const positionSeconds = Math.min(save.positionSeconds, durationSeconds);
      const previous =
        row!.lastViewingToken !== null && row!.lastPositionSeconds !== null && row!.lastSavedAt !== null
          ? {
              viewingToken: row!.lastViewingToken,
              positionSeconds: row!.lastPositionSeconds,
              savedAt: row!.lastSavedAt,
            }
          : null;
      const span = earnedSpan(previous, {
        viewingToken: save.viewingToken,
        positionSeconds,
        savedAt,
        startsSpan: save.startsSpan,
      });
      const spans: Span[] = span && row!.spans.length < maxSpans ? unionOfSpans([...row!.spans, span]) : row!.spans;
      const watchedSeconds = coveredSeconds(spans, durationSeconds);
      const isWatched = row!.watchedAt !== null || isWatchedTime(watchedSeconds, durationSeconds);
      await tx
        .update(watchedTime)
        .set({
          durationSeconds,
          spans,
          watchedSeconds,
          lastViewingToken: save.viewingToken,
          lastPositionSeconds: positionSeconds,
          lastSavedAt: savedAt,
          watchedAt: row!.watchedAt ?? (isWatched ? savedAt : null),
        })
        .where(eq(watchedTime.id, row!.id));
      return {
        watchedSeconds,
        durationSeconds,
        watchedPercent: watchedTimePercent(watchedSeconds, durationSeconds),
        isWatched,
      };
    });
  }

  function stateOf(row: typeof watchedTime.$inferSelect | undefined): WatchedState {
    if (!row) return { watchedSeconds: 0, durationSeconds: 0, watchedPercent: 0, isWatched: false };
    return {
      watchedSeconds: row.watchedSeconds,
      durationSeconds: row.durationSeconds,
      watchedPercent: watchedTimePercent(row.watchedSeconds, row.durationSeconds),
      isWatched: row.watchedAt !== null,
    };
  }

  /** Watched time of one member in these diploma videos, by video id (absent: nothing watched). */
  async function ofDiplomaVideos(userId: string, videoIds: string[], reader: Pick<Db, 'select'> = db) {
    const rows = videoIds.length
      ? await reader
          .select()
          .from(watchedTime)
          .where(and(eq(watchedTime.userId, userId), inArray(watchedTime.diplomaVideoId, videoIds)))
      : [];
    return new Map(rows.map((row) => [row.diplomaVideoId!, stateOf(row)]));
  }

  /** Watched time of one member in these procedures, by procedure id (absent: nothing watched). */
  async function ofProcedures(userId: string, procedureIds: string[], reader: Pick<Db, 'select'> = db) {
    const rows = procedureIds.length
      ? await reader
          .select()
          .from(watchedTime)
          .where(and(eq(watchedTime.userId, userId), inArray(watchedTime.procedureId, procedureIds)))
      : [];
    return new Map(rows.map((row) => [row.procedureId!, stateOf(row)]));
  }

  return { recordSave, ofDiplomaVideos, ofProcedures };
}

export type WatchedTimeService = ReturnType<typeof createWatchedTimeService>;
