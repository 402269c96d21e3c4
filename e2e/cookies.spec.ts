import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures.ts';

test.use({ acceptCookies: false });

test('the cookie notice shows until ACEPTAR is pressed and stays accepted after a reload', async ({ page }) => {
  await page.goto('/');
  const notice = page.getByRole('dialog', { name: 'USO DE COOKIES' });
  await expect(notice).toBeVisible();

  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => v.id)).toEqual([]);

  await notice.getByRole('button', { name: 'ACEPTAR' }).click();
  await expect(notice).toBeHidden();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'CxVet', level: 1 })).toBeVisible();
  await expect(notice).toBeHidden();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await expect(notice).toBeHidden();
});

test('the cookie notice also shows on any other first page', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('dialog', { name: 'USO DE COOKIES' })).toBeVisible();
});
