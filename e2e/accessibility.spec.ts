import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { checkOpenScreen, expectNoSeriousAxeViolations, expectNothingTruncated, loadLazyImages } from './a11y.ts';
import { adminRequest, buildCxVetDiploma, freshPremiumMember, passExam } from './diploma-setup.ts';
import { demoAccounts, expect, loginAs, saveScreenshot, test, type DemoRole } from './fixtures.ts';

/**
 * Issue #14, item 12: every route of specs 1 and 2, as the audience that may open it, at 360 px and
 * 1280 px: 0 serious or critical axe violations (WCAG 2.0/2.1/2.2 A and AA), a title of its own,
 * no horizontal scrolling.
 */
// the longest file of the suite (11 minutes in CI): its checks are independent, so both workers share them
test.describe.configure({ mode: 'parallel' });

type RouteCase = {
  name: string;
  role: DemoRole | null;
  path: (ids: Ids) => string;
  heading?: string | RegExp;
  title?: string;
  /** What the page shows once its data has arrived, when the heading comes first. */
  ready?: (page: Page) => Promise<void>;
  /** Every axe rule, best practices included, and not only the WCAG levels. */
  allRules?: boolean;
  /** The name of the full-page screenshots kept at each width. */
  screenshot?: string;
};
type Ids = {
  procedure: string;
  premiumProcedure: string;
  tag: string;
  event: string;
  user: string;
  organization: string;
};

const articles = (count: number, region?: string) => async (page: Page) => {
  const scope = region ? page.getByRole('region', { name: region }) : page;
  await expect(scope.getByRole('article')).toHaveCount(count);
};

const guestRoutes: RouteCase[] = [
  {
    name: 'landing',
    role: null,
    path: () => '/',
    ready: articles(3, 'Algunos de nuestros procedimientos'),
    allRules: true,
    screenshot: 'landing-guest',
  },
  {
    name: 'catalogue',
    role: null,
    path: () => '/procedimientos',
    heading: 'Catálogo de cirugías',
    ready: articles(9),
    screenshot: 'catalog',
  },
  {
    name: 'catalogue filtered',
    role: null,
    path: () => '/procedimientos/kynd/Perro?type=Premium',
    heading: 'Catálogo de cirugías',
  },
  { name: 'procedure', role: null, path: (ids) => `/procedimiento/${ids.premiumProcedure}` },
  {
    name: 'events',
    role: null,
    path: () => '/eventos',
    heading: 'Agenda próximos eventos CxVet',
    screenshot: 'events',
  },
  { name: 'faq', role: null, path: () => '/FAQ', heading: 'Preguntas frecuentes', screenshot: 'faq' },
  { name: 'about', role: null, path: () => '/about', heading: 'Nosotros', screenshot: 'about' },
  { name: 'contact', role: null, path: () => '/contacto', heading: 'Contacto', screenshot: 'contact' },
  { name: 'terms', role: null, path: () => '/tos', heading: 'Términos y condiciones', screenshot: 'terms' },
  {
    name: 'privacy',
    role: null,
    path: () => '/aviso_privacidad',
    heading: 'Aviso de privacidad',
    screenshot: 'privacy',
  },
  { name: 'sign-up', role: null, path: () => '/registro' },
  { name: 'login', role: null, path: () => '/login', heading: 'Iniciar sesión', allRules: true, screenshot: 'login' },
  { name: 'password recovery', role: null, path: () => '/login/recuperar_password' },
  {
    name: 'not found',
    role: null,
    path: () => '/no-existe',
    heading: 'Página no encontrada',
    allRules: true,
    screenshot: 'not-found',
  },
];

