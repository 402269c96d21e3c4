import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable, Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { writeTestLadder } from '#server/testing/ladders.ts';
import { startS3TestServer } from '#server/testing/s3-test-server.ts';
import { createS3Storage } from '#server/services/s3-storage.ts';
import { createLocalStorage, type FileStorage } from '#server/services/storage.ts';
import { pictureVariantWidths } from '#shared/media/picture-variants.ts';
import { variantKey } from './picture-variants.ts';

// narrower WebP copies of stored pictures: the original's permission, made once, kept in the store

/** A 1090×720 picture with detail, as the catalogue's previews are. */
async function picture(width = 1090, height = 720, format: 'jpeg' | 'png' = 'jpeg') {
  const noise = Buffer.alloc(width * height * 3);
  for (let index = 0; index < noise.length; index++) noise[index] = (index * 7919) % 251;
  return sharp(noise, { raw: { width, height, channels: 3 } })
    [format]()
    .toBuffer();
}

/** A store that records its writes, and can be told to fail those of copies. */
function recording(storage: FileStorage) {
  const puts: string[] = [];
  const state: { failCopies: boolean; beforeCopy: (() => Promise<void>) | null } = {
    failCopies: false,
    beforeCopy: null,
  };
  const wrapped: FileStorage = {
    ...storage,
    async put(key, body) {
      puts.push(key);
      if (key.startsWith('variants/')) await state.beforeCopy?.();
      if (state.failCopies && key.startsWith('variants/')) {
        // as a full disk would: the body is read in part, then the write fails
        return storage.put(
          key,
          Readable.from(
            (async function* () {
              for await (const chunk of body) {
                yield chunk as Buffer;
                throw new Error('ENOSPC: no space left on device');
              }
            })(),
          ),
        );
      }
      return storage.put(key, body);
    },
  };
  return { storage: wrapped, puts, state };
}

const logLines: string[] = [];
const logStream = new Writable({ write: (chunk, _encoding, done) => (logLines.push(String(chunk)), done()) });

let t: TestApp;
let store: ReturnType<typeof recording>;
let guest: undefined;
let basic: string;
let premium: string;
let admin: string;
let paid: Awaited<ReturnType<typeof createProcedure>>;
let poster: string;
let classroomPicture: string;
let source: Buffer;
let uploads: string;

beforeAll(async () => {
  uploads = await mkdtemp(path.join(tmpdir(), 'cxvet-variants-'));
  store = recording(createLocalStorage(uploads));
  t = await createTestApp({ logLevel: 'warn' }, undefined, { storage: store.storage, logStream });
  basic = (await signedInAs(t, { type: 'Gratis' })).cookie;
  premium = (await signedInAs(t, { type: 'Premium' })).cookie;
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
  paid = await createProcedure(t, { type: 'Premium' });
  source = await picture();
  await t.storage.put(paid.previewImage!, Readable.from([source]));
  // the ladder's poster follows the Premium full video's rule: a restricted picture
  poster = `${await writeTestLadder(t, paid.fullVideo!, { ready: true })}/poster.jpg`;
  await t.storage.put(poster, Readable.from([source]));
  // a classroom's picture: members only
  classroomPicture = `aulas/${randomUUID()}/1700000000000_aula.png`;
  await t.storage.put(classroomPicture, Readable.from([await picture(800, 600, 'png')]));
});
afterAll(async () => {
  await t.close();
  await rm(uploads, { recursive: true, force: true });
});

const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url, headers: { ...(cookie ? { cookie } : {}), ...headers } });

async function expectWebp(response: Awaited<ReturnType<typeof get>>, width: number) {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('image/webp');
  const meta = await sharp(response.rawPayload).metadata();
  expect(meta.format).toBe('webp');
  expect(meta.width).toBe(width);
}

const copiesMade = (key: string) =>
  store.puts.filter((put) => put.startsWith('variants/') && put.endsWith(`/${key}.webp`));

