// Guest pages in Chromium at 360 px: bytes the browser receives, and layout shift.
import { chromium, type Page } from '@playwright/test';

export type PageFigures = {
  scriptKiB: number;
  scriptFiles: number;
  cssKiB: number;
  cssFiles: number;
  /** zod or admin code among the guest scripts */
  forbidden: string[];
  layout: { name: string; cls: number; lcpMs: number }[];
};

const observe = () => {
  const figures = { cls: 0, lcp: 0 };
  (window as unknown as { __figures: typeof figures }).__figures = figures;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
      if (!entry.hadRecentInput) figures.cls += entry.value;
    }
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) figures.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
};

async function settle(page: Page, url: string) {
  await page.goto(url, { waitUntil: 'networkidle' });
  // layout shifts are reported after the frame that caused them
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => (window as unknown as { __figures: { cls: number; lcp: number } }).__figures);
}

export async function measurePages(baseUrl: string): Promise<PageFigures | null> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' }).catch(() => null);
  if (!browser) return null;
  try {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await context.addInitScript(observe);
    const page = await context.newPage();
    const assets: { type: string; url: string; bytes: number; body: string }[] = [];
    page.on('response', async (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      const sizes = await response.request().sizes();
      assets.push({ type, url: new URL(response.url()).pathname, bytes: sizes.responseBodySize, body: type === 'script' ? await response.text() : '' });
    });
    const home = await settle(page, `${baseUrl}/`);
    const scripts = assets.filter((asset) => asset.type === 'script');
    const styles = assets.filter((asset) => asset.type === 'stylesheet');
    const forbidden = scripts
      .filter((script) => /admin|datatable|tiptap|chart/i.test(script.url) || script.body.includes('ZodError'))
      .map((script) => script.url);
    page.removeAllListeners('response');

    const catalog = await settle(page, `${baseUrl}/procedimientos`);
    const list = (await (await fetch(`${baseUrl}/api/catalog/procedures`)).json()) as { items: { id: string; previewUrl: string | null }[] };
    const withPicture = list.items.find((item) => item.previewUrl) ?? list.items[0]!;
    const procedure = await settle(page, `${baseUrl}/procedimiento/${withPicture.id}`);
    const sum = (list: { bytes: number }[]) => list.reduce((total, item) => total + item.bytes, 0) / 1024;
    return {
      scriptKiB: sum(scripts),
      scriptFiles: scripts.length,
      cssKiB: sum(styles),
      cssFiles: styles.length,
      forbidden,
      layout: [
        { name: '/', ...pick(home) },
        { name: '/procedimientos', ...pick(catalog) },
        { name: 'the procedure page', ...pick(procedure) },
      ],
    };
  } finally {
    await browser.close();
  }
}

const pick = (figures: { cls: number; lcp: number }) => ({ cls: figures.cls, lcpMs: figures.lcp });
