import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, loginAs, saveScreenshot, test } from './fixtures.ts';

// A signed-in member's pages on a phone: what they paint before their data stays where it is (layout shift,
// counted as Lighthouse counts it), and their first load brings none of the console's code. The console's lists (the
// users list is the other page of issue #39's goal 2) are held to the same layout shift on a desktop.

type Shifts = { total: number };

/** Every layout shift of the document not caused by an input, from its start. */
const observeShifts = () => {
  const shifts: Shifts = { total: 0 };
  (window as unknown as { __shifts: Shifts }).__shifts = shifts;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
      if (!entry.hadRecentInput) shifts.total += entry.value;
    }
  }).observe({ type: 'layout-shift', buffered: true });
};

/** The layout shift of the page, once it has loaded and painted its last frame. */
async function shiftOf(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  // a shift is reported after the frame that made it
  return page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve((window as unknown as { __shifts: Shifts }).__shifts.total)),
        ),
      ),
  );
}

/** The six member pages of issue #39 and the home page, with the demo Premium member's aula and diploma. */
async function memberPages(page: Page): Promise<string[]> {
  const classrooms = (await (await page.request.get('/api/classrooms')).json()) as { items: { id: string }[] };
  const diplomas = (await (await page.request.get('/api/diplomas')).json()) as {
    items: { id: string; isEnrolled: boolean; isExternal: boolean }[];
  };
  const aula = classrooms.items[0];
  const diploma = diplomas.items.find((item) => item.isEnrolled);
  expect(aula, 'the demo Premium member has an aula').toBeDefined();
  expect(diploma, 'the demo Premium member has begun a diploma').toBeDefined();
  const course = `/mis-diplomados/${diploma!.isExternal ? 'diplomado' : 'diplomado-CxVet'}/${diploma!.id}`;
  return ['/mis-aulas', `/mis-aulas/aula/${aula!.id}`, '/mis-diplomados', course, '/perfil', '/mis-favoritos', '/'];
}

