// `npm run db:psql`: the embedded database of DATA_DIR for psql and SQL tools while the server is stopped.
import { loadConfig } from '#server/config.ts';
import { serveDataDir } from './psql-server.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
if (config.databaseUrl) {
  console.error('DATABASE_URL apunta a PostgreSQL: conéctate con psql "$DATABASE_URL".');
  process.exit(1);
}
const port = Number(process.env.DB_PSQL_PORT ?? 5433);
try {
  const served = await serveDataDir({ dataDir: config.dataDir, port });
  console.log(`Base de datos de ${config.dataDir} en ${served.url}`);
  console.log(`Conéctate con: psql -h 127.0.0.1 -p ${port} -U postgres   (Ctrl-C para terminar)`);
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    void served.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
