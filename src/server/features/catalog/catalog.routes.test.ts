import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createClassroom, createProcedure, signedInAs } from '#server/testing/factories.ts';
import { analyticsEvents, procedureChapters, procedureTags, procedures, tags } from '#server/db/schema/index.ts';

let t: TestApp;
let gratis: string;
let premium: string;
let admin: string;
let member: string;
let classroomId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  gratis = (await signedInAs(t, { type: 'Gratis' })).cookie;
  premium = (await signedInAs(t, { type: 'Premium' })).cookie;
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
  const classroomMember = await signedInAs(t, { type: 'Gratis' });
  member = classroomMember.cookie;
  const [ortopedia, oftalmo] = await t.db
    .insert(tags)
    .values([{ name: 'Ortopedia' }, { name: 'Oftalmología' }])
    .returning();
  const make = async (key: string, values: Parameters<typeof createProcedure>[1], createdAt: number) => {
    const row = await createProcedure(t, { ...values, createdAt: new Date(Date.UTC(2026, 0, 1) + createdAt * 60_000) });
    ids[key] = row.id;
    return row;
  };
  await make(
    'ovh',
    { name: 'Ovariohisterectomía en perra', type: 'Gratis', species: 'Perro', meta: 'esterilización, castración' },
    1,
  );
  await make(
    'enucleacion',
    { name: 'Enucleación', type: 'Premium', species: 'Gato', detail: 'Extracción del globo ocular' },
    2,
  );
  await make('cruzado', { name: 'Reparación de ligamento cruzado', type: 'Premium', species: 'Perro' }, 3);
  await make('conejo', { name: 'Castración en conejo', type: 'Gratis', species: 'Otras especies' }, 4);
  for (let index = 0; index < 8; index++)
    await make(`relleno${index}`, { name: `Procedimiento ${index}`, species: 'Perro' }, 10 + index);
  await t.db.insert(procedureTags).values([
    { procedureId: ids.cruzado!, tagId: ortopedia!.id },
    { procedureId: ids.enucleacion!, tagId: oftalmo!.id },
  ]);
  await t.db.insert(procedureChapters).values([
    { procedureId: ids.enucleacion!, position: 1, name: 'Abordaje', timeSeconds: 30 },
    { procedureId: ids.enucleacion!, position: 0, name: 'Preparación', timeSeconds: 0 },
  ]);
  const classroom = await createClassroom(t, { procedureIds: [ids.enucleacion!], userIds: [classroomMember.user.id] });
  classroomId = classroom.id;
  ids.ortopedia = ortopedia!.id;
});
afterAll(async () => t.close());

const list = async (query: string, cookie?: string) => {
  const response = await t.app.inject({ url: `/api/catalog/procedures?${query}`, headers: cookie ? { cookie } : {} });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    items: { id: string; name: string; isLocked: boolean; tags: { name: string }[] }[];
    total: number;
  };
};
const names = (page: { items: { name: string }[] }) => page.items.map((item) => item.name);

