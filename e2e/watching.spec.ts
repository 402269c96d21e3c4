import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { checkScreen } from './a11y.ts';
import { storageKeys } from '../src/web/lib/storage-keys.ts';
import { demoAccounts, demoPassword, expect, pressPlay, signUpByApi, test, type DemoRole } from './fixtures.ts';

// Premium and Gratis demo procedures that the other journeys do not watch; the demo's full video lasts 45 s
const premiumProcedure = 'Ingluviotomía en ave';
const gratisProcedure = 'Castración en conejo';
// a Premium procedure that no demo aula opens to the Basic demo member
const lockedProcedure = 'Cesárea en perra';
const memberChunks = /continue-watching|favorite-button|procedure-member-tools/;

/** A separate browser (another device) signed in as a demo account. */
async function device(browser: Browser, role: DemoRole) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
  const page = await context.newPage();
  // a device of its own signs in on its own: another session than the one the other specs share
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const login = await page.request.post('/api/account/login', {
    data: { email: demoAccounts[role], password: demoPassword },
    headers: { origin },
  });
  expect(login.status(), await login.text()).toBe(200);
  // a rerun on the same server starts without the favourites an earlier run left
  const answer = await page.request.get('/api/favorites');
  expect(answer.status(), await answer.text()).toBe(200);
  const favorites = (await answer.json()) as { id: string }[];
  for (const favorite of favorites)
    expect((await page.request.delete(`/api/favorites/${favorite.id}`)).status()).toBe(204);
  return page;
}

/** A Basic member of the test's own on a laptop: a retry starts with nothing watched (a watched mark is never undone). */
async function freshDevice(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
  const page = await context.newPage();
  const email = `viendo-${randomUUID().slice(0, 8)}@e2e.cxvet.com`;
  await signUpByApi(page, { email, name: 'Viendo E2E', password: 'Secreta123' });
  return page;
}

