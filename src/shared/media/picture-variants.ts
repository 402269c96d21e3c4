/**
 * Narrower copies of stored pictures: `/media/<key>?w=<width>` answers the picture `width` pixels wide
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

/**
 * The srcset of a stored picture's copies, for an address the server gives (`/media/<key>`); undefined for any other
 * address (an outside link, an address that already has a query), which has no copies.
 */
export function pictureSrcSet(url: string | null | undefined): string | undefined {
  if (!url?.startsWith('/media/') || url.includes('?') || !isPictureKey(url)) return undefined;
  return pictureVariantWidths.map((width) => `${url}?w=${width} ${width}w`).join(', ');
}

/** A grid of cards as Mantine lays it out: the widths behind each picture's `sizes`. */
type CardGrid = {
  /** The Container's size in px (its max-width, with its padding). */
  containerPx: number;
  /** Columns from each breakpoint up, in em (0: the smallest screens). */
  columns: Record<number, number>;
  /** SimpleGrid's spacing in px. */
  gapPx: number;
  /** A column beside the grid from a breakpoint up: its width plus the gap after it, in px. */
  aside?: { fromEm: number; px: number };
};

// Mantine's defaults: the Container's padding-inline (spacing md) on both sides; 1em = 16px in media queries
const containerPaddingPx = 2 * 16;
/** Mantine's default breakpoints, in em. */
export const breakpointsEm = { xs: 36, sm: 48, md: 62, lg: 75, xl: 88 } as const;

/**
 * The `sizes` of a card's picture that fills its grid cell: for each breakpoint, the cell's width. Wider than the
 * Container's size, a fixed width; below it, a share of the viewport less the padding, gaps and aside.
 */
export function cardSizes(grid: CardGrid): string {
  const capEm = grid.containerPx / 16;
  const edges = [
    ...new Set([0, capEm, ...Object.keys(grid.columns).map(Number), ...(grid.aside ? [grid.aside.fromEm] : [])]),
  ].sort((a, b) => b - a);
  const entries: string[] = [];
  let previous = '';
  for (const edge of edges) {
    const columns =
      grid.columns[
        Math.max(
          ...Object.keys(grid.columns)
            .map(Number)
            .filter((from) => from <= edge),
        )
      ] ?? 1;
    const besides = (grid.aside && edge >= grid.aside.fromEm ? grid.aside.px : 0) + (columns - 1) * grid.gapPx;
    const width =
      edge >= capEm
        ? `${Math.ceil((grid.containerPx - containerPaddingPx - besides) / columns)}px`
        : columns === 1
          ? `calc(100vw - ${containerPaddingPx + besides}px)`
          : `calc((100vw - ${containerPaddingPx + besides}px) / ${columns})`;
    // a wider breakpoint whose width is the same as the next narrower one's is left out
    if (entries.length > 0 && width === previous) entries.pop();
    entries.push(edge === 0 ? width : `(min-width: ${edge}em) ${width}`);
    previous = width;
  }
  return entries.join(', ');
}

/**
 * The catalogue's cards (src/web/routes/catalog/catalog.tsx): Container xl, the filters' column (240 px and the xl
 * gap) from md, one, two and three columns with the lg gap. Its first picture's preload names the same sizes.
 */
export const catalogCardSizes = cardSizes({
  containerPx: 1320,
  columns: { 0: 1, [breakpointsEm.sm]: 2, [breakpointsEm.lg]: 3 },
  gapPx: 20,
  aside: { fromEm: breakpointsEm.md, px: 240 + 32 },
});

/** Container lg, one, two and three columns with the lg gap: My Aulas (classroom-card.tsx) and an aula's procedures (my-classroom.tsx). */
export const lgGridCardSizes = cardSizes({
  containerPx: 1140,
  columns: { 0: 1, [breakpointsEm.sm]: 2, [breakpointsEm.lg]: 3 },
  gapPx: 20,
});
