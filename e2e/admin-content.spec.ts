import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, loginAs, saveScreenshot, test } from './fixtures.ts';

const demoFile = (name: string) => path.join(process.cwd(), 'assets', 'demo', name);

/** Picks a file through the field's own button, as a person would, and waits for the upload. */
async function chooseFile(page: Page, label: string, file: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: `Seleccionar archivo: ${label}` }).click();
  await (await chooser).setFiles(demoFile(file));
  await expect(page.getByRole('button', { name: `Descartar: ${label}` })).toBeVisible({ timeout: 15_000 });
}

async function selectOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a Gratis member opening /admin is sent away', async ({ page }) => {
  await loginAs(page, 'gratis');
  await page.goto('/admin');
  await expect(page).not.toHaveURL(/\/admin/);
  await expect(page.getByText('Te damos la bienvenida, Administrador')).toHaveCount(0);
});

test('a surgery created with files and markers shows in the public catalogue and detail page', async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, 'admin');
  const name = `Cirugía de prueba ${Date.now()}`;
  await page.goto('/admin/procedures');
  await expect(page.getByText('Te damos la bienvenida, Administrador').first()).toBeVisible();
  await page.getByRole('link', { name: 'Crear nuevo procedimiento' }).click();
  await expect(page).toHaveURL(/\/admin\/procedures\/procedure$/);

  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Debes llenar este campo.').first()).toBeVisible();
  await expect(page.getByText('Debes seleccionar un valor')).toBeVisible();

  await page.getByRole('textbox', { name: 'Nombre' }).fill(name);
  await page
    .getByRole('textbox', { name: 'Descripción' })
    .fill('Procedimiento creado por la prueba de extremo a extremo.');
  await selectOption(page, 'Especie', 'Gato');
  await page.getByRole('checkbox', { name: 'Ortopedia' }).check();
  await page.getByRole('textbox', { name: 'Sinónimos (meta)' }).fill('prueba, e2e');
  await chooseFile(page, 'Imagen de vista previa', 'preview-verde.jpg');
  await chooseFile(page, 'Video demo', 'video.webm');
  await chooseFile(page, 'Guía PDF (fascículo)', 'guia.pdf');
  await chooseFile(page, 'Video completo', 'video.mp4');

  await page.getByRole('button', { name: 'Agregar marcador' }).click();
  await page.getByRole('textbox', { name: 'Nombre del marcador 1' }).fill('Abordaje');
  await page.getByRole('textbox', { name: 'Tiempo del marcador 1' }).pressSequentially('07500');
  await expect(page.getByRole('textbox', { name: 'Tiempo del marcador 1' })).toHaveValue('0:75:00');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Introduce un formato válido.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Tiempo del marcador 1' }).fill('');
  await page.getByRole('textbox', { name: 'Tiempo del marcador 1' }).pressSequentially('00015');
  await expect(page.getByRole('textbox', { name: 'Tiempo del marcador 1' })).toHaveValue('0:00:15');
  await page.getByRole('button', { name: 'Agregar marcador' }).click();
  await page.getByRole('textbox', { name: 'Nombre del marcador 2' }).fill('Cierre');
  await page.getByRole('textbox', { name: 'Tiempo del marcador 2' }).pressSequentially('00025');
  await saveScreenshot(page, 'admin-procedure-form-filled-1280');

  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page).toHaveURL(/\/admin\/procedures$/);
  await page.getByRole('searchbox', { name: 'Buscar' }).fill(name);
  await expect(page.getByRole('link', { name })).toBeVisible();

  const found = await page.request.get(`/api/catalog/procedures?q=${encodeURIComponent(name)}`);
  const [card] = (await found.json()).items as { id: string }[];
  expect(card).toBeTruthy();

  await page.goto('/procedimientos');
  await expect(page.getByText(name).first()).toBeVisible();
  await page.goto(`/procedimiento/${card!.id}`);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByText('Abordaje').first()).toBeVisible();

  // clean up through the form's Delete, with the confirmation modal
  await page.goto(`/admin/procedures/procedure/${card!.id}`);
  await page.getByRole('button', { name: 'Eliminar' }).click();
  await expect(
    page.getByText('Este proceso no tiene forma de revertirse, ¿Aún deseas eliminar este elemento?'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/admin\/procedures$/);
  expect((await page.request.get(`/api/catalog/procedures/${card!.id}`)).status()).toBe(404);
});

