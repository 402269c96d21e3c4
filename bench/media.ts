// Media ranges: 1 MiB ranges of a Premium member's full video from `npm start`, in its own process, against
// the same nginx serving the same file directly, served two ways: by our app itself, and behind nginx as
// deploy/nginx.conf sets it up (curl → nginx → our app, which checks and answers X-Accel-Redirect → nginx sends the
// file). A whole video in one open-ended range (what a player asks for first) and a bare node:http server sending
// the file the same way (what Node itself reaches on the machine) are printed beside them for context.
// Every side is loaded the same way, by curl in a process of its own. Not autocannon: it appends every body chunk to
// a string (`req.body += data`), which capped it at about 44 req/s of 1 MiB against nginx, where curl reaches
// thousands. Every answer is checked (206, exact size, the first ones byte for byte), so a side that answers errors
// fails the row.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { procedures } from '#server/db/schema/index.ts';
import { deployedNginxConfig, freePort, nginxBinary, startNginx } from '#server/testing/nginx.ts';

type Row = { figure: string; value: string; goal: string; holds: boolean | null };

const rangeBytes = 1024 * 1024;
// Linux's USER_HZ, the unit of /proc/<pid>/stat times, is 100 on every architecture Node runs on
const clockTicksPerSecond = 100;
// BENCH_MEDIA_ROUNDS: how many times each side is loaded for BENCH_SECONDS, in turns (the ratio is the rounds' median;
// on a virtual machine whose neighbours come and go, one round in three or four is off by a tenth or more either way)
const mediaRounds = Number(process.env.BENCH_MEDIA_ROUNDS ?? 5);
const videoBytes = 32 * rangeBytes;
/** What each request asks for and the size of a right answer: one 1 MiB range, or the whole video from its start. */
type Ask = { range: string; bytes: number };
const oneRange: Ask = { range: `bytes=${4 * rangeBytes}-${5 * rangeBytes - 1}`, bytes: rangeBytes };
const wholeVideo: Ask = { range: 'bytes=0-', bytes: videoBytes };

/** The bench's video: every 4 bytes their own offset, so a wrong slice never passes for the right one. */
export function benchVideo(): Buffer {
  const video = Buffer.alloc(videoBytes);
  for (let index = 0; index < video.length; index += 4) video.writeUInt32LE(index, index);
  return video;
}
const oneRangeOf = (video: Buffer) => video.subarray(4 * rangeBytes, 5 * rangeBytes);

/** One range fetched and compared byte for byte with the file: a wrong status or body throws. */
async function expectRange(url: string, headers: Record<string, string>, expected: Buffer, who: string): Promise<void> {
  const response = await fetch(url, { headers: { ...headers, range: oneRange.range } });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 206 || !body.equals(expected)) {
    throw new Error(
      `${who} answered ${response.status} with ${body.length} bytes instead of a 206 with the ${expected.length}-byte range`,
    );
  }
}

/**
 * The paths measured: nginx alone, `npm start` alone, nginx in front of `npm start`, and a bare `node:http` server
 * sending the file as our app does (bench/bare-file-server.mjs); a 1 MiB range or the whole video.
 */
type Side = 'direct' | 'served' | 'deployed' | 'bare' | 'directWhole' | 'servedWhole';
/** Each round loads every side once, in turns: other work on the machine then weighs on each side alike. */
type Round = Partial<Record<Side, Load>>;

/** Requests per second, wrong answers, and CPU microseconds per request of the app (ours or the bare one), nginx's worker and curl. */
type Load = { rps: number; problems: string | null; appCpuUs: number; nginxCpuUs: number; curlCpuUs: number };

/** Where a side's server CPU is read: nginx's workers (children of its master), or another process of ours. */
type Servers = { nginxPid?: number; appPid?: number };

/**
 * `count` range requests over 10 keep-alive connections by curl; the status and body size of each answer, and
 * curl's CPU time (its shell reads its own stat once curl is done: a waited-for child's time is added to it).
 */