const memberRoutes: RouteCase[] = [
  { name: 'profile (Basic)', role: 'gratis', path: () => '/perfil', heading: 'Mi CxVet' },
  { name: 'profile (Premium)', role: 'premium', path: () => '/perfil', heading: 'Mi CxVet' },
  { name: 'payments (Premium)', role: 'premium', path: () => '/perfil/pago', heading: 'Pagos' },
  { name: 'devices (Premium)', role: 'premium', path: () => '/perfil/dispositivos', heading: 'Mis dispositivos' },
  {
    name: 'privacy and my data (Basic)',
    role: 'gratis',
    path: () => '/perfil/privacidad',
    heading: 'Privacidad y mis datos',
  },
  {
    name: 'account re-login (Premium)',
    role: 'premium',
    path: () => '/perfil/usuario',
    title: 'Mi cuenta: confirma tu identidad · CxVet',
  },
  { name: 'welcome (Legacy)', role: 'legacy', path: () => '/registro' },
  { name: 'procedure (Premium)', role: 'premium', path: (ids) => `/procedimiento/${ids.premiumProcedure}` },
  { name: 'favourites (Basic)', role: 'gratis', path: () => '/mis-favoritos', heading: 'Mis favoritos' },
  {
    name: 'catalogue No vistos (Premium)',
    role: 'premium',
    path: () => '/procedimientos/kynd/Perro?vistos=no',
    heading: 'Catálogo de cirugías',
  },
];

const adminRoutes: RouteCase[] = [
  { name: 'landing (Admin)', role: 'admin', path: () => '/', allRules: true, screenshot: 'home-admin' },
  {
    name: 'admin procedures',
    role: 'admin',
    path: () => '/admin',
    heading: 'Procedimientos',
    allRules: true,
    screenshot: 'admin-procedures',
  },
  { name: 'admin procedure form', role: 'admin', path: (ids) => `/admin/procedures/procedure/${ids.procedure}` },
  {
    name: 'admin new procedure',
    role: 'admin',
    path: () => '/admin/procedures/procedure',
    heading: 'Nuevo procedimiento',
    allRules: true,
    screenshot: 'admin-procedure-new',
  },
  {
    name: 'admin tags',
    role: 'admin',
    path: () => '/admin/tags',
    heading: 'Etiquetas',
    allRules: true,
    screenshot: 'admin-tags',
  },
  { name: 'admin tag form', role: 'admin', path: (ids) => `/admin/tags/tag/${ids.tag}` },
  {
    name: 'admin new tag',
    role: 'admin',
    path: () => '/admin/tags/tag',
    heading: 'Nueva etiqueta',
    allRules: true,
    screenshot: 'admin-tag-new',
  },
  {
    name: 'admin events',
    role: 'admin',
    path: () => '/admin/events',
    heading: 'Eventos',
    allRules: true,
    screenshot: 'admin-events',
  },
  { name: 'admin event form', role: 'admin', path: (ids) => `/admin/events/event/${ids.event}` },
  {
    name: 'admin new event',
    role: 'admin',
    path: () => '/admin/events/event',
    heading: 'Nuevo evento',
    allRules: true,
    screenshot: 'admin-event-new',
  },
  {
    name: 'admin users',
    role: 'admin',
    path: () => '/admin/users',
    heading: 'Usuarios',
    // the newest accounts come first, and the suite creates many: any filled row will do
    ready: (page) => expect(page.getByRole('table', { name: 'Usuarios' }).getByRole('row').nth(1)).toBeVisible(),
    screenshot: 'admin-users',
  },
  {
    name: 'admin user form',
    role: 'admin',
    path: (ids) => `/admin/Users/User/${ids.user}`,
    ready: (page) => expect(page.getByRole('textbox', { name: 'Correo' })).toHaveValue(demoAccounts.gratis),
    screenshot: 'admin-user-edit',
  },
  {
    name: 'admin new user',
    role: 'admin',
    path: () => '/admin/Users/User',
    heading: 'Crear nuevo usuario',
    screenshot: 'admin-user-create',
  },
  {
    name: 'admin manual premium',
    role: 'admin',
    path: () => '/admin/users/premium-manual',
    heading: 'Usuarios premium manual',
    screenshot: 'admin-manual-premium',
  },
  {
    name: 'admin manual premium upgrade',
    role: 'admin',
    path: () => '/admin/users/actualizar-premium-manual',
    heading: 'Actualizar a premium manual',
    screenshot: 'admin-manual-premium-upgrade',
  },
  {
    name: 'admin manual premium downgrade',
    role: 'admin',
    path: () => '/admin/users/downgrade-premium-manual',
    heading: 'Quitar premium manual',
    screenshot: 'admin-manual-premium-downgrade',
  },
  {
    name: 'admin organizations',
    role: 'admin',
    path: () => '/admin/organizations',
    heading: 'Organizaciones',
    allRules: true,
    screenshot: 'admin-organizations',
  },
  {
    name: 'admin new organization',
    role: 'admin',
    path: () => '/admin/organizations/crear-organization',
    heading: 'Crear organización',
    allRules: true,
    screenshot: 'admin-organization-new',
  },
  {
    name: 'admin organization form',
    role: 'admin',
    path: (ids) => `/admin/organizations/organization/${ids.organization}`,
  },
  {
    name: 'admin landing photos',
    role: 'admin',
    path: () => '/admin/landing/fotos',
    heading: 'Fotos landing',
    allRules: true,
    screenshot: 'admin-landing-photos',
  },
  {
    name: 'admin newsletter',
    role: 'admin',
    path: () => '/admin/newsletter',
    heading: 'Newsletter',
    allRules: true,
    screenshot: 'admin-newsletter',
  },
  {
    name: 'admin mailing',
    role: 'admin',
    path: () => '/admin/mailing',
    heading: 'Mailing',
    screenshot: 'admin-mailing',
  },
  {
    name: 'admin statistics',
    role: 'admin',
    path: () => '/admin/estadisticas',
    ready: (page) => expect(page.getByRole('list', { name: 'Resumen de usuarios' })).toBeVisible(),
    screenshot: 'admin-statistics',
  },
  { name: 'admin outbox', role: 'admin', path: () => '/admin/correos', heading: 'Correos enviados' },
  { name: 'admin backups', role: 'admin', path: () => '/admin/respaldos', heading: 'Respaldos' },
  { name: 'admin aulas', role: 'admin', path: () => '/admin/aulas', heading: 'Aulas' },
  { name: 'admin new aula', role: 'admin', path: () => '/admin/aulas/crear-aula', heading: 'Crear aula' },
  { name: 'admin diplomas', role: 'admin', path: () => '/admin/diplomados', heading: 'Diplomados' },
  {
    name: 'admin not found',
    role: 'admin',
    path: () => '/admin/no-existe',
    heading: 'Página no encontrada',
    allRules: true,
    screenshot: 'admin-not-found',
  },
];