test.describe('an Admin on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the console's lists are drawn whole, the test-payments notice and first rows with their title", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await loginAs(page, 'admin');
    await page.addInitScript(observeShifts);
    // what the page holds at the moment its title is first drawn
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        if (!document.querySelector('main h1')) return;
        observer.disconnect();
        (window as unknown as { __firstDraw: unknown }).__firstDraw = {
          notice: document.querySelector('main .page-shell-notice') !== null,
          rows: document.querySelectorAll('main table tbody tr:not(.mantine-datatable-empty-row)').length,
        };
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    // the payment settings and every list answer late: each used to be drawn after the page, the notice pushing it
    // down and the rows the pager (0.04 to 0.16 of layout shift in Lighthouse on /admin/users)
    await page.route(/\/api\/(payments\/config|admin\/)/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue().catch(() => {});
    });
    const lists = [
      '/admin/users',
      '/admin',
      '/admin/procedures',
      '/admin/tags',
      '/admin/events',
      '/admin/organizations',
      '/admin/aulas',
      '/admin/diplomados',
    ];
    for (const url of lists) {
      expect.soft(await shiftOf(page, url), `layout shift on ${url}`).toBeLessThan(0.05);
      const firstDraw = await page.evaluate(
        () => (window as unknown as { __firstDraw: { notice: boolean; rows: number } }).__firstDraw,
      );
      expect.soft(firstDraw.notice, `the notice is drawn with the title of ${url}`).toBe(true);
      expect.soft(firstDraw.rows, `rows drawn with the title of ${url}`).toBeGreaterThan(0);
    }
  });

  test("the console's forms ask for their record beside their code, not once it has run", async ({ page }) => {
    test.setTimeout(120_000);
    await loginAs(page, 'admin');
    const forms = [
      { list: '/admin/tags', link: '/admin/tags/tag/', code: 'admin-tag-form-' },
      { list: '/admin/procedures', link: '/admin/procedures/procedure/', code: 'admin-procedure-form-' },
      { list: '/admin/events', link: '/admin/events/event/', code: 'admin-event-form-' },
      { list: '/admin/organizations', link: '/admin/organizations/organization/', code: 'admin-organization-form-' },
      { list: '/admin/users', link: '/admin/Users/User/', code: 'admin-user-form-' },
      { list: '/admin/aulas', link: '/admin/aulas/aula/', code: 'admin-classroom-form-' },
      { list: '/admin/diplomados', link: '/admin/diplomados/diplomado/', code: 'admin-diplomas-editor-' },
    ];
    for (const form of forms) {
      await page.goto(form.list);
      const address = await page.locator(`main a[href^="${form.link}"]`).first().getAttribute('href');
      expect(address, `an edit link on ${form.list}`).toBeTruthy();
      const id = decodeURIComponent(address!.slice(form.link.length));
      // the form's code is held until its record has been asked for (or 5 s have gone by): before, the record was
      // asked for by the form itself, once its code had run
      let asked = false;
      const onRequest = (request: { url: () => string }) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/') && decodeURIComponent(url.pathname).includes(id)) asked = true;
      };
      page.on('request', onRequest);
      const askedFirst: boolean[] = [];
      const held = `**/assets/${form.code}*.js`;
      await page.route(held, async (route) => {
        for (let waited = 0; !asked && waited < 5_000; waited += 50)
          await new Promise((resolve) => setTimeout(resolve, 50));
        askedFirst.push(asked);
        await route.continue();
      });
      await page.goto(address!);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.unroute(held);
      page.off('request', onRequest);
      expect.soft(askedFirst, `${address}: the record asked for before the form's code ran`).toEqual([true]);
    }
  });

  test("the console's HTML names its frame to an Admin only: anyone else is sent away and loads none of it", async ({
    page,
    request,
  }) => {
    const frame = /<link rel="modulepreload" crossorigin href="\/assets\/admin-routes-[^"]+\.js">/;
    // `request` carries no cookie: a guest
    expect(await (await request.get('/admin/users')).text()).not.toMatch(frame);
    await loginAs(page, 'premium');
    expect(await (await page.request.get('/admin/users')).text()).not.toMatch(frame);
    await page.context().clearCookies();
    await loginAs(page, 'admin');
    expect(await (await page.request.get('/admin/users')).text()).toMatch(frame);
  });
});

