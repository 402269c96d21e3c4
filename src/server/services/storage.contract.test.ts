import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { randomBytes, randomUUID } from 'node:crypto';
import { createLocalStorage, type FileStorage } from './storage.ts';
import { createS3Storage } from './s3-storage.ts';
import { startS3TestServer } from '#server/testing/s3-test-server.ts';

type Store = { storage: FileStorage; close(): Promise<void> };

const stores: [string, () => Promise<Store>][] = [
  [
    'local folder',
    async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'cxvet-contract-'));
      return { storage: createLocalStorage(root), close: () => rm(root, { recursive: true, force: true }) };
    },
  ],
  [
    'S3-compatible bucket (s3rver)',
    async () => {
      const server = await startS3TestServer();
      const storage = createS3Storage(server.settings);
      return {
        storage,
        close: async () => {
          storage.close?.();
          await server.close();
        },
      };
    },
  ],
];

const bytes = (length: number) => randomBytes(length);
// a body that arrives in several chunks, as an HTTP upload does
const chunked = (data: Buffer, size = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let offset = 0; offset < data.length; offset += size) yield data.subarray(offset, offset + size);
    })(),
  );

describe.each(stores)('file storage contract: %s', (_name, open) => {
  let store: Store;
  let storage: FileStorage;
  beforeAll(async () => {
    store = await open();
    storage = store.storage;
  });
  afterAll(() => store.close());
  const key = (name: string) => `procedures/${randomUUID()}/${name}`;

  it('is ready when reachable', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
  });

  it('stores a streamed body and reports its size', async () => {
    const data = bytes(300_000);
    const k = key('Full-Video/video.mp4');
    expect(await storage.put(k, chunked(data))).toEqual({ size: data.length });
    expect(await storage.stat(k)).toMatchObject({ size: data.length });
    expect((await storage.stat(k))?.modifiedAt).toBeInstanceOf(Date);
    expect((await buffer(storage.read(k))).equals(data)).toBe(true);
  });

  it('streams a 20 MiB upload in parts and reads it back whole', { timeout: 60_000 }, async () => {
    const data = bytes(20 * 1024 * 1024 + 123);
    const k = key('Full-Video/grande.mp4');
    expect(await storage.put(k, chunked(data, 1024 * 1024))).toEqual({ size: data.length });
    const back = await buffer(storage.read(k));
    expect(back.length).toBe(data.length);
    expect(back.equals(data)).toBe(true);
  });

  it('reads an inclusive byte range', async () => {
    const data = bytes(100_000);
    const k = key('Demo-Video/demo.mp4');
    await storage.put(k, chunked(data));
    expect((await buffer(storage.read(k, { start: 1000, end: 1999 }))).equals(data.subarray(1000, 2000))).toBe(true);
    expect((await buffer(storage.read(k, { start: 99_999, end: 99_999 }))).equals(data.subarray(99_999))).toBe(true);
  });

  it('answers null for a missing or unsafe key and fails the stream of a missing one', async () => {
    expect(await storage.stat(key('nada.mp4'))).toBeNull();
    expect(await storage.stat('../etc/passwd')).toBeNull();
    await expect(buffer(storage.read(key('nada.mp4')))).rejects.toThrow();
  });

  it('replaces a key written twice', async () => {
    const k = key('Preview-Image/portada.png');
    await storage.put(k, Readable.from([Buffer.from('primera')]));
    await storage.put(k, Readable.from([Buffer.from('segunda versión')]));
    expect((await buffer(storage.read(k))).toString()).toBe('segunda versión');
  });

  it('deletes a file; deleting it again is harmless', async () => {
    const k = key('Guide/guia.pdf');
    await storage.put(k, Readable.from([Buffer.from('%PDF-1.4')]));
    await storage.delete(k);
    expect(await storage.stat(k)).toBeNull();
    await expect(storage.delete(k)).resolves.toBeUndefined();
  });

  it('keeps nothing under the key when the body fails halfway', async () => {
    const k = key('Full-Video/roto.mp4');
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent++ < 3) this.push(bytes(64 * 1024));
        else this.destroy(new Error('conexión cortada'));
      },
    });
    await expect(storage.put(k, failing)).rejects.toThrow('conexión cortada');
    expect(await storage.stat(k)).toBeNull();
  });

  describe('signed URLs', () => {
    it('are offered by object stores only (the local store serves through /media itself)', () => {
      expect(typeof storage.signedUrl === 'function').toBe(storage.kind === 's3');
    });

    it.runIf(_name.startsWith('S3'))('serve the object, and a range of it, without our server', async () => {
      const data = bytes(50_000);
      const k = key('Full-Video/firmado.mp4');
      await storage.put(k, chunked(data));
      const url = await storage.signedUrl!(k, { expiresInSeconds: 300 });
      const whole = await fetch(url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('video/mp4');
      expect(Buffer.from(await whole.arrayBuffer()).equals(data)).toBe(true);
      const part = await fetch(url, { headers: { range: 'bytes=10-19' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 10-19/${data.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(10, 20))).toBe(true);
    });

    it.runIf(_name.startsWith('S3'))('refuse an unsigned, tampered or expired URL', { timeout: 20_000 }, async () => {
      const k = key('Full-Video/privado.mp4');
      await storage.put(k, Readable.from([Buffer.from('solo Premium')]));
      const url = new URL(await storage.signedUrl!(k, { expiresInSeconds: 300 }));

      const unsigned = new URL(url.pathname, url.origin);
      expect((await fetch(unsigned)).status).toBe(403);

      const otherKey = new URL(url);
      otherKey.pathname = url.pathname.replace('privado.mp4', 'otro.mp4');
      expect((await fetch(otherKey)).status).toBe(403);

      const longer = new URL(url);
      longer.searchParams.set('X-Amz-Expires', '604000');
      expect((await fetch(longer)).status).toBe(403);

      const short = await storage.signedUrl!(k, { expiresInSeconds: 1 });
      expect((await fetch(short)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const expired = await fetch(short);
      expect(expired.status).toBe(403);
      expect(await expired.text()).toContain('expired');
    });
  });
});
