import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { lockDataDir } from './data-dir-lock.ts';

describe('data folder lock', () => {
  it('refuses a second owner with a clear Spanish message, and frees the folder on release', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cxvet-lock-'));
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    await writeFile(path.join(dir, 'cxvet.lock'), String(child.pid));
    expect(() => lockDataDir(dir)).toThrow(/ya está en uso por el proceso/);
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
    const release = lockDataDir(dir);
    release();
    lockDataDir(dir)();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes over a lock left by a process that died', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cxvet-lock-'));
    await writeFile(path.join(dir, 'cxvet.lock'), '999999999');
    const release = lockDataDir(dir);
    release();
    await rm(dir, { recursive: true, force: true });
  });
});
