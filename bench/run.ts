// `npm run bench`: every figure of issue #13 with its goal, on PGlite and (with TEST_DATABASE_URL) on PostgreSQL.
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '#server/db/client.ts';
import { buildApp } from '#server/app.ts';
import { createLocalStorage } from '#server/services/storage.ts';
import { createMailer } from '#server/services/mail.ts';
import { seedDemo } from '#server/db/seed/demo.ts';
import { procedures } from '#server/db/schema/index.ts';
import { testConfig } from '#server/testing/test-app.ts';
import { insertProcedures, insertUsers, searchQueries } from './data.ts';
import { maintainTables } from '#server/db/maintenance.ts';
import { lighthouseRows, measurePages, throttledPaintRows, type PageFigures } from './pages.ts';
import { measureWatching } from './watching.ts';
import { measureVideo } from './video.ts';
import { measureServedMedia, storeBenchVideo } from './media.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const userCount = Number(process.env.BENCH_USERS ?? 100_000);
const watchingMembers = Number(process.env.BENCH_WATCHING_MEMBERS ?? 200);
const watchingSeconds = Number(process.env.BENCH_WATCHING_SECONDS ?? 20);
// BENCH_ONLY=server: only the `npm start` figures (start, idle RSS, the users report), no Chromium and no backup
const serverOnly = process.env.BENCH_ONLY === 'server';
// BENCH_ONLY=media: only the media rows (queries per range in process; ranges against nginx from `npm start`, with its
// start and idle rows), about 2 minutes per database
const mediaOnly = process.env.BENCH_ONLY === 'media';
// BENCH_ONLY=members: only the guest and signed-in answers against constant JSON of the same size, in process
const membersOnly = process.env.BENCH_ONLY === 'members';
const password = 'Bench1234';
const origin = 'http://localhost:3000';
const benchStarted = performance.now();
const step = (what: string) =>
  console.error(`[${((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4)} s] ${what}`);

type Row = { figure: string; value: string; goal: string; holds: boolean | null };
const results = new Map<string, Row[]>();

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function rate(url: string, headers: Record<string, string> = {}, connections = 10) {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return { rps: result.requests.average, errors: result.errors + result.non2xx };
}

