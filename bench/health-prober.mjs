// A load balancer's health checks for the busy evening, in a process of its own (decision 057): a GET of
// `/api/health` every 1000 / rate ms, each sent when it is due whatever the earlier ones are doing, and each timed from
// when it was due, so a check that waited behind a stall of the server, or of this process, counts its whole wait.
// Started with fork(path, [url, rate, control]); on the message 'stop' it sends back its figures and exits. Not
// autocannon: its rate sends each connection's checks back to back at the start of each second, and its correction
// for coordinated omission takes 1 ms as the interval between checks, so every slow check also recorded one value
// per millisecond below it.
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';

// `control`: a file the server sends without asking its database, fetched with every fifth check: its p99 beside the
// check's tells the database's wait from the server's own
const [url, rateText, control] = process.argv.slice(2);
const interval = 1000 / Number(rateText);
const slowLog = process.env.BENCH_PROBER_SLOW_LOG;
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
const latencies = [];
const controlLatencies = [];
/** How late each check left this process: its own share of the wait, when the machine's cores are busy. */
const lateness = [];
let failed = 0;
let stopped = false;
const inFlight = new Set();

function check(due, target = url, into = latencies) {
  if (into === latencies) lateness.push(performance.now() - due);
  const done = new Promise((resolve) => {
    const request = http.get(target, { agent }, (response) => {
      response.resume();
      response.on('end', () => {
        into.push(performance.now() - due);
        if (slowLog && performance.now() - due > 100) {
          const slow = {
            at: Math.round(performance.timeOrigin + due),
            ms: Math.round(performance.now() - due),
            target,
            // a check that opened a new socket because the others were busy
            reused: request.reusedSocket,
            sockets: Object.values(agent.sockets).flat().length,
          };
          appendFileSync(slowLog, `${JSON.stringify(slow)}\n`);
        }
        if (response.statusCode !== 200 && into === latencies) failed++;
        resolve();
      });
    });
    request.setTimeout(10_000, () => request.destroy(new Error('timeout')));
    request.on('error', () => {
      if (into === latencies) failed++;
      resolve();
    });
  });
  inFlight.add(done);
  void done.then(() => inFlight.delete(done));
}

const started = performance.now();
let sent = 0;
function tick() {
  if (stopped) return;
  const now = performance.now();
  // every check due by now goes out, each timed from its own due moment
  while (started + sent * interval <= now) {
    const due = started + sent * interval;
    check(due);
    if (control && sent % 5 === 0) check(due, control, controlLatencies);
    sent++;
  }
  setTimeout(tick, Math.max(0, started + sent * interval - performance.now()));
}
tick();

process.on('message', async (message) => {
  if (message !== 'stop') return;
  stopped = true;
  await Promise.all(inFlight);
  const percentile = (values, share) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
  };
  const figures = {
    checks: latencies.length,
    failed,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: Math.max(0, ...latencies),
    lateP99Ms: percentile(lateness, 0.99),
    controlChecks: controlLatencies.length,
    controlP99Ms: percentile(controlLatencies, 0.99),
  };
  process.send(figures, () => process.exit(0));
});
