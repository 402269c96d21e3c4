import { expectNoSeriousAxeViolations } from './a11y.ts';
import type { Page } from '@playwright/test';
import { expect, loginAs, saveScreenshot, test, type DemoRole } from './fixtures.ts';

const publicLinks: [string, string][] = [
  ['Inicio', '/index'],
  ['Procedimientos', '/procedimientos'],
  ['FAQ', '/FAQ'],
  ['Eventos', '/eventos'],
  ['Nosotros', '/about'],
  ['Contacto', '/contacto'],
];

async function expectLinks(page: Page, links: [string, string][]) {
  const header = page.getByRole('banner');
  for (const [name, href] of links) {
    await expect(header.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
}

async function expectNoLinks(page: Page, names: string[]) {
  const header = page.getByRole('banner');
  for (const name of names) {
    await expect(header.getByRole('link', { name, exact: true })).toHaveCount(0);
  }
}

test.describe('header links by audience', () => {
  test('a guest sees the public links, Registro and Iniciar sesión', async ({ page }) => {
    await page.goto('/');
    await expectLinks(page, [...publicLinks, ['Registro', '/registro'], ['Iniciar sesión', '/login']]);
    await expectNoLinks(page, ['Mi perfil', 'Administrador', 'Cursos y diplomados', 'Aulas Virtuales']);
    await expect(page.getByRole('banner').getByText(/^Hola, /)).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('button', { name: 'Cerrar sesión' })).toHaveCount(0);
  });

  const memberCases: { role: DemoRole; extra: [string, string][]; absent: string[] }[] = [
    { role: 'gratis', extra: [], absent: ['Cursos y diplomados', 'Administrador', 'Fotos landing'] },
    { role: 'premium', extra: [['Cursos y diplomados', '/mis-diplomados']], absent: ['Administrador'] },
    { role: 'legacy', extra: [['Cursos y diplomados', '/mis-diplomados']], absent: ['Administrador'] },
    {
      role: 'admin',
      extra: [
        ['Cursos y diplomados', '/mis-diplomados'],
        ['Administrador', '/admin'],
        ['Fotos landing', '/admin/landing/fotos'],
      ],
      absent: [],
    },
  ];

  for (const { role, extra, absent } of memberCases) {
    test(`a ${role} member is greeted and sees the member links`, async ({ page }) => {
      await loginAs(page, role);
      await page.goto('/');
      const header = page.getByRole('banner');
      await expect(header.getByText(/^Hola, .+/)).toBeVisible();
      await expectLinks(page, [
        ...publicLinks,
        ['Aulas Virtuales', '/mis-aulas'],
        ['Mis favoritos', '/mis-favoritos'],
        ['Mi perfil', '/perfil'],
        ...extra,
      ]);
      await expectNoLinks(page, ['Registro', 'Iniciar sesión', ...absent]);
      await expect(header.getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
    });
  }
});

test('the footer links to the static pages', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  const links: [string, string][] = [
    ['Nosotros', '/about'],
    ['Eventos', '/eventos'],
    ['FAQ', '/FAQ'],
    ['Contacto', '/contacto'],
    ['Términos y condiciones', '/tos'],
    ['Aviso de privacidad', '/aviso_privacidad'],
  ];
  for (const [name, href] of links) {
    await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
});

test('the header hides on scrolling down and shows again on scrolling up', async ({ page }) => {
  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(header).toBeInViewport();
  // the page, not its loading state: a wheel turned before the landing renders scrolls nothing (a CI run caught it)
  await expect(page.getByRole('heading', { name: 'CxVet', level: 1 })).toBeVisible();
  await page.evaluate(() => {
    const spacer = document.createElement('div');
    spacer.style.height = '3000px';
    document.querySelector('main')?.append(spacer);
  });
  await page.mouse.move(600, 400);
  await page.mouse.wheel(0, 1200);
  await expect(header).not.toBeInViewport();
  // Real wheels send several scroll events; the headroom needs more than one to reveal.
  for (let step = 0; step < 3; step++) await page.mouse.wheel(0, -100);
  await expect(header).toBeInViewport();
});

test("a guest's first page loads no member, admin, editor, chart or table code", async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'CxVet', level: 1 })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(
    scripts.filter((name) => /admin|perfil|profile|diplom|aula|classroom|editor|chart|table|login/i.test(name)),
  ).toEqual([]);
});

test('an unknown path shows Página no encontrada', async ({ page }) => {
  await page.goto('/esta-pagina-no-existe');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();
});

test('on a phone the burger opens a drawer with the links', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menú' });
  await expect(drawer.getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
  await saveScreenshot(page, 'drawer-guest-360');
  await expectNoSeriousAxeViolations(page, { allRules: true });
  await drawer.getByRole('link', { name: 'Eventos' }).click();
  await expect(page).toHaveURL(/\/eventos$/);
  await expect(drawer).toBeHidden();
});
