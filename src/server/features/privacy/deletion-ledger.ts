import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { Config } from '#server/config.ts';
import type { FileStorage } from '#server/services/storage.ts';

export type LedgerEntry = { userId: string; at: string; certificates?: 'keep' | 'revoke' };

/**
 * Ids of deleted accounts, one JSON line each, kept beside the backups and outside the database: restoring an
 * older backup would otherwise bring deleted people back. Ids only: the ledger itself holds no personal data.
 */
export function createDeletionLedger(file: string) {
  async function append(deleted: Omit<LedgerEntry, 'at'>[], at = new Date()): Promise<void> {
    if (deleted.length === 0) return;
    await mkdir(path.dirname(file), { recursive: true });
    const lines = deleted
      .map((entry) => `${JSON.stringify({ ...entry, at: at.toISOString() } satisfies LedgerEntry)}\n`)
      .join('');
    const handle = await open(file, 'a+');
    try {
      // a line cut short by a crash is ended first, so the new ones stay whole
      const { size } = await handle.stat();
      const last = Buffer.alloc(1);
      if (size > 0) await handle.read(last, 0, 1, size - 1);
      await handle.appendFile(size > 0 && last[0] !== 0x0a ? `\n${lines}` : lines);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async function read(): Promise<LedgerEntry[]> {
    try {
      return parseLines(await readFile(file, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  return { file, append, read };
}

/** The ledger's file name beside the backups (and beside each archive an operator copies elsewhere). */
export const ledgerFileName = 'cuentas-eliminadas.jsonl';

export type DeletionLedger = {
  /** Where it is, for the log and the operator. */
  readonly file: string;
  append(deleted: Omit<LedgerEntry, 'at'>[], at?: Date): Promise<void>;
  read(): Promise<LedgerEntry[]>;
};

function parseLines(text: string): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    // a line cut short by a crash is skipped; the start-up reconciliation writes its account again
    try {
      const entry = JSON.parse(line) as Partial<LedgerEntry>;
      if (typeof entry.userId !== 'string' || typeof entry.at !== 'string') continue;
      entries.push({
        userId: entry.userId,
        at: entry.at,
        ...(entry.certificates === 'revoke' ? { certificates: 'revoke' } : {}),
      });
    } catch {
      continue;
    }
  }
  return entries;
}

const storagePrefix = 'cuentas-eliminadas/';

/**
 * The ledger in the bucket (STORAGE=s3), shared by every instance: one object per deleted account, so two instances
 * writing at once never overwrite each other's entries.
 */
export function createStorageDeletionLedger(storage: FileStorage): DeletionLedger {
  const list = storage.list?.bind(storage);
  if (!list) throw new Error('this store cannot list its files: the deletion ledger needs an object store');
  return {
    file: `${storagePrefix} (bucket)`,
    async append(deleted, at = new Date()) {
      for (const entry of deleted) {
        const line = JSON.stringify({ ...entry, at: at.toISOString() } satisfies LedgerEntry);
        await storage.put(`${storagePrefix}${entry.userId}.json`, Readable.from([Buffer.from(`${line}\n`)]));
      }
    },
    async read() {
      const entries: LedgerEntry[] = [];
      for (const key of await list(storagePrefix)) {
        if (key.endsWith('.json')) entries.push(...parseLines(await text(storage.read(key))));
      }
      return entries;
    },
  };
}

/** The configured ledger: in the bucket with STORAGE=s3, else DELETION_LEDGER_PATH or the file beside the backups. */
export function deletionLedgerFor(
  config: Pick<Config, 'storage' | 'deletionLedgerPath' | 'backup'>,
  storage: FileStorage,
): DeletionLedger {
  if (config.storage === 's3') return createStorageDeletionLedger(storage);
  return createDeletionLedger(config.deletionLedgerPath ?? path.join(config.backup.dir, ledgerFileName));
}
