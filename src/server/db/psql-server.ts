import { existsSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { lockDataDir } from './data-dir-lock.ts';

/**
 * The embedded database of a data folder over PostgreSQL's wire protocol on the loopback, for psql and SQL tools.
 * It holds the folder's lock like the server: two processes on one PGlite folder lose each other's writes.
 */
export async function serveDataDir(options: { dataDir: string; port: number; host?: string }) {
  const pgliteDir = path.join(options.dataDir, 'db');
  if (!existsSync(pgliteDir))
    throw new Error(`No hay base de datos en ${pgliteDir}: inicia el servidor una vez con npm start para crearla.`);
  const release = lockDataDir(options.dataDir);
  let db: PGlite | undefined;
  try {
    // the catalogue's trigram index needs pg_trgm loaded to be read or written
    db = await PGlite.create(pgliteDir, { extensions: { pg_trgm } });
    const host = options.host ?? '127.0.0.1';
    const server = new PGLiteSocketServer({ db, port: options.port, host });
    await server.start();
    const opened = db;
    return {
      url: `postgres://postgres@${host}:${options.port}/postgres`,
      async close() {
        await server.stop();
        await opened.close();
        release();
      },
    };
  } catch (error) {
    await db?.close().catch(() => {});
    release();
    throw error;
  }
}
