import path from 'node:path';
import type { Config } from '#server/config.ts';
import { buildApp } from '#server/app.ts';
import { openDatabase } from '#server/db/client.ts';
import { createMailer } from '#server/services/mail.ts';
import { createConfiguredStorage } from '#server/services/storage-from-config.ts';
import { createDeletionLedger, deletionLedgerFor, ledgerFileName } from '#server/features/privacy/deletion-ledger.ts';

/**
 * After a restore, before any server serves it: the deletions in the ledger beside the archive and in the shared
 * ledger are applied to the restored database (without mail), and the archive's entries join the shared ledger.
 */
export async function reapplyDeletions(input: {
  archive: string;
  config: Config;
}): Promise<{ replayed: number; entries: number; ledger: string }> {
  const { config } = input;
  const storage = await createConfiguredStorage(config);
  try {
    const shared = deletionLedgerFor(config, storage);
    const beside = createDeletionLedger(path.join(path.dirname(path.resolve(input.archive)), ledgerFileName));
    const known = new Set((await shared.read()).map((entry) => entry.userId));
    if (path.resolve(beside.file) !== path.resolve(shared.file)) {
      for (const entry of await beside.read()) {
        if (known.has(entry.userId)) continue;
        known.add(entry.userId);
        await shared.append([{ userId: entry.userId, certificates: entry.certificates ?? 'keep' }], new Date(entry.at));
      }
    }
    const database = await openDatabase(
      config.databaseUrl ? { url: config.databaseUrl } : { pgliteDir: path.join(config.dataDir, 'db') },
    );
    try {
      const mailer = createMailer({ db: database.db, from: config.mailFrom, log: { info() {} } });
      const app = await buildApp({ config: { ...config, logLevel: 'warn' }, database, storage, mailer, distDir: null });
      try {
        const { replayed } = await app.services.privacy.reconcileDeletions();
        return { replayed, entries: known.size, ledger: shared.file };
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  } finally {
    storage.close?.();
  }
}
