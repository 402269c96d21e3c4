import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { landingSlides, organizations, pendingUploads, procedures, siteSettings } from '#server/db/schema/index.ts';
import { messages } from '#shared/messages.ts';
import { uploadSample } from '#server/features/uploads/uploads.testing.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
});
afterAll(() => t.close());

function call(method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown, cookie: string | null = admin) {
  return t.app.inject({
    method,
    url,
    headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

const someId = randomUUID();
const endpoints: [method: 'GET' | 'PUT' | 'DELETE', url: string][] = [
  ['GET', '/api/admin/procedures'],
  ['GET', `/api/admin/procedures/${someId}`],
  ['PUT', `/api/admin/procedures/${someId}`],
  ['DELETE', `/api/admin/procedures/${someId}`],
  ['GET', '/api/admin/tags'],
  ['GET', `/api/admin/tags/${someId}`],
  ['PUT', `/api/admin/tags/${someId}`],
  ['DELETE', `/api/admin/tags/${someId}`],
  ['GET', '/api/admin/events'],
  ['GET', `/api/admin/events/${someId}`],
  ['PUT', `/api/admin/events/${someId}`],
  ['DELETE', `/api/admin/events/${someId}`],
  ['GET', '/api/admin/organizations'],
  ['GET', `/api/admin/organizations/${someId}`],
  ['PUT', `/api/admin/organizations/${someId}`],
  ['GET', '/api/admin/landing'],
  ['PUT', '/api/admin/landing'],
  ['GET', '/api/admin/newsletter'],
  ['PUT', '/api/admin/newsletter'],
];

describe('only Admins reach the console API', () => {
  it.each(endpoints)('%s %s refuses a guest with 401 and members with 403', async (method, url) => {
    const payload = method === 'PUT' ? {} : undefined;
    expect((await call(method, url, payload, null)).statusCode).toBe(401);
    for (const type of ['Gratis', 'Premium'] as const) {
      const { cookie } = await signedInAs(t, { type });
      expect((await call(method, url, payload, cookie)).statusCode).toBe(403);
    }
  });
});

async function newProcedureInput(id: string, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Mastectomía en perra',
    type: 'Premium',
    detail: 'Resección de cadena mamaria.',
    species: 'Perro',
    tagIds: [],
    meta: 'mastectomia, glandula mamaria',
    previewImage: await uploadSample(t, admin, 'procedure-preview', 'portada.png', id),
    demoVideo: await uploadSample(t, admin, 'procedure-demo', 'demo.mp4', id),
    guidePdf: await uploadSample(t, admin, 'procedure-guide', 'guia.pdf', id),
    fullVideo: await uploadSample(t, admin, 'procedure-video', 'completo.mp4', id),
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
      chapters: [{ name: '', time: '1:70:00' }, { name: 'Cierre', time: '' }],
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
    expect(saved.json()).toMatchObject({ id, tagIds: [tagId], chapters: [{ name: 'Incisión', time: '0:01:30' }, { name: 'Cierre', time: '2:09:59' }] });

    const catalog = await t.app.inject({ method: 'GET', url: '/api/catalog/procedures?q=mastectomia' });
    expect(catalog.json().items.map((item: { id: string }) => item.id)).toEqual([id]);
    const detail = await t.app.inject({ method: 'GET', url: `/api/catalog/procedures/${id}` });
    expect(detail.json()).toMatchObject({ name: 'Mastectomía en perra', chapters: [{ name: 'Incisión', timeSeconds: 90 }, { timeSeconds: 3600 + 69 * 60 + 59 }] });
    expect(detail.json().tags).toEqual([{ id: tagId, name: 'Glándula mamaria' }]);
    expect(await t.db.select().from(pendingUploads).where(eq(pendingUploads.key, saved.json().fullVideo))).toEqual([]);
  });

  it('refuses a file of another surgery or of the wrong kind', async () => {
    const id = randomUUID();
    const other = await createProcedure(t);
    const input = await newProcedureInput(id);
    const response = await call('PUT', `/api/admin/procedures/${id}`, { ...input, fullVideo: other.fullVideo, guidePdf: input.previewImage });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ fullVideo: messages.invalidFileFormat, guidePdf: messages.invalidFileFormat });
  });

  it('replacing a file deletes the old one, and deleting the surgery deletes its files', async () => {
    const id = randomUUID();
    const input = await newProcedureInput(id);
    await call('PUT', `/api/admin/procedures/${id}`, input);
    const newVideo = await uploadSample(t, admin, 'procedure-video', 'nuevo.mp4', id);
    const replaced = await call('PUT', `/api/admin/procedures/${id}`, { ...input, fullVideo: newVideo });
    expect(replaced.statusCode).toBe(200);
    expect(await t.storage.stat(input.fullVideo)).toBeNull();
    expect(await t.storage.stat(newVideo)).not.toBeNull();

    expect((await call('DELETE', `/api/admin/procedures/${id}`)).statusCode).toBe(200);
    for (const key of [input.previewImage, input.demoVideo, input.guidePdf, newVideo]) expect(await t.storage.stat(key)).toBeNull();
    expect(await t.db.select().from(procedures).where(eq(procedures.id, id))).toEqual([]);
    expect((await call('GET', `/api/admin/procedures/${id}`)).statusCode).toBe(404);
  });

  it('the list is searched, sorted and paged by 12 in the database', async () => {
    const fresh = await createTestApp();
    try {
      const cookie = (await signedInAs(fresh, { type: 'Admin' })).cookie;
      for (let index = 1; index <= 13; index++) {
        await createProcedure(fresh, { name: `Cirugía ${String(index).padStart(2, '0')}`, species: index === 13 ? 'Gato' : 'Perro' });
      }
      const get = (query: string) =>
        fresh.app.inject({ method: 'GET', url: `/api/admin/procedures?${query}`, headers: { cookie } }).then((r) => r.json());
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

describe('tags', () => {
  it('requires a name and refuses a duplicate', async () => {
    expect((await call('PUT', `/api/admin/tags/${randomUUID()}`, { name: '' })).json().fields).toEqual({ name: 'Debes llenar este campo.' });
    await call('PUT', `/api/admin/tags/${randomUUID()}`, { name: 'Cardiología' });
    const duplicate = await call('PUT', `/api/admin/tags/${randomUUID()}`, { name: 'Cardiología' });
    expect(duplicate.json().fields).toEqual({ name: messages.tagNameTaken });
  });

  it('creates, renames and deletes a tag', async () => {
    const id = randomUUID();
    await call('PUT', `/api/admin/tags/${id}`, { name: 'Neurología' });
    await call('PUT', `/api/admin/tags/${id}`, { name: 'Neurocirugía' });
    expect((await call('GET', `/api/admin/tags/${id}`)).json()).toEqual({ id, name: 'Neurocirugía' });
    expect((await call('DELETE', `/api/admin/tags/${id}`)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/tags')).json().items.some((tag: { id: string }) => tag.id === id)).toBe(false);
  });
});

async function eventInput(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Congreso de cirugía',
    displayDate: '12 y 13 de marzo',
    sortDate: '2027-03-12T00:00:00.000Z',
    type: 'Congreso',
    status: 'Activo',
    detailHtml: '<p>Programa <strong>completo</strong></p>',
    image: await uploadSample(t, admin, 'event-image', 'cartel.jpg'),
    pdf: null,
    programPdf: null,
    promoVideoId: 'dQw4w9WgXcQ',
    ...overrides,
  };
}

describe('events', () => {
  it('names every required field with Debes llenar este campo.', async () => {
    const response = await call('PUT', `/api/admin/events/${randomUUID()}`, {
      name: '',
      displayDate: '',
      sortDate: '',
      type: '',
      status: '',
      detailHtml: '',
      image: '',
      pdf: null,
      programPdf: null,
      promoVideoId: 'no vale!',
    });
    expect(response.json().fields).toEqual({
      name: 'Debes llenar este campo.',
      displayDate: 'Debes llenar este campo.',
      sortDate: 'Debes llenar este campo.',
      type: 'Debes llenar este campo.',
      status: 'Debes llenar este campo.',
      detailHtml: 'Debes llenar este campo.',
      image: 'Debes llenar este campo.',
      promoVideoId: 'Introduce un formato válido.',
    });
  });

  it('the event PDF must be a PDF', async () => {
    const input = await eventInput();
    const image = await uploadSample(t, admin, 'event-image', 'otra.png');
    const response = await call('PUT', `/api/admin/events/${randomUUID()}`, { ...input, pdf: image });
    expect(response.json().fields).toEqual({ pdf: 'El formato del archivo no es correcto.' });
  });

  it('stores the rich text clean of scripts, handlers, javascript: links, iframes and styles', async () => {
    const id = randomUUID();
    const dirty =
      '<h2 style="color:red">Agenda</h2><script>alert(1)</script><p onclick="x()">Hola <img src=x onerror="alert(1)">' +
      '<a href="javascript:alert(1)">malo</a> <a href="https://cxvet.com" target="_blank">bueno</a> <a href="mailto:a@b.com">correo</a></p>' +
      '<iframe src="https://evil.example"></iframe><ul><li>uno</li></ul>';
    const saved = await call('PUT', `/api/admin/events/${id}`, await eventInput({ detailHtml: dirty }));
    expect(saved.statusCode).toBe(200);
    const html: string = saved.json().detailHtml;
    expect(html).toBe(
      '<h2>Agenda</h2><p>Hola <a rel="noopener noreferrer">malo</a> <a href="https://cxvet.com" target="_blank" rel="noopener noreferrer">bueno</a> ' +
        '<a href="mailto:a@b.com" rel="noopener noreferrer">correo</a></p><ul><li>uno</li></ul>',
    );
    const publicList = await t.app.inject({ method: 'GET', url: '/api/events' });
    expect(publicList.json().events.find((event: { id: string }) => event.id === id).detailHtml).toBe(html);
  });

  it('an Inactivo event leaves the public agenda; deleting it deletes its files', async () => {
    const id = randomUUID();
    const input = await eventInput({
      pdf: await uploadSample(t, admin, 'event-pdf', 'evento.pdf'),
      programPdf: await uploadSample(t, admin, 'event-program', 'programa.pdf'),
    });
    await call('PUT', `/api/admin/events/${id}`, input);
    await call('PUT', `/api/admin/events/${id}`, { ...input, status: 'Inactivo' });
    const publicList = await t.app.inject({ method: 'GET', url: '/api/events' });
    expect(publicList.json().events.some((event: { id: string }) => event.id === id)).toBe(false);
    expect((await call('DELETE', `/api/admin/events/${id}`)).statusCode).toBe(200);
    for (const key of [input.image, input.pdf, input.programPdf]) expect(await t.storage.stat(String(key))).toBeNull();
  });

  it('discarding a saved PDF removes it from the event and from storage', async () => {
    const id = randomUUID();
    const input = await eventInput({ pdf: await uploadSample(t, admin, 'event-pdf', 'evento.pdf') });
    await call('PUT', `/api/admin/events/${id}`, input);
    const saved = await call('PUT', `/api/admin/events/${id}`, { ...input, pdf: null });
    expect(saved.json().pdf).toBeNull();
    expect(await t.storage.stat(String(input.pdf))).toBeNull();
  });
});

describe('organizations', () => {
  it('names the missing title, logo, promo image and promo link', async () => {
    const response = await call('PUT', `/api/admin/organizations/${randomUUID()}`, {
      title: '',
      type: 'Empresa',
      logoImage: '',
      promoImage: null,
      promoLink: '',
    });
    expect(response.json().fields).toEqual({
      title: 'Este campo es requerido.',
      logoImage: 'Se requiere la imagen del logo.',
      promoImage: 'Se requiere la imagen del promo.',
      promoLink: 'Este campo es requerido.',
    });
    const noType = await call('PUT', `/api/admin/organizations/${randomUUID()}`, { title: 'X', type: '', logoImage: 'x', promoImage: null, promoLink: null });
    expect(noType.json().fields.type).toBe('Este campo es requerido.');
  });

  it('type Universidad clears the promo image and link and deletes the promo file', async () => {
    const id = randomUUID();
    const company = {
      title: 'Laboratorio Vet',
      type: 'Empresa',
      logoImage: await uploadSample(t, admin, 'organization-logo', 'logo.png', id),
      promoImage: await uploadSample(t, admin, 'organization-promo', 'promo.png', id),
      promoLink: 'labvet.com/promo',
    };
    const saved = await call('PUT', `/api/admin/organizations/${id}`, company);
    expect(saved.json()).toMatchObject({ promoLink: 'https://labvet.com/promo', promoImage: company.promoImage });
    const university = await call('PUT', `/api/admin/organizations/${id}`, { ...company, type: 'Universidad' });
    expect(university.json()).toMatchObject({ type: 'Universidad', promoImage: null, promoLink: null });
    expect(await t.storage.stat(company.promoImage)).toBeNull();
    expect(await t.storage.stat(company.logoImage)).not.toBeNull();
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, id));
    expect(row).toMatchObject({ promoImage: null, promoLink: null });
  });
});

describe('landing photos', () => {
  it('saves the list order as 1-based positions, the shared time and empty titles for videos; the hero follows', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const slide = async (id: string, fileName: string, title: string) => ({
      id,
      media: await uploadSample(t, admin, 'landing-media', fileName),
      isVideo: false,
      title,
      subtitle: `Sub ${title}`,
      textColor: 'Blanco',
    });
    const slides = [await slide(a, 'a.jpg', 'Primera'), await slide(b, 'b.mp4', 'Video'), await slide(c, 'c.png', 'Tercera')];
    const saved = await call('PUT', '/api/admin/landing', { slideSeconds: 8, slides });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().slides[1]).toMatchObject({ id: b, isVideo: true, title: '', subtitle: '' });

    const reordered = [slides[0]!, slides[2]!, { ...slides[1]!, title: '' }];
    await call('PUT', '/api/admin/landing', { slideSeconds: 8, slides: reordered });
    const rows = await t.db.select().from(landingSlides);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.position]))).toEqual({ [a]: 1, [c]: 2, [b]: 3 });
    const [settings] = await t.db.select().from(siteSettings);
    expect(settings?.slideSeconds).toBe(8);
    const hero = (await t.app.inject({ method: 'GET', url: '/api/landing' })).json();
    expect(hero.slides.map((s: { id: string }) => s.id)).toEqual([a, c, b]);
    expect(hero.slideSeconds).toBe(8);

    await call('PUT', '/api/admin/landing', { slideSeconds: 5, slides: [slides[0]!] });
    expect(await t.storage.stat(slides[1]!.media)).toBeNull();
    expect(await t.storage.stat(slides[2]!.media)).toBeNull();
  });
});

describe('newsletter image', () => {
  it('assigns the image and deletes the previous one', async () => {
    const first = await uploadSample(t, admin, 'newsletter-image', 'boletin.png');
    expect((await call('PUT', '/api/admin/newsletter', { image: first })).json()).toEqual({ image: first });
    const second = await uploadSample(t, admin, 'newsletter-image', 'boletin2.jpg');
    await call('PUT', '/api/admin/newsletter', { image: second });
    expect((await call('GET', '/api/admin/newsletter')).json()).toEqual({ image: second });
    expect(await t.storage.stat(first)).toBeNull();
    const [settings] = await t.db.select().from(siteSettings);
    expect(settings?.newsletterImage).toBe(second);
  });

  it('refuses a key outside the newsletter folder', async () => {
    const other = await uploadSample(t, admin, 'event-image', 'evento.png');
    expect((await call('PUT', '/api/admin/newsletter', { image: other })).json().fields).toEqual({ image: messages.invalidFileFormat });
  });
});
