import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { adminRequest, freshPremiumMember } from './diploma-setup.ts';
import { expect, saveScreenshot, test } from './fixtures.ts';

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

/** A CxVet diploma with one video of its own (30 s) and one exam after it, with the member enrolled. */
async function diplomaWithExam(admin: APIRequestContext, origin: string, title: string, memberId: string) {
  const headers = { origin };
  const id = randomUUID();
  const saved = await admin.put(`/api/admin/diplomas/${id}`, {
    headers,
    data: {
      title,
      descriptionHtml: '<p>Un video y un examen.</p>',
      previewImage: await upload(admin, origin, 'diploma-preview-image', id, 'preview-azul.jpg'),
      previewPdf: await upload(admin, origin, 'diploma-preview-pdf', id, 'guia.pdf'),
      certificateImage: null,
      cost: '0.00',
      kind: 'CxVet',
      organizationId: null,
      adminEmail: '',
      isTest: false,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const videoId = randomUUID();
  const video = await admin.put(`/api/admin/diplomas/${id}/videos/${videoId}`, {
    headers,
    data: {
      title: 'Clase de suturas',
      description: 'Suturas en tejidos blandos.',
      video: await upload(admin, origin, 'diploma-video', id, 'video.mp4'),
      chapters: [],
      pdfs: [],
      images: [],
    },
  });
  expect(video.status(), await video.text()).toBe(200);
  const examId = randomUUID();
  const exam = await admin.put(`/api/admin/diplomas/${id}/exams/${examId}`, {
    headers,
    data: {
      title: 'Examen de suturas',
      videoId,
      questions: [
        { question: '¿Qué sutura se prefiere en intestino?', answers: ['Seda', 'Monofilamento'], correctAnswer: 1 },
      ],
    },
  });
  expect(exam.status(), await exam.text()).toBe(200);
  expect(
    (await admin.put(`/api/admin/diplomas/${id}/users/${memberId}`, { headers, data: { assigned: true } })).status(),
  ).toBe(200);
  expect((await admin.put(`/api/admin/diplomas/${id}/active`, { headers, data: { isActive: true } })).status()).toBe(
    200,
  );
  return { id, examId };
}

test('a member earns credit by watching and passing, sees it in Mis créditos with its downloads, and an Admin revokes it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const origin = new URL(baseURL!).origin;
  const admin = await adminRequest(browser, baseURL!);
  const member = await freshPremiumMember(browser, baseURL!, admin.request, 'Valeria Créditos');
  const title = `Diplomado con créditos ${randomUUID().slice(0, 6)}`;
  const diploma = await diplomaWithExam(admin.request, origin, title, member.userId);

  // the Admin gives it its continuing-education data in the console; bad input is explained under the fields
  const consolePage = await admin.context.newPage();
  await consolePage.goto(`/admin/diplomados/diplomado/${diploma.id}?tab=creditos`);
  await expect(consolePage.getByRole('heading', { name: 'Educación continua' })).toBeVisible({ timeout: 30_000 });
  await consolePage.getByLabel('Horas').fill('1.25');
  await consolePage.getByRole('combobox', { name: /Organismo 1/ }).fill('AAVSB RACE');
  await consolePage.keyboard.press('Escape');
  await consolePage.getByLabel('Vigente desde').fill('2026-06-01');
  await consolePage.getByLabel('Vigente hasta').fill('2026-05-01');
  await consolePage.getByRole('button', { name: 'Guardar' }).click();
  await expect(
    consolePage.getByText('Escribe las horas como un número positivo con un decimal como máximo'),
  ).toBeVisible();
  await expect(consolePage.getByText('Escribe el número de aprobación que dio el organismo.')).toBeVisible();
  await expect(consolePage.getByText('La vigencia no puede terminar antes de empezar.')).toBeVisible();
  await consolePage.getByLabel('Horas').fill('2.5');
  await consolePage.getByLabel('Número de aprobación').fill('20-998877');
  await consolePage.getByLabel('Vigente desde').fill('2026-01-01');
  await consolePage.getByLabel('Vigente hasta').fill('2099-12-31');
  await consolePage.getByRole('button', { name: 'Guardar' }).click();
  await expect(consolePage.getByText('Datos de educación continua guardados.')).toBeVisible();

  // seeking to the end, or calling the endpoints directly, earns nothing
  const { page } = member;
  await page.goto(`/mis-diplomados/diplomado-CxVet/${diploma.id}`);
  await expect(page.getByRole('heading', { name: title })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: /^1\. Clase de suturas/ }).click();
  const player = page.locator('video');
  await player.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
    element.currentTime = element.duration - 0.5;
    await new Promise((resolve) => element.addEventListener('ended', resolve, { once: true }));
  });
  const direct = await page.request.post(`/api/diplomas/${diploma.id}/evaluation`, {
    headers: { origin },
    data: { answers: [5, 5, 5, 5, 5], comment: '' },
  });
  expect(direct.status()).toBe(409);
  await expect(page.getByText('Para obtener el crédito, mira al menos el 90 % de cada video')).toBeVisible();

  // playing it through in real time, then passing the exam, opens the evaluation
  await player.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    element.currentTime = 0;
    await element.play();
    await new Promise((resolve) => element.addEventListener('ended', resolve, { once: true }));
  });
  await expect(page.getByText(/Has visto el (9\d|100) % de este video/)).toBeVisible({ timeout: 30_000 });
  const exam = (await (await page.request.get(`/api/diplomas/${diploma.id}/exams/${diploma.examId}`)).json()) as {
    questions: { id: string; answers: string[] }[];
  };
  const passed = await page.request.post(`/api/diplomas/${diploma.id}/exams/${diploma.examId}/submit`, {
    headers: { origin },
    data: {
      answers: exam.questions.map((question) => ({
        questionId: question.id,
        answer: question.answers.indexOf('Monofilamento'),
      })),
    },
  });
  expect(passed.status(), await passed.text()).toBe(200);
  await page.reload();
  // the diploma is complete: its congratulations come first
  const congratulations = page.getByRole('dialog', { name: '¡Felicidades!' });
  await expect(congratulations).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('Escape');
  await expect(congratulations).toHaveCount(0);
  const evaluation = page.getByRole('group', { name: 'Evaluación del curso' });
  await expect(evaluation).toBeVisible({ timeout: 30_000 });
  for (const group of await evaluation.getByRole('radiogroup').all())
    await group.getByRole('radio', { name: 'Totalmente de acuerdo' }).check();
  await evaluation.getByLabel('Comentario').fill('Claro y práctico.');
  await evaluation.getByRole('button', { name: 'Enviar evaluación' }).click();
  await expect(page.getByText('Se registraron 2.5 horas.')).toBeVisible();

  // Mis créditos: hours per body and year, the cédula, and the three downloads
  await page.getByRole('link', { name: 'Ver mis créditos' }).click();
  await expect(page.getByRole('heading', { name: 'Mis créditos' })).toBeVisible();
  await page.getByLabel('Cédula profesional').fill('12345678');
  await page.getByRole('button', { name: 'Guardar cédula' }).click();
  await expect(page.getByText('Cédula profesional guardada.')).toBeVisible();
  const byBody = page.getByRole('table', { name: 'Horas por organismo' });
  await expect(byBody).toContainText('AAVSB RACE');
  await expect(byBody).toContainText('2.5 h');
  const year = new Date().getFullYear();
  for (const [name, file] of [
    [`Descargar constancia de ${title}`, /\.pdf$/],
    [`Constancia anual ${year} (PDF)`, /^creditos-\d{4}\.pdf$/],
    ['Descargar CSV', /^creditos\.csv$/],
  ] as const) {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(file);
    if (name === 'Descargar CSV') {
      const text = fs.readFileSync((await saved.path())!, 'utf8');
      expect(text).toContain(
        'nombre,cedula_profesional,organismo,numero_aprobacion,titulo,categoria,modalidad,horas,fecha_inicio,fecha_fin,folio,codigo_verificacion',
      );
      expect(text).toContain(`Valeria Créditos,12345678,AAVSB RACE,20-998877,${title},Quirúrgica`);
    }
  }
  await saveScreenshot(page, 'mis-creditos-1280');
  await page.setViewportSize({ width: 360, height: 800 });
  await saveScreenshot(page, 'mis-creditos-360');
  await page.setViewportSize({ width: 1280, height: 800 });

  // the Admin revokes it: the totals and the verification page follow
  const credits = (await (await page.request.get('/api/credits')).json()) as {
    items: { verificationCode: string }[];
  };
  await consolePage.reload();
  await consolePage.getByRole('button', { name: 'Revocar crédito de Valeria Créditos' }).click();
  const dialog = consolePage.getByRole('dialog', { name: 'Revocar crédito' });
  await dialog.getByLabel('Motivo').fill('Evaluación respondida por otra persona');
  await dialog.getByRole('button', { name: 'Revocar' }).click();
  await expect(consolePage.getByText(/^Revocado el /)).toBeVisible();
  await page.reload();
  await expect(page.getByText(/^Revocado el /)).toBeVisible();
  await expect(page.getByText('Aún no tienes créditos.')).toBeVisible();
  await page.goto(`/certificados/${credits.items[0]!.verificationCode}`);
  await expect(page.getByText('Constancia revocada', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/fue revocada el \d+ de \w+ de \d{4}/)).toBeVisible();

  await member.context.close();
  await admin.context.close();
});
