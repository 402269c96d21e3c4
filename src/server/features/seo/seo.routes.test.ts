import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { brotliDecompressSync } from 'node:zlib';
import WebAutoExtractor from '@marbec/web-auto-extractor';
import { JSDOM } from 'jsdom';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, createUser } from '#server/testing/factories.ts';
import { createDiploma } from '#server/features/diplomas/diplomas.testing.ts';
import { certificates, events } from '#server/db/schema/index.ts';

let t: TestApp;
let distDir: string;
const ids = { free: '', premium: '', diploma: '', testDiploma: '', event: '', code: 'ABCDEFGH2345' };
const premiumSecret = 'Paso 7: la técnica completa del video Premium';

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'cxvet-seo-'));
  // the app's own index.html, as the build copies it (its generic title and description are replaced per page)
  await copyFile(path.resolve('index.html'), path.join(distDir, 'index.html'));
  t = await createTestApp({}, undefined, { distDir });
  const picture = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#336699' } })
    .jpeg()
    .toBuffer();
  const free = await createProcedure(t, { name: 'Ovariohisterectomía', detail: 'Técnica paso a paso en perras.' });
  const premium = await createProcedure(t, {
    name: 'Osteosíntesis de fémur',
    detail: 'Fijación con placa de compresión.',
    type: 'Premium',
    meta: premiumSecret,
  });
  await t.storage.put(premium.previewImage!, Readable.from([picture]));
  ids.free = free.id;
  ids.premium = premium.id;
  ids.diploma = (
    await createDiploma(t, { values: { title: 'Diplomado en Cirugía de Tejidos Blandos', costCents: 15000 } })
  ).id;
  ids.testDiploma = (await createDiploma(t, { values: { title: 'Diplomado oculto', isTest: true } })).id;
  await t.storage.put('events/1_congreso.jpg', Readable.from([picture]));
  const [event] = await t.db
    .insert(events)
    .values({
      name: 'Congreso de Cirugía',
      displayDate: '12 y 13 de marzo',
      sortDate: new Date('2027-03-12'),
      type: 'Congreso',
      detailHtml: '<p>Conferencias &amp; talleres.</p>',
      image: 'events/1_congreso.jpg',
      startsAt: new Date('2027-03-12T15:00:00Z'),
      endsAt: new Date('2027-03-14T00:30:00Z'),
      place: 'World Trade Center, Ciudad de México',
    })
    .returning();
  ids.event = event!.id;
  const holder = await createUser(t, { name: 'Pablo Ñúñez' });
  await t.db.insert(certificates).values({
    diplomaId: ids.diploma,
    userId: holder.id,
    diplomaTitle: 'Diplomado en Cirugía de Tejidos Blandos',
    folio: 1,
    verificationCode: ids.code,
    holderName: 'Pablo Ñúñez',
    completedAt: new Date('2026-05-20T18:00:00Z'),
  });
});
afterAll(async () => {
  await t.close();
  await rm(distDir, { recursive: true, force: true });
});

