import type { Page } from '@playwright/test';
import { expect, saveScreenshot, test } from './fixtures.ts';

const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
let counter = 0;
const freshEmail = (label: string) => `e2e-pagos-${label}-${runId}-${counter++}@example.com`;
const password = 'Clave1234';

/** A new Basic member of our own (the demo accounts belong to every spec), signed in on this page. */
async function signUp(page: Page, baseURL: string) {
  const email = freshEmail('miembro');
  const response = await page.request.post('/api/account/signup', {
    headers: { origin: new URL(baseURL).origin },
    data: {
      plan: 'monthly',
      name: 'Pagos E2E',
      email,
      confirmEmail: email,
      phoneNumber: '+525512345678',
      confirmPhoneNumber: '+525512345678',
      password,
      confirmPassword: password,
      country: 'México',
      city: 'Puebla',
      homeUniversity: '',
      organizationId: null,
      promoMail: false,
      newsMail: false,
      terms: true,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return email;
}

async function startCheckout(page: Page, baseURL: string) {
  const response = await page.request.post('/api/payments/subscriptions', {
    headers: { origin: new URL(baseURL).origin },
    data: { plan: 'monthly', returnTo: 'profile' },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { subscriptionId: string; approvalUrl: string };
}

test('every page says payments are simulated while the simulated provider is active', async ({ page }) => {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    await page.goto('/');
    await expect(page.getByText('Modo de pruebas: los pagos son simulados')).toBeVisible();
    await saveScreenshot(page, `test-mode-banner-${width}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
  }
  await page.goto('/login');
  await expect(page.getByText('Modo de pruebas: los pagos son simulados')).toBeVisible();
});

test('two checkouts in a row leave one live subscription, and the downgrade stops it', async ({ page, baseURL }) => {
  // a whole journey through two checkouts and the profile
  test.setTimeout(90_000);
  await signUp(page, baseURL!);
  const first = await startCheckout(page, baseURL!);
  const second = await startCheckout(page, baseURL!);

  // the second tab pays
  await page.goto(second.approvalUrl);
  await page.getByRole('button', { name: 'Aprobar suscripción' }).click();
  await expect(page).toHaveURL(/\/perfil/);

  // the forgotten first tab pays too: the provider cancels it at once instead of charging monthly
  await page.goto(first.approvalUrl);
  await page.getByRole('button', { name: 'Aprobar suscripción' }).click();
  await expect(async () => {
    await page.goto(`/pago-simulado/suscripcion/${first.subscriptionId}`);
    await expect(page.getByText('Cancelada')).toBeVisible({ timeout: 1000 });
  }).toPass();

  await page.goto('/perfil');
  await page.getByRole('button', { name: 'Cambiar a membresía Básica' }).click();
  await page
    .getByRole('dialog', { name: 'Cambiar a membresía Básica' })
    .getByRole('button', { name: 'Cambiar a Básica' })
    .click();
  await expect(page.getByText('Cambio a Básica programado')).toBeVisible();
  await page.goto(`/pago-simulado/suscripcion/${second.subscriptionId}`);
  await expect(page.getByText('Suspendida')).toBeVisible();
  await saveScreenshot(page, 'simulated-checkout-suspended-1280');
});
