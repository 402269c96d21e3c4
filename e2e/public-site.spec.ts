import type { Page } from '@playwright/test';
import { expect, loginAs, test } from './fixtures.ts';

const cards = (page: Page) => page.getByRole('article');
/** Waits until the catalogue shows the answer for the current URL, not the previous page's. */
const settled = (page: Page) =>
  expect(page.getByRole('region', { name: 'Resultados' })).toHaveAttribute('aria-busy', 'false');
const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Filtros del catálogo' });

test.describe('landing', () => {
  test('a guest sees the hero, reasons, samples, plans, testimonials and sponsors with join buttons', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'CxVet' })).toBeAttached();
    await expect(page.getByText('Aprende cirugía veterinaria con expertos')).toBeVisible();
    await expect(page.getByRole('heading', { name: '¿Por qué unirte a CxVet?' })).toBeVisible();
    const samples = page.getByRole('region', { name: 'Algunos de nuestros procedimientos' });
    await expect(samples.getByRole('article')).toHaveCount(3);
    const plans = page.getByRole('region', { name: 'Membresías' });
    await expect(plans.getByText('9.99 USD/mes')).toBeVisible();
    await expect(plans.getByText('o 99.90 USD/año')).toBeVisible();
    await expect(plans.getByRole('link', { name: 'Únete a CxVet' })).toHaveAttribute('href', '/registro');
    await expect(
      page.getByRole('region', { name: 'Presentación de CxVet' }).getByRole('link', { name: 'Únete a CxVet' }).first(),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'Lo que dicen nuestros usuarios' }).getByRole('figure')).toHaveCount(
      3,
    );
    const sponsors = page.getByRole('region', { name: 'Patrocinadores' });
    // the sponsors' carousel (and its links) load as the section comes near the screen
    await sponsors.scrollIntoViewIfNeeded();
    const sponsor = sponsors.getByRole('link', { name: 'VetSalud Farma' });
    await expect(sponsor).toHaveAttribute('target', '_blank');
    await expect(sponsor).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(
      page.getByRole('region', { name: 'Nos avalan' }).getByRole('img', { name: 'Universidad Veterinaria del Centro' }),
    ).toBeVisible();
  });

  test('a member sees no join button', async ({ page }) => {
    await loginAs(page, 'premium');
    await page.goto('/index');
    await expect(page.getByRole('region', { name: 'Membresías' }).getByText('9.99 USD/mes')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Únete a CxVet' })).toHaveCount(0);
  });

  test('the hero moves to the next slide on its own', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    const hero = page.getByRole('region', { name: 'Presentación de CxVet' });
    await expect(hero.getByText('Aprende cirugía veterinaria con expertos')).toBeInViewport();
    await page.clock.runFor(10_000);
    await expect(hero.getByText('Hazte Premium')).toBeInViewport();
  });

  test("the first slide is painted without the carousels' code, which loads when the slide has had its time", async ({
    page,
  }) => {
    await page.clock.install();
    const carouselCode: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/carousels-[^/]*\.js$/.test(new URL(request.url()).pathname)) carouselCode.push(request.url());
    });
    await page.goto('/');
    const hero = page.getByRole('region', { name: 'Presentación de CxVet' });
    await expect(hero.getByText('Aprende cirugía veterinaria con expertos')).toBeInViewport();
    await page.waitForLoadState('networkidle');
    expect(carouselCode).toEqual([]);
    await expect(hero.getByRole('tab')).toHaveCount(0);
    await page.clock.runFor(10_000);
    // the carousel takes the still slide's place and moves on at once
    await expect(hero.getByRole('tab', { name: 'Ir a la diapositiva 2', selected: true })).toBeVisible();
    await expect(hero.getByText('Hazte Premium')).toBeInViewport();
    expect(carouselCode).toHaveLength(1);
  });

  test("the home page's code is React Router's production build, without its development warnings", async ({
    page,
  }) => {
    const scripts: Promise<string>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.text().catch(() => ''));
    });
    await page.goto('/', { waitUntil: 'networkidle' });
    const bodies = await Promise.all(scripts);
    // texts that only the development build's warnings carry (react-router/dist/development, ENABLE_DEV_WARNINGS)
    expect(bodies.filter((body) => /You rendered descendant <Routes>|Hey developer/.test(body))).toEqual([]);
    expect(bodies.length).toBeGreaterThan(0);
  });
});

