import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { postUpload, uploadSample } from '#server/features/uploads/uploads.testing.ts';
import { pendingUploads, procedureCaptions } from '#server/db/schema/index.ts';
import { messages } from '#shared/messages.ts';
import { uploadSizeLimits } from '#shared/uploads/uploads.rules.ts';

let t: TestApp;
let admin: string;
let gratis: string;
let premium: string;
let legacyActive: string;
let legacyEnded: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
  gratis = (await signedInAs(t, { type: 'Gratis' })).cookie;
  premium = (await signedInAs(t, { type: 'Premium' })).cookie;
  legacyActive = (await signedInAs(t, { type: 'Legacy', terminationDate: new Date(Date.now() + 30 * 86_400_000) }))
    .cookie;
  legacyEnded = (await signedInAs(t, { type: 'Legacy', terminationDate: new Date(Date.now() - 1000) })).cookie;
});
afterAll(async () => t.close());

const validVtt = (text = 'Incidimos la piel sobre la línea media.') =>
  Buffer.from(
    `WEBVTT\n\n1\n00:00:01.000 --> 00:00:04.000\n${text}\n\n2\n00:00:05.000 --> 00:00:08.500\nCerramos por planos.\n`,
    'utf8',
  );

const uploadCaptions = (
  recordId: string,
  content: Buffer,
  fileName = 'subtitulos.vtt',
  cookie: string | null = admin,
) => postUpload(t, { cookie: cookie ?? undefined, target: 'procedure-captions', recordId, fileName, content });

async function captionKey(recordId: string, text?: string): Promise<string> {
  const response = await uploadCaptions(recordId, validVtt(text));
  expect(response.statusCode, response.body).toBe(200);
  return response.json().key;
}