function curlBatch(
  url: string,
  headers: Record<string, string>,
  ask: Ask,
  count: number,
  configFile: string,
): Promise<{ lines: string[]; cpuMs: number }> {
  writeFileSync(configFile, `url = "${url}"\noutput = "/dev/null"\n`.repeat(count));
  const args = [
    '--silent',
    '--no-progress-meter',
    '--parallel',
    '--parallel-max',
    '10',
    '--write-out',
    '%{http_code} %{size_download}\n',
    '--config',
    configFile,
  ];
  for (const [name, value] of Object.entries({ ...headers, range: ask.range }))
    args.push('--header', `${name}: ${value}`);
  const script = 'curl "$@"; status=$?; read -r stat < /proc/$$/stat; echo "cpu $stat"; exit $status';
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script, 'sh', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`curl exited with ${code}`));
      const lines = output.trim().split('\n');
      const stat = lines.pop()!;
      // after the command's name: … cutime (14th field) cstime (15th), in clock ticks
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      resolve({ lines, cpuMs: ((Number(fields[13]) + Number(fields[14])) * 1000) / clockTicksPerSecond });
    });
  });
}

/**
 * Range requests for about `seconds` from curl in its own process: a short batch to learn the pace, then one batch
 * sized to last `seconds` (each spawn forks the bench's process, so one long batch rather than many); `problems` names answers
 * that were not a 206 of exactly the range.
 */
async function rangeLoad(
  url: string,
  headers: Record<string, string>,
  ask: Ask,
  seconds: number,
  workDir: string,
  servers: Servers = {},
): Promise<Load> {
  const { nginxPid, appPid } = servers;
  const configFile = path.join(workDir, 'curl.conf');
  // a trial of a tenth of a second or so: 1 MiB ranges come by the thousand, whole videos by the hundred
  const trialCount = ask.bytes > rangeBytes ? 20 : 100;
  let started = performance.now();
  const { lines: trial } = await curlBatch(url, headers, ask, trialCount, configFile);
  const pace = trial.length / (performance.now() - started);
  const nginxBefore = nginxPid ? nginxWorkerCpuMs(nginxPid) : 0;
  const appBefore = appPid ? processCpuMs(appPid) : 0;
  started = performance.now();
  const { lines, cpuMs: curlCpuMs } = await curlBatch(
    url,
    headers,
    ask,
    Math.max(trialCount, Math.round(pace * seconds * 1000)),
    configFile,
  );
  const elapsedMs = performance.now() - started;
  const wrong = [...trial, ...lines].filter((line) => line !== `206 ${ask.bytes}`).length;
  return {
    rps: (lines.length / elapsedMs) * 1000,
    problems: wrong ? `${wrong} of ${trial.length + lines.length} answers not a 206 of ${ask.bytes} bytes` : null,
    appCpuUs: appPid ? ((processCpuMs(appPid) - appBefore) * 1000) / lines.length : 0,
    nginxCpuUs: nginxPid ? ((nginxWorkerCpuMs(nginxPid) - nginxBefore) * 1000) / lines.length : 0,
    curlCpuUs: (curlCpuMs * 1000) / lines.length,
  };
}

/** A process's parent and its CPU time (user + system) so far, from /proc; null once it has ended. */
function processStat(pid: number | string): { ppid: number; cpuMs: number } | null {
  try {
    // fields after the command's closing parenthesis: state ppid … utime (14th) stime (15th), in clock ticks
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond };
  } catch {
    return null;
  }
}

/** CPU time of one process so far (all its threads). */
function processCpuMs(pid: number): number {
  return processStat(pid)?.cpuMs ?? NaN;
}

/** CPU time of nginx's workers so far: what each request cost nginx, beside ours. */
function nginxWorkerCpuMs(masterPid: number): number {
  let ms = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = processStat(entry);
    if (stat?.ppid === masterPid) ms += stat.cpuMs;
  }
  return ms;
}

