import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { freshBasicMember, freshPremiumMember } from './diploma-setup.ts';
import { deviceSignedIn, serverInstances, type Instance } from './server-instances.ts';
import { startMercadoPagoFake, type MercadoPagoFake } from '../src/server/services/payments/simulated-mercadopago.ts';

// A server of its own takes pesos through the strict fake Mercado Pago (the suite's server runs the simulated provider).
// PayPal is configured beside it, as production would be, and never called by these journeys.
const diplomaTitle = 'Diplomado en Anestesia y Analgesia Veterinaria';
const accessToken = 'TEST-e2e';
const webhookSecret = 'secreto-e2e';
let fake: MercadoPagoFake;
let site: Instance;
const instances = serverInstances();

test.describe.configure({ mode: 'serial', retries: 0 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fake = await startMercadoPagoFake({ accessToken, webhookSecret });
  site = await instances.start({
    SEED_DEMO: '1',
    PAYMENTS_PROVIDERS: 'paypal,mercadopago',
    PAYPAL_API_URL: 'http://127.0.0.1:9',
    PAYPAL_CLIENT_ID: 'e2e-client',
    PAYPAL_CLIENT_SECRET: 'e2e-secret',
    PAYPAL_PLAN_MONTHLY: 'P-E2E-MONTHLY',
    PAYPAL_PLAN_ANNUAL: 'P-E2E-ANNUAL',
    PAYPAL_WEBHOOK_ID: 'WH-E2E',
    MERCADOPAGO_API_URL: fake.url,
    MERCADOPAGO_ACCESS_TOKEN: accessToken,
    MERCADOPAGO_WEBHOOK_SECRET: webhookSecret,
    FFMPEG_PATH: '/nonexistent/ffmpeg',
  });
});
test.afterAll(async () => {
  test.setTimeout(90_000);
  await instances.stopAll();
  await fake?.close();
});

/** The demo Admin signed in on this spec's server. */
async function adminOnSite(browser: Browser) {
  const page = await deviceSignedIn(browser, site, 'admin');
  return { request: page.request, context: page.context() };
}

/** The Admin gives the External demo diploma a price in pesos; returns its id. */
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

/** The Admin prices the plans in pesos: 199 MXN a month, 1,999 MXN a year (and the pass). */
async function pricePlansInPesos(admin: APIRequestContext) {
  const prices = await admin.put('/api/admin/prices/mxn', {
    headers: { origin: new URL(site.url).origin },
    data: { monthly: '199.00', annual: '1999.00' },
  });
  expect(prices.status(), await prices.text()).toBe(200);
}

/** Mercado Pago's notification about a payment, delivered to the server as Mercado Pago sends it. */
async function notify(page: Page, paymentId: string) {
  const hook = fake.notification('payment', paymentId);
  const response = await page.request.post(
    `/api/payments/webhooks/mercadopago?${new URLSearchParams(hook.query).toString()}`,
    { headers: hook.headers, data: hook.rawBody },
  );
  expect(response.status()).toBe(200);
}

const isEnrolled = async (page: Page, diplomaId: string) =>
  ((await (await page.request.get(`/api/diplomas/${diplomaId}/enrollment`)).json()) as { isEnrolled: boolean })
    .isEnrolled;

