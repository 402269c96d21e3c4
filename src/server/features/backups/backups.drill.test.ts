import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as tar from 'tar';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '#server/db/client.ts';
import { buildApp } from '#server/app.ts';
import { createLocalStorage } from '#server/services/storage.ts';
import { createMailer } from '#server/services/mail.ts';
import { createTestApp, testConfig, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, loginCookie, signedInAs, testPassword } from '#server/testing/factories.ts';
import { createDiploma, memberRequest, submitExam } from '#server/features/diplomas/diplomas.testing.ts';
import { subscribeAndApprove } from '#server/features/payments/payments.testing.ts';
import { mailOutbox, users, viewingTokens } from '#server/db/schema/index.ts';
import { privacyJobKinds } from '#server/features/privacy/privacy.jobs.ts';
import { listFiles } from './archive.ts';
import { restoreArchive } from './restore.ts';
import { reapplyDeletions } from './reapply-deletions.ts';

// The restore drill: real data through the real app, a backup, a restore into a fresh place, an app on it.
// On PGlite by default; on PostgreSQL (pg_dump/pg_restore) with TEST_DATABASE_URL.
const serverUrl = process.env.TEST_DATABASE_URL;
const dirs: string[] = [];
const emptyDatabases: string[] = [];

async function tempDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'cxvet-backup-'));
  dirs.push(dir);
  return dir;
}

/** Where a restore goes: a fresh folder and, on PostgreSQL, a new empty database. */
async function freshTarget() {
  const dataDir = await tempDir();
  if (!serverUrl) return { dataDir, databaseUrl: undefined };
  const name = `cxvet_restore_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  emptyDatabases.push(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { dataDir, databaseUrl: url.toString() };
}

async function sourceDatabase(dataDir: string): Promise<Database> {
  if (!serverUrl) {
    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    await database.migrate();
    return database;
  }
  const target = await freshTarget();
  const database = await openDatabase({ url: target.databaseUrl });
  await database.migrate();
  return database;
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (Array.isArray(result) ? result : (result as { rows: Record<string, unknown>[] }).rows) as Record<
    string,
    unknown
  >[];
}

/** Every row of every application table, as sorted JSON text per table. */
async function everyRow(database: Database) {
  const tables = rowsOf(
    await database.db.execute(
      sql.raw(
        `select table_schema as s, table_name as n from information_schema.tables where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle') order by 1, 2`,
      ),
    ),
  );
  const all: Record<string, string[]> = {};
  for (const table of tables) {
    const name = `"${String(table.s)}"."${String(table.n)}"`;
    all[name] = rowsOf(
      await database.db.execute(sql.raw(`select row_to_json(t)::text as r from ${name} t order by 1`)),
    ).map((row) => String(row.r));
  }
  return all;
}

/** Rows whose foreign key points at nothing, over every foreign key of the schema. */
async function orphans(database: Database) {
  const keys = rowsOf(
    await database.db.execute(
      sql.raw(`select c.conname as name, c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent,
        (select array_agg(a.attname::text order by k.i) from unnest(c.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n) as child_cols,
        (select array_agg(a.attname::text order by k.i) from unnest(c.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n) as parent_cols
       from pg_constraint c where c.contype = 'f'`),
    ),
  );
  expect(keys.length).toBeGreaterThan(10);
  const found: string[] = [];
  for (const key of keys) {
    const childCols = key.child_cols as string[];
    const parentCols = key.parent_cols as string[];
    const join = childCols.map((column, index) => `p."${parentCols[index]}" = c."${column}"`).join(' and ');
    const present = childCols.map((column) => `c."${column}" is not null`).join(' and ');
    const [row] = rowsOf(
      await database.db.execute(
        sql.raw(
          `select count(*)::int as n from ${String(key.child)} c where ${present} and not exists (select 1 from ${String(key.parent)} p where ${join})`,
        ),
      ),
    );
    if (Number(row!.n) > 0) found.push(`${String(key.name)}: ${Number(row!.n)}`);
  }
  return found;
}

