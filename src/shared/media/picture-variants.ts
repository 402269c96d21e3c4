/**
 * Narrower copies of stored pictures (issue #13): `/media/<key>?w=<width>` answers the picture `width` pixels wide
 * as WebP, under the original's permission. The front end names the same widths in its srcset.
 *
 * 360 and 720 fit a card on a phone at 1× and 2× (a 360 px wide screen, a two-column tablet, the three-column
 * desktop grid), 480 a 1.5× screen, 960 a 3× phone; a source narrower than a width is never enlarged.
 */
export const pictureVariantWidths = [360, 480, 720, 960] as const;

export type PictureVariantWidth = (typeof pictureVariantWidths)[number];

/** The stored files that have narrower copies: the picture formats uploads accept, and WebP. */
export const isPictureKey = (key: string) => /\.(?:jpe?g|png|webp)$/i.test(key);

export const isPictureVariantWidth = (width: number): width is PictureVariantWidth =>
  (pictureVariantWidths as readonly number[]).includes(width);
