import type { Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './a11y.ts';
import { expect, loginAs, pressPlay, saveScreenshot, test } from './fixtures.ts';

/** The seed gives the newest procedure Spanish subtitles on both videos and English ones on the full video. */
async function newestProcedureId(page: Page): Promise<string> {
  const catalog = (await (await page.request.get('/api/catalog/procedures')).json()) as { items: { id: string }[] };
  return catalog.items[0]!.id;
}

async function chooseCaptions(page: Page, label: string, name: string, text: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: `Seleccionar archivo: ${label}` }).click();
  await (await chooser).setFiles({ name, mimeType: 'text/vtt', buffer: Buffer.from(text, 'utf8') });
}

test('an Admin uploads a WebVTT file, and a malformed one shows the Spanish error with its line', async ({ page }) => {
  test.setTimeout(60_000);
  await loginAs(page, 'admin');
  const id = await newestProcedureId(page);
  await page.goto(`/admin/procedures/procedure/${id}`);
  const subtitles = page.getByRole('heading', { level: 2, name: 'Subtítulos' });
  await expect(subtitles).toBeVisible();
  // the seeded Spanish subtitles show as the saved files
  await expect(page.getByRole('button', { name: 'Descartar: Subtítulos del video demo: Español' })).toBeVisible();

  await chooseCaptions(
    page,
    'Subtítulos del video demo: Inglés',
    'subtitles-en.vtt',
    'WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nWe place the patient in dorsal recumbency.\n',
  );
  await expect(page.getByRole('button', { name: 'Descartar: Subtítulos del video demo: Inglés' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText('subtitles-en.vtt')).toBeVisible();

  await chooseCaptions(
    page,
    'Subtítulos del video completo: Portugués',
    'legendas.vtt',
    'WEBVTT\n\n00:00:01,000 --> 00:00:04.000\nOlá\n',
  );
  await expect(
    page.getByText(
      'El archivo de subtítulos no es un WebVTT válido. Línea 3: la línea de tiempo debe tener la forma 00:00:01.000 --> 00:00:04.000.',
    ),
  ).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Descartar: Subtítulos del video completo: Portugués' })).toHaveCount(
    0,
  );

  await subtitles.scrollIntoViewIfNeeded();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await saveScreenshot(page, `captions-form-${width}`);
  }
  await expectNoSeriousAxeViolations(page);
});

test('a Premium member picks English or Spanish subtitles in the player', async ({ page }) => {
  await loginAs(page, 'premium');
  await page.goto(`/procedimiento/${await newestProcedureId(page)}`);
  await pressPlay(page);
  // paused once it can play (a resumed video seeks first), the controls stay up; a pointer move shows them
  const video = page.locator('video');
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThanOrEqual(2);
  await video.evaluate((element: HTMLVideoElement) => element.pause());
  const player = page.getByRole('region', { name: /^Reproductor de video/ });
  await expect(async () => {
    await player.hover({ position: { x: 40 + Math.random() * 200, y: 40 } });
    await player.getByRole('button', { name: 'Configuración' }).click({ timeout: 2_000 });
  }).toPass();
  await page.getByRole('menuitem', { name: /Subtítulos/ }).click();
  await expect(page.getByRole('menuitemradio', { name: 'Español' })).toBeVisible();
  await page.getByRole('menuitemradio', { name: 'English' }).click();
  await expect(page.getByRole('menuitemradio', { name: 'English' })).toHaveAttribute('aria-checked', 'true');
  await saveScreenshot(page, 'captions-player-1280');
});

test("a Basic member gets a Premium procedure's demo subtitles, never its full video's", async ({ page }) => {
  await loginAs(page, 'gratis');
  // every page: specs running beside this one add Premium procedures, which can push the seeded ones off the first
  const ids: string[] = [];
  for (let pageNumber = 1; ; pageNumber += 1) {
    const answer = await page.request.get(`/api/catalog/procedures?type=Premium&page=${pageNumber}`);
    expect(answer.status(), await answer.text()).toBe(200);
    const catalog = (await answer.json()) as { items: { id: string }[]; total: number; pageSize: number };
    ids.push(...catalog.items.map((item) => item.id));
    if (catalog.items.length === 0 || pageNumber * catalog.pageSize >= catalog.total) break;
  }
  let demos = 0;
  for (const id of ids) {
    const detail = (await (await page.request.get(`/api/catalog/procedures/${id}`)).json()) as {
      isDemo: boolean;
      captions: { url: string }[];
    };
    // the demo Basic member's aula opens a few Premium procedures in full
    if (!detail.isDemo) continue;
    demos += 1;
    for (const caption of detail.captions) expect(caption.url).toMatch(/subtitulos-demo-/);
  }
  expect(demos).toBeGreaterThan(0);
});
