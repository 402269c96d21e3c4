import { describe, expect, it } from 'vitest';
import { pageCount, paginationWindow } from './pagination.ts';

describe('paginationWindow', () => {
  it.each([
    ['no pages', 1, 0, []],
    ['a single page', 1, 1, [1]],
    ['few pages without ellipses', 2, 4, [1, 2, 3, 4]],
    ['the first page of many', 1, 20, [1, 2, 3, 'ellipsis-end', 20]],
    ['a middle page', 10, 20, [1, 'ellipsis-start', 8, 9, 10, 11, 12, 'ellipsis-end', 20]],
    ['the last page of many', 20, 20, [1, 'ellipsis-start', 18, 19, 20]],
    ['a gap of one page shows the page, not an ellipsis', 5, 20, [1, 2, 3, 4, 5, 6, 7, 'ellipsis-end', 20]],
    ['a gap of one page at the end', 16, 20, [1, 'ellipsis-start', 14, 15, 16, 17, 18, 19, 20]],
    ['a page beyond the end is clamped', 50, 3, [1, 2, 3]],
  ] as const)('%s', (_case, current, total, expected) => {
    expect(paginationWindow(current, total)).toEqual(expected);
  });

  it('counts pages of nine, with at least one page', () => {
    expect(pageCount(0, 9)).toBe(1);
    expect(pageCount(9, 9)).toBe(1);
    expect(pageCount(15, 9)).toBe(2);
  });
});
