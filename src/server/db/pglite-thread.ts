import { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';
import { anyChange } from './channels.ts';

/** What the app and Drizzle use of a PGlite client, answered by the database thread (pglite-worker.mjs). */
type PgliteQueries = {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
};

type PgliteTransaction = PgliteQueries & { closed: boolean; rollback(): Promise<void> };

export type PgliteClient = PgliteQueries & {
  readonly dataDir: string | undefined;
  readonly closed: boolean;
  /** The thread runs and listens on every channel: false from its death until it was started again. */
  readonly listening: boolean;
  /** The thread answered a query successfully within the last `ms`: it is alive and working through its queue. */
  answeredWithin(ms: number): boolean;
  transaction<T>(callback: (tx: PgliteTransaction) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<void>;
  dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob>;
  /** Ends the database thread as a crash would (drills and tests): it is started again as after a crash. */
  terminateThread(): Promise<void>;
  /** The database thread's own heap and buffers, in bytes. */
  memory(): Promise<{ heapUsed: number; external: number; arrayBuffers: number }>;
  close(): Promise<void>;
  /** Drizzle's pglite driver takes this object where it expects a PGlite instance. */
  asPglite(): PGlite;
};

type WireError = { name: string; message: string; stack?: string; fields: Record<string, unknown> };
type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: WireError };
type Event =
  | { event: 'ready'; dataDir: string | null }
  | { event: 'failed'; error: WireError }
  | { event: 'notification'; channel: string; payload: string };

/** The database's error as it was thrown there (code, severity, constraint…), with this thread's stack below. */
function rebuild(wire: WireError): Error {
  const error = new Error(wire.message);
  error.name = wire.name;
  Object.assign(error, wire.fields);
  error.stack = `${wire.stack ?? `${wire.name}: ${wire.message}`}\n    --- in the database thread, called from ---\n${new Error().stack?.split('\n').slice(2).join('\n') ?? ''}`;
  return error;
}

/**
 * Drizzle passes parsers that return dates and intervals as text. Functions cannot cross to the database thread,
 * so their type ids go instead and the thread applies the same identity parsers there.
 */
function wireOptions(options: QueryOptions | undefined) {
  if (!options) return undefined;
  const { parsers, serializers: _serializers, ...rest } = options;
  return { ...rest, ...(parsers ? { rawTypes: Object.keys(parsers).map(Number) } : {}) };
}

/**
 * Starts PGlite in a worker thread at `dataDir` ('memory://' for tests), optionally from a `dumpDataDir()` tarball.
 * One transaction at a time, as PGlite itself: queries outside it wait until it ends. A thread that dies is started
 * again on the same folder; calls meanwhile fail at once as "restarting" (answered 503), never hang.
 */
export async function startPgliteThread(options: { dataDir: string; template?: Blob }): Promise<PgliteClient> {
  const template = options.template ? await options.template.arrayBuffer() : undefined;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let nextId = 1;
  let closed = false;
  let lastAnswerAt = 0;
  let failure: Error | null = null;
  let worker!: Worker;
  // an in-memory database cannot come back with its data: only a folder on disk is restarted
  const canRestart = !options.dataDir.startsWith('memory://');

  // the thread keeps the process alive only while a call waits on it, as the in-process PGlite did
  const refresh = () => (pending.size > 0 ? worker.ref() : worker.unref());

  const failPending = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    refresh();
  };

  /** One database thread; resolves with its data folder once PGlite is open. */
  function spawn(initial?: ArrayBuffer): Promise<string | null> {
    const created = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dataDir: options.dataDir, template: initial },
      transferList: initial ? [initial] : [],
      // the thread's JavaScript only relays queries and results (a report batch is 500 rows): a young generation of
      // 8 MB instead of V8's default ~48 MB keeps ~10 MB less resident (idle memory < 250 MB)
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    worker = created;
    created.ref();
    let ready = false;
    return new Promise<string | null>((resolve, reject) => {
      created.on('message', (message: Reply | Event) => {
        if ('event' in message) {
          if (message.event === 'ready') {
            ready = true;
            resolve(message.dataDir);
          } else if (message.event === 'failed') reject(rebuild(message.error));
          else for (const listener of listeners.get(message.channel) ?? []) listener(message.payload);
          return;
        }
        const call = pending.get(message.id);
        if (!call) return;
        pending.delete(message.id);
        refresh();
        if (message.ok) lastAnswerAt = Date.now();
        if (message.ok) call.resolve(message.result);
        else call.reject(rebuild(message.error));
      });
      created.on('error', (error) => {
        if (!ready) reject(error);
      });
      created.on('exit', (code) => {
        const error = new Error(`the database thread stopped (exit code ${code})`);
        if (!ready) reject(error);
        if (worker !== created) return;
        failPending(error);
        if (closed) return;
        if (ready && canRestart) restart();
        else {
          failure ??= error;
          closed = true;
        }
        // after `listening` turned false: a subscriber that drops its state cannot fill it again before the restart
        announceGap();
      });
    });
  }

  function send<T>(message: Record<string, unknown>): Promise<T> {
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      refresh();
      try {
        worker.postMessage({ ...message, id });
      } catch (error) {
        pending.delete(id);
        refresh();
        reject(error as Error);
      }
    });
  }

  function call<T>(message: Record<string, unknown>): Promise<T> {
    if (failure) return Promise.reject(failure);
    return send<T>(message);
  }

  /** Tells every listener that notifications may have been missed (the thread went away, or came back). */
  function announceGap() {
    for (const set of listeners.values()) for (const listener of set) listener(anyChange);
  }

  let restarting: Promise<void> | null = null;
  function restart() {
    failure = new Error('the database thread is restarting');
    restarting ??= (async () => {
      for (let delay = 100; !closed; delay = Math.min(delay * 2, 5000)) {
        try {
          dataDir = await spawn();
          for (const channel of listeners.keys()) await send({ op: 'listen', channel });
          failure = null;
          refresh();
          announceGap();
          return;
        } catch {
          await worker.terminate().catch(() => {});
          await new Promise((resolve) => setTimeout(resolve, delay).unref());
        }
      }
    })().finally(() => {
      restarting = null;
    });
  }

  let dataDir: string | null;
  try {
    dataDir = await spawn(template);
  } catch (error) {
    closed = true;
    await worker.terminate();
    throw error;
  }
  refresh();

  const queries = (tx?: number): PgliteQueries => ({
    query: <T>(sql: string, params?: unknown[], options?: QueryOptions) =>
      call<Results<T>>({ op: 'query', sql, params: params ?? [], options: wireOptions(options), tx }),
    exec: (sql: string, options?: QueryOptions) =>
      call<Results[]>({ op: 'exec', sql, options: wireOptions(options), tx }),
  });

  const client: PgliteClient = {
    ...queries(),
    get dataDir() {
      return dataDir ?? undefined;
    },
    get closed() {
      return closed;
    },
    get listening() {
      return !closed && failure === null;
    },
    answeredWithin: (ms: number) => !closed && failure === null && Date.now() - lastAnswerAt < ms,
    async transaction<T>(callback: (tx: PgliteTransaction) => Promise<T>): Promise<T> {
      const { tx: id } = await call<{ tx: number }>({ op: 'begin' });
      let txClosed = false;
      const tx: PgliteTransaction = {
        ...queries(id),
        get closed() {
          return txClosed;
        },
        rollback: async () => {
          throw new Error('rollback() is not supported through the database thread: throw from the callback instead');
        },
      };
      let result: T;
      try {
        result = await callback(tx);
      } catch (error) {
        txClosed = true;
        await call({ op: 'end', tx: id, commit: false }).catch(() => {});
        throw error;
      }
      txClosed = true;
      await call({ op: 'end', tx: id, commit: true });
      return result;
    },
    async listen(channel, callback) {
      let set = listeners.get(channel);
      if (!set) {
        await call({ op: 'listen', channel });
        set = listeners.get(channel) ?? new Set();
        listeners.set(channel, set);
      }
      set.add(callback);
    },
    async dumpDataDir(compression = 'none') {
      return new Blob([await call<ArrayBuffer>({ op: 'dump', compression })]);
    },
    memory: () => call({ op: 'memory' }),
    async terminateThread() {
      await worker.terminate();
    },
    async close() {
      if (closed) return;
      const wasUp = failure === null;
      closed = true;
      try {
        if (wasUp) await send({ op: 'close' });
      } finally {
        failure = new Error('database closed');
        await restarting;
        await worker.terminate();
      }
    },
    asPglite: () => client as unknown as PGlite,
  };
  return client;
}