test.describe('catalogue', () => {
  test('opened from its address or a link, a view paints once, complete: never the loading skeleton', async ({
    page,
  }) => {
    // every node the page ever inserts is seen, however briefly it stays
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { skeletonsSeen: string[] }).skeletonsSeen = seen;
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (
              node instanceof Element &&
              (node.matches('[aria-label="Cargando cirugías"]') ||
                node.querySelector('[aria-label="Cargando cirugías"]'))
            )
              seen.push(window.location.pathname);
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/procedimientos');
    await expect(cards(page)).toHaveCount(9);
    // a filter in the path is another view: its first page also arrives before it paints
    await sidebar(page).getByRole('link', { name: 'Gato', exact: true }).click();
    await expect(page).toHaveURL(/\/procedimientos\/kynd\/Gato$/);
    await expect(cards(page).filter({ hasText: 'Orquiectomía en gato' })).toHaveCount(1);
    expect(await page.evaluate(() => (window as unknown as { skeletonsSeen: string[] }).skeletonsSeen)).toEqual([]);
  });

  test('filters combine: species, type, tag and search together, in a URL that reproduces the view', async ({
    page,
  }) => {
    await page.goto('/procedimientos');
    await expect(page.getByRole('heading', { level: 1, name: 'Catálogo de cirugías' })).toBeVisible();
    await expect(cards(page)).toHaveCount(9);

    await sidebar(page).getByRole('link', { name: 'Perro', exact: true }).click();
    await expect(page).toHaveURL(/\/procedimientos\/kynd\/Perro$/);
    await settled(page);
    await expect(cards(page).filter({ hasText: 'Orquiectomía en gato' })).toHaveCount(0);

    await sidebar(page).getByRole('link', { name: 'Premium', exact: true }).click();
    await expect(page).toHaveURL(/\/procedimientos\/kynd\/Perro\?type=Premium$/);
    await settled(page);
    await expect(cards(page).filter({ hasText: 'Ovariohisterectomía en perra' })).toHaveCount(0);
    await expect(cards(page).filter({ hasText: 'Reparación de ligamento cruzado craneal' })).toHaveCount(1);

    await sidebar(page).getByRole('link', { name: 'Oncología', exact: true }).click();
    await expect(page).toHaveURL(/\/procedimientos\/kynd\/Perro\?tag=[0-9a-f-]{36}&type=Premium$/);
    await settled(page);
    await expect(cards(page)).toHaveCount(2);
    await expect(cards(page).filter({ hasText: 'Esplenectomía' })).toHaveCount(1);
    await expect(cards(page).filter({ hasText: 'Amputación de miembro torácico' })).toHaveCount(1);

    await page.getByRole('searchbox', { name: 'Buscar en catálogo' }).fill('amputacion');
    await expect(page).toHaveURL(/&q=amputacion$/);
    await expect(cards(page)).toHaveCount(1);

    // The link reproduces the whole view, for another person too.
    const shared = await page.context().newPage();
    await shared.goto(page.url());
    await expect(cards(shared)).toHaveCount(1);
    await expect(cards(shared).filter({ hasText: 'Amputación de miembro torácico' })).toHaveCount(1);
    await expect(shared.getByRole('searchbox', { name: 'Buscar en catálogo' })).toHaveValue('amputacion');
    for (const name of ['Perro', 'Premium', 'Oncología']) {
      await expect(sidebar(shared).getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
    }
    await shared.close();

    // 'Todas' clears only its own group.
    await sidebar(page).getByRole('link', { name: 'Todas', exact: true }).last().click();
    await expect(page).toHaveURL(/\/procedimientos\/kynd\/Perro\?type=Premium&q=amputacion$/);
    await settled(page);
    await expect(cards(page)).toHaveCount(1);
  });

  test('an aula filter shows its procedures only', async ({ page }) => {
    await page.goto('/procedimientos');
    await sidebar(page).getByRole('link', { name: 'Aula de Cirugía de Tejidos Blandos' }).click();
    await expect(page).toHaveURL(/\/procedimientos\/aula\/[0-9a-f-]{36}$/);
    await settled(page);
    await expect(cards(page).filter({ hasText: 'Esplenectomía' })).toHaveCount(1);
    await expect(cards(page).filter({ hasText: 'Ovariohisterectomía en perra' })).toHaveCount(0);
  });

  test('searches on the server ignoring accents and keeps the search in the URL', async ({ page }) => {
    await page.goto('/procedimientos');
    await page.getByRole('searchbox', { name: 'Buscar en catálogo' }).fill('ENUCLEACION');
    await expect(page).toHaveURL(/\?q=ENUCLEACION$/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).getByRole('link', { name: 'Enucleación transpalpebral en gato' })).toBeVisible();
    // The link reproduces the search.
    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Buscar en catálogo' })).toHaveValue('ENUCLEACION');
    await expect(cards(page)).toHaveCount(1);
    await page.getByRole('searchbox', { name: 'Buscar en catálogo' }).fill('zzzz sin resultados');
    await expect(page.getByText('No se encontraron cirugías con estos criterios.')).toBeVisible();
  });

  test('pages to 2 and back, scrolling to the top', async ({ page }) => {
    await page.goto('/procedimientos');
    await expect(cards(page)).toHaveCount(9);
    const firstOfPageOne = await cards(page).first().textContent();
    const pagination = page.getByRole('navigation', { name: 'Paginación' });
    await pagination.getByRole('button', { name: 'Página 2' }).click();
    await expect(page).toHaveURL(/\?page=2$/);
    // the rest of the catalogue: the demo's 15 leave 6, and other specs on this server may have added some
    await expect(cards(page).first()).not.toHaveText(firstOfPageOne ?? '');
    const onPageTwo = await cards(page).count();
    expect(onPageTwo).toBeGreaterThanOrEqual(6);
    expect(onPageTwo).toBeLessThanOrEqual(9);
    await expect(pagination.getByRole('button', { name: 'Página 2' })).toHaveAttribute('aria-current', 'page');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await pagination.getByRole('button', { name: 'Primera página' }).click();
    await expect(page).toHaveURL(/\/procedimientos$/);
    await expect(cards(page)).toHaveCount(9);
  });

  test('a guest sees the premium lock on Premium cards and a Premium member does not', async ({ page }) => {
    await page.goto('/procedimientos/type/Premium');
    await expect(cards(page).first()).toBeVisible();
    const count = await cards(page).count();
    await expect(page.getByText('Bloqueado:')).toHaveCount(count);

    await loginAs(page, 'premium');
    await page.goto('/procedimientos/type/Premium');
    await expect(cards(page).first()).toBeVisible();
    await expect(page.getByText('Bloqueado:')).toHaveCount(0);
  });

  test('on a phone the filters open from a collapsible section', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/procedimientos');
    await expect(page.getByRole('link', { name: 'Perro', exact: true })).toBeHidden();
    await page.getByRole('button', { name: 'Mostrar filtros' }).click();
    await page.getByRole('link', { name: 'Perro', exact: true }).click();
    await expect(page).toHaveURL(/\/procedimientos\/kynd\/Perro$/);
  });

  test.describe('pictures on a phone', () => {
    test.use({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 });

    test('the first card downloads the narrow copy its width needs, never the 1090 px original', async ({ page }) => {
      const media: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/media/')) media.push(url.pathname + url.search);
      });
      await page.goto('/procedimientos');
      const first = cards(page).first().getByRole('img');
      await expect
        .poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      const original = new URL((await first.getAttribute('src'))!, page.url()).pathname;
      // a 328 px wide card at 2×: the 720 px copy, as WebP
      const current = new URL(await first.evaluate((img: HTMLImageElement) => img.currentSrc));
      expect(current.pathname + current.search).toBe(`${original}?w=720`);
      const copy = await page.request.get(current.href);
      expect(copy.headers()['content-type']).toBe('image/webp');
      expect((await copy.body()).length).toBeLessThan((await (await page.request.get(original)).body()).length / 2);
      // the head's preload named the same copy: it is fetched once, and the original not at all
      expect(media.filter((url) => url === `${original}?w=720`)).toHaveLength(1);
      expect(media).not.toContain(original);
      expect(media.every((url) => url.includes('?w='))).toBe(true);
    });
  });

  test("the cards' sizes match the grid at each breakpoint", async ({ page }) => {
    await page.goto('/procedimientos');
    const first = cards(page).first().getByRole('img');
    for (const width of [360, 600, 800, 1100, 1250, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      // the width the sizes attribute names for this viewport, as the browser reads it, and the picture's own
      const [named, shown] = await first.evaluate((img: HTMLImageElement) => {
        const entries = img.sizes.split(/,\s*(?![^(]*\))/);
        const length = entries
          .map((entry) => /^(\(.*?\))\s+(.+)$/.exec(entry) ?? [entry, null, entry])
          .find(([, query]) => !query || matchMedia(query).matches)![2]!;
        const probe = document.createElement('div');
        probe.style.width = length;
        document.body.append(probe);
        const result = [probe.getBoundingClientRect().width, img.getBoundingClientRect().width];
        probe.remove();
        return result;
      });
      // the picture sits inside the card's 1 px borders: sizes may name up to their width more, never less
      expect(named! - shown!, `at ${width} px: sizes names ${named}, the picture is ${shown}`).toBeGreaterThanOrEqual(
        -0.5,
      );
      expect(named! - shown!, `at ${width} px: sizes names ${named}, the picture is ${shown}`).toBeLessThanOrEqual(3);
    }
  });

  test('an unknown filter shows Página no encontrada', async ({ page }) => {
    await page.goto('/procedimientos/kynd/Caballo');
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  });
});

