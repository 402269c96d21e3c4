import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { storageKeys } from '../src/web/lib/storage-keys.ts';
import { checkScreen, expectNoSeriousAxeViolations } from './a11y.ts';
import { expect, pressPlay, saveScreenshot, signUpByApi, test } from './fixtures.ts';

const password = 'Dispositivos2026';
const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const firefoxOnWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';

async function newBrowser(
  browser: Browser,
  baseURL: string,
  userAgent?: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, locale: 'es-MX', ...(userAgent ? { userAgent } : {}) });
  await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
  return { context, page: await context.newPage() };
}

/** A member of this spec's own: closing their other sessions touches nobody else's. */
async function signUpMember(page: Page): Promise<string> {
  const email = `dispositivos-${randomUUID().slice(0, 8)}@e2e.cxvet.com`;
  await signUpByApi(page, { email, name: 'Dispositivos E2E', password });
  return email;
}

async function signInThroughForm(page: Page, email: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

const sessionList = (page: Page) => page.getByRole('list', { name: 'Sesiones abiertas' });

test('a member signed in on two browsers closes the other one from /perfil/dispositivos and it is signed out', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const desk = await newBrowser(browser, baseURL!);
  const phone = await newBrowser(browser, baseURL!, iphone);
  try {
    const email = await signUpMember(desk.page);
    await signInThroughForm(phone.page, email);

    // the phone plays a free procedure in full, which takes the account's one viewing slot
    const catalog = (await (await phone.page.request.get('/api/catalog/procedures?type=Gratis')).json()) as {
      items: { id: string }[];
    };
    await phone.page.goto(`/procedimiento/${catalog.items[0]!.id}`);
    await pressPlay(phone.page);

    await desk.page.goto('/perfil');
    await desk.page.getByRole('link', { name: 'Ver mis dispositivos' }).click();
    await expect(desk.page).toHaveURL(/\/perfil\/dispositivos$/);
    await expect(desk.page.getByRole('heading', { level: 1, name: 'Mis dispositivos' })).toBeVisible();
    await expect(sessionList(desk.page).getByRole('listitem')).toHaveCount(2);
    const phoneCard = sessionList(desk.page).getByRole('listitem', { name: 'Safari en iOS' });
    await expect(phoneCard.getByText('Reproduciendo aquí')).toBeVisible();
    await expect(phoneCard.getByText('Teléfono')).toBeVisible();
    await expect(desk.page.getByText('Ahora se reproducen en: Safari en iOS.')).toBeVisible();
    await expect(sessionList(desk.page).getByText('Este dispositivo')).toHaveCount(1);
    await expect(
      sessionList(desk.page)
        .getByText(/Red local · IP 127\.0\.0\.x|Red local · IP ::1/)
        .first(),
    ).toBeVisible();

    await checkScreen(desk.page, 'devices', '/perfil/dispositivos', async (page) => {
      await expect(sessionList(page).getByRole('listitem')).toHaveCount(2);
    });

    await phoneCard.getByRole('button', { name: 'Cerrar sesión en Safari en iOS' }).click();
    await expect(desk.page.getByText('Se cerró la sesión en Safari en iOS.')).toBeVisible();
    await expect(sessionList(desk.page).getByRole('listitem')).toHaveCount(1);

    // the phone's next request is a guest's: the profile sends it to sign in
    await phone.page.goto('/perfil/dispositivos');
    await expect(phone.page).toHaveURL(/\/login/);
    expect(((await (await phone.page.request.get('/api/me')).json()) as { user: unknown }).user).toBeNull();

    // the desk is still signed in
    await desk.page.reload();
    await expect(sessionList(desk.page).getByRole('listitem')).toHaveCount(1);
    await expect(
      desk.page.getByRole('button', { name: 'Cerrar sesión en todos los demás dispositivos' }),
    ).toBeDisabled();
  } finally {
    await desk.context.close();
    await phone.context.close();
  }
});

test("'Cerrar sesión en todos los demás dispositivos' asks first, then signs out every other browser and keeps this one", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const desk = await newBrowser(browser, baseURL!);
  const phone = await newBrowser(browser, baseURL!, iphone);
  const laptop = await newBrowser(browser, baseURL!, firefoxOnWindows);
  try {
    const email = await signUpMember(desk.page);
    await signInThroughForm(phone.page, email);
    await signInThroughForm(laptop.page, email);

    await desk.page.goto('/perfil/dispositivos');
    await expect(sessionList(desk.page).getByRole('listitem')).toHaveCount(3);
    await expect(sessionList(desk.page).getByRole('listitem', { name: 'Firefox en Windows' })).toBeVisible();

    await desk.page.getByRole('button', { name: 'Cerrar sesión en todos los demás dispositivos' }).click();
    const dialog = desk.page.getByRole('dialog', { name: 'Cerrar sesión en los demás dispositivos' });
    await expect(dialog.getByText('Se cerrará la sesión en 2 dispositivos.', { exact: false })).toBeVisible();
    await saveScreenshot(desk.page, 'devices-close-others-1280');
    await expectNoSeriousAxeViolations(desk.page);

    // Cancelar leaves everything as it was
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
    await expect(sessionList(desk.page).getByRole('listitem')).toHaveCount(3);

    await desk.page.getByRole('button', { name: 'Cerrar sesión en todos los demás dispositivos' }).click();
    await dialog.getByRole('button', { name: 'Cerrar sesiones' }).click();
    await expect(desk.page.getByText('Se cerró la sesión en 2 dispositivos.')).toBeVisible();
    await expect(sessionList(desk.page).getByRole('listitem')).toHaveCount(1);

    for (const other of [phone, laptop]) {
      await other.page.goto('/perfil');
      await expect(other.page).toHaveURL(/\/login/);
    }
    await desk.page.goto('/perfil');
    await expect(desk.page.getByRole('heading', { level: 1, name: 'Mi CxVet' })).toBeVisible();
  } finally {
    await desk.context.close();
    await phone.context.close();
    await laptop.context.close();
  }
});