/** A fresh Premium member opens the diploma, chooses OXXO and sees the voucher; returns the payment id. */
async function payAtOxxo(page: Page, diplomaId: string, shot?: string) {
  await page.goto(`/mis-diplomados/diplomado-preview/${diplomaId}`);
  // a first visit on a busy machine: the page's bundle may take a while
  await expect(page.getByRole('heading', { name: diplomaTitle })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('O en pesos: $2,499.00 MXN')).toBeVisible();
  if (shot) await page.screenshot({ path: test.info().outputPath(`${shot}-choice.png`), fullPage: true });
  const created = page.waitForResponse((response) => response.url().endsWith('/purchase/pesos'));
  await page.getByRole('button', { name: 'Efectivo en OXXO' }).click();
  const payment = (await (await created).json()) as { paymentId: string };
  await expect(page.getByRole('heading', { name: /^Paga en OXXO antes del / })).toBeVisible();
  await expect(page.getByText('$2,499.00 MXN', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ver ficha de pago para OXXO' })).toBeVisible();
  if (shot) await page.screenshot({ path: test.info().outputPath(`${shot}-voucher.png`), fullPage: true });
  return payment.paymentId;
}

test('a member pays a diploma at OXXO, sees the voucher, and is enrolled only once the payment is approved; a refund removes it', async ({
  browser,
}) => {
  const baseURL = site.url;
  test.setTimeout(120_000);
  const admin = await adminOnSite(browser);
  const diplomaId = await priceInPesos(admin.request, new URL(baseURL).origin);
  const member = await freshPremiumMember(browser, baseURL, admin.request, 'Pago OXXO E2E');
  for (const width of [360, 1280]) {
    await member.page.setViewportSize({ width, height: 900 });
    await member.page.goto(`/mis-diplomados/diplomado-preview/${diplomaId}`);
    await expect(member.page.getByRole('button', { name: 'Transferencia SPEI' })).toBeVisible();
    await member.page.screenshot({ path: test.info().outputPath(`pesos-choice-${width}.png`), fullPage: true });
  }
  await member.page.setViewportSize({ width: 360, height: 900 });
  const paymentId = await payAtOxxo(member.page, diplomaId, 'oxxo-360');
  await notify(member.page, paymentId);
  expect(await isEnrolled(member.page, diplomaId)).toBe(false);
  await member.page.goto('/perfil/pago');
  await expect(member.page.getByRole('heading', { name: 'Pagos pendientes' })).toBeVisible({ timeout: 30_000 });
  await expect(member.page.getByText(/\$2,499\.00 MXN · Pendiente/)).toBeVisible();
  await member.page.screenshot({ path: test.info().outputPath('profile-pending-360.png'), fullPage: true });

  fake.approve(paymentId);
  await notify(member.page, paymentId);
  await expect.poll(() => isEnrolled(member.page, diplomaId)).toBe(true);
  await member.page.goto('/perfil/pago');
  // paid in pesos, shown in pesos: never a conversion
  await expect(member.page.getByRole('cell', { name: '$2,499.00 MXN' })).toBeVisible({ timeout: 30_000 });
  await expect(member.page.getByRole('heading', { name: 'Pagos pendientes' })).toHaveCount(0);
  await member.page.goto(`/mis-diplomados/diplomado-preview/${diplomaId}`);
  await expect(member.page.getByRole('link', { name: 'Entrar al diplomado' })).toBeVisible({ timeout: 30_000 });

  fake.refund(paymentId);
  await notify(member.page, paymentId);
  await expect.poll(() => isEnrolled(member.page, diplomaId)).toBe(false);
  await member.context.close();
  await admin.context.close();
});

test('a voucher that expires leaves no access', async ({ browser }) => {
  const baseURL = site.url;
  test.setTimeout(120_000);
  const admin = await adminOnSite(browser);
  const diplomaId = await priceInPesos(admin.request, new URL(baseURL).origin);
  const member = await freshPremiumMember(browser, baseURL, admin.request, 'Ficha vencida E2E');
  await member.page.setViewportSize({ width: 1280, height: 900 });
  const paymentId = await payAtOxxo(member.page, diplomaId, 'oxxo-1280');
  fake.expire(paymentId);
  await notify(member.page, paymentId);
  // the job has run once the payment is no longer listed as pending
  await expect
    .poll(
      async () =>
        ((await (await member.page.request.get('/api/profile/payments/pending')).json()) as { payments: unknown[] })
          .payments.length,
    )
    .toBe(0);
  expect(await isEnrolled(member.page, diplomaId)).toBe(false);
  await member.page.reload();
  await expect(member.page.getByRole('button', { name: 'Comprar acceso' })).toBeVisible();
  await member.context.close();
  await admin.context.close();
});

test('a member subscribes by card in pesos on Mercado Pago’s page and is Premium', async ({ browser }) => {
  const baseURL = site.url;
  test.setTimeout(120_000);
  const admin = await adminOnSite(browser);
  await pricePlansInPesos(admin.request);
  const member = await freshBasicMember(browser, baseURL, 'Tarjeta en pesos E2E');
  const { page } = member;
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/perfil');
    await page.getByRole('radio', { name: 'Tarjeta de crédito o débito (pesos)' }).check({ timeout: 30_000 });
    // the member sees the price of the method chosen, never a conversion of ours
    await expect(page.getByRole('radio', { name: 'Premium mensual · $199.00 MXN' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`card-pesos-choice-${width}.png`), fullPage: true });
  }
  await page.getByRole('button', { name: 'Continuar en Mercado Pago' }).click();
  await page.waitForURL(/\/subscriptions\/checkout/);
  await expect(page.getByText('$199.00 MXN cada 1 mes(es)')).toBeVisible();
  expect(((await (await page.request.get('/api/me')).json()) as { user: { type: string } }).user.type).toBe('Gratis');
  await page.getByRole('button', { name: 'Suscribirme con tarjeta' }).click();
  await page.waitForURL(/\/perfil/);
  await expect(page.getByText('Tu membresía Premium está activa.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Plan mensual')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('card-pesos-premium-360.png'), fullPage: true });
  await member.context.close();
  await admin.context.close();
});

