import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { demoPassword, expect, loginAs, saveScreenshot, test } from './fixtures.ts';
import { adminRequest, buildCxVetDiploma, freshPremiumMember } from './diploma-setup.ts';

const demoAula = 'Aula de Cirugía de Tejidos Blandos';

async function screenshots(page: Page, name: string) {
  await saveScreenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 360, height: 740 });
  await saveScreenshot(page, `${name}-360`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('an aula administrator filters the progress of their aula and downloads it as xlsx', async ({ page }) => {
  await loginAs(page, 'classroomAdmin');
  await page.goto('/administrar-aula');
  await page.getByRole('link', { name: `Administrar usuarios de ${demoAula}` }).click();
  const report = page.getByRole('region', { name: 'Progreso del aula' });
  await expect(report.getByText('Miembros', { exact: true })).toBeVisible();
  const table = report.getByRole('table', { name: 'Progreso por miembro' });
  await expect(table).toBeVisible();
  await screenshots(page, 'progreso-aula');

  await report.getByText('Sin actividad', { exact: true }).last().click();
  await expect(report.getByText(/^\d+ miembros?$/)).toBeVisible();
  // every row left is a member with no activity yet
  const statuses = table.getByRole('cell').filter({ hasText: /^(Sin actividad|En progreso|Terminado)$/ });
  for (const text of await statuses.allInnerTexts()) expect(text).toBe('Sin actividad');

  await report.getByRole('textbox', { name: 'Buscar por nombre o correo' }).fill('nadie-con-este-nombre');
  await expect(report.getByText('Ningún miembro coincide.')).toBeVisible();
  await report.getByRole('textbox', { name: 'Buscar por nombre o correo' }).fill('');
  await report.getByText('Todos', { exact: true }).click();
  await expect(table).toBeVisible();

  const download = page.waitForEvent('download');
  await report.getByRole('link', { name: 'Descargar xlsx' }).click();
  expect((await download).suggestedFilename()).toMatch(/^Progreso-.*\.xlsx$/);
});

/** A new account made Premium by the Admin, for the CSV. */
async function premiumAccount(admin: APIRequestContext, origin: string, label: string) {
  const email = `${label}-${randomUUID().slice(0, 8)}@e2e.cxvet.com`;
  const created = await admin.post('/api/admin/users', {
    headers: { origin },
    data: { name: `E2E ${label}`, email, password: demoPassword, phoneNumber: '', organizationId: null },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const upgrade = await admin.post('/api/admin/manual-premium/upgrade', {
    headers: { origin },
    data: { userId: id, period: 'year' },
  });
  expect(upgrade.status(), await upgrade.text()).toBeLessThan(300);
  return email;
}

test('a diploma administrator imports 20 members from a CSV, two bad lines refused in the preview', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const origin = new URL(baseURL!).origin;
  const admin = await adminRequest(browser, baseURL!);
  const director = await freshPremiumMember(browser, baseURL!, admin.request, 'Directora del Diplomado');
  const title = `Diplomado de Importación ${randomUUID().slice(0, 4)}`;
  const { id } = await buildCxVetDiploma(admin.request, origin, title, director.userId);
  const current = (await (await admin.request.get(`/api/admin/diplomas/${id}`)).json()) as Record<string, unknown>;
  const saved = await admin.request.put(`/api/admin/diplomas/${id}`, {
    headers: { origin },
    data: { ...current, adminEmail: director.email },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const emails = ['legacy@demo.cxvet.com'];
  for (let index = 1; index < 20; index += 1) emails.push(await premiumAccount(admin.request, origin, `csv-${index}`));
  await admin.context.close();

  const page = director.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/administrar-diplomado/diplomado/${id}`);
  await page.getByRole('button', { name: 'Administrar Usuarios' }).click();
  await page
    .getByRole('dialog', { name: 'Administrar Usuarios' })
    .getByRole('button', { name: 'Importar usuarios' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Importar usuarios' });
  const csv = [...emails.slice(0, 10), 'basico@demo.cxvet.com', ...emails.slice(10), 'nadie@e2e.cxvet.com'];
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Seleccionar archivo CSV o xlsx' }).click();
  await (await chooser).setFiles({ name: 'alumnos.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.join('\n')) });
  await expect(dialog.getByRole('status')).toContainText('Se agregarán 20 usuarios');
  await expect(dialog.getByRole('status')).toContainText('2 líneas no se agregarán');
  const refused = 'No se puede agregar: ninguna cuenta Premium, Legacy o Admin tiene este correo';
  await expect(dialog.getByText(refused)).toHaveCount(2);
  await screenshots(page, 'diplomado-importar');
  await dialog.getByRole('button', { name: 'Agregar 20 usuarios al diplomado' }).click();
  await expect(page.getByText('Se agregaron 20 usuarios al diplomado.')).toBeVisible();

  const users = page.getByRole('dialog', { name: 'Administrar Usuarios' });
  await expect(users).toBeVisible();
  // the Legacy member, whom the one-by-one list now shows too, is in the diploma
  await users.getByRole('searchbox', { name: 'Buscar' }).fill('legacy@demo');
  await expect(users.getByRole('checkbox', { checked: true })).toHaveCount(1);
  await expect(users.getByText('Legacy', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  const report = page.getByRole('region', { name: 'Progreso del diplomado' });
  await expect(report.getByText('21 miembros')).toBeVisible();
  await screenshots(page, 'diplomado-progreso');
  await director.context.close();
});

test('the Admin reads a diploma’s progress in its console tab and an aula’s under its form', async ({ page }) => {
  await loginAs(page, 'admin');
  const diplomas = (await (await page.request.get('/api/admin/diplomas')).json()) as { items: { id: string }[] };
  await page.goto(`/admin/diplomados/diplomado/${diplomas.items[0]!.id}?tab=progreso`);
  const diplomaReport = page.getByRole('region', { name: 'Progreso del diplomado' });
  await expect(diplomaReport.getByText('Miembros', { exact: true })).toBeVisible();
  await expect(diplomaReport.getByRole('link', { name: 'Descargar xlsx' })).toHaveAttribute(
    'href',
    /^\/api\/admin\/diplomas\/.+\/progress\.xlsx/,
  );
  await screenshots(page, 'admin-diplomado-progreso');
  const aulas = (await (await page.request.get('/api/admin/classrooms')).json()) as {
    items: { id: string; title: string }[];
  };
  const aula = aulas.items.find((item) => item.title === demoAula)!;
  await page.goto(`/admin/aulas/aula/${aula.id}`);
  const aulaReport = page.getByRole('region', { name: 'Progreso del aula' });
  await expect(aulaReport.getByRole('table', { name: 'Progreso por miembro' })).toBeVisible();
  await screenshots(page, 'admin-aula-progreso');
});
