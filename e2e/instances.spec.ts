import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { request, type Page } from '@playwright/test';
import { startS3TestServer } from '../src/server/testing/s3-test-server.ts';
import { demoAccounts, demoPassword, expect, pressPlay, test } from './fixtures.ts';
import { deviceSignedIn, serverInstances, type Instance } from './server-instances.ts';

// Two server processes on one fresh PostgreSQL database and one bucket behave as one site.
const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const secondDeviceMessage = 'Detectamos que se ha ingresado con esta cuenta en otro dispositivo.';
const premiumProcedure = 'Reparación de ligamento cruzado craneal';

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

async function openProcedure(page: Page) {
  await page.goto('/procedimientos?q=ligamento');
  await page.getByRole('link', { name: premiumProcedure, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: premiumProcedure })).toBeVisible();
  await pressPlay(page);
  await expect.poll(() => page.evaluate(() => document.querySelector('video')?.currentSrc ?? '')).toMatch(/\?vt=/);
}

test.describe('two instances on one PostgreSQL and one bucket', () => {
  test.describe.configure({ mode: 'serial', retries: 0 });
  test.setTimeout(300_000);

  const instances = serverInstances();
  let databaseName: string;
  let s3: Awaited<ReturnType<typeof startS3TestServer>>;
  let one: Instance;
  let two: Instance;
  let databaseUrl: string;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    test.skip(
      !(await postgresReachable()),
      `no PostgreSQL reachable at ${serverUrl} (set TEST_DATABASE_URL): the two-instance test needs one`,
    );
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
    // started together, both told to seed: they take turns to migrate and to seed; one makes the demo (into the bucket)
    [one, two] = await Promise.all([instances.start(shared), instances.start(shared)]);
  });

  test.afterAll(async () => {
    await instances.stopAll();
    if (s3) await s3.close();
    if (databaseName) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
  });

  test('the member on instance 1 is told live when the same account opens the procedure on instance 2', async ({
    browser,
  }) => {
    const first = await deviceSignedIn(browser, one);
    const second = await deviceSignedIn(browser, two);
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
      expect(
        (
          await admin.post('/api/account/login', { data: { email: demoAccounts.admin, password: demoPassword } })
        ).status(),
      ).toBe(200);
      const subject = `Novedades ${randomUUID().slice(0, 8)}`;
      const sent = await admin.post('/api/admin/mailing', {
        data: { subject, title: 'Dos instancias', message: 'Un solo envío por persona.' },
      });
      expect(sent.status(), await sent.text()).toBe(202);
      const { id, recipients } = (await sent.json()) as { id: string; recipients: number };
      const optedIn = await db.query<{ count: string }>('select count(*) from users where promo_mail');
      expect(recipients).toBeGreaterThan(0);
      expect(recipients).toBe(Number(optedIn.rows[0]!.count));

      // both instances poll the job table; whichever claims the job sends it
      await expect
        .poll(
          async () =>
            (await db.query('select 1 from bulk_mails where id = $1 and finished_at is not null', [id])).rowCount,
          { timeout: 120_000, intervals: [1000] },
        )
        .toBe(1);
      const mails = await db.query<{ to: string; copies: string }>(
        'select "to", count(*) as copies from mail_outbox where subject = $1 group by "to"',
        [subject],
      );
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
      expect(await ready.json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', storage: 'ok', shutdown: 'no' },
      });
    }
    const exited = new Promise<number | null>((resolve) => one.process.once('exit', resolve));
    one.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(one.log()).not.toContain('stopping anyway');
    expect((await fetch(`${two.url}/api/ready`)).status).toBe(200);
  });
});