test('a Basic member asks for Premium anual (pago único) at OXXO and sees the voucher on our page', async ({
  browser,
}) => {
  const baseURL = site.url;
  test.setTimeout(120_000);
  const admin = await adminOnSite(browser);
  await pricePlansInPesos(admin.request);
  const member = await freshBasicMember(browser, baseURL, 'Pase anual E2E');
  const { page } = member;
  await page.setViewportSize({ width: 360, height: 900 });
  await page.goto('/perfil');
  await page.getByRole('radio', { name: 'Efectivo en OXXO' }).check({ timeout: 30_000 });
  await expect(page.getByText('Premium anual (pago único) · $1,999.00 MXN')).toBeVisible();
  await page.getByRole('button', { name: 'Generar ficha para OXXO' }).click();
  await expect(page.getByRole('heading', { name: /^Paga en OXXO antes del / })).toBeVisible();
  await expect(page.getByText('$1,999.00 MXN', { exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('pass-oxxo-360.png'), fullPage: true });
  const pending = (await (await page.request.get('/api/profile/payments/pending')).json()) as {
    payments: { paymentId: string }[];
  };
  expect(pending.payments).toHaveLength(1);
  fake.approve(pending.payments[0]!.paymentId);
  await notify(page, pending.payments[0]!.paymentId);
  // the page with the voucher, left open, asks every few seconds and shows Premium once the job has applied it
  await expect(page.getByText(/Premium anual \(pago único\) hasta el/)).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('heading', { name: /^Paga en OXXO antes del / })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('pass-premium-360.png'), fullPage: true });
  await member.context.close();
  await admin.context.close();
});

