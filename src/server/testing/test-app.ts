import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Config } from '#server/config.ts';
import { openDatabase, type Database } from '#server/db/client.ts';
import { migrationsFolder } from '#server/db/migrations-folder.ts';
import { buildApp, type AppDeps } from '#server/app.ts';
import { createLocalStorage, type FileStorage } from '#server/services/storage.ts';
import { createMailer } from '#server/services/mail.ts';
import { ltiKeyFor } from '#server/features/lti/lti-key.ts';

export const testPublicUrl = 'http://localhost:3000';

const newRsaPem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

/** One RSA key per test process: generating one per app would cost a tenth of a second each. */
let testLtiKey: Config['ltiKey'];

export function testConfig(overrides: Partial<Config> = {}): Config {
  testLtiKey ??= ltiKeyFor({ LTI_SIGNING_KEY: newRsaPem() }, '/nonexistent');
  return {
    port: 0,
    host: '127.0.0.1',
    publicUrl: testPublicUrl,
    dataDir: '/nonexistent',
    databaseUrl: undefined,
    admin: undefined,
    seedDemo: false,
    smtpUrl: undefined,
    mailFrom: 'CxVet <no-responder@cxvet.com>',
    contactEmail: 'contacto@cxvet.com',
    certificatePlace: 'Ciudad de México',
    paymentsProviders: ['simulado'],
    paymentsProvider: 'simulado',
    storage: 'local',
    signedUrlSeconds: 300,
    sessionSecret: 'test-secret-test-secret-test-secret-0123',
    credentialsKey: { seed: Buffer.alloc(32, 7), previousPublicKeys: [] },
    ltiKey: testLtiKey,
    trustProxy: 0,
    signInLimits: { perAccountAndIp: 10, perAccount: 30, perIp: 300 },
    signUpsPerTenMinutes: 20,
    production: false,
    secureCookies: false,
    logLevel: 'silent',
    backup: { dir: '/nonexistent/backups', schedule: 'off', keep: 7 },
    timeZone: 'America/Mexico_City',
    ...overrides,
  };
}

let migrationsDigest: Promise<string> | undefined;

/**
 * A short hash of the migrations, read once per process (they do not change while the tests run, and a worker
 * makes hundreds of databases): a template made from other migrations is never used.
 */
function migrationsHash(): Promise<string> {
  migrationsDigest ??= (async () => {
    const files = (await readdir(migrationsFolder, { recursive: true }))
      .filter((file) => /\.(sql|json)$/.test(file))
      .sort();
    const hash = createHash('sha256');
    for (const file of files) hash.update(file).update(await readFile(path.join(migrationsFolder, file)));
    return hash.digest('hex').slice(0, 16);
  })();
  return migrationsDigest;
}

/**
 * A migrated PGlite cluster as a tarball, made once per set of migrations and shared by every test
 * worker through a file: starting from it skips initdb and the migrations (seconds per test file).
 */
async function migratedPgliteTemplate(): Promise<Blob> {
  // the PGlite build too: a newer PostgreSQL cannot start from an older one's cluster
  const pglitePackage = await readFile(
    path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json'),
  );
  const key = createHash('sha256')
    .update(await migrationsHash())
    .update(pglitePackage)
    .digest('hex')
    .slice(0, 16);
  const file = path.join(tmpdir(), `cxvet-pglite-template-${key}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    await database.migrate();
    const dumped = await database.pglite!.dumpDataDir('none');
    const dump = dumped instanceof Blob ? dumped : new Blob([dumped]);
    await database.close();
    // written under a unique name, then renamed: a worker never reads a half-written template
    const partial = `${file}.${randomUUID()}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    // templates of older migrations are 40 MB each: drop them (another checkout remakes its own if needed)
    for (const stale of (await readdir(tmpdir())).filter((name) => /^cxvet-pglite-template-\w+\.tar$/.test(name))) {
      if (path.join(tmpdir(), stale) !== file) await rm(path.join(tmpdir(), stale), { force: true });
    }
    return dump;
  }
}

