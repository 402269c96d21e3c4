import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { adminRequest, freshBasicMember, freshPremiumMember } from './diploma-setup.ts';
import { expect, pressPlay, saveScreenshot, test } from './fixtures.ts';

const demoFile = (name: string) => path.join(process.cwd(), 'assets', 'demo', name);

async function upload(admin: APIRequestContext, origin: string, target: string, recordId: string, file: string) {
  const mimeType = file.endsWith('.mp4') ? 'video/mp4' : file.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg';
  const response = await admin.post(`/api/admin/uploads?target=${target}&recordId=${recordId}`, {
    headers: { origin },
    multipart: { file: { name: path.basename(file), mimeType, buffer: fs.readFileSync(demoFile(file)) } },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { key: string }).key;
}

/** A Premium procedure of this spec's own, with the demo video (about 30 s) as its full video. */
async function premiumProcedure(admin: APIRequestContext, origin: string, name: string) {
  const id = randomUUID();
  let fullVideo = '';
  const saved = await admin.put(`/api/admin/procedures/${id}`, {
    headers: { origin },
    data: {
      name,
      type: 'Premium',
      detail: 'Técnica paso a paso.',
      species: 'Perro',
      tagIds: [],
      meta: '',
      previewImage: await upload(admin, origin, 'procedure-preview', id, 'preview-azul.jpg'),
      demoVideo: await upload(admin, origin, 'procedure-demo', id, 'video.mp4'),
      guidePdf: await upload(admin, origin, 'procedure-guide', id, 'guia.pdf'),
      fullVideo: (fullVideo = await upload(admin, origin, 'procedure-video', id, 'video.mp4')),
      chapters: [],
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  // where ffmpeg runs, the player moves from the file to the HLS ladder once it is ready, starting the video over:
  // the member opens the page once the ladder's job is done, so what the test plays is what the page keeps
  await expect
    .poll(
      async () => {
        const body = (await (
          await admin.get(`/api/admin/video-renditions?keys=${encodeURIComponent(fullVideo)}`)
        ).json()) as { items: { status: string }[] };
        return body.items[0]?.status ?? 'none';
      },
      { timeout: 120_000 },
    )
    .toMatch(/^(ready|failed|none)$/);
  return id;
}

test('a Premium member earns a procedure’s credit by watching it and answering the evaluation, and verifies it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const origin = new URL(baseURL!).origin;
  const admin = await adminRequest(browser, baseURL!);
  const name = `Cistotomía con créditos ${randomUUID().slice(0, 6)}`;
  const procedureId = await premiumProcedure(admin.request, origin, name);

  // the Admin gives it its continuing-education data in the procedure's form; bad input is explained
  const consolePage = await admin.context.newPage();
  await consolePage.goto(`/admin/procedures/procedure/${procedureId}`);
  await expect(consolePage.getByRole('heading', { name: 'Educación continua' })).toBeVisible({ timeout: 30_000 });
  const offerForm = consolePage.locator('form').filter({ has: consolePage.getByLabel('Horas') });
  await offerForm.getByLabel('Horas').fill('0');
  await offerForm.getByRole('combobox', { name: /Organismo 1/ }).fill('CONCERVET');
  await consolePage.keyboard.press('Escape');
  await offerForm.getByLabel('Vigente desde').fill('2026-06-01');
  await offerForm.getByLabel('Vigente hasta').fill('2026-05-01');
  await offerForm.getByRole('button', { name: 'Guardar' }).click();
  await expect(
    consolePage.getByText('Escribe las horas como un número positivo con un decimal como máximo'),
  ).toBeVisible();
  await expect(consolePage.getByText('Escribe el número de aprobación que dio el organismo.')).toBeVisible();
  await expect(consolePage.getByText('La vigencia no puede terminar antes de empezar.')).toBeVisible();
  await offerForm.getByLabel('Horas').fill('1.5');
  await offerForm.getByLabel('Número de aprobación').fill('CV-2026-31');
  await offerForm.getByLabel('Vigente desde').fill('2026-01-01');
  await offerForm.getByLabel('Vigente hasta').fill('2099-12-31');
  await offerForm.getByRole('button', { name: 'Guardar' }).click();
  await expect(consolePage.getByText('Datos de educación continua guardados.')).toBeVisible();
  await saveScreenshot(consolePage, 'procedure-credit-offer-1280');

  // a Basic member sees no offer and cannot send an evaluation
  const basic = await freshBasicMember(browser, baseURL!, 'Bruno Básico');
  await basic.page.goto(`/procedimiento/${procedureId}`);
  await expect(basic.page.getByRole('heading', { name })).toBeVisible({ timeout: 30_000 });
  await expect(basic.page.getByText('Educación continua')).toHaveCount(0);
  const refused = await basic.page.request.post(`/api/procedures/${procedureId}/evaluation`, {
    headers: { origin },
    data: { answers: [5, 5, 5, 5, 5], comment: '' },
  });
  expect(refused.status()).toBe(403);

  const member = await freshPremiumMember(browser, baseURL!, admin.request, 'Paula Procedimientos');
  const { page } = member;
  await page.goto(`/procedimiento/${procedureId}`);
  await expect(page.getByRole('heading', { name })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Para obtener el crédito, mira al menos el 90 % del video completo')).toBeVisible({
    timeout: 30_000,
  });
  // calling the evaluation directly, or seeking to the end, earns nothing
  const direct = await page.request.post(`/api/procedures/${procedureId}/evaluation`, {
    headers: { origin },
    data: { answers: [5, 5, 5, 5, 5], comment: '' },
  });
  expect(direct.status()).toBe(409);
  await pressPlay(page);
  const player = page.locator('video');
  await player.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    if (element.readyState < 1) await new Promise((resolve) => element.addEventListener('loadedmetadata', resolve));
    await element.play();
    element.currentTime = element.duration - 0.5;
    await new Promise((resolve) => element.addEventListener('ended', resolve, { once: true }));
  });
  await page.waitForTimeout(1_000);
  const sought = await page.request.get(`/api/procedures/${procedureId}/evaluation`);
  expect(((await sought.json()) as { canAnswer: boolean }).canAnswer).toBe(false);

  // played through in real time, the evaluation opens under the video
  await player.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    element.currentTime = 0;
    await element.play();
    await new Promise((resolve) => element.addEventListener('ended', resolve, { once: true }));
  });
  const evaluation = page.getByRole('group', { name: 'Evaluación del curso' });
  await expect(evaluation).toBeVisible({ timeout: 30_000 });
  for (const group of await evaluation.getByRole('radiogroup').all())
    await group.getByRole('radio', { name: 'Totalmente de acuerdo' }).check();
  await evaluation.getByLabel('Comentario').fill('Muy claro.');
  await saveScreenshot(page, 'procedure-evaluation-1280');
  await evaluation.getByRole('button', { name: 'Enviar evaluación' }).click();
  await expect(page.getByText('Se registraron 1.5 horas.')).toBeVisible();
  await page.setViewportSize({ width: 360, height: 800 });
  await saveScreenshot(page, 'procedure-evaluation-360');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Mis créditos: the hours per body, its certificate, and the public verification of its own code
  await page.getByRole('link', { name: 'Ver mis créditos' }).click();
  await expect(page.getByRole('heading', { name: 'Mis créditos' })).toBeVisible();
  const byBody = page.getByRole('table', { name: 'Horas por organismo' });
  await expect(byBody).toContainText('CONCERVET');
  await expect(byBody).toContainText('1.5 h');
  await expect(page.getByRole('article', { name })).toContainText(/Video visto: (9\d|100) %/);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Descargar constancia de ${name}` }).click();
  expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
  await saveScreenshot(page, 'procedure-credit-mis-creditos-1280');
  const credits = (await (await page.request.get('/api/credits')).json()) as {
    items: { verificationCode: string; folio: string }[];
  };
  const code = credits.items[0]!.verificationCode;
  await page.goto(`/certificados/${code}`);
  await expect(page.getByText(name)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Paula Procedimientos', { exact: true })).toBeVisible();
});