test('a member pays a diploma by card in pesos on Mercado Pago’s page: a rejected card first, then enrolled', async ({
  browser,
}) => {
  const baseURL = site.url;
  test.setTimeout(120_000);
  const admin = await adminOnSite(browser);
  const diplomaId = await priceInPesos(admin.request, new URL(baseURL).origin);
  const member = await freshPremiumMember(browser, baseURL, admin.request, 'Diplomado con tarjeta E2E');
  const { page } = member;
  await page.setViewportSize({ width: 360, height: 900 });
  await page.goto(`/mis-diplomados/diplomado-preview/${diplomaId}`);
  await expect(page.getByRole('heading', { name: diplomaTitle })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Tarjeta de crédito o débito (pesos)' }).click();
  await page.waitForURL(/\/checkout\/v1\/redirect/);
  await page.getByRole('button', { name: 'Tarjeta rechazada' }).click();
  await page.waitForURL(/\/mis-diplomados\/diplomado-preview\//);
  await expect(page.getByText('El pago fue rechazado. Intenta de nuevo con otro medio de pago.')).toBeVisible({
    timeout: 30_000,
  });
  expect(await isEnrolled(page, diplomaId)).toBe(false);
  await page.screenshot({ path: test.info().outputPath('diploma-card-rejected-360.png'), fullPage: true });

  await page.getByRole('button', { name: 'Tarjeta de crédito o débito (pesos)' }).click();
  await page.waitForURL(/\/checkout\/v1\/redirect/);
  await page.getByRole('button', { name: 'Pagar con tarjeta' }).click();
  await page.waitForURL(/\/mis-diplomados\/diplomado-preview\//);
  await expect(page.getByText('Ya tienes acceso al diplomado.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: 'Entrar al diplomado' })).toBeVisible();
  // the address no longer carries the payment: a reload asks nothing again
  expect(new URL(page.url()).search).toBe('');
  await page.screenshot({ path: test.info().outputPath('diploma-card-approved-360.png'), fullPage: true });
  await member.context.close();
  await admin.context.close();
});

test('a Basic member pays Premium anual (pago único) by card on Mercado Pago’s page and is Premium', async ({
  browser,
}) => {
  const baseURL = site.url;
  test.setTimeout(120_000);
  const admin = await adminOnSite(browser);
  await pricePlansInPesos(admin.request);
  const member = await freshBasicMember(browser, baseURL, 'Pase con tarjeta E2E');
  const { page } = member;
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/perfil');
    await page.getByRole('radio', { name: 'Tarjeta de crédito o débito (pesos)' }).check({ timeout: 30_000 });
    await page.getByRole('radio', { name: 'Premium anual (pago único) · $1,999.00 MXN' }).check();
    await expect(page.getByText(/Pagas una sola vez en el sitio de Mercado Pago/)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`pass-card-choice-${width}.png`), fullPage: true });
  }
  await page.getByRole('button', { name: 'Continuar en Mercado Pago' }).click();
  await page.waitForURL(/\/checkout\/v1\/redirect/);
  await page.getByRole('button', { name: 'Pagar con tarjeta' }).click();
  await page.waitForURL(/\/perfil/);
  await expect(page.getByText('Tu membresía Premium está activa.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Premium anual \(pago único\) hasta el/)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('pass-card-premium-360.png'), fullPage: true });
  await member.context.close();
  await admin.context.close();
});

test('at the end of sign-up the member pays Premium by card in pesos, or asks for the pass at OXXO', async ({
  browser,
}) => {
  const baseURL = site.url;
  test.setTimeout(120_000);
  const admin = await adminOnSite(browser);
  await pricePlansInPesos(admin.request);

  const card = await freshBasicMember(browser, baseURL, 'Registro con tarjeta E2E');
  await card.page.setViewportSize({ width: 360, height: 900 });
  await card.page.goto('/registro-finalizar?plan=monthly');
  await card.page.getByRole('radio', { name: 'Tarjeta de crédito o débito (pesos)' }).check({ timeout: 30_000 });
  await expect(card.page.getByText('Premium mensual · $199.00 MXN')).toBeVisible();
  await card.page.screenshot({ path: test.info().outputPath('signup-pesos-choice-360.png'), fullPage: true });
  await card.page.getByRole('button', { name: 'Continuar en Mercado Pago' }).click();
  await card.page.waitForURL(/\/subscriptions\/checkout/);
  await card.page.getByRole('button', { name: 'Suscribirme con tarjeta' }).click();
  await card.page.waitForURL(/\/registro/);
  await expect(card.page.getByRole('heading', { level: 1, name: /^¡Bienvenido a CxVet Premium/ })).toBeVisible({
    timeout: 30_000,
  });

  const cash = await freshBasicMember(browser, baseURL, 'Registro en OXXO E2E');
  await cash.page.goto('/registro-finalizar?plan=annual');
  // OXXO and SPEI pay the annual plan once: the monthly plan is not offered there
  await cash.page.getByRole('radio', { name: 'Efectivo en OXXO' }).check({ timeout: 30_000 });
  await expect(cash.page.getByText('Premium anual (pago único) · $1,999.00 MXN')).toBeVisible();
  await cash.page.getByRole('button', { name: 'Generar ficha para OXXO' }).click();
  await expect(cash.page.getByRole('heading', { name: /^Paga en OXXO antes del / })).toBeVisible();
  await expect(cash.page.getByRole('link', { name: 'Ir a Mi CxVet' })).toBeVisible();
  await cash.page.goto('/registro-finalizar?plan=monthly');
  await expect(cash.page.getByRole('radio', { name: 'Efectivo en OXXO' })).toHaveCount(0);
  await card.context.close();
  await cash.context.close();
  await admin.context.close();
});
