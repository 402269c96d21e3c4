import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { expectNoSeriousAxeViolations } from './a11y.ts';
import { adminRequest, buildCxVetDiploma, freshPremiumMember } from './diploma-setup.ts';
import { expect, loginAs, saveScreenshot, test } from './fixtures.ts';

async function screens(page: Page, name: string, ready: () => Promise<void>) {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await ready();
    await saveScreenshot(page, `${name}-${width}`);
  }
}

test('a Premium member fails an exam, retakes it, passes, downloads the certificate and verifies it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const origin = new URL(baseURL!).origin;
  const admin = await adminRequest(browser, baseURL!);
  const name = `Begoña Núñez ${Date.now().toString().slice(-5)}`;
  const member = await freshPremiumMember(browser, baseURL!, admin.request, name);
  const title = `Diplomado E2E ${randomUUID().slice(0, 6)}`;
  const { id: diplomaId } = await buildCxVetDiploma(admin.request, origin, title, member.userId);
  const { page } = member;

  await page.goto('/mis-diplomados');
  const card = page.getByRole('article').filter({ hasText: title });
  await screens(page, 'diplomas-list', async () => {
    await expect(card.getByRole('link', { name: 'Entrar al diplomado' })).toBeVisible();
  });
  await card.getByRole('link', { name: 'Entrar al diplomado' }).click();
  await expect(page).toHaveURL(new RegExp(`/mis-diplomados/diplomado-CxVet/${diplomaId}$`));
  await expect(page.getByTestId('diploma-progress')).toHaveText('0.00%');

  await page.getByRole('button', { name: /^\d+\. Examen final/ }).click();
  await screens(page, 'diploma-course', async () => {
    await expect(page.getByRole('button', { name: 'Enviar respuestas' })).toBeDisabled();
  });
  // wrong answers first
  await page.getByRole('radio', { name: 'Toracotomía' }).check();
  await page.getByRole('radio', { name: 'Seda trenzada' }).check();
  await page.getByRole('button', { name: 'Enviar respuestas' }).click();
  await expect(page.getByText('Calificación: 0.00%').first()).toBeVisible();
  await expect(page.getByText('No aprobado').first()).toBeVisible();
  // a failed attempt shows the score alone: neither the right answers nor which were wrong
  await expect(page.getByRole('radio')).toHaveCount(0);
  await expect(page.getByText(/respuesta correcta|correcta\)/)).toHaveCount(0);
  await expect(page.getByText(/tu respuesta/)).toHaveCount(0);
  await expect(page.getByText('Laparotomía por línea media')).toHaveCount(0);
  await screens(page, 'diploma-exam-failed', async () => {
    await expect(page.getByRole('button', { name: 'Volver a intentar' })).toBeVisible();
  });

  await page.getByRole('button', { name: 'Volver a intentar' }).click();
  await expect(page.getByRole('button', { name: 'Enviar respuestas' })).toBeDisabled();
  await page.getByRole('radio', { name: 'Laparotomía por línea media' }).check();
  await page.getByRole('radio', { name: 'Monofilamento absorbible' }).check();
  await page.getByRole('button', { name: 'Enviar respuestas' }).click();
  await expect(page.getByTestId('diploma-progress')).toHaveText('Completado');
  // once passed, everything: the right answers are marked
  await expect(page.getByText('Laparotomía por línea media (tu respuesta, correcta)')).toBeVisible();

  const modal = page.getByRole('dialog', { name: '¡Felicidades!' });
  await expect(modal).toBeVisible();
  await screens(page, 'diploma-certificate-modal', async () => {
    await expect(modal.getByRole('button', { name: 'Descargar constancia' })).toBeVisible();
  });
  const downloading = page.waitForEvent('download');
  await modal.getByRole('button', { name: 'Descargar constancia' }).click();
  const download = await downloading;
  const pdfPath = test.info().outputPath('constancia.pdf');
  await download.saveAs(pdfPath);
  // unpdf (a dev dependency) reads the text: no system PDF tool needed on a fresh machine
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(fs.readFileSync(pdfPath))), {
    mergePages: true,
  });
  expect(text).toContain(name);
  expect(text).toContain('Folio: 001');
  const code = /verificación: ([A-Z0-9]+)/i.exec(text)?.[1];
  expect(code).toBeTruthy();

  // the folio is assigned: the modal gives way to the page's certificate card
  await expect(modal).toBeHidden();
  await page.getByRole('link', { name: `Verificar constancia (${code})` }).click();
  await expect(page).toHaveURL(new RegExp(`/certificados/${code}$`));
  await screens(page, 'certificate-verification', async () => {
    await expect(page.getByText('Certificado válido')).toBeVisible();
    await expect(page.getByRole('main').getByText(name, { exact: true })).toBeVisible();
    await expect(page.getByRole('main').getByText(title, { exact: true })).toBeVisible();
  });
  expect(await page.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');

  // the signed credential: our server's check, the JSON, the same JSON inside the PDF, and LinkedIn's form
  await expect(page.getByText('Firma y estado verificados')).toBeVisible();
  const jsonDownloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Descargar credencial (JSON)' }).click();
  const jsonDownload = await jsonDownloading;
  expect(jsonDownload.suggestedFilename()).toBe('credential.json');
  const credential = JSON.parse(fs.readFileSync(await jsonDownload.path(), 'utf8'));
  expect(credential.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
  expect(credential.credentialSubject.name).toBe(name);
  const pdf = await getDocumentProxy(new Uint8Array(fs.readFileSync(pdfPath)));
  const attached = Object.values(
    (await pdf.getAttachments()) as Record<string, { filename: string; content: Uint8Array }>,
  );
  expect(attached.map((file) => file.filename)).toEqual(['credential.json']);
  expect(JSON.parse(Buffer.from(attached[0]!.content).toString('utf8'))).toEqual(credential);
  const linkedIn = new URL((await page.getByRole('link', { name: 'Añadir a LinkedIn' }).getAttribute('href'))!);
  expect(linkedIn.origin + linkedIn.pathname).toBe('https://www.linkedin.com/profile/add');
  expect(Object.fromEntries(linkedIn.searchParams)).toMatchObject({
    startTask: 'CERTIFICATION_NAME',
    name: title,
    organizationName: 'CxVet',
    certUrl: `${origin}/certificados/${code}`,
    certId: code,
  });

  // the Admin revokes it from the console: the reason is asked for in Spanish, and the page then says so
  const consolePage = await admin.context.newPage();
  await consolePage.setViewportSize({ width: 360, height: 740 });
  await consolePage.goto(`/admin/diplomados/diplomado/${diplomaId}?tab=estadisticas`);
  // on a phone the issued certificates are cards: 'Revocar' is in sight, not past a table's right edge
  const revoke = consolePage.getByRole('button', { name: /^Revocar constancia / });
  await expect(revoke).toBeVisible();
  const box = (await revoke.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  await revoke.click();
  const revocation = consolePage.getByRole('dialog', { name: 'Revocar constancia' });
  await revocation.getByRole('button', { name: 'Revocar' }).click();
  await expect(revocation.getByText('Escribe el motivo (al menos 3 caracteres).')).toBeVisible();
  await expectNoSeriousAxeViolations(consolePage);
  await saveScreenshot(consolePage, 'certificate-revocation-360');
  await revocation.getByLabel('Motivo').fill('Error de captura del nombre');
  await revocation.getByRole('button', { name: 'Revocar' }).click();
  await expect(revocation).toBeHidden();
  const issued = consolePage.getByRole('table', { name: 'Constancias emitidas' });
  await expect(issued.getByText('Revocada')).toBeVisible();
  await expect(issued.getByText('Error de captura del nombre')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Constancia revocada', { exact: true })).toBeVisible();

  await page.goto('/certificados/NOEXISTE2345');
  await expect(page.getByText('No encontramos este certificado')).toBeVisible();

  await member.context.close();
  await admin.context.close();
});

test('a Premium member buys the External demo diploma with the simulated provider and ends enrolled', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await adminRequest(browser, baseURL!);
  const member = await freshPremiumMember(browser, baseURL!, admin.request, 'Comprador E2E');
  const { page } = member;
  await page.goto('/mis-diplomados');
  const card = page.getByRole('article').filter({ hasText: 'Diplomado en Anestesia y Analgesia Veterinaria' });
  await card.getByRole('link', { name: 'Ver diplomado' }).click();
  await expect(page).toHaveURL(/\/mis-diplomados\/diplomado-preview\//);
  await screens(page, 'diploma-preview', async () => {
    await expect(page.getByText('129.00 USD')).toBeVisible();
  });
  await page.getByRole('button', { name: 'Comprar acceso' }).click();
  await expect(page).toHaveURL(/\/pago-simulado\/orden\//);
  await page.getByRole('button', { name: 'Aprobar pago' }).click();
  await expect(page).toHaveURL(/\/mis-diplomados\/finalize\//);
  const success = page.getByRole('dialog', { name: 'Compra exitosa' });
  await expect(success.getByText('Ha comprado con éxito el acceso al diplomado, bienvenido al curso')).toBeVisible();
  await success.getByRole('button', { name: 'Ir al diplomado' }).click();
  await expect(page).toHaveURL(/\/mis-diplomados\/diplomado\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { name: 'Diplomado en Anestesia y Analgesia Veterinaria' })).toBeVisible();
  // External: the second item stays locked until the first is completed
  await expect(page.getByRole('button', { name: /Bloqueado$/ })).toHaveCount(1);
  await member.context.close();
  await admin.context.close();
});

test('a Basic member cannot enter diploma routes', async ({ page }) => {
  await loginAs(page, 'gratis');
  for (const url of ['/mis-diplomados', '/mis-diplomados/diplomado-preview/00000000-0000-4000-8000-000000000000']) {
    await page.goto(url);
    await expect(page).not.toHaveURL(/\/mis-diplomados/);
  }
  expect((await page.request.get('/api/diplomas')).status()).toBe(403);
});