describe('catalogue search', () => {
  it.each([
    ['accents and case ignored in the query', 'q=ENUCLEACION', ['Enucleación']],
    ['accents ignored in the data', 'q=oftalmologia', ['Enucleación']],
    ['detail text', 'q=globo ocular', ['Enucleación']],
    ['meta keywords', 'q=esterilizacion', ['Ovariohisterectomía en perra']],
    ['tag names', 'q=ortoped', ['Reparación de ligamento cruzado']],
    ['substring inside a word', 'q=cruz', ['Reparación de ligamento cruzado']],
    ['wildcards taken literally', 'q=%25', []],
    ['a capitalised word', 'q=Perra', ['Ovariohisterectomía en perra']],
    ['search and filters combined', 'q=castracion&species=Otras especies', ['Castración en conejo']],
    ['search, type and tag combined', 'q=ligamento&type=Premium&tag=ORTOPEDIA_ID', ['Reparación de ligamento cruzado']],
    ['nothing when a filter excludes the match', 'q=ligamento&type=Gratis', []],
  ])('matches %s', async (_case, query, expected) => {
    expect(names(await list(query.replace('ORTOPEDIA_ID', ids.ortopedia!)))).toEqual(expected);
  });

  // writes outside this instance reach its cache through the database's notification, on PostgreSQL a moment later
  const eventually = (query: string, cookie?: string) => expect.poll(async () => names(await list(query, cookie)));
  it('follows tag renames, new tag links and edits, also for guests served from the cache', async () => {
    const [tag] = await t.db.insert(tags).values({ name: 'Cirugía de tejidos blandos' }).returning();
    await eventually('q=tejidos blandos').toEqual([]);
    await t.db.insert(procedureTags).values({ procedureId: ids.conejo!, tagId: tag!.id });
    await eventually('q=tejidos blandos').toEqual(['Castración en conejo']);
    await t.db.update(tags).set({ name: 'Cirugía de mínima invasión' }).where(eq(tags.id, tag!.id));
    await eventually('q=tejidos blandos').toEqual([]);
    await eventually('q=minima invasion').toEqual(['Castración en conejo']);
    await t.db.delete(tags).where(eq(tags.id, tag!.id));
    await eventually('q=minima invasion').toEqual([]);
    await t.db.update(procedures).set({ meta: 'lagomorfo' }).where(eq(procedures.id, ids.conejo!));
    await eventually('q=lagomorfo', gratis).toEqual(['Castración en conejo']);
    await expect.poll(async () => (await list('q=lagomorfo')).total).toBe(1);
  });

  it('drops the guests cache as soon as an Admin saves a tag on this instance', async () => {
    const tagOfCruzado = async () => (await list('q=ligamento')).items[0]!.tags.map((tag) => tag.name);
    expect(await tagOfCruzado()).toEqual(['Ortopedia']);
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/tags/${ids.ortopedia}`,
      headers: { cookie: admin, origin: testPublicUrl },
      payload: { name: 'Traumatología' },
    });
    expect(saved.statusCode).toBe(200);
    expect(await tagOfCruzado()).toEqual(['Traumatología']);
    expect(names(await list('q=traumatologia'))).toEqual(['Reparación de ligamento cruzado']);
    await t.app.inject({
      method: 'PUT',
      url: `/api/admin/tags/${ids.ortopedia}`,
      headers: { cookie: admin, origin: testPublicUrl },
      payload: { name: 'Ortopedia' },
    });
    expect(await tagOfCruzado()).toEqual(['Ortopedia']);
  });
});

describe('catalogue filters and pages', () => {
  it('filters by species, type, tag and aula', async () => {
    expect(names(await list('species=Gato'))).toEqual(['Enucleación']);
    expect(names(await list('species=Otras especies'))).toEqual(['Castración en conejo']);
    expect((await list('type=Premium')).total).toBe(2);
    expect(names(await list(`tag=${ids.ortopedia}`))).toEqual(['Reparación de ligamento cruzado']);
    expect(names(await list(`classroom=${classroomId}`))).toEqual(['Enucleación']);
  });

  it('pages by 9, newest first', async () => {
    const first = await list('page=1');
    const second = await list('page=2');
    expect(first.total).toBe(12);
    expect(first.items).toHaveLength(9);
    expect(second.items).toHaveLength(3);
    expect(first.items[0]!.name).toBe('Procedimiento 7');
    expect(new Set([...names(first), ...names(second)]).size).toBe(12);
    const beyond = await list('page=5');
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBe(12);
  });

  it('refuses an unknown species with a 400', async () => {
    const response = await t.app.inject({ url: '/api/catalog/procedures?species=Caballo' });
    expect(response.statusCode).toBe(400);
  });

  it('lists tags and open aulas for the sidebar', async () => {
    const response = await t.app.inject({ url: '/api/catalog/filters' });
    const body = response.json();
    expect(body.tags.map((tag: { name: string }) => tag.name)).toEqual(['Oftalmología', 'Ortopedia']);
    expect(body.classrooms).toEqual([{ id: classroomId, title: 'Aula de prueba' }]);
  });
});

describe('premium locks on cards', () => {
  const lockedNames = async (cookie?: string) =>
    (await list('type=Premium', cookie)).items
      .filter((item) => item.isLocked)
      .map((item) => item.name)
      .sort();

  it.each([
    ['a guest', () => undefined, ['Enucleación', 'Reparación de ligamento cruzado']],
    ['a Basic member', () => gratis, ['Enucleación', 'Reparación de ligamento cruzado']],
    ['a Basic member of the aula', () => member, ['Reparación de ligamento cruzado']],
    ['a Premium member', () => premium, []],
    ['an Admin', () => admin, []],
  ])('shows %s the right locks', async (_case, cookie, expected) => {
    expect(await lockedNames(cookie())).toEqual(expected);
  });

  it('locks even Gratis procedures for guests, who get only demos', async () => {
    const page = await list('type=Gratis');
    expect(page.items.every((item) => item.isLocked)).toBe(true);
    const basic = await list('type=Gratis', gratis);
    expect(basic.items.every((item) => !item.isLocked)).toBe(true);
  });
});

describe('procedure detail', () => {
  const detail = async (id: string, cookie?: string) => {
    const response = await t.app.inject({ url: `/api/catalog/procedures/${id}`, headers: cookie ? { cookie } : {} });
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it('gives a guest the demo and no PDF', async () => {
    const body = await detail(ids.ovh!);
    expect(body.isDemo).toBe(true);
    expect(body.videoUrl).toMatch(/_demo\.mp4$/);
    expect(body.guidePdfUrl).toBeNull();
    expect(JSON.stringify(body)).not.toMatch(/_video\.mp4|_guia\.pdf/);
  });

  it('gives a Basic member the full Gratis procedure but only the demo of a Premium one', async () => {
    const free = await detail(ids.ovh!, gratis);
    expect(free.isDemo).toBe(false);
    expect(free.videoUrl).toMatch(/_video\.mp4$/);
    expect(free.guidePdfUrl).toMatch(/_guia\.pdf$/);
    const paid = await detail(ids.cruzado!, gratis);
    expect(paid.isDemo).toBe(true);
    expect(JSON.stringify(paid)).not.toMatch(/_video\.mp4|_guia\.pdf/);
  });

  it('gives a Premium member everything, with chapters in order and tags', async () => {
    const body = await detail(ids.enucleacion!, premium);
    expect(body.isDemo).toBe(false);
    expect(body.chapters).toEqual([
      { name: 'Preparación', timeSeconds: 0 },
      { name: 'Abordaje', timeSeconds: 30 },
    ]);
    expect(body.tags).toEqual([{ id: expect.any(String), name: 'Oftalmología' }]);
  });

  it('opens the full version to a member of an aula that holds it', async () => {
    expect((await detail(ids.enucleacion!, member)).isDemo).toBe(false);
  });

  it.each([
    ['a guest', 'ovh', () => undefined, false],
    ['a guest', 'cruzado', () => undefined, false],
    ['a Basic member', 'ovh', () => gratis, true],
    ['a Basic member', 'cruzado', () => gratis, false],
    ['a Basic member of the aula', 'enucleacion', () => member, true],
    ['a Premium member', 'cruzado', () => premium, true],
    ['an Admin', 'cruzado', () => admin, true],
  ])(
    'tells %s whether the full %s video plays and needs a viewing token, as the media route decides',
    async (_who, key, cookie, full) => {
      const body = await detail(ids[key]!, cookie());
      expect(body).toMatchObject({ canWatchFullVideo: full, needsViewingToken: full, isDemo: !full });
      // the decision is the media route's: a full video without the device's viewing token is refused (409), the demo is not
      const [row] = await t.db.select().from(procedures).where(eq(procedures.id, ids[key]!));
      const withoutToken = await t.app.inject({
        url: `/media/${full ? row!.fullVideo : row!.demoVideo}`,
        headers: cookie() ? { cookie: cookie()! } : {},
      });
      expect(withoutToken.statusCode).toBe(full ? 409 : 200);
    },
  );

  it('answers 404 for an unknown or malformed id', async () => {
    expect(
      (await t.app.inject({ url: '/api/catalog/procedures/00000000-0000-4000-8000-000000000000' })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: '/api/catalog/procedures/abc' })).statusCode).toBe(404);
  });

  it('records VIDEOS on view and FASCICULOS on a guide click, with the user type', async () => {
    await detail(ids.conejo!, premium);
    await t.app.inject({
      method: 'POST',
      url: `/api/catalog/procedures/${ids.conejo}/guide-clicks`,
      headers: { cookie: premium, origin: testPublicUrl },
    });
    await detail(ids.conejo!);
    const events = await t.db.select().from(analyticsEvents).where(eq(analyticsEvents.label, 'Castración en conejo'));
    expect(events.map((event) => [event.category, event.userType]).sort()).toEqual([
      ['FASCICULOS', 'Premium'],
      ['VIDEOS', 'Gest'],
      ['VIDEOS', 'Premium'],
    ]);
  });

  it('counts a guide download once per visitor and day, however often or how many at once it is clicked', async () => {
    const click = (cookie?: string, remoteAddress = '10.140.0.1') =>
      t.app.inject({
        method: 'POST',
        url: `/api/catalog/procedures/${ids.enucleacion}/guide-clicks`,
        remoteAddress,
        headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
      });
    const guideClicks = async () =>
      (await t.db.select().from(analyticsEvents).where(eq(analyticsEvents.category, 'FASCICULOS'))).filter(
        (event) => event.label === 'Enucleación',
      );
    const before = (await guideClicks()).length;
    // an anonymous visitor scripting the button: one count
    const responses = await Promise.all(Array.from({ length: 30 }, () => click()));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(30).fill(204));
    expect((await guideClicks()).length).toBe(before + 1);
    // another visitor and a signed-in member count once each, whatever their address
    await click(undefined, '10.140.0.2');
    await click(premium, '10.140.0.3');
    await click(premium, '10.140.0.4');
    const after = await guideClicks();
    expect(after.length).toBe(before + 3);
    expect(after.map((event) => event.userType).filter((type) => type === 'Premium')).toHaveLength(1);
    expect(after.every((event) => !event.dedupeKey?.includes('10.140'))).toBe(true);
  });
});

describe("a guest's poster on a procedure page, named in its HTML (page-hints.ts)", () => {
  it('is the preview picture over the video a guest is shown, and nothing is counted', async () => {
    const withDemo = await createProcedure(t, { name: 'Póster con demo', type: 'Premium' });
    const noDemo = await createProcedure(t, { name: 'Póster sin demo', type: 'Premium', demoVideo: null });
    const catalog = t.app.services.catalog;
    expect(await catalog.guestPoster(withDemo.id)).toBe(`/media/procedures/${withDemo.id}/1700000000000_preview.jpg`);
    // a guest is shown no video of this Premium procedure: no poster to wait for
    expect(await catalog.guestPoster(noDemo.id)).toBeNull();
    expect(await catalog.guestPoster('no-es-un-id')).toBeNull();
    const counted = await t.db.select().from(analyticsEvents).where(eq(analyticsEvents.label, 'Póster con demo'));
    expect(counted).toEqual([]);
  });
});
