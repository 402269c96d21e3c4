import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm run backup` and `npm run restore` as an operator runs them (PGlite; the PostgreSQL path is the drill's)
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function cli(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join('src/server/features/backups', script), ...args],
      {
        env: { ...process.env, LOG_LEVEL: 'silent', TEST_DATABASE_URL: '', DATABASE_URL: '', ...env },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('npm run backup / npm run restore', () => {
  it('backs up a data folder no server holds, restores it into an empty one and refuses to restore over it', async () => {
    const source = await mkdtemp(path.join(tmpdir(), 'cxvet-cli-'));
    const target = await mkdtemp(path.join(tmpdir(), 'cxvet-cli-'));
    dirs.push(source, target);
    const backup = await cli('backup-cli.ts', [], { DATA_DIR: source, SEED_DEMO: '0', PAYMENTS_PROVIDER: 'simulado' });
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/Respaldo escrito: .*cxvet-respaldo-\d{8}-\d{6}-\d{3}\.tar\.gz/);
    const [archive] = await readdir(path.join(source, 'backups'));
    // the command released the folder: a server could start on it now
    expect(existsSync(path.join(source, 'cxvet.lock'))).toBe(false);

    const restore = await cli('restore-cli.ts', [path.join(source, 'backups', archive!)], { DATA_DIR: target });
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/Restaurado el respaldo del .* \(PGlite en .*\): \d+ tablas/);
    expect(existsSync(path.join(target, 'session-secret'))).toBe(true);

    const again = await cli('restore-cli.ts', [path.join(source, 'backups', archive!)], { DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/No se pudo restaurar: No se restauró nada: .* no está vacía\. .*--force/);

    const usage = await cli('restore-cli.ts', [], { DATA_DIR: target });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Uso: npm run restore/);
  }, 180_000);
});