describe('picture copies by width', () => {
  it('sends each allowed width of a public preview as a smaller WebP, cacheable like the original', async () => {
    for (const width of pictureVariantWidths) {
      const response = await get(`/media/${paid.previewImage}?w=${width}`);
      await expectWebp(response, width);
      expect(response.headers['cache-control']).toBe('public, max-age=3600');
      expect(response.rawPayload.length).toBeLessThan(source.length);
      // the proportions of the original
      expect((await sharp(response.rawPayload).metadata()).height).toBe(Math.round((720 * width) / 1090));
    }
    // the original is unchanged without w
    const original = await get(`/media/${paid.previewImage}`);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(original.rawPayload.equals(source)).toBe(true);
  });

  it.each([
    ['a guest', () => guest],
    ['a Basic member', () => basic],
    ['a Premium member', () => premium],
    ['an Admin', () => admin],
  ])('gives %s the public preview at any allowed width', async (_who, cookie) => {
    await expectWebp(await get(`/media/${paid.previewImage}?w=480`, cookie()), 480);
  });

  it.each([
    ['a guest', () => guest, 401],
    ['a Basic member', () => basic, 403],
  ])(
    "refuses %s a copy of a Premium video's poster, as it refuses the poster, and makes none",
    async (_who, cookie, status) => {
      for (const url of [`/media/${poster}`, `/media/${poster}?w=360`, `/media/${poster}?w=12345`]) {
        const response = await get(url, cookie());
        expect(response.statusCode, url).toBe(status);
        expect(response.headers['content-type']).toContain('application/json');
      }
      expect(copiesMade(poster)).toEqual([]);
      expect(await t.storage.stat(variantKey(poster, 360))).toBeNull();
    },
  );

  it.each([
    ['a Premium member', () => premium],
    ['an Admin', () => admin],
  ])("gives %s a copy of the Premium video's poster, private as the poster", async (_who, cookie) => {
    const response = await get(`/media/${poster}?w=360`, cookie());
    await expectWebp(response, 360);
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it("keeps a classroom's picture for members: a guest gets 401, a Basic member the copy", async () => {
    expect((await get(`/media/${classroomPicture}?w=360`)).statusCode).toBe(401);
    const response = await get(`/media/${classroomPicture}?w=360`, basic);
    await expectWebp(response, 360);
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('never serves a copy by its own key: the store folder of copies is not a media address', async () => {
    await get(`/media/${paid.previewImage}?w=360`);
    const response = await get(`/media/${variantKey(paid.previewImage!, 360)}`);
    expect(response.statusCode).toBe(404);
  });

  it('never enlarges a picture narrower than the width asked for', async () => {
    const small = await createProcedure(t);
    await t.storage.put(small.previewImage!, Readable.from([await picture(300, 200)]));
    await expectWebp(await get(`/media/${small.previewImage}?w=960`), 300);
  });

  it('answers a copy with the same revalidation and ranges as any stored file', async () => {
    const first = await get(`/media/${paid.previewImage}?w=720`);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await get(`/media/${paid.previewImage}?w=720`, undefined, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const ranged = await get(`/media/${paid.previewImage}?w=720`, undefined, { range: 'bytes=0-11' });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });
});

describe('bad widths', () => {
  it.each([['500'], ['0'], ['-360'], ['360.0'], ['abc'], [''], ['99999']])(
    'refuses w=%s with a clear message',
    async (w) => {
      const response = await get(`/media/${paid.previewImage}?w=${w}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION',
        fields: { w: 'Ancho no disponible: usa 360, 480, 720 o 960 píxeles.' },
      });
    },
  );

  it('refuses two widths at once', async () => {
    const response = await get(`/media/${paid.previewImage}?w=360&w=480`);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION');
  });

  it('refuses a width on a file that is not a picture', async () => {
    const response = await get(`/media/${paid.demoVideo}?w=360`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { w: 'Solo las imágenes (JPG, PNG o WebP) se sirven en otros anchos.' },
    });
  });

  it('checks permission first: a guest asking a protected file with a width learns only that it is refused', async () => {
    expect((await get(`/media/${paid.guidePdf}?w=360`)).statusCode).toBe(401);
    expect((await get(`/media/procedures/${randomUUID()}/x.jpg?w=360`)).statusCode).toBe(404);
  });
});

describe('made once', () => {
  it('makes one copy for two requests at once, then serves the stored one', async () => {
    const fresh = await createProcedure(t);
    await t.storage.put(fresh.previewImage!, Readable.from([source]));
    const [a, b] = await Promise.all([
      get(`/media/${fresh.previewImage}?w=480`),
      get(`/media/${fresh.previewImage}?w=480`),
    ]);
    await expectWebp(a, 480);
    expect(b.rawPayload.equals(a.rawPayload)).toBe(true);
    expect(copiesMade(fresh.previewImage!)).toEqual([variantKey(fresh.previewImage!, 480)]);
    await get(`/media/${fresh.previewImage}?w=480`);
    expect(copiesMade(fresh.previewImage!)).toHaveLength(1);
  });

  it('serves the stored copy after a restart without making it again', async () => {
    const fresh = await createProcedure(t);
    await t.storage.put(fresh.previewImage!, Readable.from([source]));
    const before = await get(`/media/${fresh.previewImage}?w=360`);
    await expectWebp(before, 360);
    const restarted = await createTestApp({}, { database: t.database }, { storage: store.storage });
    try {
      const after = await restarted.app.inject({ url: `/media/${fresh.previewImage}?w=360` });
      await expectWebp(after, 360);
      expect(after.rawPayload.equals(before.rawPayload)).toBe(true);
      expect(copiesMade(fresh.previewImage!)).toHaveLength(1);
    } finally {
      await restarted.close();
    }
  });

  it('makes a copy deleted by hand again on the next request', async () => {
    const fresh = await createProcedure(t);
    await t.storage.put(fresh.previewImage!, Readable.from([source]));
    await expectWebp(await get(`/media/${fresh.previewImage}?w=960`), 960);
    await rm(path.join(t.storage.root!, 'variants'), { recursive: true, force: true });
    await expectWebp(await get(`/media/${fresh.previewImage}?w=960`), 960);
    expect(copiesMade(fresh.previewImage!)).toHaveLength(2);
  });

  it('sends the original when the copy cannot be stored, leaves no partial copy, and tries again next time', async () => {
    const fresh = await createProcedure(t);
    await t.storage.put(fresh.previewImage!, Readable.from([source]));
    store.state.failCopies = true;
    try {
      const response = await get(`/media/${fresh.previewImage}?w=720`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
      expect(response.rawPayload.equals(source)).toBe(true);
      expect(await t.storage.stat(variantKey(fresh.previewImage!, 720))).toBeNull();
      const folder = path.join(t.storage.root!, 'variants', 'w720', ...fresh.previewImage!.split('/').slice(0, -1));
      expect(await readdir(folder).catch(() => [])).toEqual([]);
      expect(
        logLines.some((line) => line.includes('picture variant not stored') && line.includes(fresh.previewImage!)),
      ).toBe(true);
    } finally {
      store.state.failCopies = false;
    }
    await expectWebp(await get(`/media/${fresh.previewImage}?w=720`), 720);
    expect(copiesMade(fresh.previewImage!)).toHaveLength(2);
  });
});

describe('copies of a picture that is gone', () => {
  it("deletes a picture's copies with it when an Admin deletes its procedure", async () => {
    const fresh = await createProcedure(t);
    await t.storage.put(fresh.previewImage!, Readable.from([source]));
    for (const width of [360, 720] as const)
      await expectWebp(await get(`/media/${fresh.previewImage}?w=${width}`), width);
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/procedures/${fresh.id}`,
      headers: { cookie: admin, origin: testPublicUrl },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await t.storage.stat(fresh.previewImage!)).toBeNull();
    for (const width of pictureVariantWidths)
      expect(await t.storage.stat(variantKey(fresh.previewImage!, width))).toBeNull();
    expect((await get(`/media/${fresh.previewImage}?w=360`)).statusCode).toBe(404);
  });

  it('leaves no copy behind when its picture is deleted while the copy is being made', async () => {
    const fresh = await createProcedure(t);
    await t.storage.put(fresh.previewImage!, Readable.from([source]));
    // the Admin's delete lands after the picture was read and before its copy is written
    store.state.beforeCopy = async () => {
      store.state.beforeCopy = null;
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/procedures/${fresh.id}`,
        headers: { cookie: admin, origin: testPublicUrl },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    try {
      // the picture is gone by the time the answer is sent: the same 404 as without a width
      expect((await get(`/media/${fresh.previewImage}?w=480`)).statusCode).toBe(404);
    } finally {
      store.state.beforeCopy = null;
    }
    expect(copiesMade(fresh.previewImage!)).toEqual([variantKey(fresh.previewImage!, 480)]);
    expect(await t.storage.stat(variantKey(fresh.previewImage!, 480))).toBeNull();
    expect((await get(`/media/${fresh.previewImage}?w=480`)).statusCode).toBe(404);
  });
});

describe('sources that cannot be copied', () => {
  it('sends a file that is not really a picture as it is, logging a warning with the key but not the address', async () => {
    const broken = await createProcedure(t);
    await t.storage.put(broken.previewImage!, Readable.from([Buffer.from('no es una imagen')]));
    const token = 'secreto-de-la-consulta';
    const response = await get(`/media/${broken.previewImage}?w=360&vt=${token}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.body).toBe('no es una imagen');
    const warnings = logLines.filter(
      (line) => line.includes('source cannot be decoded') && line.includes(broken.previewImage!),
    );
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, key: broken.previewImage, width: 360 });
    expect(logLines.join('')).not.toContain(token);
    expect(logLines.join('')).not.toContain('?w=');
    // remembered for a while: the next request neither decodes nor logs again
    await get(`/media/${broken.previewImage}?w=360`);
    expect(
      logLines.filter((line) => line.includes('source cannot be decoded') && line.includes(broken.previewImage!)),
    ).toHaveLength(1);
    expect(copiesMade(broken.previewImage!)).toEqual([]);
  });

  it('sends a picture of too many pixels as it is (limitInputPixels), never decoding it', async () => {
    const huge = await createProcedure(t);
    const bytes = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    await t.storage.put(huge.previewImage!, Readable.from([bytes]));
    const response = await get(`/media/${huge.previewImage}?w=960`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(bytes)).toBe(true);
    const warning = logLines.find(
      (line) => line.includes('source cannot be decoded') && line.includes(huge.previewImage!),
    );
    expect(warning).toContain('pixel limit');
  });

  it('answers 404 for a missing picture, as without a width', async () => {
    const gone = await createProcedure(t);
    await t.storage.delete(gone.previewImage!);
    expect((await get(`/media/${gone.previewImage}?w=360`)).statusCode).toBe(404);
  });
});

describe('copies behind nginx (MEDIA_ACCEL_REDIRECT)', () => {
  it("hands nginx the stored copy's path, after the same check", async () => {
    const prefix = '/_media-interno/';
    const accel = await createTestApp({ mediaAccelRedirect: prefix });
    try {
      const procedure = await createProcedure(accel, { type: 'Premium' });
      await accel.storage.put(procedure.previewImage!, Readable.from([source]));
      const response = await accel.app.inject({ url: `/media/${procedure.previewImage}?w=360` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-accel-redirect']).toBe(`${prefix}${variantKey(procedure.previewImage!, 360)}`);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['cache-control']).toBe('public, max-age=3600');
      expect(response.rawPayload.length).toBe(0);
      expect(
        (await sharp(path.join(accel.storage.root!, ...variantKey(procedure.previewImage!, 360).split('/'))).metadata())
          .width,
      ).toBe(360);
      const refused = await accel.app.inject({ url: `/media/${procedure.guidePdf}?w=360` });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['x-accel-redirect']).toBeUndefined();
    } finally {
      await accel.close();
    }
  });
});

describe('copies on S3-compatible storage', () => {
  let s3: Awaited<ReturnType<typeof startS3TestServer>>;
  let bucket: ReturnType<typeof createS3Storage>;
  let onS3: TestApp;
  beforeAll(async () => {
    s3 = await startS3TestServer();
    bucket = createS3Storage(s3.settings);
    onS3 = await createTestApp({}, undefined, { storage: bucket });
  });
  afterAll(async () => {
    await onS3.close();
    bucket.close?.();
    await s3.close();
  });

  it("redirects to the copy's signed URL, with the original's caching, and refuses before signing", async () => {
    const procedure = await createProcedure(onS3, { type: 'Premium' });
    await bucket.put(procedure.previewImage!, Readable.from([source]));
    const response = await onS3.app.inject({ url: `/media/${procedure.previewImage}?w=480` });
    expect(response.statusCode).toBe(302);
    expect(response.headers['cache-control']).toBe('public, max-age=3000');
    const location = new URL(String(response.headers.location));
    expect(decodeURIComponent(location.pathname)).toContain(variantKey(procedure.previewImage!, 480));
    const copy = await fetch(location);
    expect(copy.status).toBe(200);
    expect((await sharp(Buffer.from(await copy.arrayBuffer())).metadata()).width).toBe(480);

    const { cookie } = await signedInAs(onS3, { type: 'Gratis' });
    const token = (
      await onS3.app.inject({ method: 'POST', url: '/api/viewing/token', headers: { cookie, origin: testPublicUrl } })
    ).json().token;
    const refused = await onS3.app.inject({
      url: `/media/${procedure.fullVideo}?w=480&vt=${token}`,
      headers: { cookie },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers.location).toBeUndefined();
  });
});
