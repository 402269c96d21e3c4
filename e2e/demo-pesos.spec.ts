import { expect, test } from './fixtures.ts';
import { adminRequest, freshPremiumMember } from './diploma-setup.ts';

// The demo (simulated provider, demo content) takes pesos through the simulated Mercado Pago under /simulado/mercadopago.
const diplomaTitle = 'Diplomado en Anestesia y Analgesia Veterinaria';

test('in the demo a member pays a diploma at OXXO and simulates the payment on the voucher page', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await adminRequest(browser, baseURL!);
  const list = (await (await admin.request.get('/api/admin/diplomas')).json()) as {
    items: { id: string; title: string }[];
  };
  const diplomaId = list.items.find((item) => item.title === diplomaTitle)!.id;
  const member = await freshPremiumMember(browser, baseURL!, admin.request, 'Demo en pesos E2E');
  const { page, context } = member;
  await page.setViewportSize({ width: 360, height: 900 });
  await page.goto(`/mis-diplomados/diplomado-preview/${diplomaId}`);
  await expect(page.getByText('O en pesos: $2,299.00 MXN')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Efectivo en OXXO' }).click();
  await expect(page.getByRole('heading', { name: /^Paga en OXXO antes del / })).toBeVisible();

  const opening = context.waitForEvent('page');
  await page.getByRole('link', { name: 'Ver ficha de pago para OXXO' }).click();
  const voucher = await opening;
  await expect(voucher.getByRole('heading', { name: 'Ficha de pago en OXXO' })).toBeVisible();
  expect(new URL(voucher.url()).origin).toBe(new URL(baseURL!).origin);
  await voucher.screenshot({ path: test.info().outputPath('demo-voucher-360.png'), fullPage: true });
  await voucher.getByRole('button', { name: 'Simular pago en OXXO' }).click();
  await expect(voucher.getByText('Estado: approved')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('link', { name: 'Entrar al diplomado' })).toBeVisible({ timeout: 30_000 });
  await context.close();
  await admin.context.close();
});
