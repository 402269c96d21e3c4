import { describe, expect, it } from 'vitest';
import { cardSizes, isPictureKey, pictureSrcSet } from './picture-variants.ts';

describe('picture copies in the front end', () => {
  it('lists the copies of a stored picture, and none for other addresses', () => {
    expect(pictureSrcSet('/media/procedures/a/1_preview.png')).toBe(
      '/media/procedures/a/1_preview.png?w=360 360w, /media/procedures/a/1_preview.png?w=480 480w, ' +
        '/media/procedures/a/1_preview.png?w=720 720w, /media/procedures/a/1_preview.png?w=960 960w',
    );
    for (const url of [
      null,
      undefined,
      '',
      '/media/procedures/a/demo.mp4',
      'https://example.com/a.jpg',
      '/media/a/b.jpg?w=360',
      '/assets/logo.jpg',
    ]) {
      expect(pictureSrcSet(url)).toBeUndefined();
    }
    expect(['a.jpg', 'a.JPEG', 'a.png', 'a.webp'].every(isPictureKey)).toBe(true);
    expect(['a.gif', 'a.svg', 'a.jpg.mp4', 'jpg'].some(isPictureKey)).toBe(false);
  });

  it("gives each breakpoint its cell's width: a share of the viewport, then fixed once the Container is full", () => {
    // Container lg (1140 px), one column, three from 48em, 20 px gaps
    expect(cardSizes({ containerPx: 1140, columns: { 0: 1, 48: 3 }, gapPx: 20 })).toBe(
      '(min-width: 71.25em) 356px, (min-width: 48em) calc((100vw - 72px) / 3), calc(100vw - 32px)',
    );
    // a column beside the grid from 62em; a breakpoint above the Container's size
    expect(
      cardSizes({ containerPx: 1140, columns: { 0: 1, 48: 2, 75: 3 }, gapPx: 20, aside: { fromEm: 62, px: 272 } }),
    ).toBe(
      '(min-width: 75em) 266px, (min-width: 71.25em) 408px, (min-width: 62em) calc((100vw - 324px) / 2), ' +
        '(min-width: 48em) calc((100vw - 52px) / 2), calc(100vw - 32px)',
    );
    // the same width at two breakpoints is named once, at the narrower
    expect(cardSizes({ containerPx: 600, columns: { 0: 1, 30: 1 }, gapPx: 20 })).toBe(
      '(min-width: 37.5em) 568px, calc(100vw - 32px)',
    );
  });
});
