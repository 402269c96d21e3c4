// `npm run bench`: every figure of docs/performance.md with its goal, on PGlite and (with TEST_DATABASE_URL) on PostgreSQL.
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '#server/db/client.ts';
import { maintainTables } from '#server/db/maintenance.ts';
import { insertUsers } from './data.ts';
import { lighthouseRows, throttledPaintRows } from './pages.ts';
import { measureVideo } from './video.ts';
import { measureInProcess } from './in-process.ts';
import { measureServer } from './server.ts';
import { measureEvening } from './evening.ts';
import { prepareEvening, type Evening } from './evening-data.ts';
import { measureMemberPages } from './member-pages.ts';
import {
  eveningOnly,
  mediaOnly,
  memberPagesOnly,
  membersOnly,
  seconds,
  serverOnly,
  step,
  userCount,
  type Row,
} from './common.ts';

const results = new Map<string, Row[]>();

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
    const reopen = () => openDatabase(databaseUrl ? { url: databaseUrl } : { pgliteDir: path.join(dataDir, 'db') });
    const database = await openDatabase(
      databaseUrl
        ? { url: databaseUrl, onQuery: () => queryCount.n++ }
        : { pgliteDir: path.join(dataDir, 'db'), onQuery: () => queryCount.n++ },
    );
    await database.migrate();
    let evening: Evening | null = null;
    try {
      if (serverOnly || eveningOnly || memberPagesOnly) {
        await insertUsers(database.db, userCount);
        await maintainTables(database.db);
      } else videoKey = await measureInProcess(kind, database, dataDir, rows, queryCount);
      if (eveningOnly || memberPagesOnly || (!serverOnly && !mediaOnly && !membersOnly)) {
        step(`${kind}: the busy evening's class, aula and exam`);
        evening = await prepareEvening(database, dataDir);
      }
    } finally {
      await database.close();
    }
    if (membersOnly) return;
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    };
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    if (eveningOnly) {
      await measureEvening(kind, env, rows, evening!, reopen);
      return;
    }
    if (memberPagesOnly) {
      await measureMemberPages(kind, env, rows, evening!);
      return;
    }
    const pages = await measureServer(kind, env, rows, videoKey);
    // Lighthouse on PGlite only, as for the guest pages
    if (evening && kind === 'PGlite') await measureMemberPages(kind, env, rows, evening);
    if (evening) await measureEvening(kind, env, rows, evening, reopen);
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
const videoRows = mediaOnly || membersOnly || eveningOnly || memberPagesOnly ? [] : await measureVideo(step);
if (videoRows.length > 0) results.set('Data-saver video (Chromium, 1.6 Mbit/s, 150 ms latency)', videoRows);

const mark = (holds: boolean | null) => (holds === null ? '' : holds ? 'yes' : 'NO');
console.log(
  `\nCxVet benchmarks${mediaOnly ? ' (media only)' : membersOnly ? ' (members only)' : eveningOnly ? ' (busy evening only)' : memberPagesOnly ? ' (member pages only)' : ''} (${seconds} s per load test, 10 connections; generated: 1,000 and 10,000 procedures, ${userCount} users)`,
);
for (const [kind, rows] of results) {
  console.log(`\n${kind}`);
  console.log('| figure | measured | goal | holds |\n|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.figure} | ${row.value} | ${row.goal} | ${mark(row.holds)} |`);
}
