import path from 'node:path';
import type { Config } from '#server/config.ts';
import { openDatabase, type Database } from './client.ts';
import { lockDataDir } from './data-dir-lock.ts';

/** Opens the configured database (locking DATA_DIR for PGlite) and applies pending migrations. */
export async function openConfiguredDatabase(config: Config): Promise<{ database: Database; release: () => void }> {
  const release = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  try {
    const database = await openDatabase(
      config.databaseUrl ? { url: config.databaseUrl } : { pgliteDir: path.join(config.dataDir, 'db') },
    );
    await database.migrate();
    return { database, release };
  } catch (error) {
    release();
    throw error;
  }
}
