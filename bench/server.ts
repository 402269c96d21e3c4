// Phase 2 of the bench: the server as `npm start` runs it, in its own process (start, memory, report, backup, media).
import { readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { measurePages, type PageFigures } from './pages.ts';
import { measureServedMedia } from './media.ts';
import { mediaOnly, password, rssMiB, seconds, serverOnly, signIn, step, userCount, type Row } from './common.ts';

/** 'Respaldar ahora' from the console, with /api/health polled until the backup is recorded (it never blocks requests). */
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
export async function startServer(
  env: Record<string, string>,
  /** Flags for the server's node, before BENCH_SERVER_NODE_ARGS's. */
  serverNodeArgs: string[] = [],
): Promise<{ child: ChildProcess; baseUrl: string; startMs: number; stop: () => Promise<void> }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  // BENCH_SERVER_NODE_ARGS: flags for the server's node only, such as `--cpu-prof --cpu-prof-dir=/tmp/prof`
  const nodeArgs = [...serverNodeArgs, ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, 'scripts/start.mjs'], {
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
export async function measureServer(
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
