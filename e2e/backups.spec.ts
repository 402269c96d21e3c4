import { checkScreen } from './a11y.ts';
import { expect, loginAs, saveScreenshot, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await loginAs(page, 'admin');
});

test('the Admin opens Respaldos from the console menu, starts a backup and sees it succeed and listed', async ({
  page,
}) => {
  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Respaldos' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Respaldos' })).toBeVisible();
  await expect(page).toHaveTitle('Respaldos · Admin · CxVet');
  await expect(page.getByRole('heading', { name: 'Último respaldo' })).toBeVisible();

  const rows = page.getByRole('table', { name: 'Respaldos guardados' }).getByRole('row');
  const newestBefore = (await rows.count()) > 1 ? await rows.nth(1).textContent() : null;
  const button = page.getByRole('button', { name: 'Respaldar ahora' });
  await button.click();
  await expect(page.getByText(/Respaldo en marcha|Ya hay un respaldo en marcha/).first()).toBeVisible();
  await expect(page.getByText('Correcto')).toBeVisible({ timeout: 60_000 });
  await expect(button).toBeEnabled({ timeout: 60_000 });
  await expect(page.getByText('Desde la consola')).toBeVisible();
  // the new archive heads the list
  await expect(rows.nth(1)).toContainText(/cxvet-respaldo-\d{8}-\d{6}-\d{3}\.tar\.gz/);
  if (newestBefore) await expect(rows.nth(1)).not.toHaveText(newestBefore);
  await expect(page.getByRole('alert').filter({ hasText: 'respaldo falló' })).toHaveCount(0);
  await saveScreenshot(page, 'admin-backups-done-1280');
});

test('the Respaldos screen passes axe and fits at 360 and 1280 px', async ({ page }) => {
  await checkScreen(page, 'admin-backups', '/admin/respaldos', async (p) => {
    await expect(p.getByRole('heading', { name: 'Último respaldo' })).toBeVisible();
  });
});