/** bench/bare-file-server.mjs serving `file`, in a process of its own like nginx; resolves once it listens. */
function startBareServer(file: string): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-file-server.mjs'), file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    void exited.then(() => reject(new Error(`the bare file server exited with ${child.exitCode}`)));
    child.stdout.setEncoding('utf8').once('data', (port: string) =>
      resolve({
        url: `http://127.0.0.1:${port.trim()}/`,
        pid: child.pid!,
        stop: async () => {
          child.kill();
          await exited;
        },
      }),
    );
  });
}

/** The sides whose path includes nginx's worker. */
const nginxSides = new Set<Side>(['direct', 'deployed', 'directWhole']);

/**
 * Rows comparing two sides of the rounds: the median of their req/s ratios with the spread, then their CPU per request
 * (every process on each path).
 */
function ratioRows(rounds: Round[]) {
  const load = (round: Round, side: Side) => {
    const measured = round[side];
    if (!measured) throw new Error(`side ${side} was not measured`);
    return measured;
  };
  const mean = (side: Side, figure: Exclude<keyof Load, 'problems'>) =>
    rounds.reduce((sum, round) => sum + load(round, side)[figure], 0) / rounds.length;
  const problems = (...sides: Side[]) =>
    rounds
      .flatMap((round) =>
        sides.filter((side) => load(round, side).problems).map((side) => `${side}: ${load(round, side).problems}`),
      )
      .join('; ');
  /** The median of the rounds' ratios of `side` to `against`, and their spread. */
  const ratio = (side: Side, against: Side) => {
    const ratios = rounds.map((round) => load(round, side).rps / load(round, against).rps).sort((a, b) => a - b);
    return {
      median: ratios[Math.floor(ratios.length / 2)]!,
      spread: `${ratios[0]!.toFixed(2)}–${ratios.at(-1)!.toFixed(2)}`,
    };
  };
  // CPU per request of every process on the path: curl, nginx's worker and the app, ours or the bare one (nginx
  // alone has no app; our app alone and the bare server have no nginx)
  const cpu = (side: Side) =>
    (side.startsWith('direct') ? 0 : mean(side, 'appCpuUs')) + mean(side, 'nginxCpuUs') + mean(side, 'curlCpuUs');
  const cpuParts = (side: Side) =>
    `${cpu(side).toFixed(0)} µs: ${side.startsWith('direct') ? '' : `app ${mean(side, 'appCpuUs').toFixed(0)}, `}` +
    `${!nginxSides.has(side) ? '' : `nginx ${mean(side, 'nginxCpuUs').toFixed(0)}, `}curl ${mean(side, 'curlCpuUs').toFixed(0)}`;
  const rowOf = (figure: string, side: Side, against: Side, goal: boolean, againstName = 'nginx alone'): Row[] => {
    const { median, spread } = ratio(side, against);
    const wrong = problems(side, against);
    return [
      {
        figure,
        value: `${median.toFixed(2)}, rounds ${spread} (${mean(side, 'rps').toFixed(0)} / ${mean(against, 'rps').toFixed(0)} req/s${wrong ? `; ${wrong}` : ''})`,
        goal: goal ? '≥ 0.8' : 'context',
        holds: goal ? median >= 0.8 && !wrong : wrong ? false : null,
      },
      {
        // what the ratio comes to when the CPU is the limit, whatever else runs on the machine
        figure: `  CPU per request, ${againstName} ÷ this path`,
        value: `${(cpu(against) / cpu(side)).toFixed(2)} (${cpuParts(against)}; ${cpuParts(side)})`,
        goal: 'context',
        holds: null,
      },
    ];
  };
  return rowOf;
}

/**
 * In the bench's process: a 32 MiB full video of a Premium procedure stored and set on it, checked byte for byte
 * through our app, and the database queries each range request costs (the load itself is measureServedMedia's, on
 * `npm start`, in the second phase).
 */
