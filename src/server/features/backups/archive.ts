import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { copyFile, cp, link, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip, createGzip } from 'node:zlib';
import * as tar from 'tar';
import pg from 'pg';
import { z } from 'zod';
import type { Database } from '#server/db/client.ts';
import { migrationsFolder } from '#server/db/migrations-folder.ts';
import { BackupError } from './backup-error.ts';

const manifestName = 'manifest.json';
const pgliteDumpName = 'database/pglite-datadir.tar';
const postgresDumpName = 'database/postgres.pgdump';
const secretName = 'secrets/session-secret';

const fileEntry = z.object({
  path: z.string(),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const manifestSchema = z.object({
  format: z.literal(1),
  createdAt: z.string(),
  appVersion: z.string(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), file: fileEntry }),
  migration: z.object({ last: z.string().nullable(), count: z.number().int().min(0) }),
  tables: z.record(z.string(), z.number().int().min(0)),
  fileCount: z.number().int().min(0),
  files: z.array(fileEntry),
  secret: fileEntry.nullable(),
  /** The backup_runs row of this backup: the snapshot holds it as 'running', the restore records it as succeeded. */
  runId: z.number().int().nullable(),
});
export type Manifest = z.infer<typeof manifestSchema>;

const appVersion: string = (() => {
  try {
    return (
      JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'desconocida';
  }
})();

type Journal = { entries: { idx: number; when: number; tag: string }[] };
function journal(): Journal {
  return JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

export function archiveFileName(date: Date): string {
  const iso = date.toISOString(); // 2026-11-23T21:30:00.123Z
  return `cxvet-respaldo-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}-${iso.slice(20, 23)}.tar.gz`;
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function entryFor(root: string, relative: string) {
  const file = path.join(root, ...relative.split('/'));
  return { path: relative, size: (await stat(file)).size, sha256: await sha256File(file) };
}

/** Every regular file under `root`, as slash-separated relative paths, sorted; half-written uploads (.part) are skipped. */
async function listFiles(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.part'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

type Rows = { rows: Record<string, unknown>[] };
type Query = (text: string) => Promise<Rows>;

// pg_catalog rather than information_schema: the same list, several times faster on PGlite
const tablesSql = `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and n.nspname in ('public', 'drizzle') order by 1, 2`;

/** Row counts of every application table and the last applied migration, read inside the snapshot. */
async function describe(query: Query) {
  const tables: Record<string, number> = {};
  for (const row of (await query(tablesSql)).rows) {
    const name = `${String(row.schema)}.${String(row.name)}`;
    const counted = await query(`select count(*)::int as n from "${String(row.schema)}"."${String(row.name)}"`);
    tables[name] = Number(counted.rows[0]!.n);
  }
  let migration: Manifest['migration'] = { last: null, count: 0 };
  if ('drizzle.__drizzle_migrations' in tables) {
    const last = (await query('select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1'))
      .rows[0];
    const when = last ? Number(last.created_at) : null;
    migration = {
      last: journal().entries.find((entry) => entry.when === when)?.tag ?? (when ? `desconocida (${when})` : null),
      count: tables['drizzle.__drizzle_migrations']!,
    };
  }
  return { tables, migration };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(`No se encontró ${command}: instala el cliente de PostgreSQL (paquete postgresql-client).`)
          : error,
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${command} terminó con el código ${code}: ${stderr.trim()}`)),
    );
  });
}

/**
 * Brings `to`, a copy of `from` taken from `since` on, up to date: every file written since then (its mtime, which
 * PostgreSQL never sets back) is copied again, files gone from `from` are removed. The margin covers the coarse
 * clock file times are taken from.
 */
async function refreshCopy(from: string, to: string, since: number) {
  const marginMs = 2000;
  const present = new Set<string>();
  for (const relative of await readdir(from, { recursive: true })) {
    present.add(relative);
    const source = path.join(from, relative);
    const info = await stat(source);
    if (info.isDirectory()) {
      await mkdir(path.join(to, relative), { recursive: true });
      continue;
    }
    if (info.mtimeMs < since - marginMs && existsSync(path.join(to, relative))) continue;
    await copyFile(source, path.join(to, relative));
  }
  for (const relative of await readdir(to, { recursive: true })) {
    if (!present.has(relative)) await rm(path.join(to, relative), { recursive: true, force: true });
  }
}

/** The system's cp (native, a fraction of the time of Node's recursive copy), else Node's. */
async function copyFolder(from: string, to: string) {
  try {
    await run('cp', ['-a', from, to]);
  } catch {
    await rm(to, { recursive: true, force: true });
    await cp(from, to, { recursive: true });
  }
}

/** pg_dump and pg_restore take the URL in the environment, so the password never shows in a process list. */
function libpqEnv(url: string): NodeJS.ProcessEnv {
  const parsed = new URL(url);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PGHOST: parsed.hostname,
    PGPORT: parsed.port || '5432',
    PGDATABASE: decodeURIComponent(parsed.pathname.slice(1)),
  };
  if (parsed.username) env.PGUSER = decodeURIComponent(parsed.username);
  if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
  const sslmode = parsed.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

/**
 * Takes the database snapshot into `stagingDir` and returns what the manifest says about it. PGlite: inside one
 * transaction (PGlite runs one at a time, so nothing commits meanwhile) the tables are counted and the data folder
 * tarred; PostgreSQL: a repeatable-read snapshot is counted and handed to pg_dump.
 */
async function snapshotDatabase(database: Database, stagingDir: string) {
  await mkdir(path.join(stagingDir, 'database'), { recursive: true });
  if (database.pglite) {
    const client = database.pglite;
    const dumpFile = path.join(stagingDir, pgliteDumpName);
    // fewer WAL records to replay when the copy is opened; runs between requests like any query
    await client.exec('checkpoint');
    const folder = client.dataDir;
    if (folder && !folder.includes('://') && existsSync(path.join(folder, 'PG_VERSION'))) {
      // PGlite writes straight through to this folder and has no background writer: while a transaction holds
      // PGlite's only connection, the folder is still. The whole folder is copied first while requests go on (the
      // copy may be torn), then, holding the connection, only the files written since the copy began are copied
      // again: the database stops for what the evening wrote, not for seconds of copying (decision 053). Then it is
      // tarred the way PGlite's own dumpDataDir lays it out.
      const copy = path.join(stagingDir, 'pgdata');
      const copyStarted = Date.now();
      await copyFolder(folder, copy);
      const summary = await client.transaction(async (tx) => {
        const described = await describe((text) => tx.query(text));
        await refreshCopy(folder, copy, copyStarted);
        return described;
      });
      await pipeline(tar.c({ cwd: copy, portable: true }, await readdir(copy)), createWriteStream(dumpFile));
      await rm(copy, { recursive: true, force: true });
      return { ...summary, dumpName: pgliteDumpName };
    }
    // in memory (tests): PGlite's own tarball, taken while no transaction runs
    const { summary, blob } = await client.transaction(async (tx) => ({
      summary: await describe((text) => tx.query(text)),
      blob: await client.dumpDataDir('none'),
    }));
    await pipeline(Readable.fromWeb(blob.stream() as WebReadableStream), createWriteStream(dumpFile));
    return { ...summary, dumpName: pgliteDumpName };
  }
  if (!database.url) throw new Error('database without url or PGlite client');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
    const described = await describe((text) => client.query(text));
    await run(
      'pg_dump',
      [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--snapshot=${snapshot}`,
        `--file=${path.join(stagingDir, postgresDumpName)}`,
      ],
      libpqEnv(database.url),
    );
    await client.query('commit');
    return { ...described, dumpName: postgresDumpName };
  } finally {
    await client.end();
  }
}

// pictures' narrower copies (picture-variants.ts): made again from their picture the first time they are asked for
const regeneratedFolder = 'variants/';

/**
 * Links each upload into the staging folder (a rename or delete afterwards does not touch it); copies across disks.
 * Pictures' narrower copies are left out: about 42 KB per picture, and made again after a restore.
 */
async function stageUploads(uploadsRoot: string, stagingDir: string) {
  const files = (await listFiles(uploadsRoot)).filter((relative) => !relative.startsWith(regeneratedFolder));
  const staged: string[] = [];
  for (const relative of files) {
    const source = path.join(uploadsRoot, ...relative.split('/'));
    const target = path.join(stagingDir, 'uploads', ...relative.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await link(source, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // deleted since the listing: it was deleted after the database snapshot too, or will be
      if (code === 'ENOENT') continue;
      if (code !== 'EXDEV' && code !== 'EPERM') throw error;
      try {
        await copyFile(source, target);
      } catch (copyError) {
        if ((copyError as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw copyError;
      }
    }
    staged.push(relative);
  }
  return staged;
}

export type CreatedArchive = {
  fileName: string;
  path: string;
  sizeBytes: number;
  fileCount: number;
  manifest: Manifest;
};

/**
 * Writes one archive (manifest, database dump, uploads, session secret) into `backupDir`. The gzip runs in
 * zlib's thread pool and the files stream, so requests keep being served; the archive is written under a hidden
 * temporary name and renamed when complete, so a crash never leaves a file that looks like a backup.
 */
export async function createArchive(input: {
  database: Database;
  uploadsRoot: string;
  backupDir: string;
  sessionSecretFile?: string;
  now?: Date;
  runId?: number;
}): Promise<CreatedArchive> {
  const now = input.now ?? new Date();
  await mkdir(input.backupDir, { recursive: true });
  const fileName = archiveFileName(now);
  const stagingDir = path.join(input.backupDir, `.staging-${randomUUID()}`);
  const partial = path.join(input.backupDir, `.${fileName}.${randomUUID()}.partial`);
  await mkdir(stagingDir, { recursive: true, mode: 0o700 });
  try {
    const { tables, migration, dumpName } = await snapshotDatabase(input.database, stagingDir);
    const uploads = await stageUploads(input.uploadsRoot, stagingDir);
    let secret: Manifest['secret'] = null;
    if (input.sessionSecretFile && existsSync(input.sessionSecretFile)) {
      await mkdir(path.join(stagingDir, 'secrets'), { recursive: true });
      await copyFile(input.sessionSecretFile, path.join(stagingDir, secretName));
      secret = await entryFor(stagingDir, secretName);
    }
    const files: Manifest['files'] = [];
    for (const relative of uploads) {
      const entry = await entryFor(stagingDir, `uploads/${relative}`);
      files.push({ ...entry, path: relative });
    }
    const manifest: Manifest = {
      format: 1,
      createdAt: now.toISOString(),
      appVersion,
      database: { kind: input.database.kind, file: await entryFor(stagingDir, dumpName) },
      migration,
      tables,
      fileCount: files.length,
      files,
      secret,
      runId: input.runId ?? null,
    };
    await writeFile(path.join(stagingDir, manifestName), JSON.stringify(manifest, null, 2));
    const entries = [
      manifestName,
      'database',
      ...(existsSync(path.join(stagingDir, 'uploads')) ? ['uploads'] : []),
      ...(secret ? ['secrets'] : []),
    ];
    await pipeline(
      tar.c({ cwd: stagingDir, portable: true }, entries),
      createGzip(),
      createWriteStream(partial, { mode: 0o600 }),
    );
    const handle = await open(partial, 'r');
    await handle.sync();
    await handle.close();
    const target = path.join(input.backupDir, fileName);
    await rename(partial, target);
    return { fileName, path: target, sizeBytes: (await stat(target)).size, fileCount: files.length, manifest };
  } finally {
    await rm(stagingDir, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/** Unpacks an archive into `workDir` and checks every byte against the manifest; a damaged archive is refused. */
export async function unpackAndVerify(archive: string, workDir: string): Promise<Manifest> {
  if (!existsSync(archive)) throw new BackupError(`No existe el archivo ${archive}.`);
  await mkdir(workDir, { recursive: true, mode: 0o700 });
  try {
    await pipeline(
      createReadStream(archive),
      createGunzip(),
      tar.x({ cwd: workDir, strict: true, preservePaths: false }),
    );
  } catch {
    throw new BackupError(`El archivo ${path.basename(archive)} está dañado o incompleto: no se pudo descomprimir.`);
  }
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(await readFile(path.join(workDir, manifestName), 'utf8')));
  } catch {
    throw new BackupError(
      `El archivo ${path.basename(archive)} no es un respaldo de CxVet: falta su manifiesto o no es válido.`,
    );
  }
  const expected: Manifest['files'] = [
    manifest.database.file,
    ...manifest.files.map((file) => ({ ...file, path: `uploads/${file.path}` })),
    ...(manifest.secret ? [manifest.secret] : []),
  ];
  for (const file of expected) {
    const on = path.join(workDir, ...file.path.split('/'));
    if (path.relative(workDir, on).startsWith('..'))
      throw new BackupError(`El respaldo nombra una ruta no válida: ${file.path}.`);
    const actual = existsSync(on) ? await entryFor(workDir, file.path) : null;
    if (!actual) throw new BackupError(`El respaldo está incompleto: falta ${file.path}.`);
    if (actual.size !== file.size || actual.sha256 !== file.sha256) {
      throw new BackupError(`El respaldo está dañado: ${file.path} no coincide con su suma de control.`);
    }
  }
  const listed = new Set(expected.map((file) => file.path));
  const extra = (await listFiles(workDir)).filter((file) => file !== manifestName && !listed.has(file));
  if (extra.length > 0)
    throw new BackupError(`El respaldo contiene archivos que su manifiesto no nombra (${extra[0]}).`);
  const known = journal().entries.map((entry) => entry.tag);
  if (manifest.migration.last && !known.includes(manifest.migration.last)) {
    throw new BackupError(
      `El respaldo es de una versión más nueva de CxVet (migración ${manifest.migration.last}): actualiza la aplicación antes de restaurarlo.`,
    );
  }
  return manifest;
}

export { pgliteDumpName, postgresDumpName, secretName, describe, listFiles, run, libpqEnv };
