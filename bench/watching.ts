// Issue #16: 200 members saving their place every 10 s while a guest browses the catalogue.
import { eq } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { procedures } from '#server/db/schema/index.ts';
import type { App } from '#server/app.ts';

export type WatchingFigures = {
  members: number;
  alone: { p50: number; p95: number; count: number };
  loaded: { p50: number; p95: number; count: number };
  saves: { count: number; errors: number; p95: number };
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** A guest paging through the uncached part of the catalogue (pages past the guest cache) for `ms`. */
async function browse(baseUrl: string, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + ms;
  for (let index = 0; performance.now() < until; index++) {
    const page = 4 + (index % 60);
    const filter = ['', '&species=Perro', '&type=Premium'][index % 3];
    const started = performance.now();
    const response = await fetch(`${baseUrl}/api/catalog/procedures?page=${page}${filter}`);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`catalogue page failed: ${response.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** Measures the guest catalogue alone, then with `members` members each saving a position every 10 s. */
export async function measureWatching(options: {
  app: App;
  database: Database;
  baseUrl: string;
  origin: string;
  members: number;
  seconds: number;
  signIn: (baseUrl: string, email: string) => Promise<string>;
  password: string;
}): Promise<WatchingFigures> {
  const { app, database, baseUrl, origin, members, seconds } = options;
  const gratis = await database.db
    .select({ id: procedures.id })
    .from(procedures)
    .where(eq(procedures.type, 'Gratis'))
    .limit(members);
  const viewers: { cookie: string; token: string; procedureId: string }[] = [];
  // sign-ins two at a time: password hashing is the slow part and the machine has few cores
  for (let index = 0; index < members; index += 2) {
    const batch = await Promise.all(
      [index, index + 1]
        .filter((n) => n < members)
        .map(async (n) => {
          const email = `bench-viewer-${n}@bench.example`;
          await app.services.accounts.createAccount({
            name: `Espectador ${n}`,
            email,
            password: options.password,
            values: { type: 'Premium' },
          });
          const cookie = await options.signIn(baseUrl, email);
          const response = await fetch(`${baseUrl}/api/viewing/token`, { method: 'POST', headers: { cookie, origin } });
          const { token } = (await response.json()) as { token: string };
          return { cookie, token, procedureId: gratis[n % gratis.length]!.id };
        }),
    );
    viewers.push(...batch);
  }

  const ms = seconds * 1000;
  const alone = await browse(baseUrl, ms);

  const saveLatencies: number[] = [];
  let errors = 0;
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  const pending = new Set<Promise<void>>();
  viewers.forEach((viewer, index) => {
    let position = 0;
    const save = () => {
      if (stopped) return;
      position += 10;
      const started = performance.now();
      const request = fetch(`${baseUrl}/api/watching/procedures/${viewer.procedureId}/position`, {
        method: 'POST',
        headers: { cookie: viewer.cookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ positionSeconds: position % 3000, durationSeconds: 3600, viewingToken: viewer.token }),
      })
        .then(async (response) => {
          await response.arrayBuffer();
          if (response.status === 204) saveLatencies.push(performance.now() - started);
          else errors++;
        })
        .catch(() => void errors++)
        .finally(() => pending.delete(request));
      pending.add(request);
    };
    // spread over the 10 s period, as real players are
    timers.push(
      setTimeout(
        () => {
          save();
          timers.push(setInterval(save, 10_000));
        },
        (index * 10_000) / viewers.length,
      ),
    );
  });
  const loaded = await browse(baseUrl, ms);
  stopped = true;
  for (const timer of timers) clearTimeout(timer);
  await Promise.all(pending);

  const summary = (values: number[]) => ({
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    count: values.length,
  });
  return {
    members,
    alone: summary(alone),
    loaded: summary(loaded),
    saves: { count: saveLatencies.length, errors, p95: percentile(saveLatencies, 95) },
  };
}
