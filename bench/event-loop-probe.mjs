// Preloaded into the server by the busy evening (`node --import`): each second, the event loop's delay (p99 and
// longest, from perf_hooks' histogram) and its utilisation (the share of the second it ran callbacks), appended as one
// JSON line to BENCH_EVENT_LOOP_FILE. It measures the server from inside, beside what the bench's clients see.
// Worker threads inherit `--import`, so it runs in PGlite's thread and the password hashes' too: each line names its
// thread ('main', 'database' for PGlite's, whose data folder comes with it, else 'worker N'), and a stall of the
// database's thread (one long query) is not taken for one of the server's.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
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
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, utilisation).utilization;
    utilisation = now;
    const line = { at: Date.now(), thread, p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6, busy };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    delay.reset();
  }, 1000).unref();
}
