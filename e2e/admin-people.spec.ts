import type { Page } from '@playwright/test';
import { demoAccounts, expect, loginAs, saveScreenshot, test } from './fixtures.ts';

const basicEmail = demoAccounts.gratis;

/** Types into a searchable select and picks the option, as a person would. */
async function pick(page: Page, label: string, text: string, option: string | RegExp) {
  const box = page.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(text);
  await page.getByRole('option', { name: option }).click();
}

async function searchUsers(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Buscar' }).fill(text);
}

async function userIdByEmail(page: Page, email: string): Promise<string> {
  const response = await page.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`);
  const [user] = (await response.json()).items as { id: string; email: string }[];
  expect(user?.email).toBe(email);
  return user?.id ?? '';
}

test.beforeEach(async ({ page }) => {
  await loginAs(page, 'admin');
});

test('the users list is searched and a row opens that user at /admin/Users/User/{id}', async ({ page }) => {
  await page.goto('/admin/users');
  await expect(page.getByText('Te damos la bienvenida, Administrador').first()).toBeVisible();
  await searchUsers(page, 'basico@demo');
  // before the first answer the table holds its header and an empty row: two rows that are not the search's
  const basicRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: basicEmail }) });
  await expect(basicRow).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(basicRow.getByRole('cell', { name: 'Gratis' })).toBeVisible();
  await page.getByRole('cell', { name: basicEmail }).click();
  await expect(page).toHaveURL(/\/admin\/Users\/User\/[^/]+$/);
  await expect(page.getByRole('textbox', { name: 'Correo' })).toHaveValue(basicEmail);
  await expect(page.getByRole('textbox', { name: 'Tipo de membresía' })).toHaveValue('Gratis');
  await expect(page.getByRole('textbox', { name: 'Registrado desde' })).toHaveValue(/ de \w+ de \d{4}$/);
});

test('an administrator creates a user, finds it, changes its e-mail and deletes it', async ({ page }) => {
  test.setTimeout(60_000);
  const stamp = Date.now();
  const email = `persona.${stamp}@ejemplo.com`;
  const newEmail = `cambiado.${stamp}@ejemplo.com`;

  await page.goto('/admin/users');
  await page.getByRole('link', { name: 'Crear nuevo usuario' }).click();
  await expect(page).toHaveURL(/\/admin\/Users\/User$/);
  await expect(page.getByRole('textbox', { name: 'Tipo de membresía' })).toHaveValue('Gratis');
  await expect(page.getByRole('button', { name: 'Eliminar' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Debes llenar este campo.').first()).toBeVisible();

  await page.getByRole('textbox', { name: 'Nombre' }).fill('Persona de Prueba');
  await page.getByRole('textbox', { name: 'Correo' }).fill(basicEmail);
  await page.getByRole('textbox', { name: 'Contraseña' }).fill('Clave123');
  await page.getByRole('textbox', { name: 'Teléfono' }).fill('+52 55 1234 5678');
  await page.getByRole('combobox', { name: 'Universidad de origen' }).fill('Universidad de Prueba E2E');
  // an e-mail already in use comes back on its field, and nothing typed is lost
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('textbox', { name: 'Correo' })).toHaveAccessibleDescription(
    'Este correo ya está registrado, elige otro por favor.',
  );
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Nombre' })).toHaveValue('Persona de Prueba');

  await page.getByRole('textbox', { name: 'Correo' }).fill(email);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);

  await searchUsers(page, email);
  await expect(page.getByRole('row')).toHaveCount(2);
  const created = page.getByRole('row').filter({ hasText: email });
  await expect(created.getByRole('cell', { name: '+52 55 1234 5678' })).toBeVisible();
  await expect(created.getByRole('cell', { name: 'Gratis' })).toBeVisible();
  await page.getByRole('link', { name: 'Persona de Prueba' }).click();
  await expect(page.getByRole('combobox', { name: 'Universidad de origen' })).toHaveValue('Universidad de Prueba E2E');
  await expect(page.getByRole('textbox', { name: 'País' })).toHaveValue(/M[eé]xico/);

  await page.getByRole('textbox', { name: 'Correo' }).fill(newEmail);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await searchUsers(page, newEmail);
  // the unsearched list shows the new address too until the search's answer replaces its rows: a click before
  // then lands on a row that moves or on the table's loading overlay, and the form never opens
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('cell', { name: newEmail })).toBeVisible();

  await page.getByRole('cell', { name: newEmail }).click();
  await expect(page.getByRole('textbox', { name: 'Correo' })).toHaveValue(newEmail);
  await page.getByRole('button', { name: 'Eliminar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Eliminar' });
  await expect(
    dialog.getByText('Este proceso no tiene forma de revertirse, ¿Aún deseas eliminar este elemento?'),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await searchUsers(page, newEmail);
  await expect(page.getByText('No hay información para mostrar.')).toBeVisible();
});

test('manual Premium for 1 Mes shows in the manual list and is removed again', async ({ page }) => {
  await page.goto('/admin/users/actualizar-premium-manual');
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Debes llenar este campo.')).toBeVisible();

  await pick(page, 'Correo del usuario', 'basico@', basicEmail);
  await page.getByRole('radio', { name: '1 Mes' }).check();
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(
    page.getByText('Este usuario se actualizó con éxito manualmente a Premium durante 1 mes.'),
  ).toBeVisible();

  await page.getByRole('link', { name: 'Lista premium manual' }).click();
  const row = page.getByRole('row').filter({ hasText: basicEmail });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Mensual' })).toBeVisible();
  await saveScreenshot(page, 'admin-manual-premium-with-user-1280');

  await page.goto('/admin/users');
  await page.getByRole('checkbox', { name: 'Mostrar solo usuarios premium manual' }).check();
  const listed = page.getByRole('row').filter({ hasText: basicEmail });
  await expect(listed).toBeVisible();
  await expect(listed.getByRole('cell', { name: 'Premium mensual' })).toBeVisible();

  await page.goto('/admin/users/downgrade-premium-manual');
  await pick(page, 'Correo del usuario', 'basico', /basico@demo\.cxvet\.com/);
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Premium se eliminó correctamente de este usuario.')).toBeVisible();

  await page.getByRole('link', { name: 'Lista premium manual' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Usuarios premium manual' })).toBeVisible();
  await expect(page.getByRole('cell', { name: basicEmail })).toHaveCount(0);
  const basic = await (await page.request.get(`/api/admin/users/${await userIdByEmail(page, basicEmail)}`)).json();
  expect(basic.type).toBe('Gratis');
});

test('a bulk e-mail is checked, sent, and the notice clears on the next edit', async ({ page }) => {
  await page.goto('/admin/mailing');
  await expect(
    page.getByText(
      'Este correo se enviará a todos los usuarios registrados que aceptaron recibir correos promocionales.',
    ),
  ).toBeVisible();
  await page.getByRole('textbox', { name: 'Asunto' }).fill('Novedades de prueba');
  await page.getByRole('textbox', { name: 'Título' }).fill('Nuevos procedimientos');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText('Debes agregar un mensaje o seleccionar una imagen')).toBeVisible();
  await page.getByRole('textbox', { name: 'Mensaje' }).fill('Esta semana publicamos dos cirugías nuevas.');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText(/^Mensaje enviado correctamente\. \(\d+ destinatarios?\)$/)).toBeVisible();
  await saveScreenshot(page, 'admin-mailing-sent-1280');
  await expect(page.getByRole('textbox', { name: 'Asunto' })).toHaveValue('');
  await page.getByRole('textbox', { name: 'Asunto' }).fill('Otro');
  await expect(page.getByText(/Mensaje enviado correctamente/)).toHaveCount(0);
});

test('statistics show the user tiles, the event tables and the top countries', async ({ page }) => {
  await page.goto('/admin/estadisticas');
  const tiles = page.getByRole('list', { name: 'Resumen de usuarios' });
  for (const label of [
    'Usuarios totales',
    'Gratis',
    'Premium',
    'Premium anual',
    'Premium mensual',
    'Legacy',
    'Admin',
  ]) {
    await expect(tiles.getByText(label, { exact: true })).toBeVisible();
  }
  for (const name of ['VIDEOS', 'FASCICULOS', 'DIPLOMADO_PREVIEW_PAGE', 'Top 20 países por número de usuarios']) {
    await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  }
  await page.getByRole('combobox', { name: 'Evento' }).click();
  await page.getByRole('option', { name: 'FASCICULOS' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'VIDEOS' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 2, name: 'FASCICULOS' })).toBeVisible();
});

test('the users report downloads as Usuarios-{date}.xlsx', async ({ page }) => {
  await page.goto('/admin/users');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar reporte' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^Usuarios-.+\.xlsx$/);
  const stream = await file.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  // an .xlsx is a zip archive
  expect(Buffer.concat(chunks).subarray(0, 2).toString()).toBe('PK');
});