const putProcedure = (id: string, payload: object) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/admin/procedures/${id}`,
    headers: { origin: testPublicUrl, cookie: admin },
    payload,
  });

async function procedureInput(id: string, type: 'Gratis' | 'Premium', captions?: unknown) {
  return {
    name: 'Cistotomía en perro',
    type,
    detail: 'Extracción de urolitos.',
    species: 'Perro',
    tagIds: [],
    meta: '',
    previewImage: await uploadSample(t, admin, 'procedure-preview', 'portada.png', id),
    demoVideo: await uploadSample(t, admin, 'procedure-demo', 'demo.mp4', id),
    guidePdf: await uploadSample(t, admin, 'procedure-guide', 'guia.pdf', id),
    fullVideo: await uploadSample(t, admin, 'procedure-video', 'completo.mp4', id),
    chapters: [],
    ...(captions ? { captions } : {}),
  };
}

/** A saved procedure whose demo has Spanish subtitles and whose full video has Spanish and English ones. */
async function procedureWithCaptions(type: 'Gratis' | 'Premium') {
  const id = randomUUID();
  const keys = {
    demoEs: await captionKey(id, 'Demo en español'),
    fullEs: await captionKey(id, 'Completo en español'),
    fullEn: await captionKey(id, 'Full in English'),
  };
  const response = await putProcedure(
    id,
    await procedureInput(id, type, {
      demo: { es: keys.demoEs, en: '', pt: '' },
      full: { es: keys.fullEs, en: keys.fullEn, pt: '' },
    }),
  );
  expect(response.statusCode, response.body).toBe(200);
  return { id, keys };
}

const media = (key: string, cookie?: string) =>
  t.app.inject({ url: `/media/${key}`, headers: cookie ? { cookie } : {} });

describe('caption uploads', () => {
  it('stores a valid WebVTT file as a pending caption upload', async () => {
    const id = randomUUID();
    const response = await uploadCaptions(id, validVtt());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      kind: 'captions',
      key: expect.stringMatching(new RegExp(`^procedures/${id}/\\d+_subtitulos\\.vtt$`)),
    });
    expect(await t.db.select().from(pendingUploads).where(eq(pendingUploads.key, response.json().key))).toHaveLength(1);
  });

  it.each([
    [
      'a file without the WEBVTT header',
      Buffer.from('1\n00:00:01.000 --> 00:00:04.000\nHola\n'),
      'Línea 1: el archivo debe comenzar con la palabra WEBVTT.',
    ],
    [
      'a badly written timing',
      Buffer.from('WEBVTT\n\n00:00:01,000 --> 00:00:04.000\nHola\n'),
      'Línea 3: la línea de tiempo debe tener la forma 00:00:01.000 --> 00:00:04.000.',
    ],
    [
      'an arrow without its two dashes',
      Buffer.from('WEBVTT\n\n00:00:01.000 -> 00:00:04.000\nHola\n'),
      'Línea 3: la línea de tiempo debe tener la forma 00:00:01.000 --> 00:00:04.000.',
    ],
    [
      'a cue without its timing line',
      Buffer.from('WEBVTT\n\n1\nHola\n'),
      'Línea 4: falta la línea de tiempo del subtítulo, con la forma 00:00:01.000 --> 00:00:04.000.',
    ],
    [
      'a cue that ends before it starts',
      Buffer.from('WEBVTT\n\n00:00:05.000 --> 00:00:04.000\nHola\n'),
      'Línea 3: el final de un subtítulo debe ser posterior a su inicio.',
    ],
    [
      'a file that is not UTF-8',
      Buffer.concat([
        Buffer.from('WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nIncisi'),
        Buffer.from([0xf3]),
        Buffer.from('n\n'),
      ]),
      'Línea 1: el archivo debe estar guardado con codificación UTF-8.',
    ],
    ['a file without any subtitle', Buffer.from('WEBVTT\n'), 'Línea 1: el archivo no contiene ningún subtítulo.'],
    [
      'an HTML page named .vtt',
      Buffer.from('<!doctype html><script>alert(1)</script>'),
      'Línea 1: el archivo debe comenzar con la palabra WEBVTT.',
    ],
  ])('refuses %s with a Spanish message naming the line', async (_case, content, detail) => {
    const response = await uploadCaptions(randomUUID(), content);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'CAPTIONS_INVALID',
      message: 'El archivo de subtítulos no es un WebVTT válido.',
      fields: { file: `El archivo de subtítulos no es un WebVTT válido. ${detail}` },
    });
  });

  it('refuses a caption file that is not .vtt by name', async () => {
    const response = await uploadCaptions(randomUUID(), validVtt(), 'subtitulos.srt');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('FILE_FORMAT');
  });

  it('refuses a caption file over 1 MB with 413', async () => {
    const big = Buffer.concat([
      validVtt(),
      Buffer.from(`\n3\n00:00:09.000 --> 00:00:10.000\n${'a'.repeat(uploadSizeLimits.captions)}\n`),
    ]);
    expect((await uploadCaptions(randomUUID(), big)).statusCode).toBe(413);
  });

  it('leaves nothing behind when a file is refused', async () => {
    const id = randomUUID();
    await uploadCaptions(id, Buffer.from('no es webvtt'));
    const rows = await t.db.select().from(pendingUploads);
    expect(rows.filter((row) => row.key.startsWith(`procedures/${id}/`))).toEqual([]);
  });

  it.each([
    ['a guest', () => null, 401],
    ['a Premium member', () => premium, 403],
  ])('refuses uploads from %s', async (_who, cookie, status) => {
    const response = await uploadCaptions(randomUUID(), validVtt(), 'subtitulos.vtt', cookie());
    expect(response.statusCode).toBe(status);
  });
});

describe('saving a procedure with captions', () => {
  it('saves each video its subtitles by language and shows them back in the form', async () => {
    const { id, keys } = await procedureWithCaptions('Premium');
    const form = await t.app.inject({ url: `/api/admin/procedures/${id}`, headers: { cookie: admin } });
    expect(form.json().captions).toEqual({
      demo: { es: keys.demoEs, en: '', pt: '' },
      full: { es: keys.fullEs, en: keys.fullEn, pt: '' },
    });
    expect(await t.db.select().from(pendingUploads).where(eq(pendingUploads.key, keys.fullEn))).toEqual([]);
  });

  it('asks for Spanish before another language', async () => {
    const id = randomUUID();
    const english = await captionKey(id);
    const response = await putProcedure(
      id,
      await procedureInput(id, 'Gratis', { demo: { es: '', en: english, pt: '' }, full: { es: '', en: '', pt: '' } }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ 'captions.demo.es': messages.captionsSpanishFirst });
  });

  it('refuses a key that is not an uploaded caption file of this procedure', async () => {
    const id = randomUUID();
    const input = await procedureInput(id, 'Gratis');
    const other = await captionKey(randomUUID());
    const response = await putProcedure(id, {
      ...input,
      captions: { demo: { es: input.guidePdf, en: '', pt: '' }, full: { es: other, en: '', pt: '' } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      'captions.demo.es': messages.invalidFileFormat,
      'captions.full.es': messages.invalidFileFormat,
    });
  });

  it('deletes a replaced caption file, and keeps the saved ones when a save leaves captions out', async () => {
    const { id, keys } = await procedureWithCaptions('Gratis');
    const input = await procedureInput(id, 'Gratis');
    const { captions: _none, ...withoutCaptions } = input as typeof input & { captions?: unknown };
    expect((await putProcedure(id, withoutCaptions)).statusCode).toBe(200);
    expect(await t.db.select().from(procedureCaptions).where(eq(procedureCaptions.procedureId, id))).toHaveLength(3);

    const replacement = await captionKey(id, 'Nueva versión');
    const saved = await putProcedure(id, {
      ...input,
      captions: { demo: { es: keys.demoEs, en: '', pt: '' }, full: { es: replacement, en: '', pt: '' } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await t.storage.stat(keys.fullEs)).toBeNull();
    expect(await t.storage.stat(keys.fullEn)).toBeNull();
    expect(await t.storage.stat(replacement)).not.toBeNull();
  });

  it('deletes the caption files with the procedure', async () => {
    const { id, keys } = await procedureWithCaptions('Gratis');
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/procedures/${id}`,
      headers: { origin: testPublicUrl, cookie: admin },
    });
    expect(response.statusCode).toBe(200);
    for (const key of Object.values(keys)) expect(await t.storage.stat(key)).toBeNull();
  });
});