export async function storeBenchVideo(options: {
  database: Database;
  dataDir: string;
  /** The app, in this process (its queries are counted). */
  baseUrl: string;
  origin: string;
  premiumCookie: string;
  queryCount: { n: number };
}): Promise<{ row: Row; /** The stored video, for measureServedMedia. */ videoKey: string }> {
  const { database, dataDir, baseUrl, premiumCookie, queryCount } = options;
  const [target] = await database.db.select().from(procedures).where(eq(procedures.type, 'Premium')).limit(1);
  const videoKey = `procedures/${target!.id}/bench_video.mp4`;
  const video = benchVideo();
  const uploadsDir = path.join(dataDir, 'uploads');
  await mkdir(path.join(uploadsDir, 'procedures', target!.id), { recursive: true });
  await writeFile(path.join(uploadsDir, ...videoKey.split('/')), video);
  await database.db.update(procedures).set({ fullVideo: videoKey }).where(eq(procedures.id, target!.id));
  const tokenResponse = await fetch(`${baseUrl}/api/viewing/token`, {
    method: 'POST',
    headers: { cookie: premiumCookie, origin: options.origin },
  });
  const { token } = (await tokenResponse.json()) as { token: string };
  const url = `${baseUrl}/media/${videoKey}?vt=${token}`;
  const headers = { cookie: premiumCookie };
  const expected = oneRangeOf(video);

  await expectRange(url, headers, expected, 'the app');
  const before = queryCount.n;
  for (let index = 0; index < 20; index++) await expectRange(url, headers, expected, 'the app');
  const queriesPerRange = (queryCount.n - before) / 20;
  return {
    row: {
      figure: 'database queries per video range request',
      value: queriesPerRange.toFixed(1),
      goal: '≤ 1',
      holds: queriesPerRange <= 1,
    },
    videoKey,
  };
}

/**
 * The issue's figures as `npm start` runs: the server in its own process (the bench's second phase, on the same
 * database and folder) sending 1 MiB ranges of the video measureMedia stored, ÷ nginx serving the file, with the bare
 * server beside them; or, with `handOver` (a server started with MEDIA_ACCEL_REDIRECT and TRUST_PROXY=1), nginx
 * running deploy/nginx.conf in front of it. Same load, checks, warm-up and rounds as measureMedia.
 */