test.describe('a member on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test.beforeEach(async ({ page }) => {
    await loginAs(page, 'premium');
    await page.addInitScript(observeShifts);
  });

  test('the member pages do not move as their data arrives, even when it arrives late', async ({ page }) => {
    test.setTimeout(120_000);
    const urls = await memberPages(page);
    // every API answer comes late, as on a phone's connection: a placeholder painted before it would be replaced
    await page.route('**/api/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue().catch(() => {});
    });
    for (const url of urls) {
      expect(await shiftOf(page, url), `layout shift on ${url}`).toBeLessThan(0.05);
    }
    await saveScreenshot(page, 'member-home-360');
  });

  test("a member page's first load brings none of the console's code", async ({ page }) => {
    const manifest = JSON.parse(fs.readFileSync(path.join('dist', '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    // the console's route table, layout and screens, its data table and its API calls (chunks of their own)
    const consoleFiles = new Set(
      Object.entries(manifest)
        .filter(([module]) => /^src\/web\/routes\/(admin\/|[^/]+\/admin-)|^_admin-|\.admin\./.test(module))
        .map(([, entry]) => `/${entry.file}`),
    );
    expect(consoleFiles.size).toBeGreaterThan(20);
    const urls = await memberPages(page);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    for (const url of urls.filter((url) => url !== '/')) {
      scripts.length = 0;
      await page.goto(url, { waitUntil: 'networkidle' });
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      expect(scripts.length, url).toBeGreaterThan(0);
      expect(
        scripts.filter((script) => consoleFiles.has(script)),
        url,
      ).toEqual([]);
    }
  });

  test("a member page's first load brings neither Mantine's Modal nor zod, which only its dialogs and forms use", async ({
    page,
  }) => {
    const manifest = JSON.parse(fs.readFileSync(path.join('dist', '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    // Mantine's Modal and what it brings are one chunk (scripts/vite/chunks.ts)
    const modalFiles = Object.entries(manifest)
      .filter(([module]) => /^_modal-.*\.js$/.test(module))
      .map(([, entry]) => `/${entry.file}`);
    expect(modalFiles).toHaveLength(1);
    const urls = await memberPages(page);
    const scripts: { path: string; body: Promise<string> }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.push({ path: new URL(response.url()).pathname, body: response.text().catch(() => '') });
    });
    for (const url of urls) {
      scripts.length = 0;
      await page.goto(url, { waitUntil: 'networkidle' });
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      expect(scripts.length, url).toBeGreaterThan(0);
      expect(
        scripts.filter((script) => modalFiles.includes(script.path)).map((script) => script.path),
        url,
      ).toEqual([]);
      const bodies = await Promise.all(scripts.map((script) => script.body));
      // zod names its errors' class in every build
      expect(
        scripts.filter((_, index) => bodies[index]!.includes('$ZodError')).map((script) => script.path),
        url,
      ).toEqual([]);
    }
  });

  test("the member lists' first load brings no Mantine Alert, which shows only when their data fails", async ({
    page,
  }) => {
    const files: { path: string; body: Promise<string> }[] = [];
    page.on('response', (response) => {
      if (['script', 'stylesheet'].includes(response.request().resourceType()))
        files.push({ path: new URL(response.url()).pathname, body: response.text().catch(() => '') });
    });
    for (const url of ['/mis-aulas', '/mis-diplomados']) {
      files.length = 0;
      await page.goto(url, { waitUntil: 'networkidle' });
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      expect(files.length, url).toBeGreaterThan(0);
      const bodies = await Promise.all(files.map((file) => file.body));
      // the Alert's root class (its module's code) and its cascade layer (its stylesheet)
      expect(
        files.filter((_, index) => /m_66836ed3|mantine\.Alert\{/.test(bodies[index]!)).map((file) => file.path),
        url,
      ).toEqual([]);
    }
  });

  test("the course page's HTML names none of the catalogue's text inputs nor the procedure page's Switch", async ({
    page,
  }) => {
    const course = (await memberPages(page)).find((url) => url.startsWith('/mis-diplomados/'))!;
    const html = await (await page.request.get(course)).text();
    const named = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
      (match) => match[1]!,
    );
    expect(named.length).toBeGreaterThan(0);
    const bodies = await Promise.all(named.map(async (file) => (await page.request.get(file)).text()));
    // the root classes of Mantine's Input wrapper and of its Switch, in their modules' code
    expect(named.filter((_, index) => /m_6c018570|m_5f93f3bb/.test(bodies[index]!))).toEqual([]);
    // what the course page does use from those pages' chunks is named: the Accordion's Collapse, the viewing session
    expect(bodies.some((body) => body.includes('/api/viewing/token'))).toBe(true);
  });

  test('a member list that cannot load says so in its alert', async ({ page }) => {
    await page.route('**/api/diplomas', (route) => route.fulfill({ status: 500, body: '{}' }));
    await page.goto('/mis-diplomados');
    await expect(page.getByRole('alert')).toHaveText('No se pudieron cargar los diplomados. Intenta de nuevo.');
  });
});

test.describe('a Basic member on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the profile paints with its upgrade choice in place, even when its data arrives late', async ({ page }) => {
    await loginAs(page, 'gratis');
    await page.addInitScript(observeShifts);
    await page.route('**/api/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue().catch(() => {});
    });
    expect(await shiftOf(page, '/perfil'), 'layout shift on /perfil').toBeLessThan(0.05);
    await expect(page.getByRole('radiogroup', { name: 'Obtén Premium' })).toBeVisible();
    await saveScreenshot(page, 'member-profile-basic-360');
  });
});
