import { describe, expect, it } from 'vitest';
import {
  buildSequence,
  diplomaProgressPercent,
  examScorePercent,
  examStatus,
  formatFolio,
  formatProgress,
  isPassingScore,
  progressPercent,
  type SequenceExam,
  type SequenceVideo,
} from './diplomas.rules.ts';

describe('examScorePercent', () => {
  it.each([
    [0, 5, 0],
    [4, 5, 80],
    [2, 3, 66.67],
    [1, 3, 33.33],
    [7999, 10000, 79.99],
    [8000, 10000, 80],
    [5, 5, 100],
    [0, 0, 0],
  ])('%i correct of %i is %d', (correct, questions, expected) => {
    expect(examScorePercent(correct, questions)).toBe(expected);
  });
});

describe('isPassingScore', () => {
  it.each([
    [79.99, 80, false],
    [80.0, 80, true],
    [80.01, 80, true],
    [100, 80, true],
    [0, 80, false],
    [59.99, 60, false],
    [60, 60, true],
  ])('%d at a threshold of %d passes: %s', (score, threshold, expected) => {
    expect(isPassingScore(score, threshold)).toBe(expected);
  });

  it('uses 80 by default', () => {
    expect(isPassingScore(79.99)).toBe(false);
    expect(isPassingScore(80)).toBe(true);
  });
});

describe('progress', () => {
  it.each([
    [0, 3, 0],
    [1, 3, 33.33],
    [2, 3, 66.67],
    [3, 3, 100],
    [4, 3, 100],
    [0, 0, 0],
  ])('%i of %i is %d%%', (done, total, expected) => {
    expect(progressPercent(done, total)).toBe(expected);
  });

  it.each([
    [0, '0.00%'],
    [33.33, '33.33%'],
    [99.99, '99.99%'],
    [100, 'Completado'],
  ])('%d%% reads %s', (percent, text) => {
    expect(formatProgress(percent)).toBe(text);
  });
});

describe('formatFolio', () => {
  it.each([
    [1, '001'],
    [7, '007'],
    [42, '042'],
    [999, '999'],
    [1000, '1000'],
  ])('%i → %s', (folio, text) => {
    expect(formatFolio(folio)).toBe(text);
  });
});

describe('examStatus', () => {
  it.each([
    [{ answered: 0, completed: false, passed: false }, 'notStarted'],
    [{ answered: 2, completed: false, passed: false }, 'inProgress'],
    [{ answered: 5, completed: true, passed: false }, 'failed'],
    [{ answered: 5, completed: true, passed: true }, 'passed'],
  ] as const)('%o is %s', (input, expected) => {
    expect(examStatus(input)).toBe(expected);
  });
});

const video = (id: string, position: number, over: Partial<SequenceVideo> = {}): SequenceVideo => ({
  id,
  position,
  isActive: true,
  completed: false,
  ...over,
});
const exam = (id: string, afterVideoPosition: number | null, over: Partial<SequenceExam> = {}): SequenceExam => ({
  id,
  afterVideoPosition,
  isActive: true,
  completed: false,
  passed: false,
  ...over,
});

describe('buildSequence', () => {
  it('puts each exam after the video whose position it names and leaves unassigned exams out', () => {
    const items = buildSequence(
      { isExternal: false },
      [video('v2', 2), video('v1', 1)],
      [exam('e2', 2), exam('e0', null), exam('e1', 1)],
    );
    expect(items.map((item) => item.id)).toEqual(['v1', 'e1', 'v2', 'e2']);
  });

  it('CxVet: an item is open when it is active, whatever was completed before it', () => {
    const items = buildSequence(
      { isExternal: false },
      [video('v1', 1), video('v2', 2, { isActive: false })],
      [exam('e1', 1), exam('e2', 2)],
    );
    expect(items.map((item) => [item.id, item.enabled])).toEqual([
      ['v1', true],
      ['e1', true],
      ['v2', false],
      ['e2', true],
    ]);
  });

  it('External: inactive items are hidden; an item opens only once the one before it is completed', () => {
    const items = buildSequence(
      { isExternal: true },
      [video('v1', 1, { completed: true }), video('v2', 2, { isActive: false })],
      [exam('e1', 1), exam('e2', 2)],
    );
    expect(items.map((item) => [item.id, item.enabled])).toEqual([
      ['v1', true],
      ['e1', true],
      ['e2', false],
    ]);
  });

  it('External: completing every item opens the next one', () => {
    const items = buildSequence(
      { isExternal: true },
      [video('v1', 1, { completed: true }), video('v2', 2, { completed: true })],
      [exam('e1', 1, { completed: true })],
    );
    expect(items.map((item) => [item.id, item.enabled])).toEqual([
      ['v1', true],
      ['e1', true],
      ['v2', true],
    ]);
  });
});

describe('diplomaProgressPercent', () => {
  it('CxVet counts passed active exams only', () => {
    const items = buildSequence(
      { isExternal: false },
      [video('v1', 1, { completed: true }), video('v2', 2), video('v3', 3)],
      [
        exam('e1', 1, { completed: true, passed: true }),
        exam('e2', 2, { completed: true, passed: false }),
        exam('e3', 3, { isActive: false }),
      ],
    );
    expect(diplomaProgressPercent({ isExternal: false }, items)).toBe(50);
  });

  it('External counts completed shown items, two decimals', () => {
    const items = buildSequence(
      { isExternal: true },
      [video('v1', 1, { completed: true }), video('v2', 2), video('v3', 3)],
      [],
    );
    expect(diplomaProgressPercent({ isExternal: true }, items)).toBe(33.33);
  });

  it('a diploma with nothing to pass is at 0', () => {
    expect(
      diplomaProgressPercent({ isExternal: false }, buildSequence({ isExternal: false }, [video('v1', 1)], [])),
    ).toBe(0);
  });
});