let ids: Ids | null = null;

/** Record ids for the detail routes, read once per worker through the Admin API. */
async function recordIds(page: Page): Promise<Ids> {
  if (ids) return ids;
  const get = async <T>(url: string): Promise<T> => {
    const response = await page.request.get(url);
    expect(response.status(), url).toBe(200);
    return (await response.json()) as T;
  };
  const premium = await get<{ items: { id: string; type: string }[] }>('/api/catalog/procedures?type=Premium');
  const procedures = await get<{ items: { id: string }[] }>('/api/admin/procedures?sort=name&dir=asc&page=1');
  const tags = await get<{ items: { id: string }[] }>('/api/admin/tags');
  const events = await get<{ items: { id: string }[] }>('/api/admin/events');
  const users = await get<{ items: { id: string; email: string }[] }>(
    `/api/admin/users?q=${encodeURIComponent(demoAccounts.gratis)}`,
  );
  const organizations = await get<{ items: { id: string }[] }>('/api/admin/organizations');
  ids = {
    procedure: procedures.items[0]!.id,
    premiumProcedure: premium.items[0]!.id,
    tag: tags.items[0]!.id,
    event: events.items[0]!.id,
    user: users.items[0]!.id,
    organization: organizations.items[0]!.id,
  };
  return ids;
}

async function waitForPage(page: Page, heading?: string | RegExp) {
  const h1 = page.getByRole('heading', { level: 1, ...(heading ? { name: heading } : {}) });
  await expect(h1.first()).toBeAttached({ timeout: 20_000 });
  await expect(
    page.locator('.mantine-Skeleton-root, [role="status"][aria-label^="Cargando"]').filter({ visible: true }),
  ).toHaveCount(0, { timeout: 20_000 });
}