async function openProcedure(page: Page, name: string) {
  await page.goto(`/procedimientos?q=${encodeURIComponent(name)}`);
  await page.getByRole('region', { name: 'Resultados' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/**
 * Presses play, waits for the full video (with its viewing token) to be ready, then plays it muted from `seconds`,
 * at `rate` times its speed.
 */
async function playFrom(page: Page, seconds: number, rate = 1) {
  await pressPlay(page);
  const video = page.locator('video').first();
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentSrc)).toMatch(/\?vt=/);
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThan(0);
  await video.evaluate(
    async (element: HTMLVideoElement, { at, speed }) => {
      element.muted = true;
      element.playbackRate = speed;
      element.currentTime = at;
      await element.play();
    },
    { at: seconds, speed: rate },
  );
  return video;
}

// each journey plays video in two browsers and checks three screens at two widths
test.describe.configure({ timeout: 120_000 });

test('a Premium member resumes on a second browser, finds the Seguir viendo row and keeps a favourite', async ({
  browser,
}) => {
  const laptop = await device(browser, 'premium');
  try {
    await openProcedure(laptop, premiumProcedure);
    // playing from 0:30 saves the place at once (a new stretch starts there): waited for before the play, as the
    // save may answer before any later wait begins. The pause right after saves nothing more, being less than a
    // second of the video later (a pause a second or more later would save 0:31). A sixteenth of the speed (the
    // slowest Chromium plays) keeps the video within that second for 16 s: on a loaded machine the save can come
    // late, from the player's timer (every 10 s) rather than from the seek, and at full speed the video would
    // have played past 0:31, or to its end, and been marked watched for a retry too.
    const saved = laptop.waitForResponse((response) => {
      const request = response.request();
      if (request.method() !== 'POST' || !request.url().includes('/api/watching/procedures/')) return false;
      const position = (request.postDataJSON() as { positionSeconds?: number } | null)?.positionSeconds ?? -1;
      return position >= 30 && position < 31;
    });
    const video = await playFrom(laptop, 30, 1 / 16);
    expect((await saved).status()).toBe(204);
    await video.evaluate((element: HTMLVideoElement) => element.pause());
  } finally {
    await laptop.context().close();
  }

  const phone = await device(browser, 'premium');
  try {
    await phone.goto('/');
    const row = phone.getByRole('region', { name: 'Seguir viendo' });
    await expect(row.getByRole('link', { name: premiumProcedure })).toBeVisible();
    await expect(row.getByRole('progressbar', { name: `Progreso de ${premiumProcedure}: 67 %` })).toBeVisible();

    await phone.goto('/procedimientos');
    await expect(
      phone.getByRole('region', { name: 'Seguir viendo' }).getByRole('link', { name: premiumProcedure }),
    ).toBeVisible();

    await phone.getByRole('region', { name: 'Seguir viendo' }).getByRole('link', { name: premiumProcedure }).click();
    await expect(phone.getByRole('heading', { level: 1, name: premiumProcedure })).toBeVisible();
    const procedureUrl = new URL(phone.url()).pathname;
    const resume = phone.getByRole('button', { name: 'Continuar desde 0:30' });
    await expect(resume).toBeVisible();
    await resume.click();
    const video = phone.locator('video').first();
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime))
      .toBeGreaterThanOrEqual(30);
    await expect(resume).toBeHidden();

    const heart = phone.getByRole('button', { name: `Añadir ${premiumProcedure} a favoritos` });
    await heart.click();
    await expect(phone.getByRole('button', { name: `Quitar ${premiumProcedure} de favoritos` })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await phone.getByRole('banner').getByRole('link', { name: 'Mis favoritos' }).click();
    await expect(phone).toHaveURL(/\/mis-favoritos$/);
    await expect(phone.getByRole('heading', { level: 1, name: 'Mis favoritos' })).toBeVisible();
    await expect(phone.getByRole('link', { name: premiumProcedure, exact: true })).toBeVisible();
    await expect(phone).toHaveTitle(/Mis favoritos/);

    await checkScreen(phone, 'watching-landing', '/', async (current) => {
      await expect(current.getByRole('heading', { name: 'Seguir viendo' })).toBeVisible();
    });
    await checkScreen(phone, 'watching-favorites', '/mis-favoritos', async (current) => {
      await expect(current.getByRole('link', { name: premiumProcedure, exact: true })).toBeVisible();
    });
    await checkScreen(phone, 'watching-procedure', procedureUrl, async (current) => {
      await expect(current.getByRole('button', { name: /^Continuar desde 0:\d\d$/ })).toBeVisible();
    });

    // taken off again on the card: the list empties and says so
    await phone.goto('/mis-favoritos');
    await phone.getByRole('button', { name: `Quitar ${premiumProcedure} de favoritos` }).click();
    await expect(phone.getByText('Aún no tienes procedimientos favoritos.')).toBeVisible();
  } finally {
    await phone.context().close();
  }
});

