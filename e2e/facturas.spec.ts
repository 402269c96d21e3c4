import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.ts';
import { freshPremiumMember } from './diploma-setup.ts';
import { deviceSignedIn, serverInstances, type Instance } from './server-instances.ts';
import { startMercadoPagoFake, type MercadoPagoFake } from '../src/server/services/payments/simulated-mercadopago.ts';
import { startFacturapiFake, type FacturapiFake } from '../src/server/services/facturapi/facturapi-fake.testing.ts';
import { previousMonth } from '../src/server/features/facturas/global-invoice.ts';

// A server of its own takes pesos through the strict fake Mercado Pago and invoices through the strict fake Facturapi.
const diplomaTitle = 'Diplomado en Anestesia y Analgesia Veterinaria';
const accessToken = 'TEST-e2e';
const webhookSecret = 'secreto-e2e';
const apiKey = 'sk_test_e2e';
let mercadoPago: MercadoPagoFake;
let facturapi: FacturapiFake;
let site: Instance;
const instances = serverInstances();

test.describe.configure({ mode: 'serial', retries: 0 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  mercadoPago = await startMercadoPagoFake({ accessToken, webhookSecret });
  // the diploma's 2,499 pesos: a cancellation waits for the receiver's acceptance, as the SAT asks above 1,000
  facturapi = await startFacturapiFake({ apiKey, acceptanceAbove: 1000 });
  site = await instances.start({
    SEED_DEMO: '1',
    PAYMENTS_PROVIDERS: 'paypal,mercadopago',
    PAYPAL_API_URL: 'http://127.0.0.1:9',
    PAYPAL_CLIENT_ID: 'e2e-client',
    PAYPAL_CLIENT_SECRET: 'e2e-secret',
    PAYPAL_PLAN_MONTHLY: 'P-E2E-MONTHLY',
    PAYPAL_PLAN_ANNUAL: 'P-E2E-ANNUAL',
    PAYPAL_WEBHOOK_ID: 'WH-E2E',
    MERCADOPAGO_API_URL: mercadoPago.url,
    MERCADOPAGO_ACCESS_TOKEN: accessToken,
    MERCADOPAGO_WEBHOOK_SECRET: webhookSecret,
    FACTURAPI_API_URL: facturapi.url,
    FACTURAPI_KEY: apiKey,
    FFMPEG_PATH: '/nonexistent/ffmpeg',
  });
});
test.afterAll(async () => {
  test.setTimeout(90_000);
  await instances.stopAll();
  await mercadoPago?.close();
  await facturapi?.close();
});

