import type { Page } from '@playwright/test';
import { expect, saveScreenshot, test } from './fixtures.ts';

type Boxes = {
  header: { top: number; height: number; width: number };
  brand: { x: number; y: number; width: number; height: number };
};

/**
 * The header's place and size, and the brand link's box relative to the header. With simulated payments (as the
 * suite's server runs) the test-payments notice sits above the header, in the HTML as in the app.
 */
async function headerBoxes(page: Page): Promise<Boxes> {
  const header = await page.getByRole('banner').boundingBox();
  const brand = await page.getByRole('banner').getByRole('link', { name: 'CxVet, ir al inicio' }).boundingBox();
  if (!header || !brand) throw new Error('no header or brand link on the page');
  return {
    header: { top: header.y, height: header.height, width: header.width },
    brand: { x: brand.x - header.x, y: brand.y - header.y, width: brand.width, height: brand.height },
  };
}

function expectSameBoxes(shell: Boxes, app: Boxes) {
  for (const [part, box] of Object.entries(shell) as [keyof Boxes, Record<string, number>][]) {
    for (const [side, value] of Object.entries(box)) {
      expect(value, `${part} ${side}`).toBeCloseTo((app[part] as Record<string, number>)[side]!, 0);
    }
  }
}

for (const width of [360, 1280]) {
  test(`the page's HTML paints the header bar before the app's code, where the app's header will be, at ${width} px`, async ({
    browser,
    page,
  }) => {
    // the page as a phone shows it while the app's code is still on its way: only what the HTML and stylesheets hold
    const withoutCode = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 800 } });
    try {
      const early = await withoutCode.newPage();
      await early.goto('/procedimientos');
      await expect(early.getByRole('banner').getByRole('link', { name: 'CxVet, ir al inicio' })).toHaveAttribute(
        'href',
        '/',
      );
      await expect(early.getByRole('complementary', { name: 'Aviso de pagos' })).toHaveText(
        'Modo de pruebas: los pagos son simulados',
      );
      const shell = await headerBoxes(early);
      await saveScreenshot(early, `page-shell-${width}`);

      await page.setViewportSize({ width, height: 800 });
      await page.goto('/procedimientos');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expectSameBoxes(shell, await headerBoxes(page));
    } finally {
      await withoutCode.close();
    }
  });
}

test('the console has a layout of its own: its HTML paints no site header', async ({ browser }) => {
  const withoutCode = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await withoutCode.newPage();
    await page.goto('/admin');
    await expect(page.locator('#root')).toBeEmpty();
  } finally {
    await withoutCode.close();
  }
});