for (const route of [...guestRoutes, ...memberRoutes, ...adminRoutes]) {
  test(`${route.name}: no serious axe violations at 360 and 1280 px, and a title of its own`, async ({ page }) => {
    test.setTimeout(120_000);
    await loginAs(page, 'admin');
    const path = route.path(await recordIds(page));
    await page.context().clearCookies();
    if (route.role) await loginAs(page, route.role);
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
      await page.goto(path);
      await waitForPage(page, route.heading);
      if (route.ready) await route.ready(page);
      if (route.screenshot) {
        await loadLazyImages(page);
        await saveScreenshot(page, `${route.screenshot}-${width}`);
      }
      const title = await page.title();
      if (path === '/') expect(title).toBe('CxVet');
      else expect(title, 'a descriptive title, not just the site name').toMatch(/^.+ · CxVet$/);
      if (path.startsWith('/admin')) expect(title).toMatch(/ · Admin · CxVet$/);
      if (route.title) expect(title).toBe(route.title);
      await expectNoSeriousAxeViolations(page, { allRules: route.allRules });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
    }
  });
}

/**
 * The aula and diploma screens people stumbled on, as each role sees them and with their modals open: 0 serious or
 * critical axe nodes at 360 and 1280 px, and at 360 px no status, reason or date cut off.
 */
test.describe('aulas and diplomas', () => {
  test.beforeEach(() => test.setTimeout(240_000));

  test('a course page with its exam, its certificate modal and the review; the statistics tab; the profile with certificates', async ({
    browser,
    baseURL,
  }) => {
    const origin = new URL(baseURL!).origin;
    const admin = await adminRequest(browser, baseURL!);
    const member = await freshPremiumMember(browser, baseURL!, admin.request, 'Revisión Accesible');
    const title = `Diplomado accesible ${randomUUID().slice(0, 6)}`;
    const diploma = await buildCxVetDiploma(admin.request, origin, title, member.userId);
    const { page } = member;
    const examButton = page.getByRole('button', { name: /^\d+\. Examen final/ });

    await page.goto(`/mis-diplomados/diplomado-CxVet/${diploma.id}`);
    await examButton.click();
    await checkOpenScreen(page, 'a11y-course-exam', async () => {
      await expect(page.getByRole('button', { name: 'Enviar respuestas' })).toBeVisible();
    });

    await passExam(page.request, origin, diploma.id, diploma.examId);
    await page.reload();
    const modal = page.getByRole('dialog', { name: '¡Felicidades!' });
    await checkOpenScreen(page, 'a11y-course-certificate-modal', async () => {
      await expect(modal.getByRole('button', { name: 'Descargar constancia' })).toBeVisible();
    });
    // the title already says 'Diplomado': it is not said twice
    await expect(modal).toContainText(`Completaste el ${title}.`);
    await modal.getByRole('button', { name: 'Cerrar' }).click();
    await expect(modal).toBeHidden();
    // the accessible name is what is seen: number, title and status
    await expect(examButton).toHaveAccessibleName(/^\d+\. Examen final\s*Aprobado$/);
    await examButton.click();
    await checkOpenScreen(page, 'a11y-course-exam-review', async () => {
      await expect(page.getByText('Calificación: 100.00%')).toBeVisible();
    });
    await page.setViewportSize({ width: 360, height: 740 });
    await expectNothingTruncated(page);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Descargar constancia' }).click();
    await downloading;
    await page.goto('/perfil');
    const card = page.getByRole('heading', { name: 'Diplomados y constancias' });
    await checkOpenScreen(page, 'a11y-profile-certificates', async () => {
      await expect(card).toBeVisible();
    });
    await page.setViewportSize({ width: 360, height: 740 });
    await expectNothingTruncated(page);
    const verify = page.getByRole('link', { name: 'Verificar', exact: true });
    await verify.scrollIntoViewIfNeeded();
    await expect(verify).toBeInViewport({ ratio: 1 });

    const adminPage = await admin.context.newPage();
    await adminPage.goto(`/admin/diplomados/diplomado/${diploma.id}?tab=estadisticas`);
    await checkOpenScreen(adminPage, 'a11y-diploma-statistics', async () => {
      await expect(adminPage.getByText('Progreso de los alumnos').first()).toBeVisible({ timeout: 20_000 });
    });
    await member.context.close();
    await admin.context.close();
  });

  test('the External course page of an enrolled member', async ({ browser, baseURL }) => {
    const origin = new URL(baseURL!).origin;
    const admin = await adminRequest(browser, baseURL!);
    const member = await freshPremiumMember(browser, baseURL!, admin.request, 'Externo Accesible');
    const diplomas = (await (await admin.request.get('/api/admin/diplomas')).json()) as {
      items: { id: string; kind: string; title: string }[];
    };
    const external = diplomas.items.find((diploma) => diploma.kind === 'External')!;
    const assigned = await admin.request.put(`/api/admin/diplomas/${external.id}/users/${member.userId}`, {
      headers: { origin },
      data: { assigned: true },
    });
    expect(assigned.status(), await assigned.text()).toBe(200);
    const { page } = member;
    await page.goto(`/mis-diplomados/diplomado/${external.id}`);
    await checkOpenScreen(page, 'a11y-external-course', async () => {
      await expect(page.getByRole('heading', { level: 1, name: external.title })).toBeVisible();
    });
    await page.setViewportSize({ width: 360, height: 740 });
    await expectNothingTruncated(page);
    await member.context.close();
    await admin.context.close();
  });

  test('the aula administrator’s import preview', async ({ page }) => {
    await loginAs(page, 'classroomAdmin');
    await page.goto('/administrar-aula');
    await page
      .getByRole('link', { name: /^Administrar usuarios de / })
      .first()
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Importar usuarios' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar usuarios' });
    await dialog
      .getByRole('textbox', { name: 'Direcciones de correo' })
      .fill([demoAccounts.premium, 'sin-cuenta@correo-que-no-existe.example.com', 'esto no es un correo'].join('\n'));
    await dialog.getByRole('button', { name: 'Revisar direcciones' }).click();
    await checkOpenScreen(page, 'a11y-import-preview', async () => {
      await expect(dialog.getByRole('status')).toBeVisible();
    });
    await page.setViewportSize({ width: 360, height: 740 });
    await expectNothingTruncated(page);
    const reason = dialog.getByText('No contiene un correo válido');
    await reason.scrollIntoViewIfNeeded();
    await expect(reason).toBeInViewport({ ratio: 1 });
  });
});

