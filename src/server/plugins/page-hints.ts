import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { apiQueryString, parseCatalogView, toApiQuery, type CatalogApiQuery } from '#shared/catalog/catalog-url.ts';
import { catalogQuerySchema, type CatalogQuery } from '#shared/catalog/catalog.schemas.ts';
import { pageShellHtml, testModeNoticeHtml, testModeRootAttribute } from '#shared/page-shell.ts';
import { uuidPattern } from '#shared/uuid.ts';
import { catalogCardSizes, pictureSrcSet } from '#shared/media/picture-variants.ts';

/**
 * The guest pages' HTML, and the members' pages' for a signed-in member, names what the page will need: its screen's
 * chunks and stylesheets, the API answers its route loaders ask for, and the home page's first picture. Without it a phone on a slow connection
 * waits for the app's code before it learns of the screen's code, and for that before it asks for the data and
 * the picture: three round trips in a row before anything is painted. Named in the head, they all load at once.
 */

type ManifestEntry = { file: string; imports?: string[]; css?: string[] };
type Manifest = Record<string, ManifestEntry>;

export type PageHintsContext = {
  /** The page's own title, description, link-preview tags and structured data in place of index.html's generic ones. */
  pageHead?: (html: string, pathname: string) => Promise<string>;
  /** The home page's first picture, when the page shows it (the carousel's first slide), else null. */
  heroPicture: () => Promise<string | null>;
  /** The first card's picture of a catalogue page as a guest sees it, else null. */
  catalogPicture: (query: CatalogQuery) => Promise<string | null>;
  /** The video's poster on a procedure page as a guest sees it (the player waits behind it), else null. */
  procedurePicture: (id: string) => Promise<string | null>;
  /** Payments are simulated: the pages' HTML carries the test-payments notice above the header bar. */
  testPayments: boolean;
};

/** Who asks: the picture hints are for guests (a member's pages can differ, and the lookup would cost them a query). */
/** Who asks for the page, found only when a page differs for them. */
type Asker = { isGuest: () => Promise<boolean>; isAdmin: () => Promise<boolean> };

type Page = {
  pattern: RegExp;
  /** the screen's module, as the web build's manifest names it */
  module: string;
  /** a members' page: hinted to a signed-in member only (a guest is sent to sign in) */
  membersOnly?: boolean;
  /** what the page loads only for a signed-in member, beside the rest */
  member?: { module: string; data: string[] };
  /** the API addresses the page fetches as it first renders, from its path and query */
  data: (match: RegExpExecArray, search: URLSearchParams) => string[];
  picture?: (
    context: PageHintsContext,
    match: RegExpExecArray,
    search: URLSearchParams,
    asker: Asker,
  ) => Promise<string | null>;
  /**
   * The picture's `sizes` where the page shows it with its narrower copies (srcset): the preload names the same
   * srcset and sizes, so the browser fetches the copy the <img> will pick and not the original as well.
   */
  pictureSizes?: string;
};

/** What every page's root loader fetches (src/web/router.tsx). */
const rootData = ['/api/me', '/api/payments/config'];

/** The members' route table, which the router loads before any of their screens (router.tsx). */
const memberRoutes = 'src/web/routes/member-routes.tsx';

/**
 * What every console page loads before its screen: the console's route table (router.tsx loads it first), then its
 * frame, once the Admin check has read /api/me. Named in the HTML, they load with the app's code instead of after it.
 */
const consoleModules = ['src/web/routes/admin/admin-routes.tsx', 'src/web/routes/admin/admin-layout.tsx'];

/** A member's 'Seguir viendo' row on the home page and the catalogue (continue-watching-row.ts). */
const continueWatching = {
  module: 'src/web/features/catalog/components/continue-watching.tsx',
  data: ['/api/watching/continue'],
};

/** The members' pages and the answers their route loaders ask for (member-routes.tsx), for ids that can exist. */
const withId = (match: RegExpExecArray, urls: (id: string) => string[]) =>
  uuidPattern.test(match[1]!) ? urls(encodeURIComponent(match[1]!)) : [];
