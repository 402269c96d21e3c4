import fs from 'node:fs';
import { request, type Page } from '@playwright/test';
import { checkOpenScreen } from './a11y.ts';
import { expect, loginAs, test } from './fixtures.ts';

const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
let counter = 0;
const freshEmail = (label: string) => `e2e-privacidad-${label}-${runId}-${counter++}@example.com`;
const password = 'Clave1234';

/** A new Basic member, signed in in the page's own context. */
async function signUp(page: Page, baseURL: string, email: string) {
  const response = await page.request.post('/api/account/signup', {
    headers: { origin: new URL(baseURL).origin },
    data: {
      plan: 'basic',
      name: 'Privacidad E2E',
      email,
      confirmEmail: email,
      phoneNumber: '+525512345678',
      confirmPhoneNumber: '+525512345678',
      password,
      confirmPassword: password,
      country: 'México',
      city: 'Puebla',
      homeUniversity: '',
      organizationId: null,
      promoMail: true,
      newsMail: false,
      terms: true,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function openPrivacyFromProfile(page: Page) {
  await page.goto('/perfil');
  await page.getByRole('link', { name: 'Privacidad: descargar mis datos o eliminar mi cuenta' }).click();
  await expect(page).toHaveURL(/\/perfil\/privacidad$/);
  await expect(page.getByRole('heading', { name: 'Privacidad y mis datos', level: 1 })).toBeVisible();
}

test('a member requests their data, it becomes available and downloads as a ZIP', async ({ page, baseURL }) => {
  await signUp(page, baseURL!, freshEmail('descarga'));
  await openPrivacyFromProfile(page);
  const exportCard = page.getByRole('region', { name: 'Descargar mis datos' });
  await expect(exportCard).toContainText('Aún no has pedido tus datos.');
  await checkOpenScreen(page, 'privacidad', async () => {
    await expect(exportCard.getByRole('button', { name: 'Descargar mis datos' })).toBeVisible();
  });

  await exportCard.getByRole('button', { name: 'Descargar mis datos' }).click();
  // prepared by the job runner; the page asks again until it is ready
  await expect(exportCard.getByText(/Disponible hasta el/)).toBeVisible({ timeout: 20_000 });
  await checkOpenScreen(page, 'privacidad-lista', async () => {
    await expect(exportCard.getByRole('link', { name: 'Descargar archivo ZIP' })).toBeVisible();
  });

  const downloading = page.waitForEvent('download');
  await exportCard.getByRole('link', { name: 'Descargar archivo ZIP' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^mis-datos-cxvet-\d{4}-\d{2}-\d{2}\.zip$/);
  const file = await download.path();
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  expect(bytes.includes(Buffer.from('datos.json'))).toBe(true);

  // a guest cannot follow the same link
  const href = await exportCard.getByRole('link', { name: 'Descargar archivo ZIP' }).getAttribute('href');
  const guest = await request.newContext({ baseURL });
  expect((await guest.get(href!)).status()).toBe(401);
  await guest.dispose();
});

test('a freshly registered member deletes the account and cannot sign in again', async ({ page, baseURL }) => {
  const email = freshEmail('baja');
  await signUp(page, baseURL!, email);
  await openPrivacyFromProfile(page);
  await page
    .getByRole('region', { name: 'Eliminar mi cuenta' })
    .getByRole('button', { name: 'Eliminar mi cuenta' })
    .click();
  const modal = page.getByRole('dialog', { name: 'Eliminar mi cuenta' });
  await checkOpenScreen(page, 'privacidad-eliminar', async () => {
    await expect(modal.getByLabel('Contraseña actual')).toBeVisible();
  });

  await modal.getByLabel('Contraseña actual').fill('NoEsMiClave1');
  await modal.getByRole('button', { name: 'Eliminar definitivamente' }).click();
  await expect(modal.getByText('La contraseña no es correcta.')).toBeVisible();

  await modal.getByLabel('Contraseña actual').fill(password);
  await modal.getByRole('radio', { name: /Revocarlas/ }).check();
  await modal.getByRole('button', { name: 'Eliminar definitivamente' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Eliminamos tu cuenta y tus datos personales.')).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();

  await page.goto('/perfil/privacidad');
  await expect(page).toHaveURL(/\/login/);
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByRole('dialog')).toContainText('Usuario no encontrado.');
});

test("an Admin deletes a member's data on request from the user form", async ({ page, baseURL }) => {
  const email = freshEmail('solicitud');
  const member = await request.newContext({ baseURL });
  const created = await member.post('/api/account/signup', {
    headers: { origin: new URL(baseURL!).origin },
    data: {
      plan: 'basic',
      name: 'Solicita Borrado',
      email,
      confirmEmail: email,
      phoneNumber: '+525512345678',
      confirmPhoneNumber: '+525512345678',
      password,
      confirmPassword: password,
      country: 'México',
      city: 'Puebla',
      homeUniversity: '',
      organizationId: null,
      promoMail: false,
      newsMail: false,
      terms: true,
    },
  });
  expect(created.status()).toBe(200);
  const { uid } = (await created.json()) as { uid: string };
  await member.dispose();

  await loginAs(page, 'admin');
  await page.goto(`/admin/Users/User/${uid}`);
  await expect(page.getByRole('textbox', { name: 'Correo' })).toHaveValue(email);
  await page.getByRole('button', { name: 'Borrar datos a solicitud' }).click();
  const dialog = page.getByRole('dialog', { name: 'Borrar datos a solicitud del titular' });
  await checkOpenScreen(page, 'admin-borrar-datos', async () => {
    await expect(dialog.getByRole('textbox', { name: 'Motivo de la solicitud' })).toBeVisible();
  });
  await dialog.getByRole('button', { name: 'Borrar datos' }).click();
  await expect(dialog.getByText('Escribe el motivo (al menos 5 caracteres).')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Motivo de la solicitud' }).fill('Lo pidió por correo el 23 de noviembre');
  await dialog.getByRole('button', { name: 'Borrar datos' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByText('Se eliminaron los datos del usuario.')).toBeVisible();

  const login = await page.request.post('/api/account/login', {
    headers: { origin: new URL(baseURL!).origin },
    data: { email, password },
  });
  expect(login.status()).toBe(404);
});
