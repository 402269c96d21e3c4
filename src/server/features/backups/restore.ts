import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { and, eq, sql } from 'drizzle-orm';
import { backupRuns } from '#server/db/schema/index.ts';
import { openDatabase } from '#server/db/client.ts';
import { lockOutServers } from '#server/db/server-lock.ts';
import { BackupError } from './backup-error.ts';
import {
  describe,
  libpqEnv,
  pgliteDumpName,
  postgresDumpName,
  run,
  secretName,
  unpackAndVerify,
  type Manifest,
} from './archive.ts';

export type RestoreTarget = {
  /** DATA_DIR: uploads go to DATA_DIR/uploads, PGlite to DATA_DIR/db, the session secret to DATA_DIR/session-secret. */
  dataDir: string;
  /** PostgreSQL to restore into; unset: PGlite in DATA_DIR/db. */
  databaseUrl?: string;
  /** Replace what is there (PGlite folders and uploads are moved aside, PostgreSQL schemas dropped). */
  force?: boolean;
};

async function isNonEmptyDir(dir: string) {
  return existsSync(dir) && (await readdir(dir)).length > 0;
}

async function postgresHasTables(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
    );
    return rows[0]!.n > 0;
  } finally {
    await client.end();
  }
}

async function emptyPostgres(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('drop schema if exists drizzle cascade');
    await client.query('drop schema if exists public cascade');
    await client.query('create schema public');
  } finally {
    await client.end();
  }
}

/**
 * Restores an archive into an empty data folder or database (refusing a non-empty one unless `force`), then
 * checks that every table holds the row count the manifest recorded and applies newer migrations.
 */
export async function restoreArchive(archive: string, target: RestoreTarget): Promise<Manifest> {
  const dataDir = path.resolve(target.dataDir);
  const pgliteDir = path.join(dataDir, 'db');
  const uploadsDir = path.join(dataDir, 'uploads');
  const secretFile = path.join(dataDir, 'session-secret');
  await mkdir(dataDir, { recursive: true });
  // held until the restore ends: no server starts on the database meanwhile
  const releaseServers = target.databaseUrl ? await lockOutServers(target.databaseUrl) : async () => {};
  try {
    return await restoreInto(archive, target, { dataDir, pgliteDir, uploadsDir, secretFile });
  } finally {
    await releaseServers();
  }
}

async function restoreInto(
  archive: string,
  target: RestoreTarget,
  paths: { dataDir: string; pgliteDir: string; uploadsDir: string; secretFile: string },
): Promise<Manifest> {
  const { dataDir, pgliteDir, uploadsDir, secretFile } = paths;
  const occupied: string[] = [];
  if (await isNonEmptyDir(uploadsDir)) occupied.push(uploadsDir);
  if (target.databaseUrl ? await postgresHasTables(target.databaseUrl) : await isNonEmptyDir(pgliteDir)) {
    occupied.push(target.databaseUrl ? 'la base de datos PostgreSQL indicada' : pgliteDir);
  }
  if (occupied.length > 0 && !target.force) {
    const what = occupied.length === 1 ? `${occupied[0]} no está vacía` : `${occupied.join(' y ')} no están vacías`;
    throw new BackupError(
      `${what}; no se cambió nada. Usa una carpeta o base de datos vacía, o añade --force para reemplazar su contenido.`,
    );
  }

  // unpacked next to its destination, so the uploads folder is moved in with one rename
  const workDir = path.join(dataDir, `.restaurando-${randomUUID()}`);
  try {
    const manifest = await unpackAndVerify(archive, workDir);
    if (target.databaseUrl && manifest.database.kind !== 'postgres') {
      throw new BackupError(
        'Este respaldo es de la base de datos integrada (PGlite): restáuralo sin DATABASE_URL, en una carpeta DATA_DIR.',
      );
    }
    if (!target.databaseUrl && manifest.database.kind !== 'pglite') {
      throw new BackupError(
        'Este respaldo es de PostgreSQL: restáuralo con DATABASE_URL apuntando a una base de datos vacía.',
      );
    }
    const stamp = new Date().toISOString().replaceAll(':', '-');
    // nothing is deleted: what --force replaces is kept beside it
    for (const dir of [uploadsDir, ...(target.databaseUrl ? [] : [pgliteDir])]) {
      if (existsSync(dir)) await rename(dir, `${dir}.antes-de-restaurar-${stamp}`);
    }

    if (target.databaseUrl) {
      if (target.force) await emptyPostgres(target.databaseUrl);
      await run(
        'pg_restore',
        [
          '--no-owner',
          '--no-privileges',
          '--exit-on-error',
          '--single-transaction',
          `--dbname=${new URL(target.databaseUrl).pathname.slice(1)}`,
          path.join(workDir, ...postgresDumpName.split('/')),
        ],
        libpqEnv(target.databaseUrl),
      );
    } else {
      const dump = await readFile(path.join(workDir, ...pgliteDumpName.split('/')));
      const client = await PGlite.create(pgliteDir, { extensions: { pg_trgm }, loadDataDir: new Blob([dump]) });
      await client.close();
    }

    const restoredUploads = path.join(workDir, 'uploads');
    if (existsSync(restoredUploads)) await rename(restoredUploads, uploadsDir);
    else await mkdir(uploadsDir, { recursive: true });
    if (manifest.secret && (target.force || !existsSync(secretFile))) {
      await copyFile(path.join(workDir, ...secretName.split('/')), secretFile);
      await chmod(secretFile, 0o600);
    }

    const database = await openDatabase(target.databaseUrl ? { url: target.databaseUrl } : { pgliteDir });
    try {
      const { tables } = await describe(async (text) => {
        const result = await database.db.execute(sql.raw(text));
        return {
          rows: (Array.isArray(result) ? result : (result as { rows: Record<string, unknown>[] }).rows) as Record<
            string,
            unknown
          >[],
        };
      });
      for (const [name, count] of Object.entries(manifest.tables)) {
        if (tables[name] !== count)
          throw new BackupError(
            `La restauración no coincide con el respaldo: la tabla ${name} tiene ${tables[name] ?? 0} filas y el respaldo ${count}.`,
          );
      }
      await database.migrate();
      if (manifest.runId !== null) {
        // the snapshot was taken while this backup's own record said 'running'
        const archived = await stat(archive);
        await database.db
          .update(backupRuns)
          .set({
            status: 'succeeded',
            finishedAt: archived.mtime,
            fileName: path.basename(archive),
            sizeBytes: archived.size,
            fileCount: manifest.fileCount,
            error: null,
          })
          .where(and(eq(backupRuns.id, manifest.runId), eq(backupRuns.status, 'running')));
      }
    } finally {
      await database.close();
    }
    return manifest;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