async function signIn(baseUrl: string, email: string, from = origin): Promise<string> {
  const response = await fetch(`${baseUrl}/api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: from },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in of ${email} failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/**
 * Guests' and a Premium member's answers, each against a constant JSON of the same bytes served by the same app: the
 * search (guest and signed in), and the member's small answers `/api/profile` and `/api/me`.
 */
async function measureMembers(
  baseUrl: string,
  searchUrl: string,
  premiumCookie: string,
  constantBodies: Map<string, string>,
  rows: Row[],
) {
  const member = { cookie: premiumCookie };
  for (const [name, url] of [
    ['profile', '/api/profile'],
    ['me', '/api/me'],
  ] as const) {
    const response = await fetch(`${baseUrl}${url}`, { headers: member });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    constantBodies.set(name, await response.text());
  }
  const total = ((await (await fetch(`${baseUrl}/api/catalog/procedures`)).json()) as { total: number }).total;
  const constant = await rate(`${baseUrl}/bench/constant/search`);
  const guest = await rate(`${baseUrl}${searchUrl}`);
  const signedIn = await rate(`${baseUrl}${searchUrl}`, member);
  const ratio = guest.rps / constant.rps;
  const errors = (n: number) => (n ? `, ${n} errors` : '');
  rows.push({
    figure: `catalogue search req/s ÷ constant JSON (${total} procedures, guest)`,
    value: `${ratio.toFixed(2)} (${guest.rps.toFixed(0)} / ${constant.rps.toFixed(0)} req/s${errors(guest.errors)})`,
    goal: '≥ 0.5',
    holds: ratio >= 0.5 && guest.errors === 0,
  });
  const signedInRatio = signedIn.rps / constant.rps;
  rows.push({
    figure: `  the same search signed in (Premium) ÷ constant JSON`,
    value: `${signedInRatio.toFixed(2)} (${signedIn.rps.toFixed(0)} req/s${errors(signedIn.errors)})`,
    goal: '≥ 0.25',
    holds: signedInRatio >= 0.25 && signedIn.errors === 0,
  });
  for (const [name, url] of [
    ['profile', '/api/profile'],
    ['me', '/api/me'],
  ] as const) {
    const alone = await rate(`${baseUrl}/bench/constant/${name}`);
    const answer = await rate(`${baseUrl}${url}`, member);
    const answerRatio = answer.rps / alone.rps;
    rows.push({
      figure: `signed-in ${url} req/s ÷ constant JSON (${Buffer.byteLength(constantBodies.get(name)!)} bytes)`,
      value: `${answerRatio.toFixed(2)} (${answer.rps.toFixed(0)} / ${alone.rps.toFixed(0)} req/s${errors(answer.errors)})`,
      goal: '≥ 0.5',
      holds: answerRatio >= 0.5 && answer.errors === 0,
    });
  }
}

/** Phase 1, in this process: search and media against the app with generated content; the bench video's key. */
async function measureInProcess(
  kind: string,
  database: Database,
  dataDir: string,
  rows: Row[],
  queryCount: { n: number },
): Promise<string | null> {
  const storage = createLocalStorage(path.join(dataDir, 'uploads'));
  const config = testConfig({ dataDir });
  const mailer = createMailer({ db: database.db, from: config.mailFrom, log: { info() {} } });
  const app = await buildApp({ config, database, storage, mailer, distDir: null });
  step(`${kind}: demo content`);
  await seedDemo({ database, storage, accounts: app.services.accounts });
  const demoCount = (await database.db.select({ id: procedures.id }).from(procedures)).length;
  await insertProcedures(database.db, 1, 1000 - demoCount);
  await app.services.accounts.createAccount({
    name: 'Bench Premium',
    email: 'bench-premium@bench.example',
    password,
    values: { type: 'Premium' },
  });
  await app.services.accounts.createAccount({
    name: 'Bench Admin',
    email: 'bench-admin@bench.example',
    password,
    values: { type: 'Admin' },
  });

  const searchUrl = '/api/catalog/procedures?q=perra&page=1';
  // each answer's own constant twin: the same bytes from a route that does nothing
  const constantBodies = new Map<string, string>();
  // Fastify refuses new routes once inject() has made the app ready, so the route comes first.
  app.get<{ Params: { name: string } }>('/bench/constant/:name', async (request, reply) =>
    reply.type('application/json').send(constantBodies.get(request.params.name) ?? ''),
  );
  constantBodies.set('search', (await app.inject({ url: searchUrl })).body);
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const premiumCookie = await signIn(baseUrl, 'bench-premium@bench.example');
  if (membersOnly) {
    await measureMembers(baseUrl, searchUrl, premiumCookie, constantBodies, rows);
    await app.close();
    return null;
  }

  step(`${kind}: the bench video and its queries per range`);
  const media = await storeBenchVideo({ database, dataDir, baseUrl, origin, premiumCookie, queryCount });
  rows.push(media.row);
  const { videoKey } = media;
  if (mediaOnly) {
    await app.close();
    return videoKey;
  }

  step(`${kind}: search load at 1,000 procedures`);
  await measureMembers(baseUrl, searchUrl, premiumCookie, constantBodies, rows);

  step(`${kind}: 10,000 procedures`);
  await insertProcedures(database.db, 1001 - demoCount, 10_000 - demoCount);
  step(`${kind}: searches at 10,000 procedures`);
  await database.db.execute(sql`analyze`);
  const atTenThousand = (await app.inject({ url: '/api/catalog/procedures?page=2' })).json().total as number;
  const latencies: number[] = [];
  // each search twice: a new filter, then paging back to it
  for (let round = 0; round < 2; round++) {
    for (const query of searchQueries) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/catalog/procedures?${query}`, {
        headers: { cookie: premiumCookie },
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`search ${query} failed: ${response.status}`);
      latencies.push(performance.now() - started);
    }
  }
  const p95 = percentile(latencies, 95);
  const searchGoal = kind === 'PGlite' ? 100 : 50;
  rows.push({
    figure: `catalogue search p95 at ${atTenThousand} procedures (${latencies.length} searches, signed in)`,
    value: `${p95.toFixed(1)} ms (p50 ${percentile(latencies, 50).toFixed(1)} ms)`,
    goal: `< ${searchGoal} ms`,
    holds: p95 < searchGoal,
  });

  step(`${kind}: ${watchingMembers} members saving positions while a guest browses`);
  const watching = await measureWatching({
    app,
    database,
    baseUrl,
    origin,
    members: watchingMembers,
    seconds: watchingSeconds,
    signIn,
    password,
  });
  const browseGoal = kind === 'PGlite' ? 100 : 50;
  step(
    `${kind}: catalogue p95 ${watching.alone.p95.toFixed(1)} ms alone, ${watching.loaded.p95.toFixed(1)} ms with ${watching.saves.count} saves (${watching.saves.errors} errors)`,
  );
  rows.push({
    figure: `guest catalogue pages p95, alone (${watching.alone.count} uncached pages in ${watchingSeconds} s)`,
    value: `${watching.alone.p95.toFixed(1)} ms (p50 ${watching.alone.p50.toFixed(1)} ms)`,
    goal: 'info',
    holds: null,
  });
  rows.push({
    figure: `  same while ${watching.members} members save their place every 10 s (${watching.loaded.count} pages)`,
    value: `${watching.loaded.p95.toFixed(1)} ms (p50 ${watching.loaded.p50.toFixed(1)} ms, ×${(watching.loaded.p95 / watching.alone.p95).toFixed(2)})`,
    goal: `< ${browseGoal} ms`,
    holds: watching.loaded.p95 < browseGoal,
  });
  rows.push({
    figure: `  position saves during that time`,
    value: `${watching.saves.count} saved, p95 ${watching.saves.p95.toFixed(1)} ms, ${watching.saves.errors} errors`,
    goal: '0 errors, p95 < 100 ms',
    holds: watching.saves.errors === 0 && watching.saves.p95 < 100,
  });

  step(`${kind}: ${userCount} users`);
  await insertUsers(database.db, userCount);
  // what a running site's maintenance would have done as its members signed up one by one: statistics and a vacuum
  // (PGlite's hourly job, decision 023; autovacuum on PostgreSQL, which a bulk load outruns too)
  await maintainTables(database.db);
  await app.close();
  return videoKey;
}

