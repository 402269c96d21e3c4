import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { request, type APIRequestContext, type Page } from '@playwright/test';
import { authFile, demoPassword, expect, loginAs, saveScreenshot, test } from './fixtures.ts';

const demoFile = (name: string) => path.join(process.cwd(), 'assets', 'demo', name);

/** The console's API as the demo Admin, for setting up accounts, aulas and diplomas. */
async function adminApi(baseURL: string): Promise<APIRequestContext> {
  return request.newContext({
    baseURL,
    storageState: authFile('admin'),
    extraHTTPHeaders: { origin: new URL(baseURL).origin },
  });
}

async function upload(api: APIRequestContext, target: string, recordId: string, file: string) {
  const mimeType = file.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg';
  const response = await api.post(`/api/admin/uploads?target=${target}&recordId=${recordId}`, {
    multipart: { file: { name: path.basename(file), mimeType, buffer: fs.readFileSync(demoFile(file)) } },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { key: string }).key;
}

async function createAccount(api: APIRequestContext, label: string, organizationId: string | null) {
  const email = `${label}-${randomUUID().slice(0, 8)}@e2e.cxvet.com`;
  const response = await api.post('/api/admin/users', {
    data: { name: `E2E ${label}`, email, password: demoPassword, phoneNumber: '', organizationId },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function confirmScreens(page: Page, name: string) {
  await saveScreenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 360, height: 740 });
  await saveScreenshot(page, `${name}-360`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('deactivating an aula asks first, says how many users leave it, and Cancelar changes nothing', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(baseURL!);
  const organizations = (await (await api.get('/api/admin/organizations')).json()).items as {
    id: string;
    type: string;
  }[];
  const organization = organizations.find((each) => each.type === 'Universidad')!;
  const users = [await createAccount(api, 'uno', organization.id), await createAccount(api, 'dos', organization.id)];
  const videos = (await (await api.get('/api/admin/classrooms/videos')).json()).items as { id: string }[];
  const id = randomUUID();
  const title = `Aula desactivar ${id.slice(0, 6)}`;
  const saved = await api.put(`/api/admin/classrooms/${id}`, {
    data: {
      title,
      description: '',
      accessType: 'Acceso controlado',
      organizationType: 'Universidad',
      organizationId: organization.id,
      expiresAt: new Date(Date.now() + 60 * 86_400_000).toISOString(),
      previewImage: await upload(api, 'classroom-preview-image', id, 'preview-azul.jpg'),
      previewPdf: await upload(api, 'classroom-preview-pdf', id, 'guia.pdf'),
      procedureIds: [videos[0]!.id],
      addedUserIds: users,
      adminUserId: null,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const stored = async () =>
    (await (await api.get(`/api/admin/classrooms/${id}`)).json()) as { isActive: boolean; userCount: number };

  await loginAs(page, 'admin');
  await page.goto('/admin/aulas');
  await page.getByRole('searchbox', { name: 'Buscar' }).fill(title);
  await page.getByRole('button', { name: `Desactivar ${title}` }).click();
  const ask = page.getByRole('dialog', { name: 'Desactivar aula' });
  await expect(ask).toContainText('Se quitarán los 2 usuarios del aula.');
  await confirmScreens(page, 'aula-deactivate-confirm');
  await ask.getByRole('button', { name: 'Cancelar' }).click();
  await expect(ask).toBeHidden();
  // nothing changed: still active, with both users
  expect(await stored()).toMatchObject({ isActive: true, userCount: 2 });
  await expect(page.getByRole('button', { name: `Desactivar ${title}` })).toBeVisible();

  // confirming deactivates and empties the roster, then offers deletion (spec 3)
  await page.getByRole('button', { name: `Desactivar ${title}` }).click();
  await ask.getByRole('button', { name: 'Desactivar' }).click();
  const remove = page.getByRole('dialog', { name: 'Eliminar Aula' });
  await expect(remove).toBeVisible();
  await remove.getByRole('button', { name: 'Cancelar' }).click();
  expect(await stored()).toMatchObject({ isActive: false, userCount: 0 });
  await expect(page.getByRole('button', { name: `Activar ${title}` })).toBeVisible();
  await api.dispose();
});

test('deactivating a diploma asks first: Cancelar changes nothing, Solo desactivar keeps it and its users', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(baseURL!);
  const member = await createAccount(api, 'inscrita', null);
  expect(
    (await api.post('/api/admin/manual-premium/upgrade', { data: { userId: member, period: 'year' } })).status(),
  ).toBeLessThan(300);
  const id = randomUUID();
  const title = `Diplomado desactivar ${id.slice(0, 6)}`;
  const saved = await api.put(`/api/admin/diplomas/${id}`, {
    data: {
      title,
      descriptionHtml: '<p>Para desactivar.</p>',
      previewImage: await upload(api, 'diploma-preview-image', id, 'preview-azul.jpg'),
      previewPdf: await upload(api, 'diploma-preview-pdf', id, 'guia.pdf'),
      certificateImage: null,
      cost: '0.00',
      kind: 'CxVet',
      organizationId: null,
      adminEmail: '',
      isTest: false,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const options = (await (await api.get('/api/admin/diplomas/options')).json()) as { procedures: { id: string }[] };
  expect(
    (await api.post(`/api/admin/diplomas/${id}/videos`, { data: { procedureId: options.procedures[0]!.id } })).status(),
  ).toBe(200);
  expect((await api.put(`/api/admin/diplomas/${id}/users/${member}`, { data: { assigned: true } })).status()).toBe(200);
  expect((await api.put(`/api/admin/diplomas/${id}/active`, { data: { isActive: true } })).status()).toBe(200);
  const stored = async () => {
    const rows = (await (await api.get('/api/admin/diplomas')).json()).items as {
      id: string;
      isActive: boolean;
      userCount: number;
    }[];
    return rows.find((row) => row.id === id);
  };

  await loginAs(page, 'admin');
  await page.goto('/admin/diplomados');
  await page.getByRole('searchbox', { name: 'Buscar' }).fill(title);
  await page.getByRole('button', { name: `Desactivar ${title}` }).click();
  const ask = page.getByRole('dialog', { name: 'Eliminar Diplomado' });
  await expect(ask).toContainText('Si lo eliminas, se quitará el único usuario inscrito, con su avance.');
  await confirmScreens(page, 'diploma-deactivate-confirm');
  await ask.getByRole('button', { name: 'Cancelar' }).click();
  await expect(ask).toBeHidden();
  expect(await stored()).toMatchObject({ isActive: true, userCount: 1 });
  await expect(page.getByRole('button', { name: `Desactivar ${title}` })).toBeVisible();

  await page.getByRole('button', { name: `Desactivar ${title}` }).click();
  await ask.getByRole('button', { name: 'Solo desactivar' }).click();
  await expect(page.getByRole('button', { name: `Activar ${title}` })).toBeVisible();
  expect(await stored()).toMatchObject({ isActive: false, userCount: 1 });
  await api.dispose();
});