test('reordering the landing photos changes the hero order on /', async ({ page }) => {
  await loginAs(page, 'admin');
  const heroIds = async () =>
    (await (await page.request.get('/api/landing')).json()).slides as { id: string; title: string }[];
  const before = await heroIds();
  expect(before.length).toBeGreaterThan(1);

  await page.goto('/admin/landing/fotos');
  const rows = page.getByTestId('landing-slide-row');
  await expect(rows).toHaveCount(before.length);
  await expect(rows.first().getByRole('button', { name: /^Subir/ })).toBeDisabled();
  await expect(rows.first().getByRole('button', { name: /^Quitar/ })).toHaveCount(0);
  await expect(rows.last().getByRole('button', { name: /^Bajar/ })).toBeDisabled();

  await rows
    .first()
    .getByRole('button', { name: /^Bajar/ })
    .click();
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Cambios guardados.')).toBeVisible();

  const after = await heroIds();
  expect(after.map((slide) => slide.id)).toEqual([
    before[1]!.id,
    before[0]!.id,
    ...before.slice(2).map((slide) => slide.id),
  ]);
  await page.goto('/');
  const firstSlide = page.getByRole('group', { name: `1 de ${before.length}` });
  if (after[0]!.title) await expect(firstSlide.getByText(after[0]!.title)).toBeVisible();

  // put the demo order back for the other journeys
  await page.goto('/admin/landing/fotos');
  await page
    .getByTestId('landing-slide-row')
    .first()
    .getByRole('button', { name: /^Bajar/ })
    .click();
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Cambios guardados.')).toBeVisible();
  expect((await heroIds()).map((slide) => slide.id)).toEqual(before.map((slide) => slide.id));
});

test('an event created in the console shows on /eventos', async ({ page }) => {
  test.setTimeout(60_000);
  await loginAs(page, 'admin');
  const name = `Taller de prueba ${Date.now()}`;
  await page.goto('/admin/events/event');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Debes llenar este campo.').first()).toBeVisible();

  await page.getByRole('textbox', { name: 'Nombre' }).fill(name);
  await page.getByRole('textbox', { name: 'Fecha a mostrar' }).fill('Próximamente');
  await page.getByRole('button', { name: 'Fecha para ordenar' }).click();
  await page.locator('.mantine-DatePickerInput-day:not([data-outside])').filter({ hasText: /^15$/ }).first().click();
  await page.getByRole('textbox', { name: 'Tipo de evento' }).fill('Taller');
  await chooseFile(page, 'Imagen principal', 'hero.jpg');
  await chooseFile(page, 'PDF del programa', 'guia.pdf');
  await page.getByRole('textbox', { name: 'Identificador del video promocional' }).fill('dQw4w9WgXcQ');
  await page.getByRole('textbox', { name: 'Detalle' }).click();
  await page.keyboard.type('Un taller práctico de suturas.');
  await saveScreenshot(page, 'admin-event-form-filled-1280');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page).toHaveURL(/\/admin\/events$/);
  await expect(page.getByRole('cell', { name })).toBeVisible();

  await page.goto('/eventos');
  await expect(page.getByText(name).first()).toBeVisible();
  await expect(page.getByText('Un taller práctico de suturas.').first()).toBeVisible();
});

test.describe('console on a phone', () => {
  test('on a phone the console navigation opens from the burger', async ({ page }) => {
    await loginAs(page, 'admin');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/admin/tags');
    await page.getByRole('button', { name: 'Abrir menú de administración' }).click();
    const nav = page.getByRole('navigation', { name: 'Administración' });
    await expect(nav.getByRole('link', { name: 'Eventos' })).toBeVisible();
    await saveScreenshot(page, 'admin-nav-open-360');
    await nav.getByRole('link', { name: 'Eventos' }).click();
    await expect(page).toHaveURL(/\/admin\/events$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Eventos' })).toBeVisible();
  });
});
