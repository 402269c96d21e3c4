import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { backupRuns, jobs } from '#server/db/schema/index.ts';
import { backupCliHeader, backupCliToken } from './backups.routes.ts';
import { archiveFileName } from './archive.ts';
import { createBackupsService, objectStorageRefusal } from './backups.service.ts';

let t: TestApp;
let backupDir: string;
let admin: string;

beforeAll(async () => {
  backupDir = await mkdtemp(path.join(tmpdir(), 'cxvet-backups-'));
  t = await createTestApp({ backup: { dir: backupDir, schedule: 'off', keep: 2 } });
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
});
afterAll(async () => {
  await t.close();
  await rm(backupDir, { recursive: true, force: true });
});

const status = (cookie = admin) => t.app.inject({ url: '/api/admin/backups', headers: { cookie } });
const start = (cookie = admin) =>
  t.app.inject({ method: 'POST', url: '/api/admin/backups', headers: { cookie, origin: testPublicUrl }, payload: {} });

describe('the console backups API', () => {
  it('is for Admins only', async () => {
    expect((await t.app.inject({ url: '/api/admin/backups' })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/backups',
          headers: { origin: testPublicUrl },
          payload: {},
        })
      ).statusCode,
    ).toBe(401);
    for (const type of ['Gratis', 'Premium', 'Legacy'] as const) {
      const { cookie } = await signedInAs(t, { type });
      expect((await status(cookie)).statusCode).toBe(403);
      expect((await start(cookie)).statusCode).toBe(403);
    }
    expect(await t.db.select().from(jobs).where(eq(jobs.kind, 'backup.manual'))).toEqual([]);
  });

  it('warns that there is no backup yet', async () => {
    const response = await status();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      last: null,
      warning: 'never',
      pending: false,
      archives: [],
      keep: 2,
      schedule: 'off',
    });
  });

  it('makes one backup from two clicks at once, runs it through the job runner, and keeps the newest two archives', async () => {
    const [first, second] = await Promise.all([start(), start()]);
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);
    expect([first.json().queued, second.json().queued].sort()).toEqual([false, true]);
    await t.app.services.jobs.runDue();
    const runs = await t.db.select().from(backupRuns);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'consola', status: 'succeeded' });
    const body = (await status()).json();
    expect(body).toMatchObject({ warning: null, pending: false, last: { status: 'succeeded', trigger: 'consola' } });
    expect(body.archives).toHaveLength(1);
    expect(body.archives[0].sizeBytes).toBeGreaterThan(1000);

    // two older archives (and a leftover of a crashed run) exist: the run keeps the newest two, itself included
    const old = [archiveFileName(new Date('2026-01-01T00:00:00Z')), archiveFileName(new Date('2026-01-02T00:00:00Z'))];
    for (const name of old) await writeFile(path.join(backupDir, name), 'viejo');
    const leftover = path.join(backupDir, '.cxvet-respaldo-x.tar.gz.abc.partial');
    await writeFile(leftover, 'a medias');
    await utimes(leftover, new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000));
    await t.app.services.backups.run('programado');
    const kept = (await readdir(backupDir)).sort();
    expect(kept).toHaveLength(2);
    expect(kept.some((name) => old.includes(name))).toBe(false);
  });

  it('warns when the last backup failed, with its reason, and when the last good one is older than two days', async () => {
    await t.db.insert(backupRuns).values({
      trigger: 'programado',
      status: 'failed',
      startedAt: new Date(),
      finishedAt: new Date(),
      error: 'disco lleno',
    });
    expect((await status()).json()).toMatchObject({
      warning: 'failed',
      last: { status: 'failed', error: 'disco lleno' },
    });
    await t.db.delete(backupRuns);
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3600_000);
    await t.db.insert(backupRuns).values({
      trigger: 'programado',
      status: 'succeeded',
      startedAt: threeDaysAgo,
      finishedAt: threeDaysAgo,
      sizeBytes: 10,
      fileCount: 0,
    });
    expect((await status()).json()).toMatchObject({ warning: 'stale', lastSucceededAt: threeDaysAgo.toISOString() });
  });

  it('records a failure instead of throwing, so the console shows it (the job is not retried in a loop)', async () => {
    // the backup folder cannot be created: a file stands where it should be
    const blocker = path.join(backupDir, 'un-archivo');
    await writeFile(blocker, 'x');
    const broken = createBackupsService({
      database: t.database,
      uploadsRoot: t.storage.root,
      backup: { dir: path.join(blocker, 'respaldos'), schedule: 'off', keep: 7 },
      schedule: async () => false,
    });
    const run = await broken.run('programado');
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/ENOTDIR/);
    expect((await status()).json()).toMatchObject({ warning: 'failed', last: { id: run.id } });
    // the configured folder itself unusable (a file stands in its path): the status still answers, with no archives
    const onAFile = createBackupsService({
      database: t.database,
      uploadsRoot: t.storage.root,
      backup: { dir: blocker, schedule: 'off', keep: 7 },
      schedule: async () => false,
    });
    expect(await onAFile.status()).toMatchObject({ warning: 'failed', archives: [] });
    await rm(blocker);
  });
});

describe('the command-line endpoint', () => {
  it('backs up for `npm run backup` with the token from this machine, and is a 404 otherwise', async () => {
    const token = backupCliToken(t.config.sessionSecret);
    const ask = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
      t.app.inject({ method: 'POST', url: '/api/internal/backup', headers, remoteAddress });
    expect((await ask({})).statusCode).toBe(404);
    expect((await ask({ [backupCliHeader]: 'x'.repeat(64) })).statusCode).toBe(404);
    expect((await ask({ [backupCliHeader]: token }, '203.0.113.9')).statusCode).toBe(404);
    // a signed-in Admin's cookie is not the token
    expect((await ask({ cookie: admin })).statusCode).toBe(404);
    const response = await ask({ [backupCliHeader]: token });
    expect(response.statusCode).toBe(200);
    expect(response.json().run).toMatchObject({ status: 'succeeded', trigger: 'comando' });
  });
});

describe('with object storage (STORAGE=s3)', () => {
  it('writes no archive and records why, naming what to back up instead', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cxvet-respaldos-s3-'));
    const onBucket = createBackupsService({
      database: t.database,
      uploadsRoot: undefined,
      backup: { dir, schedule: 'off', keep: 7 },
      schedule: async () => false,
    });
    const run = await onBucket.run('consola');
    expect(run.status).toBe('failed');
    expect(run.error).toBe(objectStorageRefusal);
    expect(run.error).toContain('pg_dump');
    expect(await readdir(dir)).toEqual([]);
    await rm(dir, { recursive: true, force: true });
  });
});
