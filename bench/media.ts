// Media ranges (issue #13): 1 MiB ranges of a Premium member's full video from us, against nginx serving the same file.
// Both sides are loaded the same way, by curl in a process of its own: in the bench's event loop a load generator
// would share the app's thread while nginx has a process to itself. Not autocannon: it appends every body chunk to
// a string (`req.body += data`), which capped it at about 44 req/s of 1 MiB against nginx, where curl reaches
// thousands. Every answer is checked (206, exact size), so a side that answers errors fails the row.
import { writeFile, mkdir } from 'node:fs/promises';
import { existsSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { procedures } from '#server/db/schema/index.ts';

type Row = { figure: string; value: string; goal: string; holds: boolean | null };

const rangeBytes = 1024 * 1024;
const range = { range: `bytes=${4 * rangeBytes}-${5 * rangeBytes - 1}` };

/** nginx serving `root` on a free port, one worker like our one process; null when nginx is not installed. */
async function startNginx(root: string, workDir: string): Promise<{ url: string; stop: () => void } | null> {
  const binary = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate));
  if (!binary) return null;
  const port = 20000 + Math.floor(Math.random() * 20000);
  const conf = path.join(workDir, 'nginx.conf');
  // started by root, nginx's worker drops to `nobody`, which cannot enter our 0700 temp folders: it must stay root
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  await writeFile(
    conf,
    `daemon off; ${user} worker_processes 1; pid ${workDir}/nginx.pid; error_log ${workDir}/nginx-error.log;
events { worker_connections 256; }
http { access_log off; sendfile on; client_body_temp_path ${workDir}; proxy_temp_path ${workDir}; fastcgi_temp_path ${workDir}; uwsgi_temp_path ${workDir}; scgi_temp_path ${workDir};
  server { listen 127.0.0.1:${port}; root ${root}; } }`,
  );
  const child = spawn(binary, ['-c', conf, '-p', workDir], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await fetch(url).then(() => true, () => false)) return { url, stop: () => child.kill() };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  return null;
}

/** One range fetched and compared byte for byte with the file: a wrong status or body throws. */
async function expectRange(url: string, headers: Record<string, string>, expected: Buffer, who: string): Promise<void> {
  const response = await fetch(url, { headers: { ...headers, ...range } });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 206 || !body.equals(expected)) {
    throw new Error(`${who} answered ${response.status} with ${body.length} bytes instead of a 206 with the ${expected.length}-byte range`);
  }
}

type Load = { rps: number; problems: string | null };

/** `count` range requests over 10 keep-alive connections by curl; the status and body size of each answer. */
function curlBatch(url: string, headers: Record<string, string>, count: number, configFile: string): Promise<string[]> {
  writeFileSync(configFile, `url = "${url}"\noutput = "/dev/null"\n`.repeat(count));
  const args = ['--silent', '--parallel', '--parallel-max', '10', '--write-out', '%{http_code} %{size_download}\n', '--config', configFile];
  for (const [name, value] of Object.entries({ ...headers, ...range })) args.push('--header', `${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output.trim().split('\n')) : reject(new Error(`curl exited with ${code}`))));
  });
}

/**
 * Range requests for about `seconds` from curl in its own process: a short batch to learn the pace, then one batch
 * sized to last `seconds` (each spawn forks this large process, on the app's thread); `problems` names answers
 * that were not a 206 of exactly the range.
 */
async function rangeLoad(url: string, headers: Record<string, string>, seconds: number, workDir: string): Promise<Load> {
  const configFile = path.join(workDir, 'curl.conf');
  let started = performance.now();
  const trial = await curlBatch(url, headers, 100, configFile);
  const pace = trial.length / (performance.now() - started);
  started = performance.now();
  const lines = await curlBatch(url, headers, Math.max(100, Math.round(pace * seconds * 1000)), configFile);
  const elapsedMs = performance.now() - started;
  const wrong = [...trial, ...lines].filter((line) => line !== `206 ${rangeBytes}`).length;
  return { rps: (lines.length / elapsedMs) * 1000, problems: wrong ? `${wrong} of ${trial.length + lines.length} answers not a 206 of ${rangeBytes} bytes` : null };
}

/** The media rows: ours ÷ nginx on the same file, and database queries per range request. */
export async function measureMedia(options: {
  database: Database;
  dataDir: string;
  workDir: string;
  baseUrl: string;
  origin: string;
  premiumCookie: string;
  queryCount: { n: number };
  seconds: number;
}): Promise<Row[]> {
  const { database, dataDir, baseUrl, premiumCookie, queryCount, seconds } = options;
  const rows: Row[] = [];
  // a 32 MiB full video of a Premium procedure, watched by a Premium member
  const [target] = await database.db.select().from(procedures).where(eq(procedures.type, 'Premium')).limit(1);
  const videoKey = `procedures/${target!.id}/bench_video.mp4`;
  const video = Buffer.alloc(32 * rangeBytes);
  for (let index = 0; index < video.length; index += 4) video.writeUInt32LE(index, index);
  await mkdir(path.join(dataDir, 'uploads', 'procedures', target!.id), { recursive: true });
  await writeFile(path.join(dataDir, 'uploads', ...videoKey.split('/')), video);
  await database.db.update(procedures).set({ fullVideo: videoKey }).where(eq(procedures.id, target!.id));
  const tokenResponse = await fetch(`${baseUrl}/api/viewing/token`, { method: 'POST', headers: { cookie: premiumCookie, origin: options.origin } });
  const { token } = (await tokenResponse.json()) as { token: string };
  const mediaUrl = `${baseUrl}/media/${videoKey}?vt=${token}`;
  const headers = { cookie: premiumCookie };
  const expected = video.subarray(4 * rangeBytes, 5 * rangeBytes);

  await expectRange(mediaUrl, headers, expected, 'the app');
  const before = queryCount.n;
  for (let index = 0; index < 20; index++) await expectRange(mediaUrl, headers, expected, 'the app');
  const queriesPerRange = (queryCount.n - before) / 20;

  const ours = await rangeLoad(mediaUrl, headers, seconds, options.workDir);
  const nginx = await startNginx(path.join(dataDir, 'uploads'), options.workDir);
  if (nginx) {
    let theirs: Load;
    try {
      await expectRange(`${nginx.url}/${videoKey}`, {}, expected, 'nginx');
      theirs = await rangeLoad(`${nginx.url}/${videoKey}`, {}, seconds, options.workDir);
    } finally {
      nginx.stop();
    }
    const mediaRatio = ours.rps / theirs.rps;
    const problems = [ours.problems && `ours: ${ours.problems}`, theirs.problems && `nginx: ${theirs.problems}`].filter(Boolean).join('; ');
    rows.push({
      figure: 'video 1 MiB range requests req/s ÷ nginx (Premium, full video)',
      value: `${mediaRatio.toFixed(2)} (${ours.rps.toFixed(0)} / ${theirs.rps.toFixed(0)} req/s${problems ? `; ${problems}` : ''})`,
      goal: '≥ 0.8',
      holds: mediaRatio >= 0.8 && !problems,
    });
  } else {
    rows.push({
      figure: 'video range requests ÷ nginx',
      value: `${ours.rps.toFixed(0)} req/s (nginx not installed${ours.problems ? `; ${ours.problems}` : ''})`,
      goal: '≥ 0.8',
      holds: null,
    });
  }
  rows.push({ figure: '  database queries per range request', value: queriesPerRange.toFixed(1), goal: '≤ 1', holds: queriesPerRange <= 1 });
  return rows;
}
