import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, truncate, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { createLocalStorage, isSafeKey } from './storage.ts';

const root = await mkdtemp(path.join(tmpdir(), 'cxvet-storage-'));
const storage = createLocalStorage(root);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('local storage', () => {
  it.each(['../x', 'a/../b', '/etc/passwd', 'a\\b', 'a//b', '', 'a/./b'])('refuses the unsafe key %j', (key) => {
    expect(isSafeKey(key)).toBe(false);
  });

  it('stores, reads a range of and deletes a file', async () => {
    await storage.put('events/1_cartel.png', Readable.from([Buffer.from('0123456789')]));
    expect(await storage.stat('events/1_cartel.png')).toMatchObject({ size: 10 });
    expect(await text(storage.read('events/1_cartel.png', { start: 2, end: 4 }))).toBe('234');
    await storage.delete('events/1_cartel.png');
    expect(await storage.stat('events/1_cartel.png')).toBeNull();
  });

  it('holds a file open for its range requests, and forgets it when it is replaced or deleted', async () => {
    await storage.put('procedures/x/video.mp4', Readable.from([Buffer.from('0123456789')]));
    const first = (await storage.openFile!('procedures/x/video.mp4'))!;
    const second = (await storage.openFile!('procedures/x/video.mp4'))!;
    expect(first.size).toBe(10);
    // several readers at once, each at its own position, into a new buffer or one given
    const given = Buffer.alloc(4);
    const [a, b, c] = await Promise.all([
      first.bytes({ start: 0, end: 2 }),
      second.bytes({ start: 7, end: 9 }),
      first.bytes({ start: 3, end: 6 }, given),
    ]);
    expect([a.toString(), b.toString(), c.toString()]).toEqual(['012', '789', '3456']);
    expect(c).toBe(given);
    await expect(second.bytes({ start: 0, end: 9 }, Buffer.alloc(4))).rejects.toThrow(RangeError);
    first.release();
    second.release();
    await storage.put('procedures/x/video.mp4', Readable.from([Buffer.from('abcdef')]));
    const replaced = (await storage.openFile!('procedures/x/video.mp4'))!;
    expect(replaced.size).toBe(6);
    expect((await replaced.bytes({ start: 0, end: 5 })).toString()).toBe('abcdef');
    replaced.release();
    await storage.delete('procedures/x/video.mp4');
    expect(await storage.openFile!('procedures/x/video.mp4')).toBeNull();
    expect(await storage.openFile!('../etc/passwd')).toBeNull();
  });

  it('reads offsets past 4 GiB of a sparse file', async () => {
    const dir = path.join(root, 'big');
    await mkdir(dir, { recursive: true });
    await storage.put('big/file.bin', Readable.from([Buffer.alloc(0)]));
    const fiveGiB = 5 * 1024 ** 3;
    await truncate(path.join(dir, 'file.bin'), fiveGiB);
    expect(await storage.stat('big/file.bin')).toMatchObject({ size: fiveGiB });
    const bytes = await text(storage.read('big/file.bin', { start: fiveGiB - 2, end: fiveGiB - 1 }));
    expect(bytes.length).toBe(2);
  });

  it('leaves nothing behind when an upload fails halfway', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('conexión cortada'));
      },
    });
    await expect(storage.put('events/roto.png', failing)).rejects.toThrow('conexión cortada');
    expect(await storage.stat('events/roto.png')).toBeNull();
  });
});
