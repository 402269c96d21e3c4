import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { storageKeys } from '../src/web/lib/storage-keys.ts';
import { demoAccounts, demoPassword, expect, type DemoRole } from './fixtures.ts';

/** A server process of its own (src/server/main.ts, serving the built web app from dist/). */
export type Instance = { url: string; process: ChildProcess; log: () => string; dataDir: string };

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// the server's own grace period is 25 s (src/server/main.ts): a process still there well after it is a failure
const stopGraceMs = 40_000;

async function stopInstance(instance: Instance) {
  const { process: child } = instance;
  // exitCode stays null for a process ended by a signal: signalCode tells that it is gone
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    let stuck = false;
    const timer = setTimeout(() => {
      stuck = true;
      child.kill('SIGKILL');
    }, stopGraceMs);
    await exited;
    clearTimeout(timer);
    if (stuck) {
      await rm(instance.dataDir, { recursive: true, force: true });
      throw new Error(
        `the server on ${instance.url} did not stop within ${stopGraceMs / 1000} s of SIGTERM:\n${instance.log()}`,
      );
    }
  }
  await rm(instance.dataDir, { recursive: true, force: true });
}

/** Starts server processes on free ports, each with its own DATA_DIR; stopAll ends every one started, ready or not. */
export function serverInstances() {
  const started: Instance[] = [];
  return {
    async start(env: Record<string, string>): Promise<Instance> {
      const port = await freePort();
      const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-instance-'));
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: {
          ...process.env,
          LOG_LEVEL: 'warn',
          SIGN_IN_LIMIT_PER_MINUTE: '200',
          ...env,
          PORT: String(port),
          DATA_DIR: dataDir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const url = `http://localhost:${port}`;
      const instance = { url, process: child, log: () => output, dataDir };
      started.push(instance);
      // ready = database and bucket answer
      for (let attempt = 0; ; attempt++) {
        if (child.exitCode !== null) throw new Error(`instance on ${port} exited: ${output}`);
        const ready = await fetch(`${url}/api/ready`).then(
          (response) => response.ok,
          () => false,
        );
        if (ready) break;
        if (attempt > 240) throw new Error(`instance on ${port} never became ready: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return instance;
    },
    async stopAll() {
      for (const instance of started) await stopInstance(instance);
    },
  };
}

/** A browser of its own (a device) signed in as a demo account on one instance. */
export async function deviceSignedIn(browser: Browser, instance: Instance, role: DemoRole = 'premium'): Promise<Page> {
  const context = await browser.newContext({ baseURL: instance.url });
  await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
  const page = await context.newPage();
  const login = await page.request.post('/api/account/login', {
    data: { email: demoAccounts[role], password: demoPassword },
    headers: { origin: instance.url },
  });
  expect(login.status(), await login.text()).toBe(200);
  return page;
}