test('leaving the page sends the place with a beacon, leaving the procedure inside the site saves it too; a video watched to the end is Visto and leaves No vistos', async ({
  browser,
}) => {
  const page = await freshDevice(browser);
  try {
    await openProcedure(page, gratisProcedure);
    const video = await playFrom(page, 12);
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime))
      .toBeGreaterThanOrEqual(12);
    const procedureId = new URL(page.url()).pathname.split('/').pop()!;
    // a full page load hides this page: its last place leaves as a beacon (the browser reports no response for it)
    await page.goto('/procedimientos');
    await expect
      .poll(
        async () =>
          (
            (await (await page.request.get(`/api/watching/procedures/${procedureId}`)).json()) as {
              positionSeconds: number | null;
            }
          ).positionSeconds,
      )
      .toBeGreaterThanOrEqual(12);
    await page.reload();
    const row = page.getByRole('region', { name: 'Seguir viendo' });
    await expect(row.getByRole('link', { name: gratisProcedure })).toBeVisible();
    await expect(row.getByText(/^0:1\d de 0:45$/)).toBeVisible();

    // inside the site: 20 s later, back to the catalogue by its link, the row shows the new place
    await row.getByRole('link', { name: gratisProcedure }).click();
    const moved = await playFrom(page, 20);
    await expect
      .poll(() => moved.evaluate((element: HTMLVideoElement) => element.currentTime))
      .toBeGreaterThanOrEqual(20);
    await page.getByRole('banner').getByRole('link', { name: 'Procedimientos' }).click();
    await expect(page.getByRole('region', { name: 'Seguir viendo' }).getByText(/^0:2\d de 0:45$/)).toBeVisible();

    // watched to the end, played rather than sought: 90 % of its 45 s in real time (decision 010)
    test.setTimeout(240_000);
    await openProcedure(page, gratisProcedure);
    const again = await playFrom(page, 0);
    await expect
      .poll(() => again.evaluate((element: HTMLVideoElement) => element.ended), { timeout: 90_000 })
      .toBe(true);
    await expect
      .poll(
        async () =>
          (
            (await (await page.request.get(`/api/watching/procedures/${procedureId}`)).json()) as {
              isWatched: boolean;
            }
          ).isWatched,
        { timeout: 15_000 },
      )
      .toBe(true);

    await page.goto(`/procedimientos?q=${encodeURIComponent(gratisProcedure)}`);
    const card = page
      .getByRole('article')
      .filter({ has: page.getByRole('link', { name: gratisProcedure, exact: true }) });
    await expect(card.getByText('Visto', { exact: true })).toBeVisible();
    await page.goto('/procedimientos');
    await expect(page.getByRole('heading', { level: 1, name: 'Catálogo de cirugías' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'No vistos' })).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Seguir viendo' }).getByRole('link', { name: gratisProcedure }),
    ).toHaveCount(0);
    await page.goto(`/procedimientos?q=${encodeURIComponent(gratisProcedure)}`);

    // 'No vistos' combines with the search and a species filter, in the URL
    await page.getByRole('link', { name: 'No vistos' }).click();
    await expect(page).toHaveURL(/vistos=no/);
    await expect(page.getByText('No se encontraron cirugías con estos criterios.')).toBeVisible();
    await page.getByRole('link', { name: 'Otras especies' }).click();
    await expect(page).toHaveURL(/\/procedimientos\/kynd\/Otras%20especies\?.*vistos=no/);
    await expect(page.getByRole('link', { name: 'No vistos' })).toHaveAttribute('aria-current', 'page');
    await checkScreen(page, 'watching-catalogue-unwatched', '/procedimientos?vistos=no', async (current) => {
      await expect(current.getByRole('heading', { level: 1, name: 'Catálogo de cirugías' })).toBeVisible();
    });
  } finally {
    await page.context().close();
  }
});

test('a guest is offered none of it and loads none of its code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Algunos de nuestros procedimientos' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Seguir viendo' })).toHaveCount(0);
  await openProcedure(page, premiumProcedure);
  await expect(page.getByRole('button', { name: /favoritos/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Continuar desde/ })).toHaveCount(0);
  await page.goto('/procedimientos');
  await expect(page.getByRole('region', { name: 'Resultados' }).getByRole('article').first()).toBeVisible();
  await expect(
    page
      .getByRole('link', { name: 'Especie' })
      .or(page.getByRole('heading', { name: 'Especie' }))
      .first(),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'No vistos' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Mis videos' })).toHaveCount(0);
  expect(scripts.filter((url) => memberChunks.test(url))).toEqual([]);
  await page.goto('/mis-favoritos');
  await expect(page).toHaveURL(/\/login/);
});

test('a Basic member gets no resume offer on a Premium demo but may keep it as a favourite', async ({ browser }) => {
  const page = await device(browser, 'gratis');
  try {
    await openProcedure(page, lockedProcedure);
    await expect(page.getByText('Video de demostración')).toBeVisible();
    const heart = page.getByRole('button', { name: `Añadir ${lockedProcedure} a favoritos` });
    await heart.click();
    await expect(page.getByRole('button', { name: `Quitar ${lockedProcedure} de favoritos` })).toBeVisible();
    await page.goto('/mis-favoritos');
    const card = page
      .getByRole('article')
      .filter({ has: page.getByRole('link', { name: lockedProcedure, exact: true }) });
    await expect(card.getByText('Premium')).toBeVisible();
    await card.getByRole('button', { name: `Quitar ${lockedProcedure} de favoritos` }).click();
    await expect(page.getByText('Aún no tienes procedimientos favoritos.')).toBeVisible();
    await expect(page.getByRole('button', { name: /Continuar desde/ })).toHaveCount(0);
  } finally {
    await page.context().close();
  }
});
