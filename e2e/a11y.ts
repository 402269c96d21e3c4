import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, saveScreenshot, test } from './fixtures.ts';

/**
 * An axe run over a whole page takes several seconds on a busy two-core machine: each run adds its share to the
 * test's time limit, so the limit keeps covering the test's own steps however many screens it checks.
 */
const axeRunAllowanceMs = 10_000;

/** The WCAG levels every route is held to. */
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * No serious or critical axe violation on the page: against the WCAG levels by default, or against every rule axe has
 * (best practices included) with `allRules`.
 */
export async function expectNoSeriousAxeViolations(page: Page, options: { allRules?: boolean } = {}) {
  test.info().setTimeout(test.info().timeout + axeRunAllowanceMs);
  const builder = new AxeBuilder({ page });
  const results = await (options.allRules ? builder : builder.withTags(wcagTags)).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Screenshots at 360 px and 1280 px, axe, and no horizontal scrolling, for one page. */
export async function checkScreen(page: Page, name: string, path: string, ready: (page: Page) => Promise<void>) {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    await page.goto(path);
    await ready(page);
    await loadLazyImages(page);
    await saveScreenshot(page, `${name}-${width}`);
    await expectNoSeriousAxeViolations(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
  }
}

/** The same checks for a screen already open (a modal, a step reached by clicking): `ready` waits for it at each width. */
export async function checkOpenScreen(page: Page, name: string, ready: () => Promise<void>) {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    await ready();
    await saveScreenshot(page, `${name}-${width}`);
    await expectNoSeriousAxeViolations(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** How long a screenshot waits for the page's pictures before it is taken without those still loading. */
const imagesWaitMs = 20_000;

/**
 * Loads every lazy image before a full-page screenshot. Scrolling past them was not enough on a busy machine: an image
 * passed between two frames never crossed the viewport as the browser saw it, never loaded, and the wait never ended.
 * The wait is bounded: once in a CI run (29 Nov 2026) a catalogue card's picture never finished and the test ran out
 * of time here; the screenshot is then taken without it, and the addresses still loading are named in the report
 * and the output, to find why. The checks that follow do not depend on pictures.
 */
export async function loadLazyImages(page: Page) {
  await page.evaluate(() => {
    for (const image of Array.from(document.images)) if (image.loading === 'lazy') image.loading = 'eager';
  });
  const loaded = await page
    .waitForFunction(() => Array.from(document.images).every((image) => image.complete), undefined, {
      timeout: imagesWaitMs,
    })
    .then(
      () => true,
      () => false,
    );
  if (loaded) return;
  const loading = await page.evaluate(() =>
    Array.from(document.images)
      .filter((image) => !image.complete)
      .map((image) => image.currentSrc || image.src),
  );
  const description = `${page.url()}: ${loading.join(', ')}`;
  test.info().annotations.push({ type: 'pictures still loading at the screenshot', description });
  console.warn(`pictures still loading after ${imagesWaitMs / 1000} s at the screenshot of ${description}`);
}

/**
 * Nothing that carries meaning is cut off: no text ends in an ellipsis, and no text of the page (or of an open
 * dialog) reaches past the right edge of the screen.
 */
export async function expectNothingTruncated(page: Page) {
  // a resize re-renders layouts that switch at a breakpoint (a table becomes cards): look again until it settles
  await expect(async () => expect(await findTruncated(page), 'text cut off or off-screen').toEqual([])).toPass({
    timeout: 5_000,
  });
}

function findTruncated(page: Page) {
  return page.evaluate(() => {
    const found: string[] = [];
    const width = window.innerWidth;
    const root = document.querySelector('[role="dialog"][aria-modal="true"], dialog[open]') ?? document.body;
    for (const element of Array.from(root.querySelectorAll<HTMLElement>('*'))) {
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none' || element.closest('[aria-hidden="true"]'))
        continue;
      // text hidden for the eye and kept for screen readers (a stacked table's header row on a phone) is not cut off
      let clipped = false;
      for (let parent = element.parentElement; parent && !clipped; parent = parent.parentElement) {
        const parentStyle = getComputedStyle(parent);
        const parentBox = parent.getBoundingClientRect();
        clipped = parentStyle.clipPath === 'inset(50%)' || (parentStyle.overflow === 'hidden' && parentBox.width <= 1);
      }
      if (clipped) continue;
      const text = Array.from(element.childNodes)
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent?.trim())
        .join(' ')
        .trim();
      if (!text) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const ellipsis = style.textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth + 1;
      if (ellipsis || box.right > width + 1) found.push(`${text.slice(0, 60)} (${Math.round(box.right)} px)`);
    }
    return found;
  });
}
