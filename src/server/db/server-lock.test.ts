import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { restoreArchive } from '#server/features/backups/restore.ts';
import { holdServerLock } from './server-lock.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe.runIf(process.env.TEST_DATABASE_URL)('restore --force on a PostgreSQL database a server uses', () => {
  it('is refused while any server holds the shared lock, telling to stop the servers first, and goes ahead after', async () => {
    const { createTestDatabase } = await import('#server/testing/test-app.ts');
    const database = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-lock-'));
    dirs.push(dataDir);
    const target = { dataDir, databaseUrl: database.url!, force: true };
    try {
      // two servers on one database both hold it
      const first = await holdServerLock(database.url!);
      const second = await holdServerLock(database.url!);
      await expect(restoreArchive(path.join(dataDir, 'falta.tar.gz'), target)).rejects.toThrow(
        /un servidor de CxVet está usando esta base de datos: detén todos los servidores/,
      );
      await first();
      await expect(restoreArchive(path.join(dataDir, 'falta.tar.gz'), target)).rejects.toThrow(/detén todos/);
      await second();
      // no server left: the restore goes on (and fails here only because the archive does not exist)
      const outcome = await restoreArchive(path.join(dataDir, 'falta.tar.gz'), target).catch((error: Error) => error);
      expect(String(outcome)).not.toMatch(/detén todos/);
    } finally {
      await database.close();
      await database.drop();
    }
  }, 120_000);
});