/** 'Respaldar ahora' from the console, with /api/health polled until the backup is recorded (issue #19: it never blocks requests). */
async function measureBackup(baseUrl: string, cookie: string): Promise<Row> {
  const health = autocannon({
    url: `${baseUrl}/api/health`,
    connections: 2,
    duration: 600,
  }) as unknown as Promise<autocannon.Result> & { stop(): void };
  const started = performance.now();
  await fetch(`${baseUrl}/api/admin/backups`, {
    method: 'POST',
    headers: { cookie, origin: baseUrl, 'content-type': 'application/json' },
    body: '{}',
  });
  let last: { status: string; sizeBytes: number | null } | null = null;
  while (performance.now() - started < 590_000) {
    const status = (await (await fetch(`${baseUrl}/api/admin/backups`, { headers: { cookie } })).json()) as {
      pending: boolean;
      last: { status: string; sizeBytes: number | null } | null;
    };
    if (!status.pending && status.last && status.last.status !== 'running') {
      last = status.last;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const backupMs = performance.now() - started;
  health.stop();
  const result = await health;
  return {
    figure: `/api/health p99 during a backup (${userCount} users)`,
    value: `${result.latency.p99} ms, max ${result.latency.max} ms (${result.requests.total} checks); backup ${last?.status ?? 'not finished'} in ${(backupMs / 1000).toFixed(1)} s, ${((last?.sizeBytes ?? 0) / 1024 / 1024).toFixed(1)} MiB`,
    goal: '< 50 ms',
    holds: last?.status === 'succeeded' && result.latency.p99 < 50 && result.non2xx === 0,
  };
}

function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/**
 * The variables package.json's start script sets before `node` (MALLOC_ARENA_MAX): the bench starts
 * scripts/start.mjs itself, so the server's own process is the one measured, with the same environment.
 */
const startScriptEnv: Record<string, string> = Object.fromEntries(
  [
    ...(JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.matchAll(
      /(?:^|\s)([A-Z_]+)=(\S+)/g,
    ),
  ].map((found) => [found[1]!, found[2]!]),
);

/** `npm start` in its own process with the bench's settings and `env`; resolves once /api/health answers. */
async function startServer(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; baseUrl: string; startMs: number; stop: () => Promise<void> }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      ...startScriptEnv,
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
      PAYMENTS_PROVIDER: 'simulado',
      ADMIN_EMAIL: 'bench-admin@bench.example',
      ADMIN_PASSWORD: password,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  };
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (
        await fetch(`${baseUrl}/api/health`).then(
          (response) => response.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, baseUrl, startMs: performance.now() - started, stop };
}

/**
 * Phase 2: the server as `npm start` runs it, in its own process; last, the media ranges of the video phase 1 stored
 * (`videoKey`; after the memory rows, which a media load would move), sent by the server itself, then by nginx after
 * the check of a second server started with the hand-over settings (deploy/nginx.conf). With BENCH_ONLY=media:
 * start, idle and media.
 */
async function measureServer(
  kind: string,
  env: Record<string, string>,
  rows: Row[],
  videoKey: string | null,
): Promise<PageFigures | null> {
  step(`${kind}: npm start`);
  const { child, baseUrl, startMs, stop } = await startServer(env);
  let pages: PageFigures | null = null;
  try {
    const startGoal = kind === 'PostgreSQL' ? 1000 : null;
    rows.push({
      figure: '`npm start` to healthy',
      value: `${(startMs / 1000).toFixed(2)} s`,
      goal: startGoal ? '< 1 s' : '< 1 s on PostgreSQL',
      holds: startGoal ? startMs < startGoal : null,
    });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = rssMiB(child.pid!, 'VmRSS');
    const idleGoal = kind === 'PGlite' ? 250 : 150;
    rows.push({
      figure: 'server idle RSS after start',
      value: `${idle.toFixed(0)} MiB`,
      goal: `< ${idleGoal} MiB`,
      holds: idle < idleGoal,
    });

    if (!mediaOnly) pages = await measureReportAndPages(kind, baseUrl, child.pid!, rows);
    if (videoKey) {
      step(`${kind}: media ranges from npm start`);
      rows.push(...(await measureServedMedia(await mediaOptions(baseUrl, child.pid!, env.DATA_DIR!, videoKey))));
    }
  } finally {
    await stop();
  }
  if (videoKey) {
    step(`${kind}: media ranges through nginx after the check of npm start (MEDIA_ACCEL_REDIRECT)`);
    const accel = await startServer({ ...env, MEDIA_ACCEL_REDIRECT: '/_media-interno/', TRUST_PROXY: '1' });
    try {
      rows.push(
        ...(await measureServedMedia({
          ...(await mediaOptions(accel.baseUrl, accel.child.pid!, env.DATA_DIR!, videoKey)),
          handOver: true,
        })),
      );
    } finally {
      await accel.stop();
    }
  }
  return pages;
}

/** What measureServedMedia needs of a running server: its process, and a Premium member signed in on it. */
async function mediaOptions(baseUrl: string, pid: number, dataDir: string, videoKey: string) {
  const premiumCookie = await signIn(baseUrl, 'bench-premium@bench.example', baseUrl);
  return { baseUrl, pid, premiumCookie, dataDir, videoKey, seconds };
}

/** The pages in Chromium (PGlite), the users report with /api/health polled, and a backup with it polled. */
async function measureReportAndPages(
  kind: string,
  baseUrl: string,
  pid: number,
  rows: Row[],
): Promise<PageFigures | null> {
  step(`${kind}: guest pages in Chromium`);
  const pages = kind === 'PGlite' && !serverOnly ? await measurePages(baseUrl) : null;
  step(`${kind}: users report`);

  const adminCookie = await signIn(baseUrl, 'bench-admin@bench.example', baseUrl);
  const baseRss = rssMiB(pid, 'VmRSS');
  let peak = baseRss;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid, 'VmRSS'))), 25);
  // without a callback autocannon returns its running instance, which is also a promise of the result
  const health = autocannon({
    url: `${baseUrl}/api/health`,
    connections: 2,
    duration: 120,
  }) as unknown as Promise<autocannon.Result> & { stop(): void };
  const reportStarted = performance.now();
  const report = await fetch(`${baseUrl}/api/admin/users/report.xlsx`, { headers: { cookie: adminCookie } });
  let firstByte = NaN;
  let bytes = 0;
  for await (const chunk of report.body!) {
    if (bytes === 0) firstByte = performance.now() - reportStarted;
    bytes += (chunk as Uint8Array).length;
  }
  const reportMs = performance.now() - reportStarted;
  health.stop();
  const healthResult = await health;
  clearInterval(sampler);
  const p99 = healthResult.latency.p99;
  rows.push({
    figure: `/api/health p99 while an Admin downloads the ${userCount}-user xlsx`,
    value: `${p99} ms (${healthResult.requests.total} checks)`,
    goal: '< 50 ms',
    holds: p99 < 50 && healthResult.non2xx === 0,
  });
  rows.push({
    figure: `users xlsx at ${userCount} users`,
    value: `${(reportMs / 1000).toFixed(1)} s, ${(bytes / 1024 / 1024).toFixed(1)} MiB, first byte ${firstByte.toFixed(0)} ms, peak RSS ${peak.toFixed(0)} MiB`,
    goal: '< 15 s, first byte < 1 s, peak RSS < 300 MiB',
    holds: report.ok && reportMs < 15_000 && firstByte < 1000 && peak < 300,
  });

  if (!serverOnly) {
    step(`${kind}: backup while /api/health is polled`);
    rows.push(await measureBackup(baseUrl, adminCookie));
  }
  return pages;
}

