// Media ranges (issue #13): 1 MiB ranges of a Premium member's full video against the same nginx serving the same file
// directly, served two ways: by our app itself, as `npm start` runs it, and behind nginx as deploy/nginx.conf sets it up
// (curl → nginx → our app, which checks and answers X-Accel-Redirect → nginx sends the file). A whole video in one
// open-ended range (what a player asks for first) is printed beside them for context.
// Every side is loaded the same way, by curl in a process of its own: in the bench's event loop a load generator
// would share the app's thread while nginx has a process to itself. Not autocannon: it appends every body chunk to
// a string (`req.body += data`), which capped it at about 44 req/s of 1 MiB against nginx, where curl reaches
// thousands. Every answer is checked (206, exact size, the first ones byte for byte), so a side that answers errors
// fails the row. The app runs in the bench's own process (as `npm start` runs it: one thread).
import { writeFile, mkdir } from 'node:fs/promises';
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

/** One range fetched and compared byte for byte with the file: a wrong status or body throws. */
async function expectRange(url: string, headers: Record<string, string>, expected: Buffer, who: string): Promise<void> {
  const response = await fetch(url, { headers: { ...headers, range: oneRange.range } });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 206 || !body.equals(expected)) {
    throw new Error(`${who} answered ${response.status} with ${body.length} bytes instead of a 206 with the ${expected.length}-byte range`);
  }
}

/** The paths measured: nginx alone, our app alone, nginx in front of our app; a 1 MiB range or the whole video. */
type Side = 'direct' | 'ours' | 'deployed' | 'directWhole' | 'oursWhole';

/** Requests per second, wrong answers, and CPU microseconds per request of this process (the app), nginx's worker and curl. */
type Load = { rps: number; problems: string | null; appCpuUs: number; nginxCpuUs: number; curlCpuUs: number };

/**
 * `count` range requests over 10 keep-alive connections by curl; the status and body size of each answer, and
 * curl's CPU time (its shell reads its own stat once curl is done: a waited-for child's time is added to it).
 */
function curlBatch(url: string, headers: Record<string, string>, ask: Ask, count: number, configFile: string): Promise<{ lines: string[]; cpuMs: number }> {
  writeFileSync(configFile, `url = "${url}"\noutput = "/dev/null"\n`.repeat(count));
  const args = ['--silent', '--no-progress-meter', '--parallel', '--parallel-max', '10', '--write-out', '%{http_code} %{size_download}\n', '--config', configFile];
  for (const [name, value] of Object.entries({ ...headers, range: ask.range })) args.push('--header', `${name}: ${value}`);
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
 * sized to last `seconds` (each spawn forks this large process, on the app's thread); `problems` names answers
 * that were not a 206 of exactly the range.
 */
async function rangeLoad(url: string, headers: Record<string, string>, ask: Ask, seconds: number, workDir: string, nginxPid?: number): Promise<Load> {
  const configFile = path.join(workDir, 'curl.conf');
  // a trial of a tenth of a second or so: 1 MiB ranges come by the thousand, whole videos by the hundred
  const trialCount = ask.bytes > rangeBytes ? 20 : 100;
  let started = performance.now();
  const { lines: trial } = await curlBatch(url, headers, ask, trialCount, configFile);
  const pace = trial.length / (performance.now() - started);
  const nginxBefore = nginxPid ? nginxWorkerCpuMs(nginxPid) : 0;
  const cpuBefore = process.cpuUsage();
  started = performance.now();
  const { lines, cpuMs: curlCpuMs } = await curlBatch(url, headers, ask, Math.max(trialCount, Math.round(pace * seconds * 1000)), configFile);
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const wrong = [...trial, ...lines].filter((line) => line !== `206 ${ask.bytes}`).length;
  return {
    rps: (lines.length / elapsedMs) * 1000,
    problems: wrong ? `${wrong} of ${trial.length + lines.length} answers not a 206 of ${ask.bytes} bytes` : null,
    appCpuUs: (cpu.user + cpu.system) / lines.length,
    nginxCpuUs: nginxPid ? ((nginxWorkerCpuMs(nginxPid) - nginxBefore) * 1000) / lines.length : 0,
    curlCpuUs: (curlCpuMs * 1000) / lines.length,
  };
}

/** CPU time (user + system) of nginx's workers so far, from /proc: what each request cost nginx, beside ours. */
function nginxWorkerCpuMs(masterPid: number): number {
  let ms = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // fields after the command's closing parenthesis: state ppid … utime (14th) stime (15th), in clock ticks
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === masterPid) ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
    } catch {
      // a process that ended meanwhile
    }
  }
  return ms;
}


