import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { storageKeys } from '../src/web/lib/storage-keys.ts';
import { expect, loginAs, saveScreenshot, signUpByApi, test } from './fixtures.ts';

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

test('an External diploma with no exams is completed only by watching its video, never by clicking or seeking', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const origin = new URL(baseURL!).origin;
  const headers = { origin };
  const adminContext = await browser.newContext({ baseURL });
  const adminPage = await adminContext.newPage();
  await loginAs(adminPage, 'admin');
  const admin = adminPage.request;

  // a fresh Premium member of our own
  const context = await browser.newContext({ baseURL });
  await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
  const page = await context.newPage();
  const email = `visto-${randomUUID().slice(0, 8)}@e2e.cxvet.com`;
  await signUpByApi(page, { email, name: 'Alumna Visto', password: 'Secreta123' });
  const me = (await (await page.request.get('/api/me')).json()) as { user: { id: string } };
  expect(
    (
      await admin.post('/api/admin/manual-premium/upgrade', { headers, data: { userId: me.user.id, period: 'year' } })
    ).status(),
  ).toBeLessThan(300);

  // an External diploma with one video of its own (30 s) and no exams
  const id = randomUUID();
  const title = `Diplomado visto ${id.slice(0, 6)}`;
  const options = (await (await admin.get('/api/admin/diplomas/options')).json()) as {
    organizations: { id: string }[];
  };
  const saved = await admin.put(`/api/admin/diplomas/${id}`, {
    headers,
    data: {
      title,
      descriptionHtml: '<p>Un solo video, sin exámenes.</p>',
      previewImage: await upload(admin, origin, 'diploma-preview-image', id, 'preview-azul.jpg'),
      previewPdf: await upload(admin, origin, 'diploma-preview-pdf', id, 'guia.pdf'),
      certificateImage: null,
      cost: '10.00',
      kind: 'External',
      organizationId: options.organizations[0]!.id,
      adminEmail: '',
      isTest: false,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const video = await admin.put(`/api/admin/diplomas/${id}/videos/${randomUUID()}`, {
    headers,
    data: {
      title: 'Clase única',
      description: 'La única clase del diplomado.',
      video: await upload(admin, origin, 'diploma-video', id, 'video.mp4'),
      chapters: [],
      pdfs: [],
      images: [],
    },
  });
  expect(video.status(), await video.text()).toBe(200);
  expect(
    (await admin.put(`/api/admin/diplomas/${id}/users/${me.user.id}`, { headers, data: { assigned: true } })).status(),
  ).toBe(200);
  expect((await admin.put(`/api/admin/diplomas/${id}/active`, { headers, data: { isActive: true } })).status()).toBe(
    200,
  );

  await page.goto(`/mis-diplomados/diplomado/${id}`);
  // a busy machine takes a while to load the course screen the first time
  await expect(page.getByRole('heading', { name: title })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('diploma-progress')).toHaveText('0.00%');
  await page.getByRole('button', { name: /^1\. Clase única/ }).click();
  const share = page.getByTestId('video-watched-share');
  await expect(share).toContainText('Has visto el 0 % de este video.');
  // nothing to click: the video is completed by watching it
  await expect(page.getByRole('button', { name: 'Marcar como completado' })).toHaveCount(0);
  const itemVideos = (await (await page.request.get(`/api/diplomas/${id}/course`)).json()) as {
    items: { id: string }[];
  };
  const clicked = await page.request.post(`/api/diplomas/${id}/videos/${itemVideos.items[0]!.id}/complete`, {
    headers,
  });
  expect(clicked.status()).toBe(409);

  // seeking to the end earns nothing
  const player = page.locator('video');
  await player.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
    element.currentTime = element.duration - 0.5;
    await new Promise((resolve) => element.addEventListener('ended', resolve, { once: true }));
  });
  await page.waitForTimeout(1500);
  await page.reload();
  await expect(page.getByTestId('diploma-progress')).toHaveText('0.00%', { timeout: 30_000 });
  await expect(page.getByRole('dialog', { name: '¡Felicidades!' })).toHaveCount(0);
  await page.getByRole('button', { name: /^1\. Clase única/ }).click();
  await expect(share).not.toContainText('Has visto el 9');
  await saveScreenshot(page, 'diploma-video-not-watched-1280');

  // from here the course answers with an HLS ladder, as it does once the renditions job finishes mid-lesson: the
  // course read again on completion must not swap the playing file for the ladder (that starts the video over)
  const ladderRequests: string[] = [];
  await page.route('**/e2e-ladder/**', (route) => {
    ladderRequests.push(route.request().url());
    return route.abort();
  });
  await page.route(`**/api/diplomas/${id}/course`, async (route) => {
    const response = await route.fetch();
    const course = (await response.json()) as { items: { type: string; hlsUrl?: string | null }[] };
    for (const item of course.items) if (item.type === 'video') item.hlsUrl = `${origin}/e2e-ladder/master.m3u8`;
    await route.fulfill({ response, json: course });
  });

  // playing it through in real time completes the video, and with it the diploma
  await player.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    element.currentTime = 0;
    await element.play();
  });
  await expect(page.getByRole('dialog', { name: '¡Felicidades!' })).toBeVisible({ timeout: 60_000 });
  await expect
    .poll(() => player.evaluate((element: HTMLVideoElement) => element.ended || element.currentTime > 25))
    .toBe(true);
  expect(ladderRequests).toEqual([]);
  await page.unrouteAll();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('diploma-progress')).toHaveText('Completado');
  await page.setViewportSize({ width: 360, height: 800 });
  await saveScreenshot(page, 'diploma-video-watched-360');

  await context.close();
  await adminContext.close();
});
