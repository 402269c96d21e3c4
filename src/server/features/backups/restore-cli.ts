// `npm run restore ARCHIVE [--force]`: restores an archive into DATA_DIR (PGlite and uploads) or, with
// DATABASE_URL, into that PostgreSQL database. Refuses a non-empty target unless --force. Then applies again the
// deletions of the ledger beside the archive and of the shared ledger, before any server serves the restored data.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { loadCommandConfig } from '#server/config.ts';
import { runCommand } from '#server/command.ts';
import { lockDataDir } from '#server/db/data-dir-lock.ts';
import { restoreArchive } from './restore.ts';
import { reapplyDeletions } from './reapply-deletions.ts';

const args = process.argv.slice(2);
const force = args.includes('--force');
const archive = args.find((arg) => !arg.startsWith('--'));
if (!archive) {
  console.error(
    'Uso: npm run restore -- ARCHIVO.tar.gz [--force]\n(DATA_DIR y, para PostgreSQL, DATABASE_URL indican dónde restaurar.)',
  );
  process.exit(2);
}

await runCommand('No se pudo restaurar', async () => {
  // a stand-in secret: loadConfig would otherwise create one in DATA_DIR before the archive's is restored
  const settings = loadCommandConfig({ ...process.env, SESSION_SECRET: process.env.SESSION_SECRET || 'x'.repeat(32) });
  const { dataDir, databaseUrl } = settings;
  // a folder this command created is removed again when the restore fails
  const created = !existsSync(dataDir);
  const release = lockDataDir(dataDir);
  try {
    const manifest = await restoreArchive(path.resolve(archive), { dataDir, databaseUrl, force });
    const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
    console.log(
      `Restaurado el respaldo del ${manifest.createdAt} (${manifest.database.kind === 'pglite' ? `PGlite en ${path.join(dataDir, 'db')}` : 'PostgreSQL'}): ` +
        `${Object.keys(manifest.tables).length} tablas, ${rows} filas, ${manifest.fileCount} archivos en ${path.join(dataDir, 'uploads')}.`,
    );
    const { replayed, entries, ledger } = await reapplyDeletions({ archive, config: loadCommandConfig() });
    console.log(
      `Cuentas eliminadas aplicadas de nuevo: ${replayed} (el registro ${ledger} tiene ${entries} cuentas eliminadas).`,
    );
  } catch (error) {
    release();
    if (created) await rm(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    release();
  }
});
