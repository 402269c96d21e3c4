// Only the guest-page rows of `npm run bench`, against a server you started (built: `npm run build`, then
// `PORT=3000 DATA_DIR=$(mktemp -d) SEED_DEMO=1 node build/server/main.js`):
//   BENCH_BASE_URL=http://localhost:3000 node --import tsx bench/pages-cli.ts
import { lighthouseRows, measurePages, throttledPaintRows } from './pages.ts';

const baseUrl = process.env.BENCH_BASE_URL ?? 'http://localhost:3000';
const pages = await measurePages(baseUrl);
if (!pages) {
  console.error('Chromium did not start (/usr/bin/chromium)');
  process.exit(1);
}
console.log('| figure | measured | goal |\n|---|---|---|');
console.log(
  `| guest JavaScript for / (brotli as sent) | ${pages.scriptKiB.toFixed(1)} KiB in ${pages.scriptFiles} files${pages.forbidden.length ? `; also ${pages.forbidden.join(', ')}` : ''} | ≤ 130 KiB in ≤ 10 files, no zod or admin code |`,
);
console.log(`| guest CSS for / (brotli as sent) | ${pages.cssKiB.toFixed(1)} KiB in ${pages.cssFiles} files | info |`);
for (const page of pages.layout) {
  console.log(
    `| layout shift (CLS) at 360 px on ${page.name} | ${page.cls.toFixed(3)} (LCP ${page.lcpMs.toFixed(0)} ms, unthrottled) | < 0.05 |`,
  );
}
for (const row of [...lighthouseRows(pages.lighthouse), ...throttledPaintRows(pages.throttled)])
  console.log(`| ${row.figure} | ${row.value} | ${row.goal} |`);