export async function measureServedMedia(options: {
  /** The server `npm start` runs, and its process. */
  baseUrl: string;
  pid: number;
  /** A Premium member signed in on it. */
  premiumCookie: string;
  dataDir: string;
  videoKey: string;
  seconds: number;
  handOver?: boolean;
}): Promise<Row[]> {
  const { baseUrl, premiumCookie, seconds, videoKey, handOver = false } = options;
  const tokenResponse = await fetch(`${baseUrl}/api/viewing/token`, {
    method: 'POST',
    headers: { cookie: premiumCookie, origin: baseUrl },
  });
  if (!tokenResponse.ok) throw new Error(`no viewing token from the server: ${tokenResponse.status}`);
  const { token } = (await tokenResponse.json()) as { token: string };
  const mediaPath = `/media/${videoKey}?vt=${token}`;
  const headers = { cookie: premiumCookie };
  const uploadsDir = path.join(options.dataDir, 'uploads');
  const workDir = await mkdtemp(path.join(tmpdir(), 'cxvet-bench-nginx-'));
  if (!nginxBinary) {
    try {
      if (handOver) return [];
      const served = await rangeLoad(`${baseUrl}${mediaPath}`, headers, oneRange, seconds, workDir, {
        appPid: options.pid,
      });
      return [
        {
          figure: 'video range requests ÷ nginx',
          value: `\`npm start\` alone ${served.rps.toFixed(0)} req/s (nginx not installed${served.problems ? `; ${served.problems}` : ''})`,
          goal: '≥ 0.8',
          holds: null,
        },
      ];
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }
  // one nginx, one worker: a plain static site over the folder, and with handOver the deployed site in front of the app
  const staticPort = await freePort();
  const deployedPort = await freePort();
  const staticSite = `server { listen 127.0.0.1:${staticPort}; root ${uploadsDir}; sendfile on; tcp_nopush on; }`;
  const deployedSite = handOver
    ? await deployedNginxConfig({ appPort: Number(new URL(baseUrl).port), uploadsDir, port: deployedPort })
    : '';
  const nginx = await startNginx({
    workDir,
    port: handOver ? deployedPort : staticPort,
    httpConfig: `${deployedSite}\n${staticSite}`,
  });
  const staticUrl = `http://127.0.0.1:${staticPort}/${videoKey}`;
  const measuredUrl = handOver ? `${nginx.url}${mediaPath}` : `${baseUrl}${mediaPath}`;
  const bare = handOver ? null : await startBareServer(path.join(uploadsDir, ...videoKey.split('/')));
  const rounds: Round[] = [];
  try {
    const expected = oneRangeOf(benchVideo());
    await expectRange(measuredUrl, headers, expected, handOver ? 'nginx in front of the server' : 'the server');
    await expectRange(staticUrl, {}, expected, 'nginx');
    if (bare) await expectRange(bare.url, {}, expected, 'the bare file server');
    // a guest must be refused, not handed the file
    const guest = await fetch(measuredUrl, { headers: { range: oneRange.range } });
    if (guest.status !== 401) throw new Error(`a guest got ${guest.status} instead of 401 from ${measuredUrl}`);
    // a running server is warm: every path is loaded for a second as it will be, unmeasured (3,000 one-byte and
    // 300 whole ranges one by one, before run I, left our app's first round 10–20 % slower than the next ones)
    for (const url of [staticUrl, measuredUrl, bare?.url]) {
      if (!url) continue;
      const warming = await rangeLoad(url, url === measuredUrl ? headers : {}, oneRange, 1, workDir);
      if (warming.problems) throw new Error(`while warming ${url}: ${warming.problems}`);
    }
    // the sides take turns, round after round: other work on the machine then weighs on each side alike
    for (let round = 0; round < mediaRounds; round++) {
      const direct = await rangeLoad(staticUrl, {}, oneRange, seconds, workDir, { nginxPid: nginx.pid });
      if (handOver) {
        rounds.push({
          direct,
          deployed: await rangeLoad(measuredUrl, headers, oneRange, seconds, workDir, {
            nginxPid: nginx.pid,
            appPid: options.pid,
          }),
        });
      } else {
        rounds.push({
          direct,
          served: await rangeLoad(measuredUrl, headers, oneRange, seconds, workDir, { appPid: options.pid }),
          bare: await rangeLoad(bare!.url, {}, oneRange, seconds, workDir, { appPid: bare!.pid }),
          directWhole: await rangeLoad(staticUrl, {}, wholeVideo, seconds, workDir, { nginxPid: nginx.pid }),
          servedWhole: await rangeLoad(measuredUrl, headers, wholeVideo, seconds, workDir, { appPid: options.pid }),
        });
      }
    }
  } finally {
    await nginx.stop();
    await bare?.stop();
    await rm(workDir, { recursive: true, force: true });
  }
  const rowOf = ratioRows(rounds);
  if (handOver) {
    return rowOf(
      '  behind nginx with MEDIA_ACCEL_REDIRECT, `npm start` in its own process (nginx → its check → nginx sends the file; deploy/nginx.conf)',
      'deployed',
      'direct',
      true,
    );
  }
  return [
    ...rowOf(
      'video 1 MiB range requests req/s ÷ nginx: `npm start` sends the file, in its own process (Premium, full video)',
      'served',
      'direct',
      true,
    ),
    ...rowOf(
      "  a whole 32 MiB video in one open-ended range (a player's first request): `npm start` ÷ nginx",
      'servedWhole',
      'directWhole',
      false,
    ),
    // what Node can reach here without sendfile, and how much of it our app keeps
    ...rowOf(
      '  a bare node:http server sending the file as our app does (fs.read, reused 1 MiB buffers; no framework, no check) ÷ nginx',
      'bare',
      'direct',
      false,
    ),
    ...rowOf('  `npm start` ÷ that bare server', 'served', 'bare', false, 'the bare server'),
  ];
}