/** A page as a crawler or a chat app gets it: plain GET, no JavaScript, read by an independent extractor. */
async function crawl(url: string) {
  const response = await t.app.inject({ url, headers: { 'user-agent': 'facebookexternalhit/1.1' } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  const html = response.body;
  const parsed = new WebAutoExtractor().parse(html);
  const meta = (key: string) => parsed.metatags[key] ?? [];
  return { html, parsed, meta };
}

const publicRoutes = [
  '/',
  '/procedimientos',
  '/procedimientos/kynd/Perro',
  '/eventos',
  '/FAQ',
  '/about',
  '/contacto',
  '/tos',
  '/aviso_privacidad',
];

describe('every public page carries its metadata in the HTML the server sends', () => {
  it.each(publicRoutes)('%s: one title, description, canonical, Open Graph and Twitter card', async (route) => {
    const { html, meta } = await crawl(route);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    expect(html).toContain(`<link rel="canonical" href="http://localhost:3000${route}">`);
    expect(meta('description')[0]!.length).toBeGreaterThan(20);
    expect(meta('og:title')).toHaveLength(1);
    expect(meta('og:description')).toHaveLength(1);
    expect(meta('og:url')).toEqual([`http://localhost:3000${route}`]);
    expect(meta('og:locale')).toEqual(['es_MX']);
    expect(meta('og:type')).toHaveLength(1);
    expect(meta('og:image:width')).toEqual(['1200']);
    expect(meta('og:image:height')).toEqual(['630']);
    expect(meta('twitter:card')).toEqual(['summary_large_image']);
    const image = await t.app.inject({ url: new URL(meta('og:image')[0]!).pathname });
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ width: 1200, height: 630 });
  });

  it('/ names the Organization and the WebSite', async () => {
    const { parsed } = await crawl('/');
    expect(parsed.jsonld.Organization?.[0]).toMatchObject({ name: 'CxVet', url: 'http://localhost:3000/' });
    expect(parsed.jsonld.WebSite?.[0]).toMatchObject({ name: 'CxVet' });
  });

  it('a Premium procedure: a VideoObject not free to watch, its paywalled part marked, and no premium text', async () => {
    const { html, parsed, meta } = await crawl(`/procedimiento/${ids.premium}`);
    expect(meta('og:title')).toEqual(['Osteosíntesis de fémur']);
    expect(meta('description')).toEqual(['Fijación con placa de compresión.']);
    expect(meta('og:type')).toEqual(['video.other']);
    expect(meta('og:image')).toEqual([`http://localhost:3000/og/procedimiento/${ids.premium}.jpg`]);
    const video = parsed.jsonld.VideoObject?.[0];
    expect(video).toMatchObject({
      name: 'Osteosíntesis de fémur',
      description: 'Fijación con placa de compresión.',
      thumbnailUrl: `http://localhost:3000/og/procedimiento/${ids.premium}.jpg`,
      isAccessibleForFree: false,
      hasPart: { '@type': 'WebPageElement', isAccessibleForFree: false, cssSelector: '.contenido-premium' },
    });
    expect(new Date(String(video!.uploadDate)).getTime()).not.toBeNaN();
    expect(html).not.toContain(premiumSecret);
    expect(html).not.toMatch(/\.mp4|\.pdf/);
    const picture = await t.app.inject({ url: `/og/procedimiento/${ids.premium}.jpg` });
    expect(await sharp(picture.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });
  });

  it('a free procedure is a VideoObject free to watch, with no paywalled part', async () => {
    const { parsed, meta } = await crawl(`/procedimiento/${ids.free}`);
    expect(meta('og:title')).toEqual(['Ovariohisterectomía']);
    expect(parsed.jsonld.VideoObject?.[0]).toMatchObject({ isAccessibleForFree: true });
    expect(parsed.jsonld.VideoObject?.[0]).not.toHaveProperty('hasPart');
  });

  it('/eventos: an Event with its real dates and place', async () => {
    const { parsed, meta } = await crawl('/eventos');
    expect(meta('og:image')).toEqual([`http://localhost:3000/og/evento/${ids.event}.jpg`]);
    expect(parsed.jsonld.Event?.[0]).toMatchObject({
      name: 'Congreso de Cirugía',
      startDate: '2027-03-12T15:00:00.000Z',
      endDate: '2027-03-14T00:30:00.000Z',
      location: { '@type': 'Place', name: 'World Trade Center, Ciudad de México' },
      eventStatus: 'https://schema.org/EventScheduled',
    });
  });

  it("a diploma's sales page: a Course with its provider and offer; a test diploma says nothing", async () => {
    const { parsed, meta } = await crawl(`/mis-diplomados/diplomado-preview/${ids.diploma}`);
    expect(meta('og:title')).toEqual(['Diplomado en Cirugía de Tejidos Blandos']);
    expect(parsed.jsonld.Course?.[0]).toMatchObject({
      name: 'Diplomado en Cirugía de Tejidos Blandos',
      description: 'Descripción',
      provider: { '@type': 'Organization', name: 'CxVet' },
      offers: { '@type': 'Offer', price: '150.00', priceCurrency: 'USD', category: 'Paid' },
    });
    const hidden = await crawl(`/mis-diplomados/diplomado-preview/${ids.testDiploma}`);
    expect(hidden.meta('og:title')).toEqual([]);
    expect(hidden.html).not.toContain('Diplomado oculto');
  });

  it('a verified certificate shares holder, diploma and date; an unknown code shares nothing personal', async () => {
    const valid = await crawl(`/certificados/${ids.code}`);
    expect(valid.meta('og:title')).toEqual(['Constancia de Pablo Ñúñez']);
    expect(valid.meta('description')[0]).toBe(
      'Pablo Ñúñez concluyó el Diplomado en Cirugía de Tejidos Blandos el 20 de mayo de 2026. Constancia válida emitida por CxVet.',
    );
    expect(valid.meta('robots')).toEqual(['noindex']);
    const unknown = await crawl('/certificados/ZZZZZZZZZZZZ');
    expect(unknown.meta('og:title')).toEqual(['Verificación de constancia']);
    expect(unknown.html).not.toContain('Pablo');
  });

  it('keeps brotli for browsers that ask for it', async () => {
    const response = await t.app.inject({ url: '/eventos', headers: { 'accept-encoding': 'br' } });
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain('"@type":"Event"');
  });
});

