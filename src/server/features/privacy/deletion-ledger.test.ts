import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createS3Storage } from '#server/services/s3-storage.ts';
import { startS3TestServer } from '#server/testing/s3-test-server.ts';
import { createDeletionLedger, createStorageDeletionLedger } from './deletion-ledger.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the deletion ledger', () => {
  it('appends lines in a folder it creates, and reads them back', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cxvet-ledger-'));
    dirs.push(dir);
    const ledger = createDeletionLedger(path.join(dir, 'respaldos', 'cuentas-eliminadas.jsonl'));
    expect(await ledger.read()).toEqual([]);
    await ledger.append([{ userId: 'a' }, { userId: 'b', certificates: 'revoke' }], new Date('2026-11-24T00:00:00Z'));
    expect(await ledger.read()).toEqual([
      { userId: 'a', at: '2026-11-24T00:00:00.000Z' },
      { userId: 'b', at: '2026-11-24T00:00:00.000Z', certificates: 'revoke' },
    ]);
  });

  it('skips a line cut short by a crash and keeps reading after it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cxvet-ledger-'));
    dirs.push(dir);
    const file = path.join(dir, 'cuentas-eliminadas.jsonl');
    await writeFile(file, '{"userId":"a","at":"2026-11-24T00:00:00.000Z"}\n{"userId":"b","a');
    const ledger = createDeletionLedger(file);
    await ledger.append([{ userId: 'c' }]);
    expect((await ledger.read()).map((entry) => entry.userId)).toEqual(['a', 'c']);
    expect((await readFile(file, 'utf8')).split('\n')).toHaveLength(4);
  });
});

describe('the deletion ledger in the bucket (STORAGE=s3)', () => {
  it('is one ledger for every instance: entries written at once by two of them are all read back by each', async () => {
    const s3 = await startS3TestServer();
    const first = createS3Storage(s3.settings);
    const second = createS3Storage(s3.settings);
    try {
      const [a, b] = [createStorageDeletionLedger(first), createStorageDeletionLedger(second)];
      await Promise.all([
        a.append([{ userId: 'uno', certificates: 'revoke' }], new Date('2026-11-24T00:00:00Z')),
        b.append([{ userId: 'dos', certificates: 'keep' }], new Date('2026-11-24T00:00:00Z')),
        a.append([{ userId: 'tres', certificates: 'keep' }], new Date('2026-11-24T00:00:00Z')),
      ]);
      for (const ledger of [a, b]) {
        const entries = await ledger.read();
        expect(entries.map((entry) => entry.userId).sort()).toEqual(['dos', 'tres', 'uno']);
        expect(entries.find((entry) => entry.userId === 'uno')).toMatchObject({ certificates: 'revoke' });
      }
    } finally {
      first.close?.();
      second.close?.();
      await s3.close();
    }
  });
});
