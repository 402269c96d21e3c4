// `npm run restore ARCHIVE [--force]`: restores an archive into DATA_DIR (PGlite and uploads) or, with
// DATABASE_URL, into that PostgreSQL database. Refuses a non-empty target unless --force.
import path from 'node:path';
import { lockDataDir } from '#server/db/data-dir-lock.ts';
import { restoreArchive } from './restore.ts';

const args = process.argv.slice(2);
const force = args.includes('--force');
const archive = args.find((arg) => !arg.startsWith('--'));
if (!archive) {
  console.error(
    'Uso: npm run restore -- ARCHIVO.tar.gz [--force]\n(DATA_DIR y, para PostgreSQL, DATABASE_URL indican dónde restaurar.)',
  );
  process.exit(2);
}
// read directly: loadConfig would create a session secret in DATA_DIR before the archive's is restored
const dataDir = path.resolve(process.env.DATA_DIR || './data');
const databaseUrl = process.env.DATABASE_URL || undefined;

let release: () => void = () => {};
try {
  release = lockDataDir(dataDir);
  const manifest = await restoreArchive(path.resolve(archive), { dataDir, databaseUrl, force });
  const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
  console.log(
    `Restaurado el respaldo del ${manifest.createdAt} (${manifest.database.kind === 'pglite' ? `PGlite en ${path.join(dataDir, 'db')}` : 'PostgreSQL'}): ` +
      `${Object.keys(manifest.tables).length} tablas, ${rows} filas, ${manifest.fileCount} archivos en ${path.join(dataDir, 'uploads')}.`,
  );
} catch (error) {
  console.error(`\nNo se pudo restaurar: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  release();
}
