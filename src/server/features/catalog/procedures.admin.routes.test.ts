import { describe, expect, it } from 'vitest';
import { createTestApp } from '#server/testing/test-app.ts';
import { useConsoleTestApp } from '#server/testing/console-test-app.ts';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { pendingUploads, procedures } from '#server/db/schema/index.ts';
import { messages } from '#shared/messages.ts';
import { uploadSample } from '#server/features/uploads/uploads.testing.ts';

const { state, call } = useConsoleTestApp();

async function newProcedureInput(id: string, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Mastectomía en perra',
    type: 'Premium',
    detail: 'Resección de cadena mamaria.',
    species: 'Perro',
    tagIds: [],
    meta: 'mastectomia, glandula mamaria',
    previewImage: await uploadSample(state.t, state.admin.cookie, 'procedure-preview', 'portada.png', id),
    demoVideo: await uploadSample(state.t, state.admin.cookie, 'procedure-demo', 'demo.mp4', id),
    guidePdf: await uploadSample(state.t, state.admin.cookie, 'procedure-guide', 'guia.pdf', id),
    fullVideo: await uploadSample(state.t, state.admin.cookie, 'procedure-video', 'completo.mp4', id),
    chapters: [
      { name: 'Incisión', time: '0:01:30' },
      { name: 'Cierre', time: '1:69:59' },
    ],
    ...overrides,
  };
}

describe('surgeries', () => {
  it('names every missing field with the spec messages', async () => {
    const response = await call('PUT', `/api/admin/procedures/${randomUUID()}`, {
      name: '',
      type: 'Gratis',
      detail: ' ',
      species: '',
      tagIds: [],
      meta: '',
      previewImage: '',
      demoVideo: '',
      guidePdf: '',
      fullVideo: '',
      chapters: [
        { name: '', time: '1:70:00' },
        { name: 'Cierre', time: '' },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      name: 'Debes llenar este campo.',
      detail: 'Debes llenar este campo.',
      species: 'Debes seleccionar un valor',
      previewImage: 'Debes llenar este campo.',
      demoVideo: 'Debes llenar este campo.',
      guidePdf: 'Debes llenar este campo.',
      fullVideo: 'Debes llenar este campo.',
      'chapters.0.name': 'Debes llenar este campo.',
      'chapters.0.time': 'Introduce un formato válido.',
      'chapters.1.time': 'Debes llenar este campo.',
    });
  });

  it('a saved surgery shows in the public catalogue and detail at once, with tags and markers', async () => {
    const tagId = randomUUID();
    await call('PUT', `/api/admin/tags/${tagId}`, { name: 'Glándula mamaria' });
    const id = randomUUID();
    const saved = await call('PUT', `/api/admin/procedures/${id}`, await newProcedureInput(id, { tagIds: [tagId] }));
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      id,
      tagIds: [tagId],
      chapters: [
        { name: 'Incisión', time: '0:01:30' },
        { name: 'Cierre', time: '2:09:59' },
      ],
    });

    const catalog = await state.t.app.inject({ method: 'GET', url: '/api/catalog/procedures?q=mastectomia' });
    expect(catalog.json().items.map((item: { id: string }) => item.id)).toEqual([id]);
    const detail = await state.t.app.inject({ method: 'GET', url: `/api/catalog/procedures/${id}` });
    expect(detail.json()).toMatchObject({
      name: 'Mastectomía en perra',
      chapters: [{ name: 'Incisión', timeSeconds: 90 }, { timeSeconds: 3600 + 69 * 60 + 59 }],
    });
    expect(detail.json().tags).toEqual([{ id: tagId, name: 'Glándula mamaria' }]);
    expect(
      await state.t.db.select().from(pendingUploads).where(eq(pendingUploads.key, saved.json().fullVideo)),
    ).toEqual([]);
  });

  it('refuses a file of another surgery or of the wrong kind', async () => {
    const id = randomUUID();
    const other = await createProcedure(state.t);
    const input = await newProcedureInput(id);
    const response = await call('PUT', `/api/admin/procedures/${id}`, {
      ...input,
      fullVideo: other.fullVideo,
      guidePdf: input.previewImage,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      fullVideo: messages.invalidFileFormat,
      guidePdf: messages.invalidFileFormat,
    });
  });

  it('replacing a file deletes the old one, and deleting the surgery deletes its files', async () => {
    const id = randomUUID();
    const input = await newProcedureInput(id);
    await call('PUT', `/api/admin/procedures/${id}`, input);
    const newVideo = await uploadSample(state.t, state.admin.cookie, 'procedure-video', 'nuevo.mp4', id);
    const replaced = await call('PUT', `/api/admin/procedures/${id}`, { ...input, fullVideo: newVideo });
    expect(replaced.statusCode).toBe(200);
    expect(await state.t.storage.stat(input.fullVideo)).toBeNull();
    expect(await state.t.storage.stat(newVideo)).not.toBeNull();

    expect((await call('DELETE', `/api/admin/procedures/${id}`)).statusCode).toBe(200);
    for (const key of [input.previewImage, input.demoVideo, input.guidePdf, newVideo])
      expect(await state.t.storage.stat(key)).toBeNull();
    expect(await state.t.db.select().from(procedures).where(eq(procedures.id, id))).toEqual([]);
    expect((await call('GET', `/api/admin/procedures/${id}`)).statusCode).toBe(404);
  });

  it('the list is searched, sorted and paged by 12 in the database', async () => {
    const fresh = await createTestApp();
    try {
      const cookie = (await signedInAs(fresh, { type: 'Admin' })).cookie;
      for (let index = 1; index <= 13; index++) {
        await createProcedure(fresh, {
          name: `Cirugía ${String(index).padStart(2, '0')}`,
          species: index === 13 ? 'Gato' : 'Perro',
        });
      }
      const get = (query: string) =>
        fresh.app
          .inject({ method: 'GET', url: `/api/admin/procedures?${query}`, headers: { cookie } })
          .then((r) => r.json());
      const first = await get('sort=name&dir=asc');
      expect(first.total).toBe(13);
      expect(first.items).toHaveLength(12);
      expect(first.items[0].name).toBe('Cirugía 01');
      const second = await get('sort=name&dir=asc&page=2');
      expect(second.items.map((item: { name: string }) => item.name)).toEqual(['Cirugía 13']);
      const cats = await get('q=gato');
      expect(cats.items.map((item: { species: string }) => item.species)).toEqual(['Gato']);
      expect((await get('sort=name&dir=desc')).items[0].name).toBe('Cirugía 13');
    } finally {
      await fresh.close();
    }
  });
});
