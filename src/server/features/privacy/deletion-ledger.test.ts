import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDeletionLedger } from './deletion-ledger.ts';

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
