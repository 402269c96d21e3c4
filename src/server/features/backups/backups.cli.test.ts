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
  const withoutPayments = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(PAYMENTS_PROVIDER|PAYPAL_)/.test(name)),
  );
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', script.includes('/') ? script : path.join('src/server/features/backups', script), ...args],
      {
        env: { ...withoutPayments, LOG_LEVEL: 'silent', TEST_DATABASE_URL: '', DATABASE_URL: '', ...env },
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
    // the deletions of the ledger beside the archive and of the target's are applied before any server starts
    expect(restore.stdout).toMatch(
      /Cuentas eliminadas aplicadas de nuevo: 0 \(el registro .*cuentas-eliminadas\.jsonl tiene 0 cuentas eliminadas\)/,
    );
    expect(existsSync(path.join(target, 'session-secret'))).toBe(true);

    const again = await cli('restore-cli.ts', [path.join(source, 'backups', archive!)], { DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toMatch(/^No se pudo restaurar: .* no está vacía; no se cambió nada\. .*--force/);
    expect(again.stderr).not.toMatch(/No se pudo restaurar: No se/);

    // a failed restore into a folder that did not exist leaves no empty folder behind
    const missing = path.join(target, 'nueva');
    const broken = await cli('restore-cli.ts', [path.join(source, 'no-existe.tar.gz')], { DATA_DIR: missing });
    expect(broken.code).toBe(1);
    expect(broken.stderr.trim()).toMatch(/^No se pudo restaurar: [^\n]+$/);
    expect(existsSync(missing)).toBe(false);

    const usage = await cli('restore-cli.ts', [], { DATA_DIR: target });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Uso: npm run restore/);
  }, 180_000);
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('operator commands and payment settings', () => {
  it('backs up and migrates in production with no payment settings at all: these commands take no payments', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-cli-'));
    dirs.push(dataDir);
    const production = { DATA_DIR: dataDir, NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) };
    const migrate = await cli('src/server/db/migrate-cli.ts', [], production);
    expect(migrate.stderr).toBe('');
    expect(migrate.code).toBe(0);
    const backup = await cli('backup-cli.ts', [], { ...production, SEED_DEMO: '0' });
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
  }, 180_000);

  it('refuses a bad setting in one line naming it, without a stack trace', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-cli-'));
    dirs.push(dataDir);
    const backup = await cli('backup-cli.ts', [], { DATA_DIR: dataDir, BACKUP_KEEP: '0' });
    expect(backup.code).toBe(1);
    expect(backup.stderr.trim()).toMatch(/^No se pudo respaldar: Configuración no válida: BACKUP_KEEP: [^\n]+$/);
    const migrate = await cli('src/server/db/migrate-cli.ts', [], { DATA_DIR: dataDir, PORT: 'x' });
    expect(migrate.code).toBe(1);
    expect(migrate.stderr.trim()).toMatch(
      /^No se pudieron aplicar las migraciones: Configuración no válida: PORT: [^\n]+$/,
    );
  }, 120_000);
});
