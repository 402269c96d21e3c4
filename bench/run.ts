// `npm run bench`: prints figures on this machine; no thresholds, no pass/fail.
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { chromium } from '@playwright/test';
import { openDatabase } from '#server/db/client.ts';
import { buildApp } from '#server/app.ts';
import { createLocalStorage } from '#server/services/storage.ts';
import { createMailer } from '#server/services/mail.ts';
import { seedDemo } from '#server/db/seed/demo.ts';
import { testConfig } from '#server/testing/test-app.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-bench-'));
const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
await database.migrate();
const storage = createLocalStorage(path.join(dataDir, 'uploads'));
const config = testConfig({ dataDir });
const mailer = createMailer({ db: database.db, from: config.mailFrom, log: { info() {} } });
const hasBuild = existsSync('dist/index.html');
const app = await buildApp({ config, database, storage, mailer, distDir: hasBuild ? path.resolve('dist') : null });
await seedDemo({ db: database.db, storage, accounts: app.services.accounts });

const searchUrl = '/api/catalog/procedures?q=perra&page=1';
let searchBody = '';
// Fastify refuses new routes once inject() has made the app ready, so the route comes first.
app.get('/bench/constant', async (_request, reply) => reply.type('application/json').send(searchBody));
searchBody = (await app.inject({ url: searchUrl })).body;
const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });

async function measure(url: string) {
  const result = await autocannon({ url: `${baseUrl}${url}`, connections: 10, duration: seconds });
  return { rps: result.requests.average, p95: result.latency.p97_5 ?? result.latency.p99, errors: result.errors + result.non2xx };
}

console.log(`CxVet benchmarks (${seconds} s each, 10 connections, PGlite, demo content)\n`);
const search = await measure(searchUrl);
const constant = await measure('/bench/constant');
console.log(`catalogue search  ${searchUrl}`);
console.log(`  ${search.rps.toFixed(0)} req/s, p97.5 ${search.p95} ms, errors ${search.errors}, body ${searchBody.length} bytes`);
console.log(`constant JSON of the same size`);
console.log(`  ${constant.rps.toFixed(0)} req/s, p97.5 ${constant.p95} ms`);
console.log(`  search / constant = ${(search.rps / constant.rps).toFixed(2)}`);

if (!hasBuild) {
  console.log('\nguest JavaScript for /: skipped, run `npm run build` first');
} else if (!existsSync('/usr/bin/chromium')) {
  console.log('\nguest JavaScript for /: skipped, /usr/bin/chromium is missing');
} else {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  const page = await browser.newPage();
  const scripts: { url: string; bytes: number }[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const sizes = await response.request().sizes();
    scripts.push({ url: new URL(response.url()).pathname, bytes: sizes.responseBodySize });
  });
  await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
  await browser.close();
  const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
  console.log(`\nguest JavaScript for / (compressed as sent): ${(total / 1024).toFixed(1)} KiB in ${scripts.length} files`);
  for (const script of scripts.sort((a, b) => b.bytes - a.bytes)) {
    console.log(`  ${(script.bytes / 1024).toFixed(1).padStart(7)} KiB  ${script.url}`);
  }
  const adminLike = scripts.filter((script) => /admin|datatable|tiptap|chart|recharts/i.test(script.url));
  console.log(`  admin, editor, chart or table chunks among them: ${adminLike.length === 0 ? 'none' : adminLike.map((s) => s.url).join(', ')}`);
}

// people: 100,000 members for the admin list and the users report
const userCount = Number(process.env.BENCH_USERS ?? 100_000);
let started = performance.now();
await database.db.execute(sql`
  insert into users (id, name, email, type, annual_plan, payment_day, country, city, phone_number, home_university)
  select gen_random_uuid()::text, 'Usuario ' || i, 'usuario' || i || '@bench.example',
    (case when i % 10 = 0 then 'Premium' when i % 97 = 0 then 'Legacy' else 'Gratis' end)::account_type,
    i % 20 = 0, case when i % 10 = 0 then now() - (i % 300) * interval '1 day' end,
    'México', 'Ciudad ' || (i % 50), '+52155' || lpad(i::text, 8, '0'), case when i % 3 = 0 then 'UNAM' end
  from generate_series(1, ${userCount}) as i`);
console.log(`\ninserted ${userCount} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const admin = await app.services.accounts.createAccount({ name: 'Bench', email: 'bench-admin@bench.example', password: 'Bench1234', values: { type: 'Admin' } });
const login = await app.inject({ method: 'POST', url: '/api/account/login', headers: { origin: config.publicUrl }, payload: { email: admin.email, password: 'Bench1234' } });
const adminCookie = String(login.headers['set-cookie']).split(';')[0]!;
const usersSearch = '/api/admin/users?q=usuario4567&sort=name&dir=asc&page=1';
const usersResult = await autocannon({ url: `${baseUrl}${usersSearch}`, connections: 4, duration: seconds, headers: { cookie: adminCookie } });
console.log(`admin users list with search at ${userCount} users  ${usersSearch}`);
console.log(`  ${usersResult.requests.average.toFixed(0)} req/s, p50 ${usersResult.latency.p50} ms, p97.5 ${usersResult.latency.p97_5} ms, p99 ${usersResult.latency.p99} ms, errors ${usersResult.errors + usersResult.non2xx}`);

let peakRss = process.memoryUsage().rss;
const baselineRss = peakRss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
started = performance.now();
const report = await fetch(`${baseUrl}/api/admin/users/report.xlsx`, { headers: { cookie: adminCookie } });
let reportBytes = 0;
for await (const chunk of report.body!) reportBytes += (chunk as Uint8Array).length;
clearInterval(sampler);
console.log(`users report at ${userCount} users: ${((performance.now() - started) / 1000).toFixed(1)} s, ${(reportBytes / 1024 / 1024).toFixed(1)} MiB, peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MiB (+${((peakRss - baselineRss) / 1024 / 1024).toFixed(0)} MiB over the server's own)`);

await app.close();
await database.close();
await rm(dataDir, { recursive: true, force: true });