/**
 * The name of a migrated database on TEST_DATABASE_URL's server that test databases are copied from
 * (CREATE DATABASE … TEMPLATE): a copy takes a fraction of what thirty migrations take on a fresh database,
 * each committed and flushed to disk. Made once per set of migrations, by one worker while the others wait on an
 * advisory lock; it is built under another name and renamed when complete, so a crash never leaves a half-made one.
 */
async function migratedPostgresTemplate(admin: pg.Client, serverUrl: string): Promise<string> {
  const template = `cxvet_template_${await migrationsHash()}`;
  const exists = async () =>
    (await admin.query('select 1 from pg_database where datname = $1', [template])).rowCount === 1;
  if (await exists()) return template;
  // any fixed key: only the test helpers take it
  const lockKey = 727_001;
  await admin.query('select pg_advisory_lock($1)', [lockKey]);
  try {
    if (await exists()) return template;
    const building = `cxvet_template_building_${randomUUID().replaceAll('-', '')}`;
    await admin.query(`create database ${building}`);
    const url = new URL(serverUrl);
    url.pathname = `/${building}`;
    const database = await openDatabase({ url: url.toString() });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    await admin.query(`alter database ${building} rename to ${template}`);
    // templates of older migrations, and any left half-built by a crash, are dropped
    const stale = await admin.query<{ datname: string }>(
      "select datname from pg_database where datname like 'cxvet\\_template\\_%' and datname <> $1",
      [template],
    );
    for (const { datname } of stale.rows) await admin.query(`drop database if exists ${datname} with (force)`);
    return template;
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [lockKey]);
  }
}

/** A fresh database per call: in-memory PGlite, or a new database on TEST_DATABASE_URL's server. */
export async function createTestDatabase(
  onQuery?: (query: string) => void,
): Promise<Database & { drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({
      pgliteDir: 'memory://',
      pgliteTemplate: await migratedPgliteTemplate(),
      onQuery,
    });
    await database.migrate();
    return Object.assign(database, { drop: async () => {} });
  }
  const name = `cxvet_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${await migratedPostgresTemplate(admin, serverUrl)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), onQuery });
  await database.migrate();
  return Object.assign(database, {
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  });
}

/**
 * The real app on a fresh database and a temporary upload folder. With `on`, the app runs on that
 * database instead and close() leaves it open: a restart is closing one app and building another.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  on?: { database: Database },
  options: {
    logStream?: NodeJS.WritableStream;
    onQuery?: (query: string) => void;
    storage?: FileStorage;
    /** A built web app's folder: the server sends its pages (index.html) too. */
    distDir?: string;
    /** Providers holding subscriptions beside the configured one. */
    otherSubscriptionProviders?: AppDeps['otherSubscriptionProviders'];
  } = {},
) {
  const owned = on ? null : await createTestDatabase(options.onQuery);
  // a database passed in is the caller's to drop
  const database: Database & { drop(): Promise<void> } = owned ?? { ...on!.database, drop: async () => {} };
  const uploads = await mkdtemp(path.join(tmpdir(), 'cxvet-test-'));
  // a store passed in (an S3 test bucket) is the caller's to close
  const storage = options.storage ?? createLocalStorage(uploads);
  const config = testConfig(overrides);
  const mailer = createMailer({ db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom, log: { info() {} } });
  const app = await buildApp({
    config,
    database,
    storage,
    mailer,
    distDir: options.distDir ?? null,
    logStream: options.logStream,
    otherSubscriptionProviders: options.otherSubscriptionProviders,
  });
  await app.ready();
  return {
    app,
    database,
    db: database.db,
    storage,
    config,
    async close() {
      await app.close();
      if (!owned) return;
      await owned.close();
      await owned.drop();
      await rm(uploads, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
