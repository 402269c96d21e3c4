import sanitizeHtml from 'sanitize-html';
import type { Organization, WithContext, Thing } from 'schema-dts';
import { uuidPattern } from '#shared/uuid.ts';
import { centsToCost } from '#shared/diplomas/diplomas.admin.schemas.ts';
import type { DatedEvent } from '#server/features/events/events.calendar.ts';
import type { events } from '#server/db/schema/index.ts';

type EventRow = typeof events.$inferSelect;

const siteName = 'CxVet';
const siteDescription = 'CxVet: videos de procedimientos quirúrgicos y guías en PDF para aprender cirugía veterinaria.';

/** What a page's HTML says about it to crawlers and link previews, before any JavaScript. */
export type PageMetadata = {
  title: string;
  description: string;
  /** Path of the canonical address. */
  path: string;
  type: 'website' | 'video.other' | 'article';
  /** A 1200×630 picture's path (og-images.ts), or null for the site's default. */
  image: string | null;
  imageAlt: string;
  /** Pages that name a person or say nothing: previews yes, search results no. */
  noIndex?: boolean;
  jsonLd: WithContext<Thing>[];
};

/** The public facts the metadata is made from; each answers null for what a guest may not see. */
export type MetadataSources = {
  procedure: (id: string) => Promise<{
    name: string;
    description: string;
    isFree: boolean;
    hasPicture: boolean;
    createdAt: Date;
    updatedAt: Date;
    durationSeconds: number | null;
  } | null>;
  diploma: (id: string) => Promise<{
    title: string;
    descriptionHtml: string;
    organizationName: string;
    costCents: number;
    hasPicture: boolean;
  } | null>;
  events: () => Promise<EventRow[]>;
  certificate: (code: string) => Promise<{
    holderName: string;
    diplomaTitle: string;
    issuerName: string;
    completedAt: Date;
    isRevoked: boolean;
  } | null>;
};

