// Guest pages in Chromium at 360 px: bytes the browser receives, and layout shift; then Lighthouse's mobile
// performance category on the same three pages.
import { chromium, type Page } from '@playwright/test';
import { launch } from 'chrome-launcher';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export type LighthouseFigures = {
  name: string;
  /** 0–100, or null when Lighthouse could not score the page (the error says why) */
  score: number | null;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's measure of this machine's CPU at the time (higher is faster; a quiet desktop is ~1500–2500) */
  benchmarkIndex: number;
  error?: string;
};

export type PageFigures = {
  scriptKiB: number;
  scriptFiles: number;
  cssKiB: number;
  cssFiles: number;
  /** zod or admin code among the guest scripts */
  forbidden: string[];
  layout: { name: string; cls: number; lcpMs: number }[];
  /** Lighthouse per page (median score of the runs), empty when Lighthouse did not run */
  lighthouse: LighthouseFigures[];
  /** First and largest paint under Chromium's own throttling (median of the runs), per page */
  throttled: { name: string; fcpMs: number; lcpMs: number }[];
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

async function measureBytesAndLayout(baseUrl: string): Promise<(PageFigures & { procedurePath: string }) | null> {
  const browser = await chromium.launch({ executablePath: chromiumPath }).catch(() => null);
  if (!browser) return null;
  try {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await context.addInitScript(observe);
    const page = await context.newPage();
    const assets: { type: string; url: string; bytes: number; body: string }[] = [];
    page.on('response', async (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      const sizes = await response.request().sizes();
      assets.push({
        type,
        url: new URL(response.url()).pathname,
        bytes: sizes.responseBodySize,
        body: type === 'script' ? await response.text() : '',
      });
    });
    const home = await settle(page, `${baseUrl}/`);
    const scripts = assets.filter((asset) => asset.type === 'script');
    const styles = assets.filter((asset) => asset.type === 'stylesheet');
    const forbidden = scripts
      .filter((script) => /admin|datatable|tiptap|chart/i.test(script.url) || script.body.includes('ZodError'))
      .map((script) => script.url);
    page.removeAllListeners('response');

    const catalog = await settle(page, `${baseUrl}/procedimientos`);
    const list = (await (await fetch(`${baseUrl}/api/catalog/procedures`)).json()) as {
      items: { id: string; previewUrl: string | null }[];
    };
    const withPicture = list.items.find((item) => item.previewUrl) ?? list.items[0]!;
    const procedurePath = `/procedimiento/${withPicture.id}`;
    const procedure = await settle(page, `${baseUrl}${procedurePath}`);
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
      lighthouse: [],
      throttled: [],
      procedurePath,
    };
  } finally {
    await browser.close();
  }
}

const pick = (figures: { cls: number; lcp: number }) => ({ cls: figures.cls, lcpMs: figures.lcp });

/**
 * Lighthouse's mobile performance category as Lighthouse defaults it (a mid-range phone, simulated slow 4G and
 * 4× CPU slowdown), each page loaded fresh: no cache, no stored cookie acceptance, so a first visit's notice
 * is part of it. `BENCH_LIGHTHOUSE_RUNS` (default 3) runs per page; the run with the median score is reported.
 */
/** What the bench reads of Lighthouse's report. */
type LighthouseRun = (
  url: string,
  flags: {
    port: number;
    onlyCategories: string[];
    output: 'json';
    logLevel: 'error';
    extraHeaders?: Record<string, string>;
  },
  config?: object,
) => Promise<
  | {
      lhr: {
        audits: Record<string, { numericValue?: number } | undefined>;
        categories: { performance?: { score: number | null } };
        environment: { benchmarkIndex: number };
        runtimeError?: { message: string };
      };
    }
  | undefined
>;

/**
 * Lighthouse lives in bench/tools/package.json, installed by `npm run bench`: it requires Node 22, and in the root
 * package it made every `npm install` on Node 20 warn (decision 008).
 */
async function loadLighthouse(): Promise<LighthouseRun> {
  const tools = createRequire(join(import.meta.dirname, 'tools', 'package.json'));
  const entry = pathToFileURL(tools.resolve('lighthouse')).href;
  return ((await import(entry)) as { default: LighthouseRun }).default;
}

/** Lighthouse's own desktop settings (no CPU slowdown worth naming, a desktop's screen and link). */
async function desktopConfig(): Promise<object> {
  const tools = createRequire(join(import.meta.dirname, 'tools', 'package.json'));
  const entry = pathToFileURL(tools.resolve('lighthouse/core/config/desktop-config.js')).href;
  return ((await import(entry)) as { default: object }).default;
}

/**
 * Each page's median Lighthouse run; `cookie` is sent with every request to the site (a signed-in member's pages),
 * `desktop` uses Lighthouse's desktop settings instead of its mobile defaults.
 */