describe('captions follow the access rule of their video', () => {
  it.each([
    ['a guest', 401, () => undefined],
    ['a Basic member', 403, () => gratis],
    ['a Legacy member whose access ended', 403, () => legacyEnded],
    ['a Premium member', 200, () => premium],
    ['an active Legacy member', 200, () => legacyActive],
    ['an Admin', 200, () => admin],
  ])("%s asking for the full video's captions of a Premium procedure gets %i", async (_who, status, cookie) => {
    const { keys } = await procedureWithCaptions('Premium');
    for (const key of [keys.fullEs, keys.fullEn]) {
      const response = await media(key, cookie());
      expect(response.statusCode).toBe(status);
      if (status === 200) {
        expect(response.headers['content-type']).toMatch(/^text\/vtt/);
        expect(response.headers['cache-control']).toBe('private, no-store');
      } else {
        expect(response.body).not.toContain('WEBVTT');
      }
    }
  });

  it("gives anyone the demo's captions, like the demo itself", async () => {
    const { keys } = await procedureWithCaptions('Premium');
    const response = await media(keys.demoEs);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Demo en español');
  });

  it("gives a Basic member the full video's captions of a free procedure, and a guest nothing", async () => {
    const { keys } = await procedureWithCaptions('Gratis');
    expect((await media(keys.fullEs, gratis)).statusCode).toBe(200);
    expect((await media(keys.fullEs)).statusCode).toBe(401);
  });

  it('serves an uploaded caption file only once it is saved into its procedure', async () => {
    const id = randomUUID();
    const pending = await captionKey(id);
    expect((await media(pending, admin)).statusCode).toBe(404);
  });

  it('lists in the procedure page the captions of the video the visitor gets, Spanish first', async () => {
    const { id, keys } = await procedureWithCaptions('Premium');
    const detail = async (cookie?: string) =>
      (await t.app.inject({ url: `/api/catalog/procedures/${id}`, headers: cookie ? { cookie } : {} })).json();
    const asBasic = await detail(gratis);
    expect(asBasic.isDemo).toBe(true);
    expect(asBasic.captions).toEqual([{ language: 'es', label: 'Español', url: `/media/${keys.demoEs}` }]);
    expect(JSON.stringify(asBasic)).not.toContain(keys.fullEs);
    expect(JSON.stringify(await detail())).not.toContain(keys.fullEn);
    const asPremium = await detail(premium);
    expect(asPremium.captions).toEqual([
      { language: 'es', label: 'Español', url: `/media/${keys.fullEs}` },
      { language: 'en', label: 'English', url: `/media/${keys.fullEn}` },
    ]);
  });
});
