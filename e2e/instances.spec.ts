import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { request, type Browser, type Page } from '@playwright/test';
import { storageKeys } from '../src/web/lib/storage-keys.ts';
import { startS3TestServer } from '../src/server/testing/s3-test-server.ts';
import { demoAccounts, demoPassword, expect, test } from './fixtures.ts';

// Two server processes on one fresh PostgreSQL database and one bucket behave as one site (issue #17).
const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const secondDeviceMessage = 'Detectamos que se ha ingresado con esta cuenta en otro dispositivo.';
const premiumProcedure = 'Reparación de ligamento cruzado craneal';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

type Instance = { url: string; process: ChildProcess; log: () => string; dataDir: string };
// every process started, ready or not, so afterAll stops them all
const started: Instance[] = [];

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-instance-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', SIGN_IN_LIMIT_PER_MINUTE: '200' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const url = `http://localhost:${port}`;
  started.push({ url, process: child, log: () => output, dataDir });
  // ready = database and bucket answer
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`instance on ${port} exited: ${output}`);
    const ready = await fetch(`${url}/api/ready`).then((response) => response.ok, () => false);
    if (ready) break;
    if (attempt > 240) throw new Error(`instance on ${port} never became ready: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { url, process: child, log: () => output, dataDir };
}

async function stopInstance(instance: Instance) {
  if (instance.process.exitCode === null) {
    const exited = new Promise((resolve) => instance.process.once('exit', resolve));
    instance.process.kill('SIGTERM');
    await exited;
  }
  await rm(instance.dataDir, { recursive: true, force: true });
}

/** A browser of its own (a device) signed in as the Premium demo member on one instance. */
async function premiumDevice(browser: Browser, instance: Instance): Promise<Page> {
  const context = await browser.newContext({ baseURL: instance.url });
  await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
  const page = await context.newPage();
  const login = await page.request.post('/api/account/login', {
    data: { email: demoAccounts.premium, password: demoPassword },
    headers: { origin: instance.url },
  });
  expect(login.status(), await login.text()).toBe(200);
  return page;
}

async function openProcedure(page: Page) {
  await page.goto('/procedimientos?q=ligamento');
  await page.getByRole('link', { name: premiumProcedure, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: premiumProcedure })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.querySelector('video')?.currentSrc ?? '')).toMatch(/\?vt=/);
}

test.describe('two instances on one PostgreSQL and one bucket', () => {
  test.describe.configure({ mode: 'serial', retries: 0 });
  test.setTimeout(300_000);

  let databaseName: string;
  let s3: Awaited<ReturnType<typeof startS3TestServer>>;
  let one: Instance;
  let two: Instance;
  let databaseUrl: string;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    test.skip(!(await postgresReachable()), `no PostgreSQL reachable at ${serverUrl} (set TEST_DATABASE_URL): the two-instance test needs one`);
    databaseName = `cxvet_e2e_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    s3 = await startS3TestServer();
    const shared = {
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: 'e2e-two-instances-session-secret-0123456789',
      PAYMENTS_PROVIDER: 'simulado',
      SEED_DEMO: '1',
      ...s3.env,
    };
    // started together: they take turns to migrate; the first seeds the demo (into the bucket)
    [one, two] = await Promise.all([startInstance(shared), startInstance({ ...shared, SEED_DEMO: '0' })]);
  });

  test.afterAll(async () => {
    for (const instance of started) await stopInstance(instance);
    if (s3) await s3.close();
    if (databaseName) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
  });

  test('the member on instance 1 is told live when the same account opens the procedure on instance 2', async ({ browser }) => {
    const first = await premiumDevice(browser, one);
    const second = await premiumDevice(browser, two);
    try {
      await openProcedure(first);
      // the full video comes from the bucket: /media answers with a redirect to a signed URL
      const source = await first.evaluate(() => document.querySelector('video')!.currentSrc);
      const redirect = await first.request.get(source, { maxRedirects: 0 });
      expect(redirect.status()).toBe(302);
      expect(redirect.headers().location).toContain(`${s3.endpoint}/`);
      expect(redirect.headers().location).toContain('X-Amz-Signature=');

      await openProcedure(second);
      await expect(first.getByRole('alert').getByText(secondDeviceMessage)).toBeVisible({ timeout: 15_000 });
      await expect(first.locator('video')).toHaveCount(0);
      await expect(second.locator('video')).toHaveCount(1);
    } finally {
      await first.context().close();
      await second.context().close();
    }
  });

  test('a bulk mail sent while both instances run reaches every opted-in member exactly once', async () => {
    const admin = await request.newContext({ baseURL: two.url, extraHTTPHeaders: { origin: two.url } });
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      expect((await admin.post('/api/account/login', { data: { email: demoAccounts.admin, password: demoPassword } })).status()).toBe(200);
      const subject = `Novedades ${randomUUID().slice(0, 8)}`;
      const sent = await admin.post('/api/admin/mailing', { data: { subject, title: 'Dos instancias', message: 'Un solo envío por persona.' } });
      expect(sent.status(), await sent.text()).toBe(202);
      const { id, recipients } = (await sent.json()) as { id: string; recipients: number };
      const optedIn = await db.query<{ count: string }>('select count(*) from users where promo_mail');
      expect(recipients).toBeGreaterThan(0);
      expect(recipients).toBe(Number(optedIn.rows[0]!.count));

      // both instances poll the job table; whichever claims the job sends it
      await expect
        .poll(async () => (await db.query('select 1 from bulk_mails where id = $1 and finished_at is not null', [id])).rowCount, { timeout: 120_000, intervals: [1000] })
        .toBe(1);
      const mails = await db.query<{ to: string; copies: string }>('select "to", count(*) as copies from mail_outbox where subject = $1 group by "to"', [subject]);
      expect(mails.rows.length).toBe(recipients);
      expect(mails.rows.filter((row) => Number(row.copies) !== 1)).toEqual([]);
      const addresses = await db.query<{ email: string }>('select email from users where promo_mail order by email');
      expect(mails.rows.map((row) => row.to).sort()).toEqual(addresses.rows.map((row) => row.email));
    } finally {
      await db.end();
      await admin.dispose();
    }
  });

  test('each instance is ready, and one shutting down ends cleanly while the other keeps serving', async () => {
    for (const instance of [one, two]) {
      const ready = await fetch(`${instance.url}/api/ready`);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok', shutdown: 'no' } });
    }
    const exited = new Promise<number | null>((resolve) => one.process.once('exit', resolve));
    one.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(one.log()).not.toContain('stopping anyway');
    expect((await fetch(`${two.url}/api/ready`)).status).toBe(200);
  });
});
