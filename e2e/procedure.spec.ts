import type { Browser, Page } from '@playwright/test';
import { checkScreen } from './a11y.ts';
import { storageKeys } from '../src/web/lib/storage-keys.ts';
import { expect, loginAs, pressPlay, test } from './fixtures.ts';

const secondDeviceMessage = 'Detectamos que se ha ingresado con esta cuenta en otro dispositivo.';

/** Opens a procedure from the catalogue search, as a visitor would. */
async function openProcedure(page: Page, search: string, name: string) {
  await page.goto(`/procedimientos?q=${encodeURIComponent(search)}`);
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** The URL the player's video element loads (Vidstack sets it as a property, not an attribute). */
const videoSource = (page: Page) => page.evaluate(() => document.querySelector('video')?.currentSrc ?? '');

const premiumProcedure = 'Reparación de ligamento cruzado craneal';

test('a guest gets the demo banner and the Aviso modal sends them to /registro', async ({ page }) => {
  await openProcedure(page, 'ligamento', premiumProcedure);
  await expect(page.getByText('Video de demostración')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Perro', exact: true })).toHaveAttribute(
    'href',
    '/procedimientos/kynd/Perro',
  );
  await expect(page.getByRole('link', { name: 'Ortopedia' })).toHaveAttribute(
    'href',
    /^\/procedimientos\/tag\/[0-9a-f-]{36}$/,
  );
  await expect(page.getByRole('heading', { name: 'Secciones navegables' })).toBeVisible();

  await page.getByRole('button', { name: 'Descargar guía PDF' }).click();
  const modal = page.getByRole('dialog', { name: 'Aviso' });
  await expect(
    modal.getByText('Para poder descargar este procedimiento necesitas tener una membresía premium.'),
  ).toBeVisible();
  await modal.getByRole('button', { name: 'Cancelar' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByRole('button', { name: 'Descargar guía PDF' })).toBeFocused();
  await page.getByRole('button', { name: 'Descargar guía PDF' }).click();
  await page.getByRole('dialog', { name: 'Aviso' }).getByRole('link', { name: 'Obtener' }).click();
  await expect(page).toHaveURL(/\/registro$/);
});

test("a guest's page fetches no player or media until Reproducir, which starts the demo and moves the focus into the player", async ({
  page,
}) => {
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(request.url()));
  const mediaOrPlayer = /\/media\/hls\/|\.(mp4|webm|m3u8|ts|vtt)(\?|$)|hls\.light|procedure-video/;
  await openProcedure(page, 'ligamento', premiumProcedure);
  await expect(page.getByRole('heading', { name: 'Secciones navegables' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(fetched.filter((url) => mediaOrPlayer.test(new URL(url).pathname))).toEqual([]);
  await expect(page.locator('video')).toHaveCount(0);

  // by keyboard
  await page.getByRole('button', { name: 'Reproducir', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: /^Reproductor de video/ })).toBeFocused();
  await expect
    .poll(() => page.evaluate(() => document.querySelector('video')?.currentTime ?? 0), { timeout: 20_000 })
    .toBeGreaterThan(0.3);
  expect(fetched.some((url) => /procedure-video/.test(url))).toBe(true);
});

test('a Basic member gets the demo of a Premium procedure and Obtener goes to /perfil', async ({ page }) => {
  await loginAs(page, 'gratis');
  await openProcedure(page, 'ligamento', premiumProcedure);
  await expect(page.getByText('Video de demostración')).toBeVisible();
  await page.getByRole('button', { name: 'Descargar guía PDF' }).click();
  await page.getByRole('dialog', { name: 'Aviso' }).getByRole('link', { name: 'Obtener' }).click();
  await expect(page).toHaveURL(/\/perfil$/);
});

test('a Premium member downloads the guide and a chapter seeks the video', async ({ page }) => {
  // the page records what the Content-Security-Policy blocks (the chapters track is a blob: URL the player fetches)
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(`${event.effectiveDirective} ${event.blockedURI}`),
    );
  });
  await loginAs(page, 'premium');
  await openProcedure(page, 'ligamento', premiumProcedure);
  await expect(page.getByText('Video de demostración')).toHaveCount(0);
  const guideClick = page.waitForRequest(
    (request) => request.method() === 'POST' && request.url().includes('/guide-clicks'),
  );
  const pdf = page.getByRole('link', { name: 'Descargar guía PDF' });
  await expect(pdf).toHaveAttribute('href', /^\/media\/procedures\/.+\.pdf$/);
  await pdf.evaluate((link) => link.addEventListener('click', (event) => event.preventDefault()));
  await pdf.click();
  await guideClick;

  // a chapter pressed before the video was ever played mounts the player and starts it there
  await expect(page.locator('video')).toHaveCount(0);
  await page.getByRole('button', { name: /^0:00:15 / }).click();
  const video = page.locator('video').first();
  await expect.poll(() => videoSource(page)).toMatch(/\?vt=/);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime))
    .toBeGreaterThanOrEqual(15);
  // the player's own chapters (its 'Secciones' menu) load from the track
  await expect(page.getByRole('button', { name: 'Secciones', exact: true })).toBeVisible();
  const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  expect(violations.filter((violation) => /blob|media|connect/.test(violation))).toEqual([]);
  // and a chapter pressed on the playing video seeks it
  await page.getByRole('button', { name: /^0:00:07 / }).click();
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeLessThan(15);
  await checkScreenshotsOfDetail(page);
});

async function checkScreenshotsOfDetail(page: Page) {
  const url = new URL(page.url()).pathname;
  await checkScreen(page, 'procedure-premium', url, async (current) => {
    await expect(current.getByRole('heading', { name: 'Secciones navegables' })).toBeVisible();
  });
}

/** A separate browser context (a second device) signed in as the Premium demo account. */
async function premiumPage(browser: Browser) {
  const context = await browser.newContext();
  await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
  const page = await context.newPage();
  await loginAs(page, 'premium');
  return page;
}

test('opening the procedure on a second device stops the first until it takes the account back', async ({
  browser,
}) => {
  const first = await premiumPage(browser);
  const second = await premiumPage(browser);
  try {
    await openProcedure(first, 'ligamento', premiumProcedure);
    await pressPlay(first);
    await expect.poll(() => videoSource(first)).toMatch(/\?vt=/);

    await second.goto(first.url());
    await pressPlay(second);
    await expect.poll(() => videoSource(second)).toMatch(/\?vt=/);

    await expect(first.getByRole('alert').getByText(secondDeviceMessage)).toBeVisible();
    await expect(first.locator('video')).toHaveCount(0);

    await first.getByRole('button', { name: 'Usar en este dispositivo' }).click();
    await pressPlay(first);
    await expect.poll(() => videoSource(first)).toMatch(/\?vt=/);
    await expect(second.getByRole('alert').getByText(secondDeviceMessage)).toBeVisible();
  } finally {
    await first.context().close();
    await second.context().close();
  }
});

test('an unknown procedure shows Página no encontrada', async ({ page }) => {
  await page.goto('/procedimiento/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
});

test('the guest procedure page has no serious accessibility violations', async ({ page }) => {
  await openProcedure(page, 'ligamento', premiumProcedure);
  const url = new URL(page.url()).pathname;
  await checkScreen(page, 'procedure-guest', url, async (current) => {
    await expect(current.getByText('Video de demostración')).toBeVisible();
  });
});
