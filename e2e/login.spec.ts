import type { Page } from '@playwright/test';
import { demoAccounts, demoPassword, expect, test } from './fixtures.ts';

async function submitLogin(page: Page, email: string, password: string) {
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

test.beforeEach(async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
});

test('the form links to password recovery and sign-up', async ({ page }) => {
  const form = page.getByRole('main');
  await expect(form.getByRole('link', { name: '¿Olvidaste tu contraseña?' })).toHaveAttribute(
    'href',
    '/login/recuperar_password',
  );
  await expect(form.getByRole('link', { name: 'Regístrate' })).toHaveAttribute('href', '/registro');
});

test('an empty submit marks both fields as required', async ({ page }) => {
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByText('Debes llenar este campo', { exact: true })).toHaveCount(2);
  await expect(page.getByRole('textbox', { name: 'Correo electrónico' })).toHaveAttribute('aria-invalid', 'true');
});

test('a wrong password shows Contraseña incorrecta', async ({ page }) => {
  await submitLogin(page, demoAccounts.gratis, 'no-es-la-clave');
  const modal = page.getByRole('dialog');
  await expect(modal).toContainText('Contraseña incorrecta');
  await modal.getByRole('button', { name: 'Aceptar' }).click();
  await expect(modal).toBeHidden();
  await expect(page).toHaveURL(/\/login$/);
});

test('an unknown e-mail shows Usuario no encontrado.', async ({ page }) => {
  await submitLogin(page, 'nadie@demo.cxvet.com', demoPassword);
  await expect(page.getByRole('dialog')).toContainText('Usuario no encontrado.');
});

test('a Basic member logs in, lands home, and logs out', async ({ page }) => {
  await submitLogin(page, demoAccounts.gratis, demoPassword);
  await expect(page).toHaveURL(/\/$/);
  const header = page.getByRole('banner');
  await expect(header.getByText(/^Hola, .+/)).toBeVisible();

  await header.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(header.getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/perfil');
  await expect(page).toHaveURL(/\/login\?volver=%2Fperfil$/);
});

test('an Admin logs in and lands on /admin', async ({ page }) => {
  await submitLogin(page, demoAccounts.admin, demoPassword);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('banner').getByText('Te damos la bienvenida, Administrador')).toBeVisible();
});
