import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';

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
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
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

  return { file, append, read };
}

export type DeletionLedger = ReturnType<typeof createDeletionLedger>;