describe('sitemap and robots', () => {
  it('/sitemap.xml is a valid sitemap of every public page with lastmod, and no test diploma', async () => {
    const response = await t.app.inject({ url: '/sitemap.xml' });
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    // an XML parser that refuses what is not well-formed XML
    const document = new JSDOM(response.body, { contentType: 'application/xml' }).window.document;
    const namespace = 'http://www.sitemaps.org/schemas/sitemap/0.9';
    expect(document.documentElement.namespaceURI).toBe(namespace);
    expect(document.documentElement.localName).toBe('urlset');
    const entries = [...document.getElementsByTagNameNS(namespace, 'url')].map((url) => ({
      loc: url.getElementsByTagNameNS(namespace, 'loc')[0]!.textContent!,
      lastmod: url.getElementsByTagNameNS(namespace, 'lastmod')[0]?.textContent ?? undefined,
    }));
    const byLoc = new Map(entries.map((entry) => [entry.loc, entry]));
    for (const route of [
      '/',
      '/procedimientos',
      '/eventos',
      '/FAQ',
      '/about',
      '/contacto',
      '/tos',
      '/aviso_privacidad',
    ])
      expect(byLoc.has(`http://localhost:3000${route}`)).toBe(true);
    for (const path of [
      `/procedimiento/${ids.free}`,
      `/procedimiento/${ids.premium}`,
      `/mis-diplomados/diplomado-preview/${ids.diploma}`,
    ]) {
      const entry = byLoc.get(`http://localhost:3000${path}`);
      expect(entry).toBeDefined();
      expect(new Date(entry!.lastmod!).getTime()).not.toBeNaN();
    }
    expect(byLoc.get('http://localhost:3000/eventos')?.lastmod).toBeDefined();
    expect(response.body).not.toContain(ids.testDiploma);
  });

  it('/robots.txt names the sitemap and keeps the console, profile, API and media out', async () => {
    const response = await t.app.inject({ url: '/robots.txt' });
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.body.split('\n');
    expect(lines).toContain('Sitemap: http://localhost:3000/sitemap.xml');
    for (const path of ['/admin', '/perfil', '/api/', '/media/']) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain('Allow: /mis-diplomados/diplomado-preview/');
  });
});
