import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { pendingUploads } from '#server/db/schema/index.ts';
import { messages } from '#shared/messages.ts';
import { uploadSizeLimits } from '#shared/uploads/uploads.rules.ts';
import { postUpload, sampleBytes } from './uploads.testing.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
});
afterAll(() => t.close());

const discard = (cookie: string | undefined, key: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/uploads/discard',
    headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
    payload: { key },
  });

describe('who may upload', () => {
  it('a guest gets 401 and Gratis or Premium members get 403', async () => {
    expect(
      (await postUpload(t, { target: 'event-image', fileName: 'a.png', content: sampleBytes.png })).statusCode,
    ).toBe(401);
    expect((await discard(undefined, 'events/1_a.png')).statusCode).toBe(401);
    for (const type of ['Gratis', 'Premium'] as const) {
      const { cookie } = await signedInAs(t, { type });
      expect(
        (await postUpload(t, { cookie, target: 'event-image', fileName: 'a.png', content: sampleBytes.png }))
          .statusCode,
      ).toBe(403);
      expect((await discard(cookie, 'events/1_a.png')).statusCode).toBe(403);
    }
  });
});

describe('what an upload may contain', () => {
  it('stores a png under the target folder with a timestamp and the sanitised name, pending until saved', async () => {
    const response = await postUpload(t, {
      cookie: admin,
      target: 'event-image',
      fileName: '../../Cartel año.png',
      content: sampleBytes.png,
    });
    expect(response.statusCode).toBe(200);
    const { key, kind } = response.json();
    expect(key).toMatch(/^events\/\d+_Cartel_ano\.png$/);
    expect(kind).toBe('image');
    expect(await t.storage.stat(key)).toMatchObject({ size: sampleBytes.png.length });
    expect(await t.db.select().from(pendingUploads).where(eq(pendingUploads.key, key))).toHaveLength(1);
  });

  it('puts a surgery file in the folder of its surgery', async () => {
    const id = randomUUID();
    const response = await postUpload(t, {
      cookie: admin,
      target: 'procedure-demo',
      recordId: id,
      fileName: 'demo.mp4',
      content: sampleBytes.mp4,
    });
    expect(response.json().key).toMatch(new RegExp(`^procedures/${id}/\\d+_demo\\.mp4$`));
  });

  it('refuses a .png whose bytes are HTML with the spec message', async () => {
    const response = await postUpload(t, {
      cookie: admin,
      target: 'event-image',
      fileName: 'foto.png',
      content: sampleBytes.html,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'FILE_FORMAT', message: messages.invalidFileFormat });
  });

  it('refuses an SVG image, by name and by content', async () => {
    const byName = await postUpload(t, {
      cookie: admin,
      target: 'landing-media',
      fileName: 'logo.svg',
      content: sampleBytes.svg,
    });
    expect(byName.json()).toMatchObject({ code: 'FILE_FORMAT', message: 'El formato del archivo no es correcto.' });
    const renamed = await postUpload(t, {
      cookie: admin,
      target: 'landing-media',
      fileName: 'logo.png',
      content: sampleBytes.svg,
    });
    expect(renamed.json().code).toBe('FILE_FORMAT');
  });

  it('refuses an image in a PDF field and a PDF in an image field', async () => {
    expect(
      (await postUpload(t, { cookie: admin, target: 'event-pdf', fileName: 'a.png', content: sampleBytes.png })).json()
        .code,
    ).toBe('FILE_FORMAT');
    expect(
      (
        await postUpload(t, { cookie: admin, target: 'event-image', fileName: 'a.pdf', content: sampleBytes.pdf })
      ).json().code,
    ).toBe('FILE_FORMAT');
  });

  it('refuses an image larger than its limit with 413 and leaves nothing on disk', async () => {
    const before = await t.db.select().from(pendingUploads);
    const big = Buffer.concat([sampleBytes.png, Buffer.alloc(uploadSizeLimits.image + 1024, 7)]);
    const declared = await postUpload(t, {
      cookie: admin,
      target: 'event-image',
      fileName: 'big.png',
      content: Buffer.concat([big, Buffer.alloc(200_000)]),
    });
    expect(declared.statusCode).toBe(413);
    // a landing slide may be a 5 GB video, so the image's own limit stops it while streaming
    const streamed = await postUpload(t, { cookie: admin, target: 'landing-media', fileName: 'big.png', content: big });
    expect(streamed.statusCode).toBe(413);
    expect(await t.db.select().from(pendingUploads)).toHaveLength(before.length);
  });

  it('a surgery upload needs the surgery id', async () => {
    const response = await postUpload(t, {
      cookie: admin,
      target: 'procedure-preview',
      fileName: 'a.png',
      content: sampleBytes.png,
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('no orphan files', () => {
  it('a discarded upload is deleted from storage', async () => {
    const { key } = (
      await postUpload(t, { cookie: admin, target: 'newsletter-image', fileName: 'n.jpg', content: sampleBytes.jpg })
    ).json();
    expect((await discard(admin, key)).statusCode).toBe(200);
    expect(await t.storage.stat(key)).toBeNull();
  });

  it('discarding never deletes a file that is not a pending upload', async () => {
    const key = 'events/1700000000000_guardado.pdf';
    await t.storage.put(key, (await import('node:stream')).Readable.from([sampleBytes.pdf]));
    await discard(admin, key);
    expect(await t.storage.stat(key)).not.toBeNull();
  });

  it('uploads abandoned for a day are swept', async () => {
    const { key } = (
      await postUpload(t, { cookie: admin, target: 'event-image', fileName: 'viejo.png', content: sampleBytes.png })
    ).json();
    await t.db
      .update(pendingUploads)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(pendingUploads.key, key));
    await t.app.services.uploads.sweep();
    expect(await t.storage.stat(key)).toBeNull();
  });
});