/** The Admin gives the demo diploma a price in pesos; returns its id. */
async function priceInPesos(admin: APIRequestContext, origin: string) {
  const list = (await (await admin.get('/api/admin/diplomas')).json()) as { items: { id: string; title: string }[] };
  const id = list.items.find((item) => item.title === diplomaTitle)!.id;
  const current = (await (await admin.get(`/api/admin/diplomas/${id}`)).json()) as Record<string, unknown>;
  const { id: _id, isActive: _active, createdAt: _created, ...input } = current;
  const saved = await admin.put(`/api/admin/diplomas/${id}`, {
    headers: { origin },
    data: { ...input, costMxn: '2499.00' },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  return id;
}

/** The member pays at OXXO; Mercado Pago approves it and notifies the server. */
async function payInPesos(page: Page, diplomaId: string) {
  await page.goto(`/mis-diplomados/diplomado-preview/${diplomaId}`);
  await expect(page.getByRole('heading', { name: diplomaTitle })).toBeVisible({ timeout: 30_000 });
  const created = page.waitForResponse((response) => response.url().endsWith('/purchase/pesos'));
  await page.getByRole('button', { name: 'Efectivo en OXXO' }).click();
  const { paymentId } = (await (await created).json()) as { paymentId: string };
  mercadoPago.approve(paymentId);
  await notify(page, paymentId);
  return paymentId;
}

/** Mercado Pago's notification about a payment, delivered as Mercado Pago sends it. */
async function notify(page: Page, paymentId: string) {
  const hook = mercadoPago.notification('payment', paymentId);
  const response = await page.request.post(
    `/api/payments/webhooks/mercadopago?${new URLSearchParams(hook.query).toString()}`,
    { headers: hook.headers, data: hook.rawBody },
  );
  expect(response.status()).toBe(200);
}

/** Fills the factura form's receiver (its RFC typed by the caller): razón social, régimen, uso and código postal. */
async function fillReceiver(
  page: Page,
  dialog: Locator,
  data: { legalName: string; taxSystem: string; cfdiUse: string; zip: string },
) {
  await dialog.getByLabel('Razón social o nombre').fill(data.legalName);
  await dialog.getByRole('combobox', { name: 'Régimen fiscal' }).click();
  await page.getByRole('option', { name: new RegExp(`^${data.taxSystem} · `) }).click();
  await dialog.getByRole('combobox', { name: 'Uso de CFDI' }).click();
  await page.getByRole('option', { name: new RegExp(`^${data.cfdiUse} · `) }).click();
  await dialog.getByLabel('Código postal fiscal').fill(data.zip);
}

/** Downloads a file by pressing `button`; returns its bytes. */
async function downloaded(page: Page, button: Locator) {
  const download = page.waitForEvent('download');
  await button.click();
  return readFile(await (await download).path());
}

/** Reloads the page until `target` shows: the jobs behind it run after the answers that queued them. */
async function reloadUntilVisible(page: Page, target: Locator, timeout = 60_000) {
  await expect(async () => {
    await page.reload();
    await expect(target).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout });
}

/**
 * The Admin's page, and a new Premium member who paid a diploma in pesos, on their history `width` pixels wide once
 * its receipt can be invoiced ('Solicitar factura').
 */
async function paidOnHistory(browser: Browser, name: string, width: number) {
  const adminPage = await deviceSignedIn(browser, site, 'admin');
  const diplomaId = await priceInPesos(adminPage.request, new URL(site.url).origin);
  const member = await freshPremiumMember(browser, site.url, adminPage.request, name);
  const { page } = member;
  await page.setViewportSize({ width, height: 900 });
  const mercadoPagoId = await payInPesos(page, diplomaId);
  await page.goto('/perfil/pago');
  const ask = page.getByRole('button', { name: 'Solicitar factura' });
  // the receipt is made by a job once the approval is applied
  await reloadUntilVisible(page, ask);
  return { adminPage, member, page, mercadoPagoId, ask };
}

test('a member pays in pesos, asks for a factura (an invalid RFC refused under its field), and downloads its PDF and XML', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { adminPage, member, page, mercadoPagoId, ask } = await paidOnHistory(browser, 'Factura E2E', 360);
  // on a phone each payment is a card: its factura's button is in sight, not past a table's right edge
  const box = (await ask.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  await page.screenshot({ path: test.info().outputPath('history-360.png'), fullPage: true });
  await ask.click();
  const dialog = page.getByRole('dialog', { name: 'Solicitar factura' });
  await dialog.getByLabel('RFC').fill('GODE561331GR8');
  await fillReceiver(page, dialog, { legalName: 'EMILIA GOMEZ DIAZ', taxSystem: '612', cfdiUse: 'G03', zip: '06600' });
  await dialog.getByRole('button', { name: 'Solicitar factura' }).click();
  await expect(dialog.getByText('El RFC no es válido: revisa letras, fecha y homoclave.')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('form-invalid-360.png'), fullPage: true });
  expect(facturapi.invoices.size).toBe(0);

  await dialog.getByLabel('RFC').fill('GODE561231GR8');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: test.info().outputPath('form-1280.png'), fullPage: true });
  await dialog.getByRole('button', { name: 'Solicitar factura' }).click();
  await expect(page.getByText('Factura emitida a GODE561231GR8')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: test.info().outputPath('history-issued-1280.png'), fullPage: true });
  expect(facturapi.invoices.size).toBe(1);

  const pdf = await downloaded(page, page.getByRole('button', { name: 'Descargar PDF' }));
  expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
  const xml = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar XML' }).click();
  const xmlDownload = await xml;
  expect(xmlDownload.suggestedFilename()).toMatch(/\.xml$/);
  expect(await readFile(await xmlDownload.path(), 'utf8')).toContain('Rfc="GODE561231GR8"');
  await page.setViewportSize({ width: 360, height: 900 });
  await page.screenshot({ path: test.info().outputPath('history-issued-360.png'), fullPage: true });

  // the Admin sees it in the console
  for (const width of [1280, 360]) {
    await adminPage.setViewportSize({ width, height: 900 });
    await adminPage.goto('/admin/facturas');
    await expect(adminPage.getByRole('cell', { name: 'GODE561231GR8' })).toBeVisible({ timeout: 30_000 });
    await adminPage.screenshot({ path: test.info().outputPath(`admin-facturas-${width}.png`), fullPage: true });
  }
  // on a phone each payment is a card: its actions are in sight, and nothing pushes the page sideways
  const cancelFactura = adminPage
    .getByRole('row', { name: /GODE561231GR8/ })
    .getByRole('button', { name: 'Cancelar factura' });
  const action = (await cancelFactura.boundingBox())!;
  expect(action.x + action.width).toBeLessThanOrEqual(360);
  expect(await adminPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // a refund cancels the factura (motive 02): pending until the receiver accepts, and the history shows both
  mercadoPago.refund(mercadoPagoId);
  await notify(page, mercadoPagoId);
  await reloadUntilVisible(page, page.getByText('Cancelación pendiente: el receptor debe aceptarla'));
  await page.screenshot({ path: test.info().outputPath('history-cancel-pending-360.png'), fullPage: true });
  const [invoice] = [...facturapi.invoices.values()];
  const accepted = await page.request.post('/api/payments/webhooks/facturapi', {
    data: facturapi.answerCancellation(invoice!.id, 'accepted'),
  });
  expect(accepted.status()).toBe(200);
  // the notification's job runs after the answer
  await reloadUntilVisible(page, page.getByText('Factura cancelada'), 30_000);
  expect(invoice).toMatchObject({ status: 'canceled', motive: '02' });
  await member.context.close();
  await adminPage.context().close();
});

