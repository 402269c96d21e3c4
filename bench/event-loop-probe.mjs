// Preloaded into the server by the busy evening (`node --import`): each second, the event loop's delay (p99 and
// longest, from perf_hooks' histogram) and its utilisation (the share of the second it ran callbacks), appended as one
// JSON line to BENCH_EVENT_LOOP_FILE; on the main thread also the longest wait for libuv's thread pool and for
// garbage collection. It measures the server from inside, beside what the bench's clients see.
// Worker threads inherit `--import`, so it runs in PGlite's thread and the password hashes' too: each line names its
// thread ('main', 'database' for PGlite's, whose data folder comes with it, else 'worker N'), and a stall of the
// database's thread (one long query) is not taken for one of the server's.
import { appendFileSync, stat } from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { isMainThread, threadId, workerData } from 'node:worker_threads';

const file = process.env.BENCH_EVENT_LOOP_FILE;
if (file) {
  const thread = isMainThread
    ? 'main'
    : workerData && typeof workerData === 'object' && 'dataDir' in workerData
      ? 'database'
      : `worker ${threadId}`;
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let utilisation = performance.eventLoopUtilization();
  // the main thread's other waits: libuv's thread pool (file reads, zlib, the password hashes), timed by an fs.stat
  // of this file every 50 ms, which takes microseconds when a pool thread is free; and garbage collection's pauses
  let poolMaxMs = 0;
  let gcMaxMs = 0;
  let gcMs = 0;
  // and the health checks' time inside the server, from the request's parsed headers to the answer's last byte written
  let checkMaxMs = 0;
  if (isMainThread) {
    const emit = http.Server.prototype.emit;
    http.Server.prototype.emit = function (event, request, response) {
      if (event === 'request' && request.url === '/api/health') {
        const arrived = performance.now();
        response.once('finish', () => (checkMaxMs = Math.max(checkMaxMs, performance.now() - arrived)));
      }
      return emit.apply(this, arguments);
    };
    setInterval(() => {
      const asked = performance.now();
      stat(file, () => (poolMaxMs = Math.max(poolMaxMs, performance.now() - asked)));
    }, 50).unref();
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        gcMaxMs = Math.max(gcMaxMs, entry.duration);
        gcMs += entry.duration;
      }
    }).observe({ entryTypes: ['gc'] });
  }
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, utilisation).utilization;
    utilisation = now;
    const line = {
      at: Date.now(),
      thread,
      p99Ms: delay.percentile(99) / 1e6,
      maxMs: delay.max / 1e6,
      busy,
      ...(isMainThread ? { poolMaxMs, gcMaxMs, gcMs, checkMaxMs } : {}),
    };
    poolMaxMs = gcMaxMs = gcMs = checkMaxMs = 0;
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    delay.reset();
  }, 1000).unref();
}
