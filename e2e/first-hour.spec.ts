import { storageKeys } from '../src/web/lib/storage-keys.ts';
import { expect, loginAs, saveScreenshot, signUpByApi, test } from './fixtures.ts';

/** Issue #14: the places where a new user got stuck, confused or misled. */

const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test('admin: saving and deleting a record say so in a toast, and the list stays consistent', async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  const missing: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', (response) => {
    if (response.url().includes('/api/admin/') && response.status() === 404) missing.push(response.url());
  });
  await loginAs(page, 'admin');
  const name = `Etiqueta E2E ${runId}`;

  await page.goto('/admin/tags');
  await page.getByRole('link', { name: 'Crear nueva etiqueta' }).click();
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Revisa los campos marcados.' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Nombre' }).fill(name);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Los cambios se guardaron correctamente.' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/tags$/);
  await page.getByRole('searchbox', { name: 'Buscar' }).fill(name);
  await expect(page.getByRole('link', { name })).toBeVisible();

  // a second tag with the same name: the field says why and a toast says nothing was saved
  await page.getByRole('link', { name: 'Crear nueva etiqueta' }).click();
  await page.getByRole('textbox', { name: 'Nombre' }).fill(name);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Ya existe una etiqueta con ese nombre.')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Revisa los campos marcados.' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Cancelar' }).click();

  await page.getByRole('searchbox', { name: 'Buscar' }).fill(name);
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Editar etiqueta' })).toBeVisible();
  await page.getByRole('button', { name: 'Eliminar' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'El registro se eliminó.' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/tags$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Etiquetas' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Buscar' }).fill(name);
  await expect(page.getByText('No hay información para mostrar.')).toBeVisible();
  await saveScreenshot(page, 'admin-tag-deleted-toast-1280');

  expect(errors, 'no React error').toEqual([]);
  expect(missing, 'nothing refetches the deleted record').toEqual([]);
});

// FIXME(#14 item 9): times out after the merge with the security limits (the mail does not reach the outbox in time); the outbox page itself is covered by the accessibility scan
test('a person trying password recovery without SMTP follows the link from the Admin outbox', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const email = `e2e-recupera-${runId}@example.com`;
  const guest = await browser.newContext({ baseURL });
  await guest.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
  const guestPage = await guest.newPage();
  const origin = new URL(baseURL ?? '').origin;
  await signUpByApi(guestPage, { email, name: 'Recupera E2E', password: 'Clave1234' });
  await guest.clearCookies();

  await guestPage.goto('/login/recuperar_password');
  await guestPage.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await guestPage.getByRole('button', { name: 'Enviar' }).click();
  await expect(guestPage.getByRole('dialog', { name: 'Solicitud enviada' })).toBeVisible();

  await loginAs(page, 'admin');
  await page.goto('/admin');
  await page
    .getByRole('navigation', { name: 'Administración' })
    .getByRole('link', { name: 'Correos enviados' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Correos enviados' })).toBeVisible();
  await expect(page).toHaveTitle('Correos enviados · Admin · CxVet');
  await page.getByRole('textbox', { name: 'Destinatario' }).fill(email);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  const mail = page.getByRole('button', { name: /contraseña/i }).first();
  await mail.click();
  const frame = page.frameLocator(`iframe[title^="Correo:"]`).first();
  await expect(frame.getByRole('link').first()).toBeVisible();
  const link = page.getByRole('link', { name: /\/reasignar_password\?/ }).first();
  await expect(link).toBeVisible();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    await saveScreenshot(page, `admin-outbox-${width}`);
  }
  const href = await link.getAttribute('href');
  expect(href).toBeTruthy();

  // the link works for the person who asked (not signed in)
  await guestPage.goto(href!);
  await guestPage.getByRole('textbox', { name: 'Nueva contraseña', exact: true }).fill('Nueva1234');
  await guestPage.getByRole('textbox', { name: 'Confirma la nueva contraseña' }).fill('Nueva1234');
  await guestPage.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(guestPage.getByRole('dialog', { name: 'Contraseña modificada' })).toBeVisible();
  const login = await guestPage.request.post('/api/account/login', {
    headers: { origin },
    data: { email, password: 'Nueva1234' },
  });
  expect(login.status()).toBe(200);
  await guest.close();
});

test('/login/password, an address people still follow, opens password recovery', async ({ page }) => {
  await page.goto('/login/password');
  await expect(page).toHaveURL(/\/login\/recuperar_password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Recuperar contraseña' })).toBeVisible();
});

test('sign-up: the country takes Enter for the first match, and mail consent starts unticked', async ({ page }) => {
  await page.goto('/registro');
  await page
    .getByRole('button', { name: /Básica/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Información personal' })).toBeVisible();
  const country = page.getByRole('combobox', { name: 'País', exact: true });
  await country.pressSequentially('Méxi');
  // as a person does: the list has narrowed to the match before Enter (a busy machine renders it a moment later)
  const match = page.getByRole('listbox', { name: 'País' }).getByRole('option', { name: 'México' });
  await expect(match).toHaveAttribute('data-combobox-selected', 'true');
  await country.press('Enter');
  await expect(country).toHaveValue('México');
  await expect(page.getByRole('checkbox', { name: 'Quiero recibir promociones de CxVet' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Quiero recibir noticias de CxVet' })).not.toBeChecked();
});

test('a Legacy member gets the Premium welcome on /registro, with the date the benefits end', async ({ page }) => {
  await loginAs(page, 'legacy');
  await page.goto('/registro');
  await expect(page.getByRole('heading', { level: 1, name: /^¡Bienvenido a CxVet Premium/ })).toBeVisible();
  await expect(page.getByText(/Tus beneficios Premium están activos hasta el \d+ de \w+ de \d{4}/)).toBeVisible();
});
