import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { catalogCardSizes, pictureSrcSet } from '#shared/media/picture-variants.ts';
import { pageShellHtml, testModeNoticeHtml } from '#shared/page-shell.ts';
import { createPageHints, type PageHintsContext } from './page-hints.ts';

let distDir: string;
const guest = { isGuest: async () => true, isAdmin: async () => false };
const member = { isGuest: async () => false, isAdmin: async () => false };
const admin = { isGuest: async () => false, isAdmin: async () => true };
const asked: unknown[] = [];
const context: PageHintsContext = {
  heroPicture: async () => '/media/landing_page/hero "1".jpg',
  catalogPicture: async (query) => {
    asked.push(query);
    return '/media/procedures/a/preview.jpg';
  },
  procedurePicture: async (id) => (id.startsWith('0b7c') ? `/media/procedures/${id}/poster.jpg` : null),
  testPayments: false,
};

const manifest = {
  'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_vendor-B.js'], css: ['assets/index-A.css'] },
  '_vendor-B.js': { file: 'assets/vendor-B.js' },
  'src/web/routes/landing/landing.tsx': {
    file: 'assets/landing-C.js',
    imports: ['_vendor-B.js', '_guest-D.js', 'index.html'],
    css: ['assets/landing-C.css'],
  },
  '_guest-D.js': { file: 'assets/guest-D.js', imports: ['_vendor-B.js'], css: ['assets/guest-D.css'] },
  'src/web/routes/catalog/catalog.tsx': { file: 'assets/catalog-E.js', imports: ['_guest-D.js'] },
  'src/web/routes/catalog/procedure.tsx': { file: 'assets/procedure-F.js', imports: ['_guest-D.js'] },
  'src/web/features/catalog/components/continue-watching.tsx': {
    file: 'assets/continue-G.js',
    imports: ['_guest-D.js'],
  },
  'src/web/routes/member-routes.tsx': { file: 'assets/member-routes-H.js', imports: ['_member-I.js'] },
  '_member-I.js': { file: 'assets/member-I.js', css: ['assets/member-I.css'] },
  'src/web/routes/accounts/profile.tsx': { file: 'assets/profile-J.js', imports: ['_member-I.js'] },
  'src/web/routes/classrooms/my-classrooms.tsx': { file: 'assets/my-classrooms-K.js' },
  'src/web/routes/classrooms/my-classroom.tsx': { file: 'assets/my-classroom-L.js', imports: ['_guest-D.js'] },
  'src/web/routes/diplomas/my-diplomas.tsx': { file: 'assets/my-diplomas-M.js' },
  'src/web/routes/diplomas/diploma-course.tsx': { file: 'assets/diploma-course-N.js' },
  'src/web/routes/watching/my-favorites.tsx': { file: 'assets/my-favorites-O.js' },
  'src/web/routes/admin/admin-routes.tsx': { file: 'assets/admin-routes-P.js', imports: ['_vendor-B.js'] },
  'src/web/routes/admin/admin-layout.tsx': {
    file: 'assets/admin-layout-Q.js',
    imports: ['_guest-D.js'],
    css: ['assets/admin-layout-Q.css'],
  },
};
const indexHtml =
  '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-A.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/vendor-B.js"><link rel="stylesheet" crossorigin href="/assets/index-A.css"></head><body><div id="root"></div></body></html>';
// every page under the site's layout, as sent
const withShell = indexHtml.replace('<div id="root"></div>', `<div id="root">${pageShellHtml}</div>`);

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'cxvet-hints-'));
  await mkdir(path.join(distDir, '.vite'));
  await writeFile(path.join(distDir, 'index.html'), indexHtml);
  await writeFile(path.join(distDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
});
afterAll(() => rm(distDir, { recursive: true, force: true }));

const head = (html: string) => html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
const page = (url: string, asker = guest) =>
  createPageHints(distDir, context).html(new URL(url, 'http://localhost'), asker);