async function openRestored(target: { dataDir: string; databaseUrl: string | undefined }, backupDir?: string) {
  const database = await openDatabase(
    target.databaseUrl ? { url: target.databaseUrl } : { pgliteDir: path.join(target.dataDir, 'db') },
  );
  const config = testConfig({
    dataDir: target.dataDir,
    ...(backupDir ? { backup: { dir: backupDir, schedule: 'off', keep: 7 } } : {}),
  });
  const storage = createLocalStorage(path.join(target.dataDir, 'uploads'));
  const mailer = createMailer({ db: database.db, smtpUrl: undefined, from: config.mailFrom, log: { info() {} } });
  const app = await buildApp({ config, database, storage, mailer, distDir: null });
  await app.ready();
  return { app, database, storage, config, db: database.db };
}

let sourceDataDir: string;
let source: Database;
let t: TestApp;

beforeAll(async () => {
  sourceDataDir = await tempDir();
  source = await sourceDatabase(sourceDataDir);
  t = await createTestApp(
    { dataDir: sourceDataDir, backup: { dir: path.join(sourceDataDir, 'backups'), schedule: 'off', keep: 7 } },
    { database: source },
  );
  // an app on a database passed in leaves its upload folder to the caller
  dirs.push(t.storage.root!);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await source?.close();
  if (serverUrl) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    for (const name of emptyDatabases) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('restore drill', () => {
  it('restores every row and every file byte for byte, and the restored site plays a Premium video to a Premium member', async () => {
    // a member who paid through the (simulated) provider, an Admin, a Basic member
    const payer = await signedInAs(t, { type: 'Gratis', name: 'Begoña Núñez' });
    await subscribeAndApprove(t, payer.cookie);
    const [paid] = await t.db
      .select({ type: users.type })
      .from(users)
      .where(sql`${users.id} = ${payer.user.id}`);
    expect(paid!.type).toBe('Premium');
    await signedInAs(t, { type: 'Admin' });
    await signedInAs(t, { type: 'Gratis' });
    // uploads: a Premium procedure's four files and a diploma's videos; a certificate issued from its exam
    const procedure = await createProcedure(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { memberIds: [payer.user.id], examQuestions: [1] });
    expect((await submitExam(t, payer.cookie, diploma.id, diploma.exams[0]!, 1)).statusCode).toBe(200);
    const certificate = await memberRequest(t, payer.cookie, 'GET', `/api/diplomas/${diploma.id}/certificate.pdf`);
    expect(certificate.statusCode).toBe(200);
    // an upload through the console's endpoint
    await t.storage.put(
      'landing/1700000000000_banner.png',
      (await import('node:stream')).Readable.from([Buffer.from('banner')]),
    );
    // a picture's narrower copy, which a restored site makes again: not backed up
    const copy = 'variants/w360/landing/1700000000000_banner.png.webp';
    await t.storage.put(copy, (await import('node:stream')).Readable.from([Buffer.from('copy')]));

    const run = await t.app.services.backups.run('comando');
    expect(run).toMatchObject({ status: 'succeeded', error: null });
    expect(run.fileCount).toBeGreaterThanOrEqual(8);
    const archive = path.join(sourceDataDir, 'backups', run.fileName!);

    const target = await freshTarget();
    const manifest = await restoreArchive(archive, target);
    expect(manifest.database.kind).toBe(serverUrl ? 'postgres' : 'pglite');
    expect(manifest.migration.last).toMatch(/^\d{4}_/);

    const restored = await openRestored(target);
    try {
      const { '"public"."backup_runs"': restoredRuns, ...restoredRows } = await everyRow(restored.database);
      const { '"public"."backup_runs"': sourceRuns, ...sourceRows } = await everyRow(source);
      expect(restoredRows).toEqual(sourceRows);
      // the backup's own record, 'running' inside its snapshot, is restored as the succeeded backup it became
      const pick = (row: string) => {
        const { id, status, file_name, size_bytes, file_count } = JSON.parse(row) as Record<string, unknown>;
        return { id, status, file_name, size_bytes, file_count };
      };
      expect(restoredRuns!.map(pick)).toEqual(sourceRuns!.map(pick));
      const sourceFiles = (await listFiles(t.storage.root!)).filter((file) => file !== copy);
      expect(sourceFiles.length).toBeGreaterThanOrEqual(8);
      expect(await listFiles(path.join(target.dataDir, 'uploads'))).toEqual(sourceFiles);
      expect(manifest.files.map((file) => file.path)).not.toContain(copy);
      for (const file of sourceFiles) {
        const [before, after] = await Promise.all([
          readFile(path.join(t.storage.root!, file)),
          readFile(path.join(target.dataDir, 'uploads', file)),
        ]);
        expect(Buffer.compare(before, after), file).toBe(0);
      }
      // the restored site: the Premium member signs in again and plays the full video
      const restoredApp = {
        ...t,
        app: restored.app,
        db: restored.db,
        storage: restored.storage,
        database: restored.database,
      } as unknown as TestApp;
      const cookie = await loginCookie(restoredApp, payer.user.email);
      const token = (
        await restored.app.inject({
          method: 'POST',
          url: '/api/viewing/token',
          headers: { cookie, origin: testPublicUrl },
        })
      ).json().token as string;
      const video = await restored.app.inject({
        url: `/media/${procedure.fullVideo}?vt=${token}`,
        headers: { cookie },
      });
      expect(video.statusCode).toBe(200);
      expect(Buffer.compare(video.rawPayload, await readFile(path.join(t.storage.root!, procedure.fullVideo!)))).toBe(
        0,
      );
      // and still refuses it to a guest
      expect((await restored.app.inject({ url: `/media/${procedure.fullVideo}` })).statusCode).not.toBe(200);
      const again = await memberRequest(restoredApp, cookie, 'GET', `/api/diplomas/${diploma.id}/certificate.pdf`);
      expect(Buffer.compare(again.rawPayload, certificate.rawPayload)).toBe(0);
    } finally {
      await restored.app.close();
      await restored.database.close();
    }
  }, 300_000);

  it('keeps deleted accounts deleted when an older backup is restored: the ledger beside the backups is applied again at start', async () => {
    const leaver = await signedInAs(t, {
      type: 'Gratis',
      name: 'Rocío Desaparecida',
      email: 'rocio.desaparecida@example.com',
    });
    const removed = await signedInAs(t, { type: 'Gratis', email: 'quitado@example.com' });
    const run = await t.app.services.backups.run('comando');
    expect(run.status).toBe('succeeded');
    // after the backup: the member deletes her account, and an Admin deletes another one from the console
    await t.app.services.privacy.deleteOwnAccount(leaver.user as never, {
      password: testPassword,
      certificates: 'revoke',
    });
    const boss = await signedInAs(t, { type: 'Admin' });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${removed.user.id}`,
      headers: { cookie: boss.cookie, origin: testPublicUrl },
    });
    expect(deleted.statusCode).toBe(204);

    const target = await freshTarget();
    await restoreArchive(path.join(sourceDataDir, 'backups', run.fileName!), target);
    const restored = await openRestored(target, path.join(sourceDataDir, 'backups'));
    try {
      const [before] = await restored.db.select().from(users).where(eq(users.id, leaver.user.id));
      expect(before).toMatchObject({ name: 'Rocío Desaparecida', anonymizedAt: null });
      await restored.app.services.jobs.schedule(privacyJobKinds.reconcile, { uniqueKey: privacyJobKinds.reconcile });
      await restored.app.services.jobs.runDue();
      const [after] = await restored.db.select().from(users).where(eq(users.id, leaver.user.id));
      expect(after!.name).not.toBe('Rocío Desaparecida');
      expect(after!.email).not.toBe('rocio.desaparecida@example.com');
      expect(after!.anonymizedAt).not.toBeNull();
      // the console's deletion (a row the restore brought back) is applied again too
      expect(
        (await restored.db.select().from(users).where(eq(users.id, removed.user.id)))[0]!.anonymizedAt,
      ).not.toBeNull();
      // nobody is mailed twice, and the deleted member cannot sign in on the restored site
      expect(
        await restored.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'rocio.desaparecida@example.com')),
      ).toHaveLength(0);
      const signIn = await restored.app.inject({
        method: 'POST',
        url: '/api/account/login',
        headers: { origin: testPublicUrl },
        payload: { email: 'rocio.desaparecida@example.com', password: testPassword },
      });
      expect(signIn.statusCode).not.toBe(200);
      // a second start finds nothing more to do
      expect(await restored.app.services.privacy.reconcileDeletions()).toEqual({ replayed: 0, recorded: 0 });
    } finally {
      await restored.app.close();
      await restored.database.close();
    }
  }, 300_000);

  it('keeps deleted accounts deleted after a restore into a fresh place whose own ledger is empty: restore applies the one beside the archive', async () => {
    const leaver = await signedInAs(t, { type: 'Gratis', name: 'Nora Borrada', email: 'nora.borrada@example.com' });
    const run = await t.app.services.backups.run('comando');
    expect(run.status).toBe('succeeded');
    await t.app.services.privacy.deleteOwnAccount(leaver.user as never, {
      password: testPassword,
      certificates: 'keep',
    });

    const target = await freshTarget();
    const archive = path.join(sourceDataDir, 'backups', run.fileName!);
    await restoreArchive(archive, target);
    // the new place has a ledger of its own, empty: the deletion is known only beside the archive
    const sharedLedger = path.join(await tempDir(), 'cuentas-eliminadas.jsonl');
    const config = testConfig({
      dataDir: target.dataDir,
      databaseUrl: target.databaseUrl,
      deletionLedgerPath: sharedLedger,
    });
    const outcome = await reapplyDeletions({ archive, config });
    expect(outcome.replayed).toBeGreaterThanOrEqual(1);
    expect(outcome.ledger).toBe(sharedLedger);
    expect(await readFile(sharedLedger, 'utf8')).toContain(leaver.user.id);

    const restored = await openRestored(target);
    try {
      const [row] = await restored.db.select().from(users).where(eq(users.id, leaver.user.id));
      expect(row!.anonymizedAt).not.toBeNull();
      expect(row!.email).not.toBe('nora.borrada@example.com');
      const signIn = await restored.app.inject({
        method: 'POST',
        url: '/api/account/login',
        headers: { origin: testPublicUrl },
        payload: { email: 'nora.borrada@example.com', password: testPassword },
      });
      expect(signIn.statusCode).not.toBe(200);
    } finally {
      await restored.app.close();
      await restored.database.close();
    }
  }, 300_000);

  it('backs up during 50 concurrent writes to a state where every transaction is whole and no row points at a missing one', async () => {
    const marker = `drill-${randomUUID().slice(0, 8)}`;
    // each write: a member and their viewing token in one transaction
    const write = (index: number) =>
      t.db.transaction(async (tx) => {
        const id = `${marker}-${index}`;
        await tx.insert(users).values({ id, name: 'Concurrente', email: `${id}@example.com` });
        await tx.insert(viewingTokens).values({ userId: id, token: marker });
      });
    const writes = Array.from({ length: 50 }, (_, index) => write(index));
    // the backup starts while the writes are in flight
    const run = t.app.services.backups.run('comando');
    await Promise.all(writes);
    const finished = await run;
    expect(finished.status).toBe('succeeded');

    const target = await freshTarget();
    await restoreArchive(path.join(sourceDataDir, 'backups', finished.fileName!), target);
    const restored = await openDatabase(
      target.databaseUrl ? { url: target.databaseUrl } : { pgliteDir: path.join(target.dataDir, 'db') },
    );
    try {
      const [members] = rowsOf(
        await restored.db.execute(sql`select count(*)::int as n from users where id like ${`${marker}-%`}`),
      );
      const [tokens] = rowsOf(
        await restored.db.execute(sql`select count(*)::int as n from viewing_tokens where token = ${marker}`),
      );
      expect(Number(tokens!.n)).toBe(Number(members!.n));
      expect(await orphans(restored)).toEqual([]);
    } finally {
      await restored.close();
    }
  }, 300_000);
});

describe.skipIf(Boolean(serverUrl))('the embedded database during a backup', () => {
  it('answers requests while its data folder is being copied, and the backup still holds what they wrote', async () => {
    const backupDir = path.join(sourceDataDir, 'backups');
    const stagingCopies = async () =>
      (await readdir(backupDir).catch(() => [] as string[]))
        .filter((name) => name.startsWith('.staging-'))
        .map((name) => path.join(backupDir, name));
    const run = t.app.services.backups.run('comando');
    // the folder's first copy has begun
    let staging: string | undefined;
    while (!staging) {
      for (const dir of await stagingCopies()) if (existsSync(path.join(dir, 'pgdata'))) staging = dir;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const marker = `durante-${randomUUID().slice(0, 8)}`;
    await t.db.insert(users).values({ id: marker, name: 'Durante la copia', email: `${marker}@example.com` });
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    // answered before the copy was tarred: the database was not held while its folder was copied
    expect(existsSync(path.join(staging, 'database', 'pglite-datadir.tar'))).toBe(false);
    const finished = await run;
    expect(finished.status).toBe('succeeded');

    const target = await freshTarget();
    await restoreArchive(path.join(backupDir, finished.fileName!), target);
    const restored = await openDatabase({ pgliteDir: path.join(target.dataDir, 'db') });
    try {
      expect(await restored.db.select({ id: users.id }).from(users).where(eq(users.id, marker))).toEqual([
        { id: marker },
      ]);
      expect(await orphans(restored)).toEqual([]);
    } finally {
      await restored.close();
    }
  }, 300_000);
});

describe('refusals', () => {
  it('refuses a damaged archive, an archive with a changed file, and a non-empty target without --force', async () => {
    const run = await t.app.services.backups.run('comando');
    expect(run.status).toBe('succeeded');
    const archive = path.join(sourceDataDir, 'backups', run.fileName!);
    const bytes = await readFile(archive);

    const truncated = path.join(await tempDir(), 'truncado.tar.gz');
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(restoreArchive(truncated, await freshTarget())).rejects.toThrow(/dañado o incompleto/);

    // one upload changed inside an otherwise well-formed archive
    const unpacked = await tempDir();
    await tar.x({ file: archive, cwd: unpacked });
    const manifest = JSON.parse(await readFile(path.join(unpacked, 'manifest.json'), 'utf8')) as {
      files: { path: string }[];
    };
    const victim = path.join(unpacked, 'uploads', manifest.files[0]!.path);
    const original = await readFile(victim);
    await writeFile(
      victim,
      Buffer.concat([original.subarray(0, original.length - 1), Buffer.from([original[original.length - 1]! ^ 1])]),
    );
    const tampered = path.join(await tempDir(), 'alterado.tar.gz');
    await tar.c({ file: tampered, gzip: true, cwd: unpacked }, await readdir(unpacked));
    await expect(restoreArchive(tampered, await freshTarget())).rejects.toThrow(/suma de control/);

    // a target that already holds data is refused, and nothing in it is touched
    const occupied = await freshTarget();
    await restoreArchive(archive, occupied);
    const before = await listFiles(path.join(occupied.dataDir, 'uploads'));
    await expect(restoreArchive(archive, occupied)).rejects.toThrow(/no est(á|án) vacías?.*--force/);
    expect(await listFiles(path.join(occupied.dataDir, 'uploads'))).toEqual(before);
    // with --force it is replaced (the PGlite folder and uploads kept aside)
    await expect(restoreArchive(archive, { ...occupied, force: true })).resolves.toMatchObject({ format: 1 });
  }, 300_000);
});
