// The busy evening (docs/performance.md): a class of 300 behind one address signs in within a minute, opens its aula
// and plays the same video, 50 submit the same exam within 5 s, while an Admin downloads the users report and a backup
// runs; each part against itself alone on the same server.
import { hash, verify } from '@node-rs/argon2';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { argon2Options } from '#server/features/accounts/auth.ts';
import { examAnswers, examQuestions, examResults } from '#server/db/schema/index.ts';
import { classSize, emailOf, examTakers, type Evening } from './evening-data.ts';
import { startServer } from './server.ts';
import { password, percentile, step, userCount, type Row } from './common.ts';

/** Sign-ins in flight at once, and video streams playing at once. */
const inFlight = 20;
/**
 * Parts of the evening left out, to see what each costs the others: BENCH_EVENING_WITHOUT=report,backup,players,exam (the
 * rows then say so; no goal holds without every part).
 */
const without = new Set((process.env.BENCH_EVENING_WITHOUT ?? '').split(',').filter(Boolean));
/** `/api/health` checks a second throughout the evening. */
const healthChecksPerSecond = 50;
const mib = 1024 * 1024;
/** A 720p video's bit rate (2.5 Mbit/s): a player reads its ranges at this pace once its first 2 MiB are buffered. */
const playBytesPerMs = 2.5e6 / 8 / 1000;
const bufferedAhead = 2 * 1024 * 1024;
/** What a browser asks for when a member presses play and then seeks: open-ended ranges it stops reading. */
const plays = [
  { from: 0, read: 2 * mib },
  { from: 16 * mib, read: 2 * mib },
  { from: 31 * mib, read: mib },
];

/** Every answer that was not what a browser expects, by what was asked and its status. */
class Tally {
  readonly errors = new Map<string, number>();
  add(what: string, status: number | string) {
    const key = `${what} ${status}`;
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }
  get total() {
    return [...this.errors.values()].reduce((sum, n) => sum + n, 0);
  }
  toString() {
    return [...this.errors].map(([key, n]) => `${n}× ${key}`).join(', ');
  }
}

type Member = { email: string; cookie: string; token: string };

