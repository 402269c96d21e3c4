import { and, eq, max } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { diplomas, events, procedures } from '#server/db/schema/index.ts';
import { boundedCache } from '#server/services/bounded-cache.ts';
import type { FileStorage } from '#server/services/storage.ts';
import { staticPaths } from './page-metadata.ts';

// link previews are 1200×630 (Open Graph's large card; Twitter's summary_large_image crops to the same ratio)
const width = 1200;
const height = 630;
// a source above this is not decoded (uploads allow 10 MB pictures)
const maxSourceBytes = 20 * 1024 * 1024;

export type PreviewKind = 'procedimiento' | 'evento' | 'diplomado';

/** The sitemap, and the link-preview pictures cut from the public pictures of procedures, events and diplomas. */
export function createSeoService(deps: { db: Db; storage: FileStorage; publicUrl: string }) {
  const { db, storage, publicUrl } = deps;
  const made = boundedCache<string, Buffer>({ entries: 200, ttl: 60 * 60_000 });

  /** The public picture of a record, by kind: only what a guest's card or page shows already. */
  async function sourceKey(kind: PreviewKind, id: string): Promise<string | null> {
    if (kind === 'procedimiento') {
      const [row] = await db.select({ key: procedures.previewImage }).from(procedures).where(eq(procedures.id, id));
      return row?.key ?? null;
    }
    if (kind === 'evento') {
      const [row] = await db
        .select({ key: events.image })
        .from(events)
        .where(and(eq(events.id, id), eq(events.status, 'Activo')));
      return row?.key ?? null;
    }
    const [row] = await db
      .select({ key: diplomas.previewImage })
      .from(diplomas)
      .where(and(eq(diplomas.id, id), eq(diplomas.isActive, true), eq(diplomas.isTest, false)));
    return row?.key ?? null;
  }

  async function cut(source: Buffer | string): Promise<Buffer> {
    const { default: sharp } = await import('sharp');
    return sharp(source, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize({ width, height, fit: 'cover', position: 'attention' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80, mozjpeg: true })
      .toBuffer();
  }

  /** A record's 1200×630 JPEG; null when it has no public picture or the picture cannot be read. */
  async function previewPicture(kind: PreviewKind, id: string): Promise<Buffer | null> {
    const key = await sourceKey(kind, id);
    if (!key) return null;
    const cached = made.get(key);
    if (cached) return cached;
    const stored = await storage.stat(key);
    if (!stored || stored.size > maxSourceBytes) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of storage.read(key)) chunks.push(chunk as Buffer);
    const picture = await cut(Buffer.concat(chunks)).catch(() => null);
    if (picture) made.set(key, picture);
    return picture;
  }

  let sitePicture: Promise<Buffer> | null = null;
  /** The site's own preview, for pages without a picture of their own: the name on the brand's blue. */
  function defaultPicture(): Promise<Buffer> {
    sitePicture ??= cut(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#1864ab"/>` +
          `<text x="50%" y="52%" text-anchor="middle" font-family="sans-serif" font-size="180" font-weight="700" fill="#ffffff">CxVet</text>` +
          `<text x="50%" y="72%" text-anchor="middle" font-family="sans-serif" font-size="44" fill="#ffffff">Cirugía veterinaria en video</text></svg>`,
      ),
    );
    return sitePicture;
  }

  /** sitemaps.org 0.9: every public page, lastmod from the content, made at each request so it follows every change. */
  async function sitemap(): Promise<string> {
    const [procedureRows, diplomaRows, [newestEvent], [newestProcedure]] = await Promise.all([
      db.select({ id: procedures.id, updatedAt: procedures.updatedAt }).from(procedures),
      db
        .select({ id: diplomas.id, createdAt: diplomas.createdAt })
        .from(diplomas)
        .where(and(eq(diplomas.isActive, true), eq(diplomas.isTest, false))),
      db
        .select({ at: max(events.updatedAt) })
        .from(events)
        .where(eq(events.status, 'Activo')),
      db.select({ at: max(procedures.updatedAt) }).from(procedures),
    ]);
    const entries: { path: string; lastmod: Date | null }[] = [
      ...staticPaths.map((path) => ({
        path,
        lastmod:
          path === '/eventos'
            ? (newestEvent?.at ?? null)
            : path === '/procedimientos'
              ? (newestProcedure?.at ?? null)
              : null,
      })),
      ...procedureRows.map((row) => ({ path: `/procedimiento/${row.id}`, lastmod: row.updatedAt })),
      ...diplomaRows.map((row) => ({ path: `/mis-diplomados/diplomado-preview/${row.id}`, lastmod: row.createdAt })),
    ];
    const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const urls = entries.map(
      ({ path, lastmod }) =>
        `<url><loc>${escape(new URL(path, publicUrl).toString())}</loc>${lastmod ? `<lastmod>${new Date(lastmod).toISOString()}</lastmod>` : ''}</url>`,
    );
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  }

  /** robots.txt: the sitemap named; the console, members' areas, the API and media kept out of search. */
  function robots(): string {
    return [
      'User-agent: *',
      'Disallow: /admin',
      'Disallow: /perfil',
      'Disallow: /api/',
      'Disallow: /media/',
      'Disallow: /mis-favoritos',
      'Disallow: /mis-aulas',
      'Disallow: /administrar-aula',
      'Disallow: /administrar-diplomado',
      'Disallow: /mis-diplomados/',
      'Allow: /mis-diplomados/diplomado-preview/',
      'Disallow: /registro-finalizar',
      'Disallow: /reasignar_password',
      '',
      `Sitemap: ${new URL('/sitemap.xml', publicUrl).toString()}`,
      '',
    ].join('\n');
  }

  return { previewPicture, defaultPicture, sitemap, robots };
}

export type SeoService = ReturnType<typeof createSeoService>;