/** Plain text of sanitised HTML, cut at a word near `limit` characters. */
export function summary(html: string, limit = 200): string {
  const text = sanitizeHtml(html.replace(/<\/(p|li|h[2-4])>|<br\s*\/?>/gi, ' '), {
    allowedTags: [],
    allowedAttributes: {},
  })
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), limit - 30)).trimEnd()}…`;
}

const spanishDate = (timeZone: string) =>
  new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone });

const staticPages: Record<string, { title: string; description: string }> = {
  '/FAQ': {
    title: 'Preguntas frecuentes',
    description: 'Respuestas sobre la membresía, los pagos, los videos y los diplomados de CxVet.',
  },
  '/about': {
    title: 'Nosotros',
    description: 'Quiénes somos: cirujanos veterinarios que enseñan cirugía con videos y guías en PDF.',
  },
  '/contacto': {
    title: 'Contacto',
    description: 'Escríbenos: dudas sobre la membresía, los diplomados o los eventos de CxVet.',
  },
  '/tos': { title: 'Términos y condiciones', description: 'Términos y condiciones de uso de CxVet.' },
  '/aviso_privacidad': { title: 'Aviso de privacidad', description: 'Cómo CxVet trata tus datos personales.' },
};

/** The static public pages' paths (the sitemap lists them). */
export const staticPaths = ['/', '/procedimientos', '/eventos', ...Object.keys(staticPages)];

const isoDuration = (seconds: number) => {
  const whole = Math.round(seconds);
  return `PT${Math.floor(whole / 3600) ? `${Math.floor(whole / 3600)}H` : ''}${Math.floor((whole % 3600) / 60) ? `${Math.floor((whole % 3600) / 60)}M` : ''}${whole % 60}S`;
};

const decode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
};

export function createPageMetadata(deps: { publicUrl: string; timeZone: string; sources: MetadataSources }) {
  const { publicUrl, sources } = deps;
  const absolute = (path: string) => new URL(path, publicUrl).toString();
  const organization: Organization = {
    '@type': 'Organization',
    name: siteName,
    url: absolute('/'),
    logo: absolute('/favicon.svg'),
  };
  const dateText = spanishDate(deps.timeZone);

  const page = (
    fields: Omit<PageMetadata, 'type' | 'image' | 'imageAlt' | 'jsonLd'> & Partial<PageMetadata>,
  ): PageMetadata => ({
    type: 'website',
    image: null,
    imageAlt: siteName,
    jsonLd: [],
    ...fields,
  });

  async function procedurePage(id: string, path: string): Promise<PageMetadata | null> {
    const procedure = uuidPattern.test(id) ? await sources.procedure(id) : null;
    if (!procedure) return null;
    const image = procedure.hasPicture ? `/og/procedimiento/${id}.jpg` : null;
    const url = absolute(path);
    return page({
      title: procedure.name,
      description: procedure.description,
      path,
      type: 'video.other',
      image,
      imageAlt: procedure.name,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'VideoObject',
          name: procedure.name,
          description: procedure.description,
          thumbnailUrl: absolute(image ?? '/og/sitio.jpg'),
          uploadDate: procedure.createdAt.toISOString(),
          dateModified: procedure.updatedAt.toISOString(),
          ...(procedure.durationSeconds ? { duration: isoDuration(procedure.durationSeconds) } : {}),
          url,
          inLanguage: 'es',
          publisher: organization,
          isAccessibleForFree: procedure.isFree,
          // Google's markup for subscription content: the part behind the paywall, by the class the page gives it
          ...(procedure.isFree
            ? {}
            : {
                hasPart: {
                  '@type': 'WebPageElement',
                  isAccessibleForFree: false,
                  cssSelector: '.contenido-premium',
                },
              }),
        },
      ],
    });
  }

  async function eventsPage(): Promise<PageMetadata> {
    const rows = await sources.events();
    const dated = rows.filter((row): row is DatedEvent => row.startsAt !== null && row.endsAt !== null);
    const withPicture = rows.find((row) => row.image);
    return page({
      title: 'Agenda próximos eventos CxVet',
      description:
        rows.length > 0
          ? `Congresos, talleres y webinars de cirugía veterinaria: ${rows.map((row) => `${row.name} (${row.displayDate})`).join('; ')}.`.slice(
              0,
              300,
            )
          : 'Congresos, talleres y webinars de cirugía veterinaria organizados por CxVet.',
      path: '/eventos',
      image: withPicture ? `/og/evento/${withPicture.id}.jpg` : null,
      imageAlt: withPicture?.name ?? siteName,
      jsonLd: dated.map((row) => {
        const isOnline = /en l[ií]nea|online|virtual/i.test(row.place);
        return {
          '@context': 'https://schema.org',
          '@type': 'Event',
          name: row.name,
          description: summary(row.detailHtml),
          startDate: row.startsAt.toISOString(),
          endDate: row.endsAt.toISOString(),
          eventStatus: 'https://schema.org/EventScheduled',
          eventAttendanceMode: isOnline
            ? 'https://schema.org/OnlineEventAttendanceMode'
            : 'https://schema.org/OfflineEventAttendanceMode',
          location: isOnline
            ? { '@type': 'VirtualLocation', url: absolute('/eventos') }
            : { '@type': 'Place', name: row.place || 'Por confirmar', address: row.place || 'Por confirmar' },
          ...(row.image ? { image: absolute(`/og/evento/${row.id}.jpg`) } : {}),
          url: absolute('/eventos'),
          organizer: organization,
        };
      }),
    });
  }

  async function diplomaPage(id: string, path: string): Promise<PageMetadata | null> {
    const diploma = uuidPattern.test(id) ? await sources.diploma(id) : null;
    if (!diploma) return null;
    const description = summary(diploma.descriptionHtml) || `Diplomado en línea: ${diploma.title}.`;
    const provider = diploma.organizationName || siteName;
    return page({
      title: diploma.title,
      description,
      path,
      type: 'article',
      image: diploma.hasPicture ? `/og/diplomado/${id}.jpg` : null,
      imageAlt: diploma.title,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'Course',
          name: diploma.title,
          description,
          url: absolute(path),
          inLanguage: 'es',
          provider: provider === siteName ? organization : { '@type': 'Organization', name: provider },
          offers: {
            '@type': 'Offer',
            category: diploma.costCents > 0 ? 'Paid' : 'Free',
            price: centsToCost(diploma.costCents),
            priceCurrency: 'USD',
            availability: 'https://schema.org/InStock',
            url: absolute(path),
          },
          hasCourseInstance: { '@type': 'CourseInstance', courseMode: 'Online', courseWorkload: 'PT10H' },
        },
      ],
    });
  }

  async function certificatePage(code: string, path: string): Promise<PageMetadata> {
    const certificate = await sources.certificate(code);
    if (!certificate || certificate.isRevoked) {
      // an unknown or revoked code shares nothing about anyone
      return page({
        title: 'Verificación de constancia',
        description: 'Verifica una constancia de CxVet con su código.',
        path: '/certificados',
        noIndex: true,
      });
    }
    return page({
      title: `Constancia de ${certificate.holderName}`,
      description: `${certificate.holderName} concluyó el ${certificate.diplomaTitle} el ${dateText.format(certificate.completedAt)}. Constancia válida emitida por ${certificate.issuerName}.`,
      path,
      noIndex: true,
    });
  }

  /** The page's metadata for a public address; null for an address that is not a public page. */
  async function forPath(pathname: string): Promise<PageMetadata | null> {
    if (pathname === '/' || pathname === '/index')
      return page({
        title: 'Cirugía veterinaria en video',
        description: siteDescription,
        path: '/',
        jsonLd: [
          {
            '@context': 'https://schema.org',
            '@type': 'Organization',
            name: siteName,
            url: absolute('/'),
            logo: absolute('/favicon.svg'),
            description: siteDescription,
          },
          {
            '@context': 'https://schema.org',
            '@type': 'WebSite',
            name: siteName,
            url: absolute('/'),
            inLanguage: 'es',
          },
        ],
      });
    if (pathname === '/procedimientos')
      return page({
        title: 'Procedimientos quirúrgicos',
        description: 'Catálogo de videos de procedimientos quirúrgicos veterinarios en perros, gatos y otras especies.',
        path: pathname,
      });
    const filtered = /^\/procedimientos\/([^/]+)\/([^/]+)$/.exec(pathname);
    if (filtered) {
      const value = decode(filtered[2]!);
      if (value === null) return null;
      return page({
        title: `Procedimientos: ${value}`,
        description: `Videos de procedimientos quirúrgicos veterinarios: ${value}.`,
        path: pathname,
      });
    }
    if (pathname === '/eventos') return eventsPage();
    const procedure = /^\/procedimiento\/([^/]+)$/.exec(pathname);
    if (procedure) return procedurePage(decode(procedure[1]!) ?? '', pathname);
    const diploma = /^\/mis-diplomados\/diplomado-preview\/([^/]+)$/.exec(pathname);
    if (diploma) return diplomaPage(decode(diploma[1]!) ?? '', pathname);
    const certificate = /^\/certificados\/([^/]+)$/.exec(pathname);
    if (certificate) return certificatePage(decode(certificate[1]!) ?? '', pathname);
    const fixed = staticPages[pathname];
    if (fixed) return page({ ...fixed, path: pathname });
    return null;
  }

  const escapeAttribute = (value: string) =>
    value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

  /** The head tags of a page: title, description, canonical, Open Graph, Twitter card and JSON-LD. */
  function headTags(meta: PageMetadata): string {
    const title = meta.path === '/' ? `${siteName} · ${meta.title}` : `${meta.title} · ${siteName}`;
    const image = absolute(meta.image ?? '/og/sitio.jpg');
    const tag = (attribute: 'name' | 'property', key: string, content: string) =>
      `<meta ${attribute}="${key}" content="${escapeAttribute(content)}">`;
    return [
      `<title>${escapeAttribute(title)}</title>`,
      tag('name', 'description', meta.description),
      meta.noIndex ? tag('name', 'robots', 'noindex') : '',
      `<link rel="canonical" href="${escapeAttribute(absolute(meta.path))}">`,
      tag('property', 'og:site_name', siteName),
      tag('property', 'og:locale', 'es_MX'),
      tag('property', 'og:type', meta.type),
      tag('property', 'og:title', meta.title),
      tag('property', 'og:description', meta.description),
      tag('property', 'og:url', absolute(meta.path)),
      tag('property', 'og:image', image),
      tag('property', 'og:image:type', 'image/jpeg'),
      tag('property', 'og:image:width', '1200'),
      tag('property', 'og:image:height', '630'),
      tag('property', 'og:image:alt', meta.imageAlt),
      tag('name', 'twitter:card', 'summary_large_image'),
      tag('name', 'twitter:title', meta.title),
      tag('name', 'twitter:description', meta.description),
      tag('name', 'twitter:image', image),
      // '<' escaped: no text of ours can close the script element
      ...meta.jsonLd.map(
        (data) => `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`,
      ),
    ].join('');
  }

  /** index.html with a page's own head tags in place of the generic title and description. */
  async function render(html: string, pathname: string): Promise<string> {
    const meta = await forPath(pathname).catch(() => null);
    if (!meta || !html.includes('</head>')) return html;
    return html
      .replace(/<title>[^<]*<\/title>/, '')
      .replace(/<meta\s+name="description"[^>]*>/, '')
      .replace('</head>', `${headTags(meta)}</head>`);
  }

  return { forPath, render };
}