async function signInMember(baseUrl: string, email: string, tally: Tally): Promise<string | null> {
  const response = await fetch(`${baseUrl}/api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password }),
  }).catch(() => null);
  if (!response?.ok) {
    tally.add('sign-in', response?.status ?? 'network');
    await response?.body?.cancel();
    return null;
  }
  await response.body?.cancel();
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** The aula's page and the procedure's, then the viewing token the player takes. */
async function openAula(baseUrl: string, cookie: string, evening: Evening, tally: Tally): Promise<string | null> {
  for (const url of [`/api/classrooms/${evening.classroomId}`, `/api/catalog/procedures/${evening.procedureId}`]) {
    const response = await fetch(`${baseUrl}${url}`, { headers: { cookie } }).catch(() => null);
    if (!response?.ok) tally.add(url.split('/').slice(0, 3).join('/'), response?.status ?? 'network');
    await response?.body?.cancel();
  }
  const response = await fetch(`${baseUrl}/api/viewing/token`, {
    method: 'POST',
    headers: { cookie, origin: baseUrl },
  }).catch(() => null);
  if (!response?.ok) {
    tally.add('viewing token', response?.status ?? 'network');
    return null;
  }
  return ((await response.json()) as { token: string }).token;
}

/** One member's ranges; the bytes received, each range checked against the video's pattern. */
async function play(baseUrl: string, member: Member, videoKey: string, tally: Tally): Promise<number> {
  let bytes = 0;
  const playStarted = performance.now();
  for (const { from, read } of plays) {
    const response = await fetch(`${baseUrl}/media/${videoKey}?vt=${member.token}`, {
      headers: { cookie: member.cookie, range: `bytes=${from}-` },
    }).catch(() => null);
    if (response?.status !== 206 || !response.body) {
      tally.add('video range', response?.status ?? 'network');
      await response?.body?.cancel();
      continue;
    }
    const reader = response.body.getReader();
    let got = 0;
    let first: Buffer | null = null;
    while (got < read) {
      const chunk = await reader.read().catch(() => null);
      if (!chunk || chunk.done) break;
      if (!first) first = Buffer.from(chunk.value.subarray(0, 4));
      got += chunk.value.length;
      bytes += chunk.value.length;
      // past the buffer, the player reads no faster than the video plays
      const due = (bytes - bufferedAhead) / playBytesPerMs - (performance.now() - playStarted);
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    }
    await reader.cancel().catch(() => {});
    if (got < Math.min(read, 32 * mib - from) || first?.readUInt32LE(0) !== from) tally.add('video bytes', 'wrong');
  }
  return bytes;
}

/** `inFlight` players, each playing the next signed-in member's ranges, until `stop` resolves; bytes per second. */
async function playWhile(baseUrl: string, members: Member[], videoKey: string, stop: Promise<unknown>, tally: Tally) {
  let stopped = false;
  void stop.then(() => (stopped = true));
  let bytes = 0;
  let next = 0;
  let started = NaN;
  const player = async () => {
    while (!stopped) {
      if (members.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        continue;
      }
      if (Number.isNaN(started)) started = performance.now();
      // read before adding: `bytes += await …` would add to the total as it was before the await
      const got = await play(baseUrl, members[next++ % members.length]!, videoKey, tally);
      bytes += got;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, player));
  const ms = performance.now() - started;
  return { bytesPerSecond: bytes / (ms / 1000), mib: bytes / mib, ms };
}

/** Runs `task` over `items` with `inFlight` at once. */
async function pool<T>(items: T[], task: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

/** The exam as each member sees it, then every member's right answers submitted 100 ms apart; each submission's ms. */
async function submitExams(baseUrl: string, members: Member[], evening: Evening, tally: Tally): Promise<number[]> {
  const url = `${baseUrl}/api/diplomas/${evening.diplomaId}/exams/${evening.examId}`;
  const answers = await Promise.all(
    members.map(async (member) => {
      const response = await fetch(url, { headers: { cookie: member.cookie } });
      if (!response.ok) {
        tally.add('exam view', response.status);
        return [];
      }
      const view = (await response.json()) as { questions: { id: string; answers: string[] }[] };
      return view.questions.map((question) => ({
        questionId: question.id,
        answer: question.answers.indexOf('Correcta'),
      }));
    }),
  );
  const spacing = 5000 / members.length;
  return Promise.all(
    members.map(async (member, index) => {
      await new Promise((resolve) => setTimeout(resolve, index * spacing));
      const started = performance.now();
      const response = await fetch(`${url}/submit`, {
        method: 'POST',
        headers: { cookie: member.cookie, origin: baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify({ answers: answers[index] }),
      }).catch(() => null);
      const ms = performance.now() - started;
      const result = response?.ok ? ((await response.json()) as { passed: boolean }) : null;
      if (!result?.passed) tally.add('exam submission', response?.status ?? 'network');
      return ms;
    }),
  );
}

type HealthFigures = {
  checks: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** How late the prober's own process sent its checks, at p99. */
  lateP99Ms: number;
  /** The same, for a static file fetched with every fifth check. */
  controlChecks: number;
  controlP99Ms: number;
};

/** bench/health-prober.mjs in its own process, `healthChecksPerSecond` checks a second until `stop()`. */
function startHealthProber(url: string, control: string) {
  const child = fork(path.resolve('bench/health-prober.mjs'), [url, String(healthChecksPerSecond), control], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const figures = new Promise<HealthFigures>((resolve, reject) => {
    child.once('message', (message) => resolve(message as HealthFigures));
    child.once('exit', (code) => reject(new Error(`the health prober stopped (${code}) before its figures`)));
  });
  // an early exit is reported by stop(), not as an unhandled rejection in the middle of the evening
  figures.catch(() => {});
  return {
    stop: () => {
      child.send('stop');
      return figures;
    },
  };
}

/** argon2id verifications of the class's hash with `inFlight` at once, in this process, while nothing else runs. */
async function verificationsPerSecond(count: number): Promise<number> {
  const stored = await hash(password, argon2Options);
  const started = performance.now();
  await pool(Array.from({ length: count }), async () => {
    await verify(stored, password);
  });
  return count / ((performance.now() - started) / 1000);
}

async function signInAll(baseUrl: string, emails: string[], evening: Evening, tally: Tally, into: Member[]) {
  const opened: Promise<void>[] = [];
  let signedIn = 0;
  await pool(emails, async (email) => {
    const cookie = await signInMember(baseUrl, email, tally);
    if (cookie) signedIn++;
    // the aula opens beside the next sign-ins, as each student's browser does
    if (cookie)
      opened.push(
        openAula(baseUrl, cookie, evening, tally).then((token) => {
          if (token) into.push({ email, cookie, token });
        }),
      );
  });
  const at = performance.now();
  await Promise.all(opened);
  return { at, signedIn };
}

async function downloadReport(baseUrl: string, cookie: string, tally: Tally) {
  const response = await fetch(`${baseUrl}/api/admin/users/report.xlsx`, { headers: { cookie } });
  let bytes = 0;
  for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
  if (!response.ok || bytes < 1000) tally.add('users report', response.status);
}

async function runBackup(baseUrl: string, cookie: string, tally: Tally) {
  const started = await fetch(`${baseUrl}/api/admin/backups`, {
    method: 'POST',
    headers: { cookie, origin: baseUrl, 'content-type': 'application/json' },
    body: '{}',
  });
  if (!started.ok) return tally.add('backup start', started.status);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const status = (await (await fetch(`${baseUrl}/api/admin/backups`, { headers: { cookie } })).json()) as {
      pending: boolean;
      last: { status: string } | null;
    };
    if (!status.pending && status.last && status.last.status !== 'running') {
      if (status.last.status !== 'succeeded') tally.add('backup', status.last.status);
      return;
    }
  }
}

type ProbeSecond = {
  at: number;
  thread: string;
  p99Ms: number;
  maxMs: number;
  busy: number;
  poolMaxMs?: number;
  gcMaxMs?: number;
  checkMaxMs?: number;
};

/**
 * The server's own seconds (bench/event-loop-probe.mjs) from `from` to `to`: of its main thread and of PGlite's
 * database thread, the worst delay and how busy it ran.
 */
async function eventLoopDuring(file: string, from: number, to: number) {
  const seconds = (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ProbeSecond)
    .filter((second) => second.at > from && second.at <= to + 1000);
  const of = (thread: string) => {
    const own = seconds.filter((second) => second.thread === thread);
    return {
      seconds: own.length,
      p99Ms: percentile(
        own.map((second) => second.p99Ms),
        50,
      ),
      maxMs: Math.max(0, ...own.map((second) => second.maxMs)),
      busy: own.reduce((sum, second) => sum + second.busy, 0) / Math.max(1, own.length),
      poolMaxMs: Math.max(0, ...own.map((second) => second.poolMaxMs ?? 0)),
      gcMaxMs: Math.max(0, ...own.map((second) => second.gcMaxMs ?? 0)),
      /** A health check's time inside the server: its slowest second, and the median second's slowest. */
      checkMaxMs: Math.max(0, ...own.map((second) => second.checkMaxMs ?? 0)),
      checkMedianMaxMs: percentile(
        own.map((second) => second.checkMaxMs ?? 0),
        50,
      ),
    };
  };
  return { main: of('main'), database: of('database') };
}

/** The evening on `npm start` (its own process), then its exam rows counted in the database. */
export async function measureEvening(
  kind: string,
  env: Record<string, string>,
  rows: Row[],
  evening: Evening,
  reopen: () => Promise<Database>,
) {
  step(`${kind}: the busy evening, each part alone first`);
  const eventLoopFile = path.join(await mkdtemp(path.join(tmpdir(), 'cxvet-event-loop-')), 'seconds.jsonl');
  const server = await startServer({ ...env, BENCH_EVENT_LOOP_FILE: eventLoopFile }, [
    '--import',
    path.resolve('bench/event-loop-probe.mjs'),
  ]);
  const { baseUrl } = server;
  const tally = new Tally();
  const aloneTally = new Tally();
  const emails = Array.from({ length: classSize }, (_, index) => emailOf(index + 1));
  let figures;
  try {
    const admin = (await signInMember(baseUrl, 'bench-admin@bench.example', aloneTally))!;
    const verifications = await verificationsPerSecond(classSize);
    // alone: the exam by its other 50 takers, and the video for as long, played by them
    const aloneMembers: Member[] = [];
    const aloneStarted = performance.now();
    const aloneWave = await signInAll(
      baseUrl,
      emails.slice(examTakers, 2 * examTakers),
      evening,
      aloneTally,
      aloneMembers,
    );
    const signInsAlone = aloneWave.signedIn / ((aloneWave.at - aloneStarted) / 1000);
    const examAlone = await submitExams(baseUrl, aloneMembers, evening, aloneTally);
    const mediaAlone = await playWhile(
      baseUrl,
      aloneMembers,
      evening.videoKey,
      new Promise((resolve) => setTimeout(resolve, 6000)),
      aloneTally,
    );
    step(`${kind}: the busy evening`);
    // a load balancer's probes, 50 times as often as one probing every 2 s from each of 2 instances: not a flood, which
    // would be the heaviest client of the evening (2,600 checks a second took a third of the main thread, decision
    // 055); from a process of its own, so a check is not timed by this one's event loop, busy with the class (057)
    const health = startHealthProber(`${baseUrl}/api/health`, `${baseUrl}/favicon.svg`);
    const members: Member[] = [];
    const eveningFrom = Date.now();
    const waveStarted = performance.now();
    const wave = signInAll(baseUrl, emails, evening, tally, members);
    let waveDone = false;
    void wave.finally(() => (waveDone = true));
    // the exam's 50 are the class's first 50 addresses, the first to sign in
    const exam = (async () => {
      if (without.has('exam')) return [];
      const takerEmails = new Set(emails.slice(0, examTakers));
      let takers: Member[] = [];
      while ((takers = members.filter((member) => takerEmails.has(member.email))).length < examTakers && !waveDone)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return submitExams(baseUrl, takers, evening, tally);
    })();
    const took = (work: Promise<unknown>) => work.then(() => (performance.now() - waveStarted) / 1000);
    const report = took(without.has('report') ? Promise.resolve() : downloadReport(baseUrl, admin, tally));
    const backup = took(without.has('backup') ? Promise.resolve() : runBackup(baseUrl, admin, tally));
    const media = await playWhile(
      baseUrl,
      without.has('players') ? [] : members,
      evening.videoKey,
      Promise.all([wave, exam, report, backup]),
      tally,
    );
    const [signInWave, examLoaded] = await Promise.all([wave, exam]);
    const signInSeconds = (signInWave.at - waveStarted) / 1000;
    const eveningTo = Date.now();
    // where the server's slow seconds fall on the evening: each second's line in the file against these marks
    step(
      `${kind}: the evening's seconds in ${eventLoopFile} from ${eveningFrom}; signed in at ${signInSeconds.toFixed(1)} s, ` +
        `report at ${(await report).toFixed(1)} s, backup at ${(await backup).toFixed(1)} s, ` +
        `the evening ends at ${((eveningTo - eveningFrom) / 1000).toFixed(1)} s`,
    );
    const healthResult = await health.stop();
    if (healthResult.failed > 0) tally.add('health', `${healthResult.failed} failed`);
    figures = {
      verifications,
      signInsAlone,
      reportSeconds: await report,
      backupSeconds: await backup,
      signIns: signInWave.signedIn / signInSeconds,
      signInSeconds,
      mediaAlone,
      media,
      examAlone: percentile(examAlone, 99),
      exam: percentile(examLoaded, 99),
      examCount: examLoaded.length,
      healthP99: healthResult.p99Ms,
      healthChecks: healthResult.checks,
      healthLate: healthResult.lateP99Ms,
      control: { checks: healthResult.controlChecks, p99: healthResult.controlP99Ms },
      eventLoop: await eventLoopDuring(eventLoopFile, eveningFrom, eveningTo),
    };
  } finally {
    await server.stop();
  }
  const database = await reopen();
  let graded;
  try {
    const [counted] = await database.db
      .select({ results: sql<number>`count(*)::int`, members: sql<number>`count(distinct ${examResults.userId})::int` })
      .from(examResults)
      .where(eq(examResults.examId, evening.examId));
    const [answered] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(examAnswers)
      .where(
        inArray(
          examAnswers.questionId,
          database.db
            .select({ id: examQuestions.id })
            .from(examQuestions)
            .where(eq(examQuestions.examId, evening.examId)),
        ),
      );
    graded = { results: counted!.results, members: counted!.members, answers: answered!.n };
  } finally {
    await database.close();
  }
  const errors = tally.total + aloneTally.total;
  const eveningRows: Row[] = [
    {
      figure: `busy evening: errors and refusals (${classSize} members of one aula from one address, ${userCount}-user report, backup)${without.size ? `, without ${[...without].join(', ')}` : ''}`,
      value: errors === 0 ? '0' : `${errors}: ${[tally.toString(), aloneTally.toString()].filter(Boolean).join('; ')}`,
      goal: '0 (no 429, no 5xx)',
      holds: errors === 0,
    },
    {
      figure: '  sign-ins completed per second ÷ argon2id verifications alone (20 in flight)',
      value: `${(figures.signIns / figures.verifications).toFixed(2)} (${figures.signIns.toFixed(1)} / ${figures.verifications.toFixed(1)} per s; ${classSize} in ${figures.signInSeconds.toFixed(1)} s)`,
      goal: '≥ 0.8',
      holds: figures.signIns / figures.verifications >= 0.8,
    },
    {
      figure:
        '  context: sign-ins per second with nothing else running (50, 20 in flight); report and backup done after',
      value: `${figures.signInsAlone.toFixed(1)} per s; report ${figures.reportSeconds.toFixed(1)} s, backup ${figures.backupSeconds.toFixed(1)} s`,
      goal: 'info',
      holds: null,
    },
    {
      figure: '  video throughput ÷ the same ranges alone (20 players at 2.5 Mbit/s after a 2 MiB buffer)',
      value: `${(figures.media.bytesPerSecond / figures.mediaAlone.bytesPerSecond).toFixed(2)} (${(figures.media.bytesPerSecond / mib).toFixed(0)} / ${(figures.mediaAlone.bytesPerSecond / mib).toFixed(0)} MiB/s)`,
      goal: '≥ 0.7',
      holds: figures.media.bytesPerSecond / figures.mediaAlone.bytesPerSecond >= 0.7,
    },
    {
      figure: `  exam submission p99 ÷ alone (${examTakers} within 5 s)`,
      value: `${(figures.exam / figures.examAlone).toFixed(2)} (${figures.exam.toFixed(0)} / ${figures.examAlone.toFixed(0)} ms)`,
      goal: '≤ 3',
      holds: figures.exam / figures.examAlone <= 3,
    },
    {
      figure: '  exams graded exactly once',
      value: `${graded.results} results for ${graded.members} members, ${graded.answers} answers (${2 * examTakers} members × 5 questions expected)`,
      goal: `${2 * examTakers} results, ${10 * examTakers} answers`,
      holds:
        graded.results === 2 * examTakers && graded.members === 2 * examTakers && graded.answers === 10 * examTakers,
    },
    {
      figure: `  /api/health p99 throughout (${healthChecksPerSecond} checks a second)`,
      value: `${figures.healthP99.toFixed(0)} ms (${figures.healthChecks} checks, each timed from when it was due; sent up to ${figures.healthLate.toFixed(0)} ms late at p99)`,
      goal: '< 50 ms',
      holds: figures.healthP99 < 50,
    },
    {
      figure:
        '  context: a static file (/favicon.svg) fetched with every fifth check, p99: the wait without the database',
      value: `${figures.control.p99.toFixed(0)} ms (${figures.control.checks} fetches)`,
      goal: 'info',
      holds: null,
    },
    {
      figure:
        "  context: a health check inside the server, from its parsed request to its answer written (the slowest; the median second's slowest)",
      value: `${figures.eventLoop.main.checkMaxMs.toFixed(0)} ms; ${figures.eventLoop.main.checkMedianMaxMs.toFixed(0)} ms`,
      goal: 'info',
      holds: null,
    },
    {
      figure:
        "  context: the server's event loop during the evening (median of each second's p99; longest; share busy; longest wait for libuv's pool; longest GC pause)",
      value: `${figures.eventLoop.main.p99Ms.toFixed(0)} ms; ${figures.eventLoop.main.maxMs.toFixed(0)} ms; ${(100 * figures.eventLoop.main.busy).toFixed(0)} %; ${figures.eventLoop.main.poolMaxMs.toFixed(0)} ms; ${figures.eventLoop.main.gcMaxMs.toFixed(0)} ms`,
      goal: 'info',
      holds: null,
    },
    // PGlite answers every query in its own thread, one at a time: its longest stretch is the longest any request
    // waited for the database behind another's query
    ...(figures.eventLoop.database.seconds > 0
      ? [
          {
            figure:
              "  context: PGlite's database thread during the evening (longest stretch without a pause; share busy)",
            value: `${figures.eventLoop.database.maxMs.toFixed(0)} ms; ${(100 * figures.eventLoop.database.busy).toFixed(0)} %`,
            goal: 'info',
            holds: null,
          },
        ]
      : []),
  ];
  // an evening with a part left out shows what that part costs; it is not the evening the goals are about
  for (const row of eveningRows) if (without.size > 0 && row.holds !== null) row.holds = false;
  rows.push(...eveningRows);
}