async function runOn(kind: 'PGlite' | 'PostgreSQL', serverUrl?: string) {
  const rows: Row[] = [];
  results.set(kind, rows);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-bench-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (serverUrl) {
    const name = `cxvet_bench_${process.pid}`;
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
    await client.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  try {
    const queryCount = { n: 0 };
    let videoKey: string | null = null;
    const database = await openDatabase(
      databaseUrl
        ? { url: databaseUrl, onQuery: () => queryCount.n++ }
        : { pgliteDir: path.join(dataDir, 'db'), onQuery: () => queryCount.n++ },
    );
    await database.migrate();
    try {
      if (serverOnly) {
        await insertUsers(database.db, userCount);
        await maintainTables(database.db);
      } else videoKey = await measureInProcess(kind, database, dataDir, rows, queryCount);
    } finally {
      await database.close();
    }
    if (membersOnly) return;
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    };
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    const pages = await measureServer(kind, env, rows, videoKey);
    if (pages) {
      rows.push({
        figure: 'guest JavaScript for / (brotli as sent)',
        value: `${pages.scriptKiB.toFixed(1)} KiB in ${pages.scriptFiles} files${pages.forbidden.length ? `; also ${pages.forbidden.join(', ')}` : ''}`,
        goal: '≤ 130 KiB in ≤ 10 files, no zod or admin code',
        holds: pages.scriptKiB <= 130 && pages.scriptFiles <= 10 && pages.forbidden.length === 0,
      });
      rows.push({
        figure: 'guest CSS for / (brotli as sent)',
        value: `${pages.cssKiB.toFixed(1)} KiB in ${pages.cssFiles} files`,
        goal: 'info',
        holds: null,
      });
      for (const page of pages.layout) {
        rows.push({
          figure: `layout shift (CLS) at 360 px on ${page.name}`,
          value: `${page.cls.toFixed(3)} (LCP ${page.lcpMs.toFixed(0)} ms, unthrottled)`,
          goal: '< 0.05',
          holds: page.cls < 0.05,
        });
      }
      rows.push(...lighthouseRows(pages.lighthouse));
      rows.push(...throttledPaintRows(pages.throttled));
    }
  } finally {
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (!existsSync('dist/index.html')) {
  console.log('Building first (the bench measures what `npm start` serves)…');
  spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
}
// BENCH_SKIP_PGLITE=1 with TEST_DATABASE_URL: PostgreSQL only
if (process.env.BENCH_SKIP_PGLITE !== '1') await runOn('PGlite');
if (process.env.TEST_DATABASE_URL) await runOn('PostgreSQL', process.env.TEST_DATABASE_URL);
// once, whatever the database: the figures are about bytes on a slow link (BENCH_VIDEO=0 skips it)
const videoRows = mediaOnly || membersOnly ? [] : await measureVideo(step);
if (videoRows.length > 0) results.set('Data-saver video (Chromium, 1.6 Mbit/s, 150 ms latency)', videoRows);

const mark = (holds: boolean | null) => (holds === null ? '' : holds ? 'yes' : 'NO');
console.log(
  `\nCxVet benchmarks${mediaOnly ? ' (media only)' : membersOnly ? ' (members only)' : ''} (${seconds} s per load test, 10 connections; generated: 1,000 and 10,000 procedures, ${userCount} users)`,
);
for (const [kind, rows] of results) {
  console.log(`\n${kind}`);
  console.log('| figure | measured | goal | holds |\n|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.figure} | ${row.value} | ${row.goal} | ${mark(row.holds)} |`);
}