test('the events page lists the agenda with its buttons and the video modal', async ({ page }) => {
  await page.goto('/eventos');
  await expect(page.getByRole('heading', { level: 1, name: 'Agenda próximos eventos CxVet' })).toBeVisible();
  const events = page.getByRole('article');
  await expect(events.first()).toBeVisible();
  expect(await events.count()).toBeGreaterThan(1);
  await expect(page.getByRole('link', { name: 'Ver información completa' }).first()).toHaveAttribute(
    'href',
    /^\/media\/events\//,
  );
  await expect(page.getByRole('link', { name: 'Ver programa' }).first()).toHaveAttribute('href', /^\/media\/events\//);
  await page.getByRole('button', { name: 'Ver video' }).first().click();
  const modal = page.getByRole('dialog');
  await expect(modal.locator('iframe')).toHaveAttribute('src', /^https:\/\/www\.youtube-nocookie\.com\/embed\//);
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
});

test('the FAQ accordion opens an answer', async ({ page }) => {
  await page.goto('/FAQ');
  await expect(page.getByRole('heading', { level: 1, name: 'Preguntas frecuentes' })).toBeVisible();
  const questions = page.getByRole('button', { name: /^¿|^Olvidé|^Si cambio/ });
  await expect(questions).toHaveCount(9);
  const premium = page.getByRole('button', { name: '¿Qué incluye la membresía Premium?' });
  await premium.focus();
  await page.keyboard.press('Enter');
  await expect(premium).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByText(/9\.99 USD al mes o 99\.90 USD al año/)).toBeVisible();
});

test('the contact form validates as you type and thanks after sending', async ({ page }) => {
  await page.goto('/contacto');
  await page.getByRole('button', { name: 'Enviar mensaje' }).click();
  await expect(page.getByText('Debes llenar este campo.')).toHaveCount(4);
  await page.getByLabel('Correo electrónico').fill('no-es-correo');
  await expect(page.getByText('Introduce un correo válido.')).toBeVisible();
  await page.getByLabel('Correo electrónico').fill('ana@example.com');
  await expect(page.getByText('Introduce un correo válido.')).toHaveCount(0);
  await page.getByLabel('Nombre').fill('Ana Pérez');
  await page.getByLabel('Asunto').fill('Duda sobre Premium');
  await page.getByLabel('Mensaje').fill('¿El plan anual incluye diplomados?');
  await page.getByRole('button', { name: 'Enviar mensaje' }).click();
  await expect(page.getByText('¡Gracias por escribirnos!')).toBeVisible();
  await expect(page.getByLabel('Nombre')).toHaveValue('');
  await page.getByLabel('Nombre').fill('B');
  await expect(page.getByText('¡Gracias por escribirnos!')).toHaveCount(0);
});

test('a failed contact message shows the error modal and the inline alert', async ({ page }) => {
  await page.route('/api/contact', (route) => route.fulfill({ status: 500, body: '{}' }));
  await page.goto('/contacto');
  await page.getByLabel('Nombre').fill('Ana');
  await page.getByLabel('Correo electrónico').fill('ana@example.com');
  await page.getByLabel('Asunto').fill('Hola');
  await page.getByLabel('Mensaje').fill('Mensaje');
  await page.getByRole('button', { name: 'Enviar mensaje' }).click();
  const modal = page.getByRole('dialog', { name: 'ERROR CORREO CONTACTO' });
  await expect(modal.getByText('No se pudo enviar correo')).toBeVisible();
  await modal.getByRole('button', { name: 'Aceptar' }).click();
  await expect(page.getByText('Ocurrió un error.')).toBeVisible();
  await page.getByLabel('Asunto').fill('Hola de nuevo');
  await expect(page.getByText('Ocurrió un error.')).toHaveCount(0);
});

test("the catalogue shows the spec's texts when its lists fail to load", async ({ page }) => {
  await page.route(/\/api\/catalog\/(procedures|filters)/, (route) => route.fulfill({ status: 500, body: '{}' }));
  await page.goto('/procedimientos');
  await expect(page.getByText('No se pudo cargar la lista de cirugías, intenta más tarde')).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText('No se pudo cargar la lista de etiquetas').last()).toBeVisible({ timeout: 15_000 });
});
