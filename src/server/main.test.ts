import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const mainFile = fileURLToPath(new URL('./main.ts', import.meta.url));
const ltiPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts the real server on an empty data folder and returns everything it printed until its banner. */
async function startOutput(env: Record<string, string | undefined>): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-start-'));
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      PAYMENTS_PROVIDER: 'simulado',
      CREDENTIALS_SIGNING_KEY: '07'.repeat(32),
      LTI_SIGNING_KEY: ltiPem,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('CxVet está en')) setTimeout(resolve, 300);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
  } finally {
    // a child that already exited (a refused start) has nothing left to wait for
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await rm(dataDir, { recursive: true, force: true });
  }
  return output;
}

/** Every start here runs the embedded database (DATABASE_URL is emptied): the PostgreSQL pass would repeat it as is. */
const onPostgresPass = Boolean(process.env.TEST_DATABASE_URL);

const addresses = (text: string) => [...new Set(text.match(/https?:\/\/[^\s"',]+/g) ?? [])];

describe.skipIf(onPostgresPass)('the start log', () => {
  // two real starts on fresh data folders (migrations included), side by side: slow on a busy machine
  it(
    'names exactly one address to open: PUBLIC_URL when set, else http://localhost:PORT and no other loopback alias',
    { timeout: 300_000 },
    async () => {
      const [productionPort, developmentPort] = [await freePort(), await freePort()];
      const [production, development] = await Promise.all([
        startOutput({
          PORT: String(productionPort),
          PUBLIC_URL: 'https://cxvet.example',
          NODE_ENV: 'production',
          ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '1',
        }),
        startOutput({ PORT: String(developmentPort) }),
      ]);
      expect(addresses(production)).toEqual(['https://cxvet.example']);
      expect(addresses(development)).toEqual([`http://localhost:${developmentPort}`]);
    },
  );
});

describe.skipIf(onPostgresPass)('a production start with STORAGE=s3', () => {
  it('refuses to start without its bucket settings, naming them', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
      env: {
        ...process.env,
        DATA_DIR: '/nonexistent',
        NODE_ENV: 'production',
        PAYMENTS_PROVIDER: 'simulado',
        ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '1',
        SESSION_SECRET: 'x'.repeat(32),
        STORAGE: 's3',
        S3_BUCKET: 'cxvet',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain(
      'No se pudo iniciar CxVet: STORAGE=s3 necesita S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    );
  });
});

describe.skipIf(onPostgresPass)('a production start without the credentials key', () => {
  it('stops with one line naming CREDENTIALS_SIGNING_KEY', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
      env: {
        ...process.env,
        DATA_DIR: '/nonexistent',
        NODE_ENV: 'production',
        PAYMENTS_PROVIDER: 'simulado',
        ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '1',
        SESSION_SECRET: 'x'.repeat(32),
        CREDENTIALS_SIGNING_KEY: '',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toEqual([
      expect.stringMatching(/^No se pudo iniciar CxVet: CREDENTIALS_SIGNING_KEY no está definido: /),
    ]);
  });
});

describe.skipIf(onPostgresPass)('a production start on the embedded database', () => {
  it(
    'seeds no demo account unless SEED_DEMO=1, and with the demo seeded refuses to serve, naming its accounts',
    { timeout: 300_000 },
    async () => {
      const plain = await startOutput({
        PORT: String(await freePort()),
        NODE_ENV: 'production',
        ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '1',
        PUBLIC_URL: 'https://cxvet.example',
        SEED_DEMO: undefined as unknown as string,
      });
      expect(plain).toContain('CxVet está en https://cxvet.example');
      expect(plain).not.toContain('Cuentas de demostración');

      const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-start-'));
      const env: Record<string, string | undefined> = {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        PORT: String(await freePort()),
        NODE_ENV: 'production',
        PAYMENTS_PROVIDER: 'simulado',
        ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '1',
        SEED_DEMO: '1',
        LOG_LEVEL: 'warn',
        CREDENTIALS_SIGNING_KEY: '07'.repeat(32),
        LTI_SIGNING_KEY: ltiPem,
      };
      const child = spawn(process.execPath, ['--import', 'tsx', mainFile], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
      expect(code).toBe(1);
      expect(output).not.toContain('CxVet está en');
      expect(output).toMatch(/No se pudo iniciar CxVet: .*Demo1234: .*admin@demo\.cxvet\.com.*cambia su contraseña/);
    },
  );
});

describe.skipIf(onPostgresPass)('a start on a busy port', () => {
  it('stops before it creates anything in DATA_DIR, naming the port', { timeout: 60_000 }, async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '0.0.0.0', resolve));
    const { port } = busy.address() as { port: number };
    const parent = await mkdtemp(path.join(tmpdir(), 'cxvet-start-'));
    const dataDir = path.join(parent, 'datos');
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), PAYMENTS_PROVIDER: 'simulado' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain(`No se pudo iniciar CxVet: el puerto ${port} ya está en uso`);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      busy.close();
      await rm(parent, { recursive: true, force: true });
    }
  });
});

describe.skipIf(onPostgresPass)('shutdown', () => {
  it(
    'drains for SHUTDOWN_DRAIN_SECONDS: /api/ready answers 503 while requests are still served, then the process ends cleanly',
    { timeout: 300_000 },
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-start-'));
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          PORT: String(port),
          SEED_DEMO: '0',
          PAYMENTS_PROVIDER: 'simulado',
          SHUTDOWN_DRAIN_SECONDS: '4',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        await expect.poll(() => output.includes('CxVet está en'), { timeout: 240_000, interval: 200 }).toBe(true);
        const base = `http://127.0.0.1:${port}`;
        expect((await fetch(`${base}/api/ready`)).status).toBe(200);
        child.kill('SIGTERM');
        await expect.poll(async () => (await fetch(`${base}/api/ready`)).status, { timeout: 3000 }).toBe(503);
        expect((await fetch(`${base}/api/health`)).status).toBe(200);
        expect((await fetch(`${base}/api/catalog/filters`)).status).toBe(200);
        expect(await exited).toBe(0);
        expect(output).toContain('shut down cleanly');
        expect(output).not.toMatch(/"level":50/);
      } finally {
        child.kill('SIGKILL');
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
