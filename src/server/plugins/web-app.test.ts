import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { buildApp } from '#server/app.ts';
import { createTestDatabase, testConfig } from '#server/testing/test-app.ts';
import { createLocalStorage } from '#server/services/storage.ts';
import { createMailer } from '#server/services/mail.ts';

let app: Awaited<ReturnType<typeof buildApp>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let distDir: string;

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'cxvet-dist-'));
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>CxVet</title>');
  await writeFile(path.join(distDir, 'assets', 'index-Ab12Cd34.js'), 'console.log(1)');
  await writeFile(path.join(distDir, 'assets', 'index-Ab12Cd34.js.br'), 'brotli bytes');
  await writeFile(path.join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(distDir, '.env'), 'SECRET=1');
  database = await createTestDatabase();
  const config = testConfig({ dataDir: distDir });
  const mailer = createMailer({ db: database.db, from: config.mailFrom, log: { info() {} } });
  app = await buildApp({
    config,
    database,
    storage: createLocalStorage(path.join(distDir, 'uploads')),
    mailer,
    distDir,
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
  await database.drop();
  await rm(distDir, { recursive: true, force: true });
});

describe('web app headers', () => {
  it('caches hashed assets for a year as immutable, without page-only security headers', async () => {
    const response = await app.inject({ url: '/assets/index-Ab12Cd34.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-security-policy']).toBeUndefined();
  });

  it('sends pages revalidated, with the CSP', async () => {
    for (const url of ['/', '/procedimientos']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(String(response.headers['content-security-policy'])).toContain("default-src 'self'");
    }
  });

  it('keeps the security headers on API answers and on a missing asset', async () => {
    expect(String((await app.inject({ url: '/api/health' })).headers['content-security-policy'])).toContain(
      "frame-ancestors 'none'",
    );
    const missing = await app.inject({ url: '/assets/nada-123.js' });
    expect(missing.statusCode).toBe(404);
  });
});

describe('web app pages', () => {
  it('sends a page brotli-compressed to a browser that accepts it, and plain to one that does not', async () => {
    const compressed = await app.inject({ url: '/procedimientos', headers: { 'accept-encoding': 'gzip, br' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(String(compressed.headers.vary).split(/,\s*/)).toEqual(['accept-encoding', 'cookie']);
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe('<!doctype html><title>CxVet</title>');
    const plain = await app.inject({ url: '/procedimientos' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('<!doctype html><title>CxVet</title>');
  });
});

describe('web app files', () => {
  it('serves the precompressed copy to a browser that accepts it, and other files revalidated', async () => {
    const compressed = await app.inject({
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.body).toBe('brotli bytes');
    const icon = await app.inject({ url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect((await app.inject({ method: 'HEAD', url: '/favicon.svg' })).statusCode).toBe(200);
  });

  it('never serves a dotfile or a path outside the build, and answers an unknown API path with the JSON 404', async () => {
    for (const url of ['/.env', '/assets/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd']) {
      const response = await app.inject({ url });
      expect(response.body).not.toContain('SECRET');
      expect(response.body).not.toContain('root:');
    }
    const api = await app.inject({ url: '/api/nada' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
