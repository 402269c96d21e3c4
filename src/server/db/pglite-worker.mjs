// The embedded database in its own thread: PGlite runs PostgreSQL's WebAssembly synchronously, so on the main
// thread every query (a 100,000-row report, a search over 10,000 procedures) stopped every other request.
// client.ts talks to this file over the worker's port; plain JavaScript so it runs the same under tsx, vitest and
// the built server (Node 20 cannot start a TypeScript worker by itself).
import { parentPort, workerData } from 'node:worker_threads';
import v8 from 'node:v8';
import vm from 'node:vm';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

// V8 compiles PostgreSQL's 9 MB of WebAssembly (and re-compiles its hot functions optimized) on up to 128 parallel
// tasks, each leaving its own malloc arena behind: about 30 MB that stayed resident after start. One task keeps
// them out at no measurable cost to the time to ready on this 2-core machine. The flag only concerns
// WebAssembly, which nothing else in the server runs, and is read when PGlite compiles its module below.
v8.setFlagsFromString('--wasm-num-compilation-tasks=1');
// PostgreSQL's WebAssembly stays in V8's baseline code (Liftoff). Re-compiling its hot functions optimized (TurboFan)
// made queries about a fifth faster but held 20-45 MB more, a different amount at every start (idle 217-240 MB and a
// report's peak 239-270 MB, against 198-208 and 223-226). The embedded database is the one-machine set-up, where
// memory is the scarcer; PostgreSQL is the one for heavy load (docs/decisions/022-pglite-baseline-code.md).
v8.setFlagsFromString('--liftoff-only');

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs runs only as a worker thread');

const { dataDir, template } = workerData;
// PostgreSQL's 128 MB buffer pool is written through at start and stays resident; the operating system caches the
// data folder anyway, so 16 MB keeps the server's idle memory down (< 250 MB). 8 MB saved 13 MB more
// but made reads of a 100,000-row table with a trigram index measurably slower (every miss is a read from the folder).
const startParams = PGlite.defaultStartParams ? [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] : undefined;
const ready = PGlite.create(dataDir, {
  extensions: { pg_trgm },
  ...(startParams ? { startParams } : {}),
  ...(template ? { loadDataDir: new Blob([template]) } : {}),
});

/** Open transactions by id: the main thread's queries inside one carry its id. */
const transactions = new Map();
let nextTransaction = 1;
const identity = (value) => value;

/** Only cloneable fields cross the port: PGlite's DatabaseError keeps code, severity, constraint, table… */
function errorMessage(error) {
  const fields = {};
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
    }
  }
  return {
    name: error?.name ?? 'Error',
    message: String(error?.message ?? error),
    stack: typeof error?.stack === 'string' ? error.stack : undefined,
    fields,
  };
}

/** Drizzle passes parsers that keep dates and intervals as text; functions cannot cross the port, their type ids can. */
function queryOptions(options) {
  if (!options) return undefined;
  const { rawTypes, ...rest } = options;
  if (!rawTypes?.length) return rest;
  return { ...rest, parsers: Object.fromEntries(rawTypes.map((type) => [type, identity])) };
}

function clientFor(tx) {
  if (tx === undefined) return null;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  return open.tx;
}

async function handle(message, pg) {
  switch (message.op) {
    case 'query': {
      const client = clientFor(message.tx) ?? pg;
      return client.query(message.sql, message.params, queryOptions(message.options));
    }
    case 'exec': {
      const client = clientFor(message.tx) ?? pg;
      return client.exec(message.sql, queryOptions(message.options));
    }
    case 'begin': {
      // PGlite runs one transaction at a time: a second begin waits here until the first ends
      const id = nextTransaction++;
      return new Promise((resolve, reject) => {
        let started = false;
        const done = pg.transaction(async (tx) => {
          started = true;
          const ended = new Promise((commit, rollback) => transactions.set(id, { tx, commit, rollback, done }));
          resolve({ tx: id });
          try {
            await ended;
          } finally {
            transactions.delete(id);
          }
        });
        transactions.set(-id, { done });
        done.then(
          () => transactions.delete(-id),
          (error) => {
            transactions.delete(-id);
            if (!started) reject(error);
          },
        );
      });
    }
    case 'end': {
      const open = transactions.get(message.tx);
      if (!open) throw new Error(`transaction ${message.tx} is not open`);
      const rolledBack = new Error('rolled back by the caller');
      if (message.commit) open.commit();
      else open.rollback(rolledBack);
      try {
        await open.done;
      } catch (error) {
        if (error !== rolledBack) throw error;
      }
      return null;
    }
    case 'listen':
      await pg.listen(message.channel, (payload) =>
        port.postMessage({ event: 'notification', channel: message.channel, payload }),
      );
      return null;
    case 'dump': {
      const dumped = await pg.dumpDataDir(message.compression);
      return { transfer: await dumped.arrayBuffer() };
    }
    case 'memory': {
      // this thread's own figures (`rss` is the whole process's)
      const { heapUsed, external, arrayBuffers } = process.memoryUsage();
      return { heapUsed, external, arrayBuffers };
    }
    case 'close':
      await pg.close();
      return null;
    default:
      throw new Error(`unknown op ${message.op}`);
  }
}

/**
 * One full collection once PGlite is up: its 9 MB WebAssembly file (and, in a new folder, initdb's ~300 MB of
 * buffers) is garbage by then, but this thread's small heap rarely needs a major collection, so it all stayed
 * resident for minutes after start. `gc` comes from a context of its own, made with --expose-gc. The flag
 * stays on: V8's flags are the whole process's, and turning it off again raced with another database thread
 * starting at the same moment (the tests start several), whose context then had no `gc`. Only contexts made
 * later see it. Without it the collection is skipped, never the start.
 */
function collectStartGarbage() {
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('typeof gc === "function" ? gc : null');
  collect?.();
}

ready.then(
  async (pg) => {
    // a turn later, once PGlite's start-up callbacks have let go of what they held
    await new Promise((resolve) => setImmediate(resolve));
    collectStartGarbage();
    // and once more a moment later: in 2 of 14 first starts in a new folder (Liftoff code, decision 022), 46 MB of
    // start-up buffers were still reachable at the first collection and stayed; 0.5 s later they were garbage (14 of 14)
    setTimeout(collectStartGarbage, 500).unref();
    port.postMessage({ event: 'ready', dataDir: pg.dataDir ?? null });
  },
  (error) => port.postMessage({ event: 'failed', error: errorMessage(error) }),
);

port.on('message', async (message) => {
  try {
    const pg = await ready;
    const result = await handle(message, pg);
    if (result && result.transfer instanceof ArrayBuffer) {
      port.postMessage({ id: message.id, ok: true, result: result.transfer }, [result.transfer]);
    } else {
      port.postMessage({ id: message.id, ok: true, result });
    }
  } catch (error) {
    port.postMessage({ id: message.id, ok: false, error: errorMessage(error) });
  }
});
