import { describe, expect, it } from 'vitest';
import { coveredSeconds, earnedSpan, isWatchedTime, unionOfSpans, watchedTimePercent } from './watched-time.rules.ts';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds));
const previous = { viewingToken: 'a', positionSeconds: 100, savedAt: at(0) };

describe('watched time', () => {
  it('earns the stretch since the previous save of the same device, at most the wall-clock time since it', () => {
    expect(
      earnedSpan(previous, { viewingToken: 'a', positionSeconds: 110, savedAt: at(10), startsSpan: false }),
    ).toEqual([100, 110]);
    // seeking ahead: only as many seconds as really passed, counted back from where the player is
    expect(
      earnedSpan(previous, { viewingToken: 'a', positionSeconds: 900, savedAt: at(10), startsSpan: false }),
    ).toEqual([890, 900]);
  });

  it('earns nothing on a first save, another device, going back, no time passing, or the start of a stretch', () => {
    const save = { viewingToken: 'a', positionSeconds: 110, savedAt: at(10), startsSpan: false };
    expect(earnedSpan(null, save)).toBeNull();
    expect(earnedSpan(previous, { ...save, viewingToken: 'b' })).toBeNull();
    expect(earnedSpan(previous, { ...save, positionSeconds: 50 })).toBeNull();
    expect(earnedSpan(previous, { ...save, savedAt: at(0) })).toBeNull();
    expect(earnedSpan(previous, { ...save, startsSpan: true })).toBeNull();
  });

  it('counts a minute watched twice once', () => {
    expect(
      unionOfSpans([
        [60, 120],
        [0, 30],
        [90, 150],
        [30, 40],
      ]),
    ).toEqual([
      [0, 40],
      [60, 150],
    ]);
    expect(
      coveredSeconds(
        [
          [0, 60],
          [0, 60],
          [30, 90],
        ],
        600,
      ),
    ).toBe(90);
    expect(coveredSeconds([[590, 640]], 600)).toBe(10);
  });

  it('is watched at 90 % of the duration, and shows the share rounded down', () => {
    expect(isWatchedTime(539.9, 600)).toBe(false);
    expect(isWatchedTime(540, 600)).toBe(true);
    expect(isWatchedTime(10, 0)).toBe(false);
    expect(watchedTimePercent(539.9, 600)).toBe(89);
    expect(watchedTimePercent(700, 600)).toBe(100);
  });
});
