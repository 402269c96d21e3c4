/**
 * Watched time: what a member really played of a video, as the union of the spans their position saves earn.
 * A save earns only the stretch since the previous save from the same device (viewing token), and never
 * more than the wall-clock time between the two, so seeking or a forged save earns nothing.
 */

/** A video is watched once the spans cover this share of its duration. */
export const watchedShare = 0.9;

/** A played stretch of a video, in seconds from its start; always start < end. */
export type Span = [start: number, end: number];

export type PreviousSave = { viewingToken: string; positionSeconds: number; savedAt: Date };
export type PositionSave = {
  viewingToken: string;
  positionSeconds: number;
  savedAt: Date;
  /** The player starts a new stretch here (play after a pause, a seek): nothing before it was played. */
  startsSpan: boolean;
};

/**
 * The stretch one save earns: from the previous save of the same device up to this position, at most the
 * wall-clock seconds since that save, counted back from this position. Null when it earns nothing.
 */
export function earnedSpan(previous: PreviousSave | null, save: PositionSave): Span | null {
  if (!previous || save.startsSpan || previous.viewingToken !== save.viewingToken) return null;
  const elapsedSeconds = (save.savedAt.getTime() - previous.savedAt.getTime()) / 1000;
  if (!(elapsedSeconds > 0) || save.positionSeconds <= previous.positionSeconds) return null;
  const start = Math.max(previous.positionSeconds, save.positionSeconds - elapsedSeconds);
  return [start, save.positionSeconds];
}

/** Sorted, non-overlapping spans covering the same seconds as `spans` (rewatching a minute counts it once). */
export function unionOfSpans(spans: Span[]): Span[] {
  const sorted = spans.filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
  const merged: Span[] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Seconds covered by spans of a video lasting `durationSeconds` (spans past its end do not count). */
export function coveredSeconds(spans: Span[], durationSeconds: number): number {
  return unionOfSpans(spans).reduce(
    (total, [start, end]) => total + Math.max(0, Math.min(end, durationSeconds) - Math.max(start, 0)),
    0,
  );
}

export function isWatchedTime(watchedSeconds: number, durationSeconds: number): boolean {
  return durationSeconds > 0 && watchedSeconds >= watchedShare * durationSeconds;
}

/** The share of the video watched, 0 to 100 in whole percents (rounded down: 89.9 % is not shown as 90 %). */
export function watchedTimePercent(watchedSeconds: number, durationSeconds: number): number {
  if (!(durationSeconds > 0)) return 0;
  return Math.min(100, Math.max(0, Math.floor((watchedSeconds / durationSeconds) * 100)));
}