export async function measureLighthouse(
  baseUrl: string,
  pages: { name: string; path: string }[],
  options: { cookie?: string; desktop?: boolean } = {},
): Promise<LighthouseFigures[]> {
  const runs = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));
  const lighthouse = await loadLighthouse();
  const config = options.desktop ? await desktopConfig() : undefined;
  const chrome = await launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const results: LighthouseFigures[] = [];
    for (const { name, path } of pages) {
      const tries: LighthouseFigures[] = [];
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(
          `${baseUrl}${path}`,
          {
            port: chrome.port,
            onlyCategories: ['performance'],
            output: 'json',
            logLevel: 'error',
            ...(options.cookie ? { extraHeaders: { Cookie: options.cookie } } : {}),
          },
          config,
        );
        const lhr = result?.lhr;
        // BENCH_LIGHTHOUSE_SAVE=dir keeps every report, to read its LCP element, breakdown and main-thread work
        const saveDir = process.env.BENCH_LIGHTHOUSE_SAVE;
        if (saveDir && lhr) {
          mkdirSync(saveDir, { recursive: true });
          const file = `${name.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home'}-${run + 1}.json`;
          writeFileSync(join(saveDir, file), JSON.stringify(lhr));
        }
        const audit = (id: string) => lhr?.audits[id]?.numericValue ?? Number.NaN;
        const score = lhr?.categories.performance?.score;
        tries.push({
          name,
          score: typeof score === 'number' ? Math.round(score * 100) : null,
          fcpMs: audit('first-contentful-paint'),
          lcpMs: audit('largest-contentful-paint'),
          tbtMs: audit('total-blocking-time'),
          cls: audit('cumulative-layout-shift'),
          benchmarkIndex: lhr?.environment.benchmarkIndex ?? Number.NaN,
          error: lhr?.runtimeError?.message,
        });
      }
      tries.sort((a, b) => (a.score ?? -1) - (b.score ?? -1));
      results.push(tries[Math.floor(tries.length / 2)]!);
    }
    return results;
  } finally {
    chrome.kill();
  }
}

/**
 * First and largest paint as a phone on slow 4G sees them, in Chromium itself (1.6 Mbit/s down, 150 ms, CPU 4×,
 * a fresh context each time): Lighthouse's simulation counts every request started before the first paint as
 * blocking it, so it cannot show what the page's HTML paints before the app's code arrives (page-shell.ts).
 */
async function measureThrottledPaints(baseUrl: string, pages: { name: string; path: string }[]) {
  const browser = await chromium.launch({ executablePath: chromiumPath });
  try {
    const results: { name: string; fcpMs: number; lcpMs: number }[] = [];
    for (const { name, path } of pages) {
      const runs: { fcpMs: number; lcpMs: number }[] = [];
      for (let run = 0; run < 3; run++) {
        const context = await browser.newContext({
          viewport: { width: 360, height: 740 },
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
        });
        await context.addInitScript(observe);
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: 150,
          downloadThroughput: (1.6 * 1024 * 1024) / 8,
          uploadThroughput: (750 * 1024) / 8,
        });
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        const figures = await settle(page, `${baseUrl}${path}`);
        const fcpMs = await page.evaluate(
          () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        );
        runs.push({ fcpMs, lcpMs: figures.lcp });
        await context.close();
      }
      runs.sort((a, b) => a.lcpMs - b.lcpMs);
      results.push({ name, ...runs[1]! });
    }
    return results;
  } finally {
    await browser.close();
  }
}

export async function measurePages(baseUrl: string): Promise<PageFigures | null> {
  const figures = await measureBytesAndLayout(baseUrl);
  if (!figures) return null;
  const { procedurePath, ...rest } = figures;
  const pages = [
    { name: '/', path: '/' },
    { name: '/procedimientos', path: '/procedimientos' },
    { name: 'the procedure page', path: procedurePath },
  ];
  const lighthouseFigures = await measureLighthouse(baseUrl, pages).catch((error: unknown) => {
    console.error(`Lighthouse did not run: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  });
  const throttled = await measureThrottledPaints(baseUrl, pages);
  return { ...rest, lighthouse: lighthouseFigures, throttled };
}

/** The throttled-paint rows as `npm run bench` and bench/pages-cli.ts print them. */
export function throttledPaintRows(figures: PageFigures['throttled']) {
  return figures.map((page) => ({
    figure: `first / largest paint on ${page.name} at 360 px, Chromium throttled (1.6 Mbit/s, 150 ms, CPU 4×)`,
    value: `FCP ${(page.fcpMs / 1000).toFixed(2)} s, LCP ${(page.lcpMs / 1000).toFixed(2)} s`,
    goal: 'info',
    holds: null,
  }));
}

/** The Lighthouse rows as `npm run bench` and bench/pages-cli.ts print them. */
export function lighthouseRows(figures: LighthouseFigures[], goal = 95, settings = 'mobile') {
  return figures.map((page) => ({
    figure: `Lighthouse ${settings} performance on ${page.name} (\`npm start\`, simulated throttling)`,
    value:
      page.score === null
        ? `no score${page.error ? ` (${page.error})` : ''}`
        : `${page.score} (FCP ${(page.fcpMs / 1000).toFixed(1)} s, LCP ${(page.lcpMs / 1000).toFixed(1)} s, TBT ${page.tbtMs.toFixed(0)} ms, CLS ${page.cls.toFixed(3)}; CPU index ${page.benchmarkIndex.toFixed(0)})`,
    goal: `≥ ${goal}, CLS < 0.05`,
    holds: page.score !== null && page.score >= goal && page.cls < 0.05,
  }));
}
