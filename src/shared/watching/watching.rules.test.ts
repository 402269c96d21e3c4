import { describe, expect, it } from 'vitest';
import { formatClock, isNearEnd, resumeLabel, resumePoint, watchedPercent } from './watching.rules.ts';

describe('watching rules', () => {
  it.each([
    [0, '0:00'],
    [30, '0:30'],
    [30.9, '0:30'],
    [754, '12:34'],
    [3723, '1:02:03'],
  ])('formats %s seconds as %s', (seconds, text) => expect(formatClock(seconds)).toBe(text));

  it.each([
    [40, 45, false],
    [40.5, 45, true],
    [45, 45, true],
    [10, 0, false],
  ])('at %s of %s seconds the video is near its end: %s', (position, duration, watched) =>
    expect(isNearEnd(position, duration)).toBe(watched),
  );

  it('offers to resume only between the first seconds and the watched mark', () => {
    expect(resumePoint(null)).toBeNull();
    expect(resumePoint({ positionSeconds: 3, durationSeconds: 45 })).toBeNull();
    expect(resumePoint({ positionSeconds: 30, durationSeconds: 45 })).toBe(30);
    expect(resumePoint({ positionSeconds: 44, durationSeconds: 45 })).toBeNull();
    expect(resumeLabel(754)).toBe('Continuar desde 12:34');
  });

  it('keeps the progress bar between 0 and 100', () => {
    expect(watchedPercent(30, 45)).toBe(67);
    expect(watchedPercent(50, 45)).toBe(100);
    expect(watchedPercent(5, 0)).toBe(0);
  });
});
