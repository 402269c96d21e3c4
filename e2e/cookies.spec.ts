import { expectNoSeriousAxeViolations } from './a11y.ts';
import { expect, test } from './fixtures.ts';

test.use({ acceptCookies: false });
// axe and several page loads on a busy machine
test.beforeEach(() => test.setTimeout(90_000));

test('the cookie notice shows until ACEPTAR is pressed and stays accepted after a reload', async ({ page }) => {
  await page.goto('/');
  const notice = page.getByRole('dialog', { name: 'USO DE COOKIES' });
  await expect(notice).toBeVisible();

  await expectNoSeriousAxeViolations(page, { allRules: true });

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

test('Escape hides the notice for this page only; it comes back on the next page until ACEPTAR', async ({ page }) => {
  await page.goto('/login');
  const notice = page.getByRole('dialog', { name: 'USO DE COOKIES' });
  await expect(notice).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(notice).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Correo electrónico' })).toBeEditable();

  await page.goto('/FAQ');
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'ACEPTAR' }).click();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await expect(notice).toHaveCount(0);
});

test('on a certificate’s verification page the notice is a bar that covers nothing', async ({ page }) => {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    await page.goto('/certificados/NOEXISTE2345');
    const result = page.getByText('No encontramos este certificado');
    await expect(result).toBeVisible();
    const notice = page.getByRole('dialog', { name: 'USO DE COOKIES' });
    await expect(notice).toBeVisible();
    const [bar, shown] = [await notice.boundingBox(), await result.boundingBox()];
    expect(bar!.y + bar!.height, 'the bar ends above the result').toBeLessThanOrEqual(shown!.y);
    // nothing behind it is inert: the page's own links work with the notice shown
    await expect(page.getByRole('heading', { level: 1, name: 'Verificación de constancia' })).toBeInViewport();
    await page.keyboard.press('Escape');
    await expect(notice).toBeHidden();
  }
});