const memberPage = (page: Omit<Page, 'membersOnly'>): Page => ({ ...page, membersOnly: true });
const memberPages: Page[] = [
  memberPage({ pattern: /^\/perfil$/, module: 'src/web/routes/accounts/profile.tsx', data: () => ['/api/profile'] }),
  memberPage({
    pattern: /^\/mis-aulas$/,
    module: 'src/web/routes/classrooms/my-classrooms.tsx',
    data: () => ['/api/classrooms'],
  }),
  memberPage({
    pattern: /^\/mis-aulas\/aula\/([^/]+)$/,
    module: 'src/web/routes/classrooms/my-classroom.tsx',
    data: (match) =>
      withId(match, (id) => [
        `/api/classrooms/${id}`,
        `/api/catalog/procedures?${apiQueryString({ classroom: match[1]!, page: 1 })}`,
      ]),
  }),
  memberPage({
    pattern: /^\/mis-diplomados$/,
    module: 'src/web/routes/diplomas/my-diplomas.tsx',
    data: () => ['/api/diplomas'],
  }),
  memberPage({
    pattern: /^\/mis-diplomados\/diplomado(?:-CxVet)?\/([^/]+)$/,
    module: 'src/web/routes/diplomas/diploma-course.tsx',
    data: (match) => withId(match, (id) => [`/api/diplomas/${id}/course`]),
  }),
  memberPage({
    pattern: /^\/mis-favoritos$/,
    module: 'src/web/routes/watching/my-favorites.tsx',
    data: () => ['/api/favorites'],
  }),
];

const guestPages: Page[] = [
  {
    pattern: /^\/(?:index)?$/,
    module: 'src/web/routes/landing/landing.tsx',
    data: () => ['/api/landing'],
    picture: (context) => context.heroPicture(),
    member: continueWatching,
  },
  {
    pattern: /^\/procedimientos(?:\/([^/]+)\/([^/]+))?$/,
    module: 'src/web/routes/catalog/catalog.tsx',
    // the page's list as catalog.tsx asks for it (the same parsing of the address), and the filters' lists
    data: (match, search) => {
      const query = catalogQuery(match, search);
      return query ? [`/api/catalog/procedures?${apiQueryString(query)}`, '/api/catalog/filters'] : [];
    },
    picture: async (context, match, search, asker) => {
      const query = catalogQuery(match, search);
      return query && (await asker.isGuest()) ? context.catalogPicture(catalogQuerySchema.parse(query)) : null;
    },
    // the first card's <img> (procedure-card.tsx)
    pictureSizes: catalogCardSizes,
    member: continueWatching,
  },
  {
    pattern: /^\/procedimiento\/([^/]+)$/,
    module: 'src/web/routes/catalog/procedure.tsx',
    // as the page asks for it (catalog.api.ts), and only for an id that can exist
    data: (match) => (uuidPattern.test(match[1]!) ? [`/api/catalog/procedures/${encodeURIComponent(match[1]!)}`] : []),
    picture: async (context, match, _search, asker) =>
      uuidPattern.test(match[1]!) && (await asker.isGuest()) ? context.procedurePicture(match[1]!) : null,
  },
];

const pages = [...guestPages, ...memberPages];

/** The modules a page loads, as a guest or for a signed-in member. */
const pageModules = (page: Page, signedIn: boolean): string[] =>
  page.membersOnly
    ? [memberRoutes, page.module]
    : signedIn && page.member
      ? [page.module, page.member.module]
      : [page.module];

/** The API query of a catalogue address, parsed as catalog.tsx parses it; null for an address it rejects. */
function catalogQuery(match: RegExpExecArray, search: URLSearchParams): CatalogApiQuery | null {
  const params =
    match[1] === undefined ? {} : { type: decodeURIComponent(match[1]), filter: decodeURIComponent(match[2]!) };
  const view = parseCatalogView(params, search);
  return view ? toApiQuery(view) : null;
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A picture's preload; with its copies' srcset and the page's sizes where its <img> has them. */
function pictureHint(picture: string, sizes: string | undefined): string {
  const srcset = sizes ? pictureSrcSet(picture) : undefined;
  const responsive =
    srcset && sizes ? ` imagesrcset="${escapeAttribute(srcset)}" imagesizes="${escapeAttribute(sizes)}"` : '';
  return `<link rel="preload" as="image" fetchpriority="high" href="${escapeAttribute(picture)}"${responsive}>`;
}

/** The chunks and stylesheets a screen's module loads, its own first (the manifest's static imports, followed). */
function screenFiles(
  manifest: Manifest,
  module: string,
  alreadyLoaded: Set<string>,
): { scripts: string[]; styles: string[] } {
  const scripts: string[] = [];
  const styles: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const entry = manifest[key];
    if (!entry) return;
    if (!alreadyLoaded.has(entry.file)) scripts.push(entry.file);
    for (const css of entry.css ?? []) if (!alreadyLoaded.has(css) && !styles.includes(css)) styles.push(css);
    for (const imported of entry.imports ?? []) visit(imported);
  };
  visit(module);
  return { scripts, styles };
}

/**
 * A screen's stylesheets and module preloads, the same for every request to a build. A member page's stylesheets are
 * preloaded, not applied: its header bar then paints with the app's own two (the screen waits for its data and code
 * anyway, and its import applies them before it renders); a guest page applies them at once.
 */
