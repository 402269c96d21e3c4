import { afterAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createTestApp, testPublicUrl } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { createS3Storage } from '#server/services/s3-storage.ts';
import { multipartBody, sampleBytes } from '#server/features/uploads/uploads.testing.ts';

const toClose: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of toClose) await close();
});

describe('readiness', () => {
  it('is ready when the database and the file store answer; health stays the liveness check', async () => {
    const t = await createTestApp();
    toClose.push(t.close);
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok', shutdown: 'no' } });
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('answers 503 during the shutdown drain while every other request is still served', async () => {
    const t = await createTestApp();
    toClose.push(t.close);
    t.app.startDraining();
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ checks: { database: 'ok', storage: 'ok', shutdown: 'in progress' } });
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    const { cookie } = await signedInAs(t, { type: 'Gratis' });
    expect((await t.app.inject({ url: '/api/profile', headers: { cookie } })).statusCode).toBe(200);
  });

  it('is not ready (503, naming the failed check) when the bucket cannot be reached', async () => {
    // nothing listens on port 9 of this machine
    const storage = createS3Storage({
      endpoint: 'http://127.0.0.1:9',
      bucket: 'b',
      region: 'us-east-1',
      accessKeyId: 'a',
      secretAccessKey: 's',
      forcePathStyle: true,
    });
    const t = await createTestApp({}, undefined, { storage });
    toClose.push(t.close);
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', checks: { database: 'ok', storage: 'error' } });
  });
});

describe('graceful shutdown', () => {
  it(
    'ends open event streams with a short retry, lets an in-flight upload finish, then closes',
    { timeout: 30_000 },
    async () => {
      const t = await createTestApp();
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { cookie: member } = await signedInAs(t, { type: 'Premium' });
      const { cookie: admin } = await signedInAs(t, { type: 'Admin' });
      const token = (await (
        await fetch(`${base}/api/viewing/token`, { method: 'POST', headers: { cookie: member, origin: testPublicUrl } })
      ).json()) as { token: string };

      // an open live-update stream
      const events = await fetch(`${base}/api/viewing/events?token=${token.token}`, { headers: { cookie: member } });
      const reader = events.body!.getReader();
      await reader.read();

      // an upload whose body is still arriving
      const body = multipartBody('video.mp4', Buffer.concat([sampleBytes.mp4, Buffer.alloc(512 * 1024, 7)]));
      const upload = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = httpRequest(
          `${base}/api/admin/uploads?target=procedure-video&recordId=${randomUUID()}`,
          {
            method: 'POST',
            headers: {
              cookie: admin,
              origin: testPublicUrl,
              'content-type': body.contentType,
              'content-length': body.payload.length,
            },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
          },
        );
        request.on('error', reject);
        request.write(body.payload.subarray(0, 4096));
        setTimeout(() => request.end(body.payload.subarray(4096)), 1000);
      });
      await new Promise((resolve) => setTimeout(resolve, 300));

      const closed = t.app.close().then(() => 'closed');
      // the stream ends at once, telling the browser to come back soon (to another instance)
      let rest = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        rest += Buffer.from(value).toString('utf8');
      }
      expect(rest).toContain('retry: 1000');

      const uploaded = await upload;
      expect(uploaded.status).toBe(200);
      expect(JSON.parse(uploaded.text)).toHaveProperty('key');
      expect(await closed).toBe('closed');
      expect(await t.storage.stat(JSON.parse(uploaded.text).key)).toMatchObject({
        size: 512 * 1024 + sampleBytes.mp4.length,
      });
      await t.database.close();
      await t.database.drop();
    },
  );
});
