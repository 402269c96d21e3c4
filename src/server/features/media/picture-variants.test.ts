import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough, Readable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createLocalStorage, type FileStorage } from '#server/services/storage.ts';
import { createPictureVariants, variantKey } from './picture-variants.ts';

let folder: string;
let local: FileStorage;
// the sources whose reading never ends, as a stalled disk or network store would leave it
const stalled = new Set<string>();
const storage = (): FileStorage => ({
  ...local,
  kind: local.kind,
  stat: (key) => local.stat(key),
  put: (key, body) => local.put(key, body),
  delete: (key) => local.delete(key),
  check: () => local.check(),
  read: (key, range) => (stalled.has(key) ? new PassThrough() : local.read(key, range)),
});

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cxvet-variants-'));
  local = createLocalStorage(folder);
  const picture = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#7a3' } })
    .jpeg()
    .toBuffer();
  for (const key of ['a.jpg', 'b.jpg', 'c.jpg']) await local.put(`procedures/${key}`, Readable.from([picture]));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('a copy that never ends', () => {
  it("sends its request the original in time, and gives its turn on, so the next pictures' copies are made", async () => {
    const logged: string[] = [];
    const log = {
      warn: (_fields: object, message: string) => void logged.push(message),
      error: (_fields: object, message: string) => void logged.push(message),
    };
    const variants = createPictureVariants({ storage: storage(), log, waitMs: 1_000, turnMs: 200 });
    stalled.add('procedures/a.jpg');
    stalled.add('procedures/b.jpg');
    // the two turns are taken by copies that never end; the third waits for one
    const first = variants.keyFor('procedures/a.jpg', 360);
    const second = variants.keyFor('procedures/b.jpg', 360);
    const third = variants.keyFor('procedures/c.jpg', 360);
    // before, the third waited for ever behind the two, and so did the first two
    expect(await third).toBe(variantKey('procedures/c.jpg', 360));
    expect(await first).toBe('procedures/a.jpg');
    expect(await second).toBe('procedures/b.jpg');
    expect(logged).toContain('picture variant still being made: its turn goes to the next copy');
    expect(logged).toContain('picture variant not ready in time, the original is sent');
    expect(await local.stat(variantKey('procedures/c.jpg', 360))).not.toBeNull();
  });

  it('sends the copies made within the wait, three asked at once', async () => {
    stalled.clear();
    const variants = createPictureVariants({ storage: storage(), log: { warn() {}, error() {} }, waitMs: 5_000 });
    const keys = await Promise.all(['a', 'b', 'c'].map((name) => variants.keyFor(`procedures/${name}.jpg`, 480)));
    expect(keys).toEqual(['a', 'b', 'c'].map((name) => variantKey(`procedures/${name}.jpg`, 480)));
  });
});
