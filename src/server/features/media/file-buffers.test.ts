import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import rangeParser from 'range-parser';
import { createLocalStorage, type FileStorage, type OpenedFile } from '#server/services/storage.ts';
import { createFileBuffers, sendFileRange } from './file-buffers.ts';

describe('file buffers', () => {
  it('lends a view of exactly the length asked for, and lends the same buffer again once it is given back', () => {
    const buffers = createFileBuffers({ size: 8, keep: 2 });
    const first = buffers.take(5);
    expect(first.bytes.length).toBe(5);
    expect(first.bytes.buffer.byteLength).toBeGreaterThanOrEqual(8);
    first.release();
    first.release();
    expect(buffers.idle).toBe(1);
    const again = buffers.take(8);
    expect(again.bytes.buffer).toBe(first.bytes.buffer);
    expect(buffers.idle).toBe(0);
  });

  it('keeps no more idle buffers than asked, and refuses a length longer than its buffers', () => {
    const buffers = createFileBuffers({ size: 8, keep: 2 });
    const lent = [1, 2, 3, 4].map((length) => buffers.take(length));
    expect(new Set(lent.map((buffer) => buffer.bytes.buffer)).size).toBe(4);
    for (const buffer of lent) buffer.release();
    expect(buffers.idle).toBe(2);
    expect(() => buffers.take(9)).toThrow(RangeError);
  });
});

/** Bytes where every 4-byte word is its own offset: any byte from the wrong place or the wrong buffer shows. */
function numbered(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let offset = 0; offset < length; offset += 4) bytes.writeUInt32LE(offset, offset);
  return bytes;
}
const content = numbered(3.5 * 1024 * 1024);
// longer than what the loopback's socket buffers hold, so a reader that stops reading holds the answer back
const long = numbered(24 * 1024 * 1024);

describe('sending a held-open file through reused buffers', () => {
  let root: string;
  let storage: FileStorage;
  let app: FastifyInstance;
  let baseUrl: string;
  const buffers = createFileBuffers({ size: 1024 * 1024, keep: 4 });
  /** Replaces the held file's reads for one request (a failing disk). */
  let readsOf: ((file: OpenedFile) => OpenedFile) | null = null;
  const finished: string[] = [];
  const warn = vi.fn();

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'cxvet-file-buffers-'));
    storage = createLocalStorage(root);
    await storage.put('procedures/x/video.mp4', Readable.from([content]));
    await storage.put('procedures/x/long.mp4', Readable.from([long]));
    app = Fastify();
    app.get<{ Querystring: { long?: string } }>('/video', async (request, reply) => {
      const opened = (await storage.openFile!(`procedures/x/${request.query.long ? 'long' : 'video'}.mp4`))!;
      request.log.warn = warn;
      try {
        const file = readsOf ? readsOf(opened) : opened;
        reply.header('content-type', 'video/mp4');
        const header = request.headers.range;
        const ranges = header ? rangeParser(file.size, header) : null;
        if (Array.isArray(ranges)) {
          const [range] = ranges;
          reply.status(206).header('content-length', String(range!.end - range!.start + 1));
          return await sendFileRange(reply, file, range!, buffers);
        }
        reply.header('content-length', String(file.size));
        return await sendFileRange(reply, file, { start: 0, end: file.size - 1 }, buffers);
      } finally {
        opened.release();
        finished.push(request.id);
      }
    });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    storage.close?.();
    await rm(root, { recursive: true, force: true });
  });

  async function fetchBytes(range?: string) {
    const response = await fetch(`${baseUrl}/video`, { headers: range ? { range } : {} });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }

  it('sends the whole file, a range across buffers, one buffer and one byte, byte for byte', async () => {
    const whole = await fetchBytes();
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(content.length));
    expect(whole.body.equals(content)).toBe(true);
    for (const [start, end] of [
      [1_000_000, 2_500_000],
      [1024 * 1024, 2 * 1024 * 1024 - 1],
      [7, 7],
    ] as const) {
      const part = await fetchBytes(`bytes=${start}-${end}`);
      expect(part.status).toBe(206);
      expect(part.body.equals(content.subarray(start, end + 1))).toBe(true);
    }
    expect(buffers.idle).toBeGreaterThan(0);
  });

  it('gives each of many answers at once its own bytes, while the buffers go round', async () => {
    const starts = Array.from({ length: 16 }, (_, index) => index * 200_003);
    const answers = await Promise.all(starts.map((start) => fetchBytes(`bytes=${start}-${start + 1_300_000}`)));
    answers.forEach((answer, index) =>
      expect(answer.body.equals(content.subarray(starts[index], starts[index]! + 1_300_001))).toBe(true),
    );
    expect(buffers.idle).toBeLessThanOrEqual(4);
  });

  it('waits for a slow reader, and lends no one the buffer its socket still holds', async () => {
    const reads = vi.fn();
    readsOf = (file) => ({ ...file, bytes: (range, into) => (reads(), file.bytes(range, into)) });
    try {
      let readWhilePaused = 0;
      const received = await new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        httpRequest(`${baseUrl}/video?long=1`, (response) => {
          response.pause();
          // 300 ms without reading: the first buffers fill the sockets, then the answer waits for room; meanwhile
          // other answers take buffers, and must not be lent the one still waiting in the paused socket
          setTimeout(() => {
            readWhilePaused = reads.mock.calls.length;
            Promise.all([0, 1, 2].map(() => fetchBytes('bytes=0-1048575')))
              .then((others) => {
                for (const other of others) expect(other.body.equals(content.subarray(0, 1048576))).toBe(true);
                response
                  .on('data', (chunk: Buffer) => chunks.push(chunk))
                  .on('end', () => resolve(Buffer.concat(chunks)));
                response.resume();
              })
              .catch(reject);
          }, 300);
        })
          .on('error', reject)
          .end();
      });
      expect(received.equals(long)).toBe(true);
      expect(reads).toHaveBeenCalledTimes(24 + 3);
      expect(readWhilePaused).toBeGreaterThan(0);
      expect(readWhilePaused).toBeLessThan(24);
    } finally {
      readsOf = null;
    }
  });

  it('ends its work when the reader goes away mid-answer', async () => {
    const before = finished.length;
    const controller = new AbortController();
    const response = await fetch(`${baseUrl}/video?long=1`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await vi.waitFor(() => expect(finished.length).toBe(before + 1));
  });

  it('answers an error when the first read fails, and cuts the connection when a later one does', async () => {
    readsOf = (file) => ({ ...file, bytes: () => Promise.reject(new Error('unreadable')) });
    try {
      expect((await fetchBytes()).status).toBe(500);
    } finally {
      readsOf = null;
    }
    let count = 0;
    readsOf = (file) => ({
      ...file,
      bytes: (range, into) => (++count === 2 ? Promise.reject(new Error('disk gone')) : file.bytes(range, into)),
    });
    try {
      await expect(fetchBytes()).rejects.toThrow();
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ err: expect.any(Error) }),
        expect.stringContaining('could not be read'),
      );
    } finally {
      readsOf = null;
    }
  });

  it('answers HEAD with the headers and no body, reading nothing', async () => {
    const reads = vi.fn();
    readsOf = (file) => ({ ...file, bytes: (range, into) => (reads(), file.bytes(range, into)) });
    try {
      const response = await fetch(`${baseUrl}/video`, { method: 'HEAD' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(content.length));
      expect(reads).not.toHaveBeenCalled();
    } finally {
      readsOf = null;
    }
  });
});
