import { demoAccounts, demoPassword, expect, loginAs, test } from './fixtures.ts';

const notFound = 'Página no encontrada';

test('a guest asking for /perfil is sent to /login, which brings them back to it', async ({ page }) => {
  await page.goto('/perfil');
  await expect(page).toHaveURL(/\/login\?volver=%2Fperfil$/);
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
});

test('a guest asking for an admin page is sent to /login, whatever the case of the URL', async ({ page }) => {
  await page.goto('/admin/Users/User/123');
  await expect(page).toHaveURL(/\/login\?volver=/);
});

test('a Basic member asking for /admin is sent to /login, which sends them home', async ({ page }) => {
  await loginAs(page, 'gratis');
  await page.goto('/admin');
  // /login is for guests only, so the redirect chain ends on the home page.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'CxVet', level: 1 })).toBeVisible();
});

test('an Admin at /login is sent to /admin', async ({ page }) => {
  await loginAs(page, 'admin');
  await page.goto('/login');
  await expect(page).toHaveURL(/\/admin$/);
});

test("an Admin may open the user form with the list's capitalised URL", async ({ page }) => {
  await loginAs(page, 'admin');
  await page.goto('/admin/Users/User/123');
  await expect(page).toHaveURL(/\/admin\/Users\/User\/123$/);
  await expect(page.getByRole('banner').getByText('Te damos la bienvenida, Administrador')).toBeVisible();
  await expect(page.getByRole('heading', { name: notFound })).toHaveCount(0);
});

test('a Basic member at /login is sent home', async ({ page }) => {
  await loginAs(page, 'gratis');
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

test('a Basic member asking for /mis-diplomados is sent home', async ({ page }) => {
  await loginAs(page, 'gratis');
  await page.goto('/mis-diplomados');
  await expect(page).toHaveURL(/\/$/);
});

test('a Premium member may open /mis-diplomados', async ({ page }) => {
  await loginAs(page, 'premium');
  await page.goto('/mis-diplomados');
  await expect(page).toHaveURL(/\/mis-diplomados$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Cursos y diplomados' })).toBeVisible();
});

test('a guest asking for /mis-aulas is sent to /login; a Basic member may open it', async ({ page }) => {
  await page.goto('/mis-aulas');
  await expect(page).toHaveURL(/\/login\?volver=%2Fmis-aulas$/);
  await loginAs(page, 'gratis');
  await page.goto('/mis-aulas');
  await expect(page).toHaveURL(/\/mis-aulas$/);
});

test('a Basic member who administers no classroom is sent home from /administrar-aula', async ({ page }) => {
  await loginAs(page, 'gratis');
  await page.goto('/administrar-aula');
  await expect(page).toHaveURL(/\/$/);
});

test('a guest opening /mis-diplomados signs in and comes back to it', async ({ page }) => {
  await page.goto('/mis-diplomados');
  await expect(page).toHaveURL(/\/login\?volver=%2Fmis-diplomados$/);
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(demoAccounts.premium);
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(demoPassword);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).toHaveURL(/\/mis-diplomados$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Cursos y diplomados' })).toBeVisible();
});
