import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '#server/testing/nginx.ts';
import { testConfig } from '#server/testing/test-app.ts';
import { openDatabase } from './client.ts';
import { openConfiguredDatabase } from './open-from-config.ts';
import { serveDataDir } from './psql-server.ts';

// npm run db:psql: the data folder's PGlite over the wire protocol, holding the folder's lock like the server
let dataDir: string;

async function count(url: string, sql: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
  } finally {
    await client.end();
  }
}

// the data folder's PGlite whatever TEST_DATABASE_URL says: the PostgreSQL pass would repeat it as is
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('npm run db:psql', () => {
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-psql-'));
    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    await database.migrate();
    await database.close();
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it('serves the migrated database to a PostgreSQL client on the loopback, and frees the folder when closed', async () => {
    const port = await freePort();
    const served = await serveDataDir({ dataDir, port });
    try {
      expect(served.url).toBe(`postgres://postgres@127.0.0.1:${port}/postgres`);
      expect(await count(served.url, 'select count(*) as n from drizzle.__drizzle_migrations')).toBeGreaterThan(0);
      expect(await count(served.url, "select count(*) as n from pg_extension where extname = 'pg_trgm'")).toBe(1);
    } finally {
      await served.close();
    }
    expect(existsSync(path.join(dataDir, 'cxvet.lock'))).toBe(false);
  });

  it('refuses while the server holds the data folder', async () => {
    const server = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    await writeFile(path.join(dataDir, 'cxvet.lock'), String(server.pid));
    try {
      await expect(serveDataDir({ dataDir, port: await freePort() })).rejects.toThrow(
        `La carpeta de datos ${dataDir} ya está en uso por el proceso ${server.pid}`,
      );
    } finally {
      server.kill();
      await new Promise((resolve) => server.once('exit', resolve));
      await rm(path.join(dataDir, 'cxvet.lock'), { force: true });
    }
  });

  it('refuses a folder the server never created a database in', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'cxvet-psql-empty-'));
    await expect(serveDataDir({ dataDir: empty, port: await freePort() })).rejects.toThrow(/npm start/);
    await rm(empty, { recursive: true, force: true });
  });

  it('as a command: the server cannot open the folder while it runs, and Ctrl-C frees it', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DB_PSQL_PORT: String(port) };
    delete env.DATABASE_URL;
    const cli = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'psql-cli.ts')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    cli.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    cli.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => cli.once('exit', resolve));
    await expect
      .poll(() => output, { timeout: 60_000, interval: 200 })
      .toContain(`psql -h 127.0.0.1 -p ${port} -U postgres`);
    expect(await count(`postgres://postgres@127.0.0.1:${port}/postgres`, 'select 1 as n')).toBe(1);

    // what npm start does first
    await expect(openConfiguredDatabase(testConfig({ dataDir }))).rejects.toThrow(
      `ya está en uso por el proceso ${cli.pid}`,
    );

    cli.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'cxvet.lock'))).toBe(false);
  }, 90_000);
});