describe('guest pages name what they need in their head', () => {
  it("the home page: its screen's chunks and stylesheets (not what index.html loads already), its data and first picture", async () => {
    const html = head(await page('/'));
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/landing-C.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/guest-D.js">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/landing-C.css">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/guest-D.css">');
    // already in index.html: not named twice
    expect(html.match(/vendor-B\.js/g)).toHaveLength(1);
    expect(html.match(/index-A\.js/g)).toHaveLength(1);
    for (const api of ['/api/me', '/api/payments/config', '/api/landing']) {
      expect(html).toContain(`<link rel="preload" as="fetch" crossorigin href="${api}">`);
    }
    // the picture's address is escaped as an attribute
    expect(html).toContain(
      '<link rel="preload" as="image" fetchpriority="high" href="/media/landing_page/hero &quot;1&quot;.jpg">',
    );
    expect(head(await page('/index'))).toContain('href="/api/landing"');
  });

  it('the catalogue: the list exactly as the page asks for it, the filters, and the first card picture for a guest only', async () => {
    asked.length = 0;
    const html = head(await page('/procedimientos/kynd/Perro?q=perra&page=2'));
    expect(html).toContain('/assets/catalog-E.js');
    expect(html).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/catalog/procedures?page=2&amp;q=perra&amp;species=Perro">',
    );
    expect(html).toContain('href="/api/catalog/filters"');
    // the same srcset and sizes as the first card's <img>: the browser takes the copy it will show, once
    const srcset = ['360', '480', '720', '960'].map((w) => `/media/procedures/a/preview.jpg?w=${w} ${w}w`).join(', ');
    expect(html).toContain(
      `<link rel="preload" as="image" fetchpriority="high" href="/media/procedures/a/preview.jpg" imagesrcset="${srcset}" imagesizes="${catalogCardSizes}">`,
    );
    expect(srcset).toBe(pictureSrcSet('/media/procedures/a/preview.jpg'));
    expect(asked).toEqual([{ page: 2, q: 'perra', species: 'Perro' }]);
    const signedIn = head(await page('/procedimientos', member));
    expect(signedIn).toContain('href="/api/catalog/procedures?page=1"');
    expect(signedIn).not.toContain('as="image"');
    // a filter the page rejects: no list to ask for
    expect(head(await page('/procedimientos/kynd/Dragon'))).not.toContain('/api/catalog/procedures');
  });

  it("the procedure page: its detail and the video's poster for an id that can exist, nothing for another", async () => {
    const id = '0b7c2f6e-8a7d-4c1e-9f1a-2b3c4d5e6f70';
    const html = head(await page(`/procedimiento/${id}`));
    expect(html).toContain(`<link rel="preload" as="fetch" crossorigin href="/api/catalog/procedures/${id}">`);
    expect(html).toContain(
      `<link rel="preload" as="image" fetchpriority="high" href="/media/procedures/${id}/poster.jpg">`,
    );
    expect(head(await page(`/procedimiento/${id}`, member))).not.toContain('as="image"');
    const other = head(await page('/procedimiento/%22%3E%3Cscript%3E'));
    expect(other).toContain('/assets/procedure-F.js');
    expect(other).not.toContain('/api/catalog/procedures/');
    expect(other).not.toContain('<script>');
  });

  it("a member's home page and catalogue name the 'Seguir viendo' row's chunk and answer; a guest's do not", async () => {
    for (const url of ['/', '/procedimientos']) {
      const signedIn = head(await page(url, member));
      expect(signedIn).toContain('<link rel="modulepreload" crossorigin href="/assets/continue-G.js">');
      expect(signedIn).toContain('<link rel="preload" as="fetch" crossorigin href="/api/watching/continue">');
      expect(signedIn.match(/guest-D\.js/g)).toHaveLength(1);
      const guestHead = head(await page(url));
      expect(guestHead).not.toContain('continue-G.js');
      expect(guestHead).not.toContain('/api/watching/continue');
    }
  });

  it("a member's pages name the members' route table, the screen and the answers its loader asks for", async () => {
    const id = '0b7c2f6e-8a7d-4c1e-9f1a-2b3c4d5e6f70';
    const expected: Record<string, { chunk: string; data: string[] }> = {
      '/perfil': { chunk: 'profile-J.js', data: ['/api/profile'] },
      '/mis-aulas': { chunk: 'my-classrooms-K.js', data: ['/api/classrooms'] },
      [`/mis-aulas/aula/${id}`]: {
        chunk: 'my-classroom-L.js',
        data: [`/api/classrooms/${id}`, `/api/catalog/procedures?classroom=${id}&amp;page=1`],
      },
      '/mis-diplomados': { chunk: 'my-diplomas-M.js', data: ['/api/diplomas'] },
      [`/mis-diplomados/diplomado/${id}`]: { chunk: 'diploma-course-N.js', data: [`/api/diplomas/${id}/course`] },
      [`/mis-diplomados/diplomado-CxVet/${id}`]: {
        chunk: 'diploma-course-N.js',
        data: [`/api/diplomas/${id}/course`],
      },
      '/mis-favoritos': { chunk: 'my-favorites-O.js', data: ['/api/favorites'] },
    };
    for (const [url, { chunk, data }] of Object.entries(expected)) {
      const html = head(await page(url, member));
      for (const file of ['member-routes-H.js', 'member-I.js', chunk]) {
        expect(html, url).toContain(`<link rel="modulepreload" crossorigin href="/assets/${file}">`);
      }
      expect(html.match(/member-I\.js/g), url).toHaveLength(1);
      for (const api of ['/api/me', '/api/payments/config', ...data]) {
        expect(html, url).toContain(`<link rel="preload" as="fetch" crossorigin href="${api}">`);
      }
      // a guest is sent to sign in: nothing of the page is asked for
      expect(await page(url), url).toBe(withShell);
    }
    // preloaded, not applied: the header bar paints with the app's own stylesheets, before the screen's arrive
    const profile = head(await page('/perfil', member));
    expect(profile).toContain('<link rel="preload" as="style" crossorigin href="/assets/member-I.css">');
    expect(profile).not.toContain('<link rel="stylesheet" crossorigin href="/assets/member-I.css">');
    // an id that cannot exist: the screen, but no answer to ask for
    const other = head(await page('/mis-aulas/aula/%22%3E%3Cscript%3E', member));
    expect(other).toContain('my-classroom-L.js');
    expect(other).not.toContain('/api/classrooms/');
    expect(other).not.toContain('<script>');
  });

  it('other pages, and an address that does not decode, are sent as built, with the header bar', async () => {
    expect(await page('/perfil')).toBe(withShell);
    expect(await page('/procedimientos/kynd/%E0%A4%A')).toBe(withShell);
  });

  it("paints the site's header bar in #root before the app's code, except on the console's pages (a layout of their own)", async () => {
    for (const url of ['/', '/procedimientos', '/perfil', '/no-existe', '/administracion']) {
      expect(await page(url), url).toContain(`<div id="root">${pageShellHtml}</div>`);
    }
    for (const url of ['/admin', '/admin/users', '/admin/diplomados/1/vista-previa']) {
      expect(await page(url, member), url).toContain('<div id="root"></div>');
    }
  });

  it("names the console's route table, its frame and the Admin check's data, so they load with the app's code", async () => {
    const consoleHints =
      '<link rel="preload" as="style" crossorigin href="/assets/admin-layout-Q.css">' +
      '<link rel="preload" as="style" crossorigin href="/assets/guest-D.css">' +
      '<link rel="modulepreload" crossorigin href="/assets/admin-routes-P.js">' +
      '<link rel="modulepreload" crossorigin href="/assets/admin-layout-Q.js">' +
      '<link rel="modulepreload" crossorigin href="/assets/guest-D.js">' +
      '<link rel="preload" as="fetch" crossorigin href="/api/me">' +
      '<link rel="preload" as="fetch" crossorigin href="/api/payments/config">';
    for (const url of ['/admin', '/admin/users', '/admin/aulas/aula/1']) {
      expect(await page(url, admin), url).toBe(indexHtml.replace('</head>', `${consoleHints}</head>`));
      // anyone else is sent away by the app's own check: nothing of the console is asked for
      for (const asker of [guest, member]) expect(await page(url, asker), url).toBe(indexHtml);
    }
  });

  it('puts the test-payments notice above the bar while payments are simulated, and marks #root for the app', async () => {
    const simulated = createPageHints(distDir, { ...context, testPayments: true });
    for (const url of ['/', '/procedimientos', '/login']) {
      expect(await simulated.html(new URL(url, 'http://localhost'), guest), url).toContain(
        `<div id="root" data-test-payments>${testModeNoticeHtml}${pageShellHtml}</div>`,
      );
    }
    expect(await simulated.html(new URL('/admin', 'http://localhost'), member)).not.toContain('Modo de pruebas');
    expect(await page('/')).not.toContain('Modo de pruebas');
  });

  it('two pages asked at once each get their own hints', async () => {
    const hints = createPageHints(distDir, context);
    const id = '0b7c2f6e-8a7d-4c1e-9f1a-2b3c4d5e6f70';
    const [home, procedure] = await Promise.all([
      hints.html(new URL('http://localhost/'), guest),
      hints.html(new URL(`http://localhost/procedimiento/${id}`), guest),
    ]);
    expect(home).toContain('href="/api/landing"');
    expect(home).not.toContain(id);
    expect(procedure).toContain(`href="/api/catalog/procedures/${id}"`);
    expect(procedure).not.toContain('/api/landing');
  });

  it('a new build beside the running server is read at its first page (hashed names change)', async () => {
    const rebuilt = await mkdtemp(path.join(tmpdir(), 'cxvet-hints-rebuilt-'));
    await mkdir(path.join(rebuilt, '.vite'));
    await writeFile(path.join(rebuilt, 'index.html'), indexHtml);
    await writeFile(path.join(rebuilt, '.vite', 'manifest.json'), JSON.stringify(manifest));
    const hints = createPageHints(rebuilt, context);
    expect(await hints.html(new URL('http://localhost/'), guest)).toContain('/assets/landing-C.js');
    const next = {
      ...manifest,
      'src/web/routes/landing/landing.tsx': {
        ...manifest['src/web/routes/landing/landing.tsx'],
        file: 'assets/landing-N.js',
      },
    };
    await writeFile(path.join(rebuilt, '.vite', 'manifest.json'), JSON.stringify(next));
    await writeFile(path.join(rebuilt, 'index.html'), indexHtml.replace('<body>', '<body data-build="2">'));
    // a later build time, however fast this test writes
    await utimes(path.join(rebuilt, 'index.html'), new Date(), new Date(Date.now() + 60_000));
    const html = await hints.html(new URL('http://localhost/'), guest);
    expect(html).toContain('/assets/landing-N.js');
    expect(html).not.toContain('/assets/landing-C.js');
    await rm(rebuilt, { recursive: true, force: true });
  });

  it('a build without a manifest is sent as it is, with the header bar', async () => {
    const bare = await mkdtemp(path.join(tmpdir(), 'cxvet-hints-bare-'));
    await writeFile(path.join(bare, 'index.html'), indexHtml);
    expect(await createPageHints(bare, context).html(new URL('http://localhost/'), guest)).toBe(withShell);
    await rm(bare, { recursive: true, force: true });
  });
});
