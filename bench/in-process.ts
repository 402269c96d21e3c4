// Phase 1 of the bench, in this process: search, media queries and members saving positions against generated content.
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { buildApp } from '#server/app.ts';
import { createLocalStorage } from '#server/services/storage.ts';
import { createMailer } from '#server/services/mail.ts';
import { seedDemo } from '#server/db/seed/demo.ts';
import { procedures } from '#server/db/schema/index.ts';
import { maintainTables } from '#server/db/maintenance.ts';
import { testConfig } from '#server/testing/test-app.ts';
import { insertProcedures, insertUsers, searchQueries } from './data.ts';
import { measureWatching } from './watching.ts';
import { measureProgressExports } from './progress-export.ts';
import { storeBenchVideo } from './media.ts';
import { measureMembers } from './members.ts';
import {
  mediaOnly,
  membersOnly,
  origin,
  password,
  percentile,
  signIn,
  step,
  userCount,
  watchingMembers,
  watchingSeconds,
  type Row,
} from './common.ts';

/** Phase 1, in this process: search and media against the app with generated content; the bench video's key. */
export async function measureInProcess(
  kind: string,
  database: Database,
  dataDir: string,
  rows: Row[],
  queryCount: { n: number },
): Promise<string | null> {
  const storage = createLocalStorage(path.join(dataDir, 'uploads'));
  const config = testConfig({ dataDir });
  const mailer = createMailer({ db: database.db, from: config.mailFrom, log: { info() {} } });
  const app = await buildApp({ config, database, storage, mailer, distDir: null });
  step(`${kind}: demo content`);
  await seedDemo({ database, storage, accounts: app.services.accounts });
  const demoCount = (await database.db.select({ id: procedures.id }).from(procedures)).length;
  await insertProcedures(database.db, 1, 1000 - demoCount);
  await app.services.accounts.createAccount({
    name: 'Bench Premium',
    email: 'bench-premium@bench.example',
    password,
    values: { type: 'Premium' },
  });
  await app.services.accounts.createAccount({
    name: 'Bench Admin',
    email: 'bench-admin@bench.example',
    password,
    values: { type: 'Admin' },
  });

  const searchUrl = '/api/catalog/procedures?q=perra&page=1';
  // each answer's own constant twin: the same bytes from a route that does nothing
  const constantBodies = new Map<string, string>();
  // Fastify refuses new routes once inject() has made the app ready, so the route comes first.
  app.get<{ Params: { name: string } }>('/bench/constant/:name', async (request, reply) =>
    reply.type('application/json').send(constantBodies.get(request.params.name) ?? ''),
  );
  constantBodies.set('search', (await app.inject({ url: searchUrl })).body);
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const premiumCookie = await signIn(baseUrl, 'bench-premium@bench.example');
  if (membersOnly) {
    await measureMembers(baseUrl, searchUrl, premiumCookie, constantBodies, rows);
    await app.close();
    return null;
  }

  step(`${kind}: the bench video and its queries per range`);
  const media = await storeBenchVideo({ database, dataDir, baseUrl, origin, premiumCookie, queryCount });
  rows.push(media.row);
  const { videoKey } = media;
  if (mediaOnly) {
    await app.close();
    return videoKey;
  }

  step(`${kind}: search load at 1,000 procedures`);
  await measureMembers(baseUrl, searchUrl, premiumCookie, constantBodies, rows);

  step(`${kind}: 10,000 procedures`);
  await insertProcedures(database.db, 1001 - demoCount, 10_000 - demoCount);
  step(`${kind}: searches at 10,000 procedures`);
  await database.db.execute(sql`analyze`);
  const atTenThousand = (await app.inject({ url: '/api/catalog/procedures?page=2' })).json().total as number;
  const latencies: number[] = [];
  // each search twice: a new filter, then paging back to it
  for (let round = 0; round < 2; round++) {
    for (const query of searchQueries) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/catalog/procedures?${query}`, {
        headers: { cookie: premiumCookie },
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`search ${query} failed: ${response.status}`);
      latencies.push(performance.now() - started);
    }
  }
  const p95 = percentile(latencies, 95);
  const searchGoal = kind === 'PGlite' ? 100 : 50;
  rows.push({
    figure: `catalogue search p95 at ${atTenThousand} procedures (${latencies.length} searches, signed in)`,
    value: `${p95.toFixed(1)} ms (p50 ${percentile(latencies, 50).toFixed(1)} ms)`,
    goal: `< ${searchGoal} ms`,
    holds: p95 < searchGoal,
  });

  step(`${kind}: ${watchingMembers} members saving positions while a guest browses`);
  const watching = await measureWatching({
    app,
    database,
    baseUrl,
    origin,
    members: watchingMembers,
    seconds: watchingSeconds,
    signIn,
    password,
  });
  const browseGoal = kind === 'PGlite' ? 100 : 50;
  step(
    `${kind}: catalogue p95 ${watching.alone.p95.toFixed(1)} ms alone, ${watching.loaded.p95.toFixed(1)} ms with ${watching.saves.count} saves (${watching.saves.errors} errors)`,
  );
  rows.push({
    figure: `guest catalogue pages p95, alone (${watching.alone.count} uncached pages in ${watchingSeconds} s)`,
    value: `${watching.alone.p95.toFixed(1)} ms (p50 ${watching.alone.p50.toFixed(1)} ms)`,
    goal: 'info',
    holds: null,
  });
  rows.push({
    figure: `  same while ${watching.members} members save their place every 10 s (${watching.loaded.count} pages)`,
    value: `${watching.loaded.p95.toFixed(1)} ms (p50 ${watching.loaded.p50.toFixed(1)} ms, ×${(watching.loaded.p95 / watching.alone.p95).toFixed(2)})`,
    goal: `< ${browseGoal} ms`,
    holds: watching.loaded.p95 < browseGoal,
  });
  rows.push({
    figure: `  position saves during that time`,
    value: `${watching.saves.count} saved, p95 ${watching.saves.p95.toFixed(1)} ms, ${watching.saves.errors} errors`,
    goal: '0 errors, p95 < 100 ms',
    holds: watching.saves.errors === 0 && watching.saves.p95 < 100,
  });

  rows.push(...(await measureProgressExports({ database, baseUrl, signIn })));
  step(`${kind}: ${userCount} users`);
  await insertUsers(database.db, userCount);
  // what a running site's maintenance would have done as its members signed up one by one: statistics and a vacuum
  // (PGlite's hourly job, decision 023; autovacuum on PostgreSQL, which a bulk load outruns too)
  await maintainTables(database.db);
  await app.close();
  return videoKey;
}