test('the month-end job invoices the receipts nobody invoiced globally, and the Admin downloads its PDF and XML', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const adminPage = await deviceSignedIn(browser, site, 'admin');
  const diplomaId = await priceInPesos(adminPage.request, new URL(site.url).origin);
  const member = await freshPremiumMember(browser, site.url, adminPage.request, 'Factura Global E2E');
  await payInPesos(member.page, diplomaId);
  const open = () => [...facturapi.receipts.values()].filter((each) => each.status === 'open');
  await expect.poll(() => open().length, { timeout: 60_000 }).toBe(1);
  // the month ends: the receipt nobody invoiced was made last month, as Facturapi keeps it
  const { key, from } = previousMonth(new Date());
  open()[0]!.date = new Date(from.getTime() + 86_400_000);

  await adminPage.setViewportSize({ width: 1280, height: 900 });
  await adminPage.goto('/admin/facturas');
  await adminPage.getByRole('button', { name: 'Emitir la del mes pasado' }).click();
  const month = adminPage.getByText(new RegExp(`^${key} · `)).locator('..');
  await expect(month).toBeVisible({ timeout: 30_000 });
  await adminPage.screenshot({ path: test.info().outputPath('admin-global-1280.png'), fullPage: true });
  const pdf = await downloaded(adminPage, month.getByRole('button', { name: 'PDF' }));
  expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
  const xml = await downloaded(adminPage, month.getByRole('button', { name: 'XML' }));
  expect(xml.toString('utf8')).toContain('Rfc="XAXX010101000"');
  await adminPage.setViewportSize({ width: 360, height: 900 });
  await adminPage.reload();
  await expect(month).toBeVisible({ timeout: 30_000 });
  await adminPage.screenshot({ path: test.info().outputPath('admin-global-360.png'), fullPage: true });

  await member.page.goto('/perfil/pago');
  await expect(member.page.getByText('Incluido en la factura global del mes')).toBeVisible({ timeout: 30_000 });
  await member.context.close();
  await adminPage.context().close();
});