test.describe('keyboard', () => {
  test.beforeEach(() => test.setTimeout(120_000));

  test('the skip link is the first Tab stop and jumps past the header to the page', async ({ page }) => {
    await page.goto('/procedimientos');
    await expect(page.getByRole('heading', { level: 1, name: 'Catálogo de cirugías' })).toBeVisible({
      timeout: 20_000,
    });
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Saltar al contenido' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
  });

  test('after a route change the title changes and focus is on the new page’s heading', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Procedimientos', exact: true }).click();
    await expect(page).toHaveTitle('Catálogo de cirugías · CxVet');
    await expect(page.getByRole('heading', { level: 1, name: 'Catálogo de cirugías' })).toBeFocused();

    const card = page.getByRole('article').first().getByRole('heading').getByRole('link');
    const name = (await card.textContent()) ?? '';
    await card.click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page).toHaveTitle(`${name} · CxVet`);
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();

    // a catalogue filter is the same page: focus stays on the chosen link
    await page.goto('/procedimientos');
    const gato = page
      .getByRole('complementary', { name: 'Filtros del catálogo' })
      .getByRole('link', { name: 'Gato', exact: true });
    await gato.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/procedimientos\/kynd\/Gato$/);
    await expect(gato).toBeFocused();
  });

  test('after signing in, focus is on the heading of the page the member lands on', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(demoAccounts.legacy);
    await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill('Demo1234');
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect(page).not.toHaveURL(/\/login/);
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    expect(await page.title()).not.toBe('Iniciar sesión · CxVet');
  });

  test('every focused control shows a visible ring of at least 2 px, text fields included', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeVisible();
    const email = page.getByRole('textbox', { name: 'Correo electrónico' });
    await email.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(email).toBeFocused();
    const ring = await email.evaluate((element) => {
      const style = getComputedStyle(element);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(ring.style).not.toBe('none');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    // the show-password button is reachable by keyboard
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Mostrar u ocultar contraseña' })).toBeFocused();
  });

  test('the admin tag and event lists open a record by keyboard', async ({ page }) => {
    await loginAs(page, 'admin');
    for (const [list, pattern] of [
      ['/admin/tags', /\/admin\/tags\/tag\/[0-9a-f-]{36}$/],
      ['/admin/events', /\/admin\/events\/event\/[0-9a-f-]{36}$/],
    ] as const) {
      await page.goto(list);
      const table = page.getByRole('table');
      const firstLink = table.getByRole('link').first();
      await expect(firstLink).toBeVisible({ timeout: 20_000 });
      await firstLink.focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(pattern);
      await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    }
  });

  test('on a phone the closed admin menu takes no focus, and the open one does', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await loginAs(page, 'admin');
    await page.goto('/admin/procedures');
    await expect(page.getByRole('heading', { level: 1, name: 'Procedimientos' })).toBeVisible();
    for (let step = 0; step < 8; step++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('#menu-administracion')))).toBe(false);
    }
    const burger = page.getByRole('button', { name: 'Abrir menú de administración' });
    await expect(burger).toHaveAttribute('aria-expanded', 'false');
    await burger.click();
    await expect(page.getByRole('button', { name: 'Cerrar menú de administración' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    const tags = page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Etiquetas' });
    await tags.focus();
    await expect(tags).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/admin\/tags$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Etiquetas' })).toBeFocused();
  });

  test('the landing carousel can be paused and announces only what the visitor does, in Spanish', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    const hero = page.getByRole('region', { name: 'Presentación de CxVet' });
    await expect(hero.getByText('Aprende cirugía veterinaria con expertos')).toBeInViewport({ timeout: 20_000 });
    // Mantine's English 'Slide N of M' region is silenced: ours is the only status
    await expect(hero.getByRole('status')).toHaveCount(1);
    await page.clock.runFor(7_000);
    await expect(hero.getByRole('status')).toHaveText('');

    await hero.getByRole('button', { name: 'Pausar presentación' }).click();
    await expect(hero.getByRole('button', { name: 'Reanudar presentación' })).toBeVisible();
    // stopped stays stopped once the pointer and focus leave
    await page.mouse.move(640, 790);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const shown = await hero.getByRole('tab', { selected: true }).getAttribute('aria-label');
    await page.clock.runFor(20_000);
    await expect(hero.getByRole('tab', { selected: true })).toHaveAttribute('aria-label', shown ?? '');

    await hero.getByRole('button', { name: 'Diapositiva siguiente' }).click();
    await expect(hero.getByRole('status')).toHaveText(/^Diapositiva \d+ de \d+$/);
  });

  test('after following a link of the phone menu, focus is on the new page’s heading', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
    for (const [link, heading] of [
      ['FAQ', 'Preguntas frecuentes'],
      ['Procedimientos', 'Catálogo de cirugías'],
    ] as const) {
      await page.getByRole('button', { name: 'Abrir menú' }).click();
      await page.getByRole('dialog', { name: 'Menú' }).getByRole('link', { name: link, exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Menú' })).toBeHidden();
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused();
    }
    // closed without following a link, the menu gives the focus back to its burger
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await expect(page.getByRole('dialog', { name: 'Menú' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Menú' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Abrir menú' })).toBeFocused();
  });

  test('a burger says whether its menu is open', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    const burger = page.getByRole('button', { name: 'Abrir menú' });
    await expect(burger).toHaveAttribute('aria-expanded', 'false');
    await burger.click();
    await expect(page.getByRole('dialog', { name: 'Menú' })).toBeVisible();
  });
});