/**
 * The media rows: our app serving 1 MiB ranges itself ÷ nginx serving the file (the issue's figure, as `npm start`
 * runs), the same behind nginx with MEDIA_ACCEL_REDIRECT ÷ nginx, a whole video in one answer, and database queries per
 * range request.
 */
export async function measureMedia(options: {
  database: Database;
  dataDir: string;
  workDir: string;
  /** The app sending the bytes itself. */
  baseUrl: string;
  /** The same app with MEDIA_ACCEL_REDIRECT=/_media-interno/, on the same database and folder. */
  accelBaseUrl: string;
  origin: string;
  premiumCookie: string;
  queryCount: { n: number };
  seconds: number;
}): Promise<Row[]> {
  const { database, dataDir, baseUrl, premiumCookie, queryCount, seconds, workDir } = options;
  const rows: Row[] = [];
  // a 32 MiB full video of a Premium procedure, watched by a Premium member
  const [target] = await database.db.select().from(procedures).where(eq(procedures.type, 'Premium')).limit(1);
  const videoKey = `procedures/${target!.id}/bench_video.mp4`;
  const video = Buffer.alloc(videoBytes);
  for (let index = 0; index < video.length; index += 4) video.writeUInt32LE(index, index);
  const uploadsDir = path.join(dataDir, 'uploads');
  await mkdir(path.join(uploadsDir, 'procedures', target!.id), { recursive: true });
  await writeFile(path.join(uploadsDir, ...videoKey.split('/')), video);
  await database.db.update(procedures).set({ fullVideo: videoKey }).where(eq(procedures.id, target!.id));
  const tokenResponse = await fetch(`${baseUrl}/api/viewing/token`, { method: 'POST', headers: { cookie: premiumCookie, origin: options.origin } });
  const { token } = (await tokenResponse.json()) as { token: string };
  const mediaPath = `/media/${videoKey}?vt=${token}`;
  const headers = { cookie: premiumCookie };
  const expected = video.subarray(4 * rangeBytes, 5 * rangeBytes);

  await expectRange(`${baseUrl}${mediaPath}`, headers, expected, 'the app');
  const before = queryCount.n;
  for (let index = 0; index < 20; index++) await expectRange(`${baseUrl}${mediaPath}`, headers, expected, 'the app');
  const queriesPerRange = (queryCount.n - before) / 20;

  if (!nginxBinary) {
    const ours = await rangeLoad(`${baseUrl}${mediaPath}`, headers, oneRange, seconds, workDir);
    rows.push({
      figure: 'video range requests ÷ nginx',
      value: `our app alone ${ours.rps.toFixed(0)} req/s (nginx not installed${ours.problems ? `; ${ours.problems}` : ''})`,
      goal: '≥ 0.8',
      holds: null,
    });
  } else {
    // one nginx, one worker: the deployed site (deploy/nginx.conf) and a plain static site over the same folder
    const deployedPort = await freePort();
    const staticPort = await freePort();
    const site = await deployedNginxConfig({ appPort: Number(new URL(options.accelBaseUrl).port), uploadsDir, port: deployedPort });
    const nginx = await startNginx({
      workDir,
      port: deployedPort,
      httpConfig: `${site}
server { listen 127.0.0.1:${staticPort}; root ${uploadsDir}; sendfile on; tcp_nopush on; }`,
    });
    const staticUrl = `http://127.0.0.1:${staticPort}/${videoKey}`;
    const rounds: Record<Side, Load>[] = [];
    try {
      await expectRange(`${nginx.url}${mediaPath}`, headers, expected, 'nginx in front of the app');
      await expectRange(staticUrl, {}, expected, 'nginx');
      // a guest through the deployed path must be refused, not handed the file
      const guest = await fetch(`${nginx.url}${mediaPath}`, { headers: { range: oneRange.range } });
      if (guest.status !== 401) throw new Error(`a guest got ${guest.status} through nginx instead of 401`);
      // a running server is warm: every path is loaded for a second as it will be, unmeasured (3,000 one-byte and
      // 300 whole ranges one by one, before, left our app's first round 10–20 % slower than the next ones)
      for (const url of [staticUrl, `${baseUrl}${mediaPath}`, `${nginx.url}${mediaPath}`]) {
        const warming = await rangeLoad(url, url === staticUrl ? {} : headers, oneRange, 1, workDir);
        if (warming.problems) throw new Error(`while warming ${url}: ${warming.problems}`);
      }
      // the sides take turns, round after round: other work on the machine then weighs on each side alike
      for (let round = 0; round < mediaRounds; round++) {
        rounds.push({
          direct: await rangeLoad(staticUrl, {}, oneRange, seconds, workDir, nginx.pid),
          ours: await rangeLoad(`${baseUrl}${mediaPath}`, headers, oneRange, seconds, workDir),
          deployed: await rangeLoad(`${nginx.url}${mediaPath}`, headers, oneRange, seconds, workDir, nginx.pid),
          directWhole: await rangeLoad(staticUrl, {}, wholeVideo, seconds, workDir, nginx.pid),
          oursWhole: await rangeLoad(`${baseUrl}${mediaPath}`, headers, wholeVideo, seconds, workDir),
        });
      }
    } finally {
      await nginx.stop();
    }
    const mean = (side: Side, figure: Exclude<keyof Load, 'problems'>) => rounds.reduce((sum, round) => sum + round[side][figure], 0) / rounds.length;
    const problems = (...sides: Side[]) =>
      rounds
        .flatMap((round) => sides.filter((side) => round[side].problems).map((side) => `${side}: ${round[side].problems}`))
        .join('; ');
    /** The median of the rounds' ratios against nginx alone, and their spread. */
    const ratio = (side: Side, against: Side) => {
      const ratios = rounds.map((round) => round[side].rps / round[against].rps).sort((a, b) => a - b);
      return { median: ratios[Math.floor(ratios.length / 2)]!, spread: `${ratios[0]!.toFixed(2)}–${ratios.at(-1)!.toFixed(2)}` };
    };
    // CPU per request of every process on the path: curl, nginx's worker and our app (nginx alone has no app)
    const cpu = (side: Side) => (side.startsWith('direct') ? 0 : mean(side, 'appCpuUs')) + mean(side, 'nginxCpuUs') + mean(side, 'curlCpuUs');
    const cpuParts = (side: Side) =>
      `${cpu(side).toFixed(0)} µs: ${side.startsWith('direct') ? '' : `app ${mean(side, 'appCpuUs').toFixed(0)}, `}` +
      `${side === 'ours' || side === 'oursWhole' ? '' : `nginx ${mean(side, 'nginxCpuUs').toFixed(0)}, `}curl ${mean(side, 'curlCpuUs').toFixed(0)}`;
    const rowOf = (figure: string, side: Side, against: Side, goal: boolean): Row[] => {
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
          figure: '  CPU per request, nginx alone ÷ this path',
          value: `${(cpu(against) / cpu(side)).toFixed(2)} (${cpuParts(against)}; ${cpuParts(side)})`,
          goal: 'context',
          holds: null,
        },
      ];
    };
    rows.push(
      ...rowOf('video 1 MiB range requests req/s ÷ nginx: our app sends the file (Premium, full video; as `npm start` runs)', 'ours', 'direct', true),
      ...rowOf('  behind nginx with MEDIA_ACCEL_REDIRECT (nginx → app check → nginx sends the file; deploy/nginx.conf)', 'deployed', 'direct', true),
      ...rowOf('  a whole 32 MiB video in one open-ended range (a player\'s first request): our app ÷ nginx', 'oursWhole', 'directWhole', false),
    );
  }
  rows.push({ figure: '  database queries per range request', value: queriesPerRange.toFixed(1), goal: '≤ 1', holds: queriesPerRange <= 1 });
  return rows;
}