function screenHints(manifest: Manifest, modules: string[], alreadyLoaded: Set<string>, membersOnly: boolean): string {
  const files = modules.map((module) => screenFiles(manifest, module, alreadyLoaded));
  const scripts = [...new Set(files.flatMap((file) => file.scripts))];
  const styles = [...new Set(files.flatMap((file) => file.styles))];
  // the stylesheets the screen's import would add, in the cascade layers index.html declares
  const style = membersOnly ? 'rel="preload" as="style"' : 'rel="stylesheet"';
  return [
    ...styles.map((file) => `<link ${style} crossorigin href="/${file}">`),
    ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ].join('');
}

/** The data preloads of one request: crossorigin is fetch()'s mode with same-origin credentials, so the app's own request takes the preloaded answer. */
const dataHints = (urls: string[]) =>
  urls.map((url) => `<link rel="preload" as="fetch" crossorigin href="${escapeAttribute(url)}">`).join('');

/**
 * index.html as the console gets it, the same with the header bar painted before the app's code (the site's
 * layout: every other page), and each guest page's screen hints, worked out once per build (null without a manifest).
 */
type Build = {
  html: string;
  withShell: string;
  /** index.html for the console's addresses: its route table, frame and the root's data named (null without a manifest). */
  consoleHtml: string | null;
  screens: Map<string, string> | null;
  mtimeMs: number;
};

const root = '<div id="root"></div>';
// the console has a layout of its own (admin-layout.tsx)
const isConsole = (pathname: string) => pathname === '/admin' || pathname.startsWith('/admin/');

/**
 * The built index.html with each guest page's hints. The build is read again when index.html changes (a rebuild
 * beside a running server keeps working as with the file sent as it is).
 */
export function createPageHints(distDir: string, context: PageHintsContext) {
  const indexFile = path.join(distDir, 'index.html');
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  let build: Build | null = null;

  function currentBuild(): Build {
    const mtimeMs = statSync(indexFile).mtimeMs;
    if (build?.mtimeMs === mtimeMs) return build;
    const html = readFileSync(indexFile, 'utf8');
    let manifest: Manifest | null = null;
    try {
      manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    } catch {
      // a build without a manifest: the pages are sent as they are
    }
    // what index.html loads already: its own script, preloads and stylesheets
    const alreadyLoaded = new Set([...html.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((found) => found[1]!));
    const screens = manifest
      ? new Map(
          pages.flatMap((page) =>
            [false, true].map((signedIn) => {
              const modules = pageModules(page, signedIn);
              return [
                modules.join(' '),
                screenHints(manifest, modules, alreadyLoaded, page.membersOnly === true),
              ] as const;
            }),
          ),
        )
      : null;
    const shell = context.testPayments
      ? `<div id="root" ${testModeRootAttribute}>${testModeNoticeHtml}${pageShellHtml}</div>`
      : `<div id="root">${pageShellHtml}</div>`;
    const consoleHtml = manifest
      ? html.replace(
          '</head>',
          `${screenHints(manifest, consoleModules, alreadyLoaded, true)}${dataHints(rootData)}</head>`,
        )
      : null;
    build = { html, withShell: html.replace(root, shell), consoleHtml, screens, mtimeMs };
    return build;
  }

  /** index.html for a page's address (path and query): the header bar outside the console, and hints on the guest pages the build names. */
  async function html(url: URL, asker: Asker): Promise<string> {
    const page = await hinted(url, asker);
    return context.pageHead ? context.pageHead(page, url.pathname) : page;
  }

  async function hinted(url: URL, asker: Asker): Promise<string> {
    const build = currentBuild();
    const { screens } = build;
    // anyone else is sent away by the console's own check: its frame would be 50 kB loaded for nothing
    if (isConsole(url.pathname)) return build.consoleHtml && (await asker.isAdmin()) ? build.consoleHtml : build.html;
    const page = build.withShell;
    if (!screens || !page.includes('</head>')) return page;
    for (const candidate of pages) {
      const match = candidate.pattern.exec(url.pathname);
      if (!match) continue;
      // only a page that differs for a member asks who is asking
      const signedIn = candidate.membersOnly || candidate.member ? !(await asker.isGuest()) : false;
      if (candidate.membersOnly && !signedIn) return page;
      const memberData = signedIn && candidate.member ? candidate.member.data : [];
      let hints: string;
      try {
        hints =
          screens.get(pageModules(candidate, signedIn).join(' '))! +
          dataHints([...rootData, ...candidate.data(match, url.searchParams), ...memberData]);
      } catch {
        return page; // an address that does not decode: the app shows its own answer
      }
      const picture = candidate.picture
        ? await candidate.picture(context, match, url.searchParams, asker).catch(() => null)
        : null;
      if (picture) hints = `${pictureHint(picture, candidate.pictureSizes)}${hints}`;
      return page.replace('</head>', `${hints}</head>`);
    }
    return page;
  }

  return { html };
}
