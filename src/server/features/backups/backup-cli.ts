// `npm run backup`: one archive of the database and the uploads into BACKUP_DIR (default DATA_DIR/backups).
// With PGlite and a running server (it holds DATA_DIR), the server is asked to take it between requests.
import path from 'node:path';
import { loadCommandConfig, type Config } from '#server/config.ts';
import { runCommand } from '#server/command.ts';
import { openConfiguredDatabase } from '#server/db/open-from-config.ts';
import type { BackupRun } from '#shared/backups/backups.schemas.ts';
import { createBackupsService } from './backups.service.ts';
import { backupCliHeader, backupCliToken } from './backups.routes.ts';

function report(run: BackupRun, where: string): never {
  if (run.status !== 'succeeded') {
    console.error(`\nEl respaldo falló: ${run.error ?? 'error desconocido'}\n`);
    process.exit(1);
  }
  const bytes = run.sizeBytes ?? 0;
  const size = bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  console.log(`Respaldo escrito: ${path.join(where, run.fileName!)} (${size}, ${run.fileCount} archivos subidos).`);
  process.exit(0);
}

async function askRunningServer(config: Config): Promise<BackupRun> {
  const response = await fetch(`http://127.0.0.1:${config.port}/api/internal/backup`, {
    method: 'POST',
    headers: { [backupCliHeader]: backupCliToken(config.sessionSecret) },
  });
  if (!response.ok) throw new Error(`el servidor en el puerto ${config.port} respondió ${response.status}`);
  return ((await response.json()) as { run: BackupRun }).run;
}

await runCommand('No se pudo respaldar', async () => {
  const config = loadCommandConfig();
  let opened: Awaited<ReturnType<typeof openConfiguredDatabase>>;
  try {
    opened = await openConfiguredDatabase(config);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (config.databaseUrl || !message.includes('ya está en uso')) throw error;
    console.log('El servidor está en marcha con esta carpeta de datos: se le pide el respaldo…');
    let run: BackupRun;
    try {
      run = await askRunningServer(config);
    } catch (askError) {
      throw new Error(
        `la carpeta de datos está en uso y el servidor no respondió (${askError instanceof Error ? askError.message : String(askError)}). ` +
          'Ejecuta el comando con el mismo PORT, DATA_DIR y SESSION_SECRET que el servidor, o detenlo y vuelve a intentarlo.',
      );
    }
    report(run, config.backup.dir);
  }
  const { database, release } = opened;
  const backups = createBackupsService({
    database,
    uploadsRoot: config.storage === 'local' ? path.join(config.dataDir, 'uploads') : undefined,
    backup: config.backup,
    sessionSecretFile: path.join(config.dataDir, 'session-secret'),
    schedule: async () => false,
  });
  const run = await backups.run('comando').finally(async () => {
    await database.close();
    release();
  });
  report(run, config.backup.dir);
});