test('the Admin invoices a payment in dollars by hand, with the day’s exchange rate', async ({ browser }) => {
  test.setTimeout(120_000);
  const adminPage = await deviceSignedIn(browser, site, 'admin');
  await adminPage.setViewportSize({ width: 1280, height: 900 });
  await adminPage.goto('/admin/facturas');
  // the demo Premium member's monthly payment through PayPal, in dollars
  const row = adminPage.getByRole('row', { name: /Membresía Premium mensual/ }).first();
  await row.getByRole('button', { name: 'Emitir factura' }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Solicitar factura' });
  await dialog.getByLabel('RFC').fill('HVE010101AB1');
  await fillReceiver(adminPage, dialog, {
    legalName: 'HOSPITAL VETERINARIO DEL CENTRO',
    taxSystem: '601',
    cfdiUse: 'G03',
    zip: '44100',
  });
  await dialog.getByRole('button', { name: 'Solicitar factura' }).click();
  await expect(dialog.getByText('Escribe el tipo de cambio en pesos por dólar.')).toBeVisible();
  await dialog.getByLabel('Tipo de cambio (pesos por dólar)').fill('17.2543');
  await adminPage.screenshot({ path: test.info().outputPath('admin-dollars-form-1280.png'), fullPage: true });
  await dialog.getByRole('button', { name: 'Solicitar factura' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  const issued = adminPage.getByRole('row', { name: /HVE010101AB1/ });
  await expect(issued).toContainText('Factura emitida');
  expect([...facturapi.invoices.values()].find((each) => each.currency === 'USD')).toMatchObject({
    exchange: 17.2543,
    payment_form: '31',
    customer: { tax_id: 'HVE010101AB1' },
  });
  const xml = await downloaded(adminPage, issued.getByRole('button', { name: 'XML' }));
  expect(xml.toString('utf8')).toContain('Rfc="HVE010101AB1"');
  await adminPage.setViewportSize({ width: 360, height: 900 });
  await adminPage.reload();
  await expect(issued).toContainText('Factura emitida', { timeout: 30_000 });
  await adminPage.screenshot({ path: test.info().outputPath('admin-dollars-360.png'), fullPage: true });
  await adminPage.context().close();
});

test('a partial refund gives the member a nota de crédito under the factura, with its PDF and XML', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { adminPage, member, page, mercadoPagoId, ask } = await paidOnHistory(browser, 'Nota E2E', 1280);
  await ask.click();
  const dialog = page.getByRole('dialog', { name: 'Solicitar factura' });
  await dialog.getByLabel('RFC').fill('GODE561231GR8');
  await fillReceiver(page, dialog, { legalName: 'EMILIA GOMEZ DIAZ', taxSystem: '612', cfdiUse: 'G03', zip: '06600' });
  await dialog.getByRole('button', { name: 'Solicitar factura' }).click();
  await expect(page.getByText('Factura emitida a GODE561231GR8')).toBeVisible({ timeout: 30_000 });

  // Mercado Pago gives back $500 of the $2,499: the payment stays approved, partially refunded
  mercadoPago.refundPart(mercadoPagoId, 500);
  await notify(page, mercadoPagoId);
  const note = page.getByText('Nota de crédito por $500.00 MXN', { exact: true });
  await reloadUntilVisible(page, note);
  await expect(page.getByRole('row', { name: /Reembolso parcial/ })).toContainText('Factura emitida a GODE561231GR8');
  await page.screenshot({ path: test.info().outputPath('history-credit-note-1280.png'), fullPage: true });
  const pdf = await downloaded(
    page,
    page.getByRole('button', { name: 'Descargar PDF de la nota de crédito por $500.00 MXN' }),
  );
  expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
  const xml = await downloaded(
    page,
    page.getByRole('button', { name: 'Descargar XML de la nota de crédito por $500.00 MXN' }),
  );
  const factura = [...facturapi.invoices.values()].find(
    (each) => each.type === 'I' && each.customer.tax_id === 'GODE561231GR8' && each.status === 'valid',
  )!;
  expect(xml.toString('utf8')).toContain('TipoDeComprobante="E"');
  expect(xml.toString('utf8')).toContain(`<cfdi:CfdiRelacionado UUID="${factura.uuid}"/>`);
  await page.setViewportSize({ width: 360, height: 900 });
  await page.screenshot({ path: test.info().outputPath('history-credit-note-360.png'), fullPage: true });
  // the console lists it under the factura
  await adminPage.setViewportSize({ width: 1280, height: 900 });
  await adminPage.goto('/admin/facturas');
  await expect(adminPage.getByRole('row', { name: /Nota de crédito por \$500\.00 MXN/ })).toContainText(
    'GODE561231GR8',
    { timeout: 30_000 },
  );
  await adminPage.screenshot({ path: test.info().outputPath('admin-credit-note-1280.png'), fullPage: true });
  await member.context.close();
  await adminPage.context().close();
});
