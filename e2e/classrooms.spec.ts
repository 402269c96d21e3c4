import { randomUUID } from 'node:crypto';
import path from 'node:path';
import dayjs from 'dayjs';
import 'dayjs/locale/es.js';
import { request, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { storageKeys } from '../src/web/lib/storage-keys.ts';
import { authFile, demoPassword, expect, loginAs, saveScreenshot, test } from './fixtures.ts';

const demoFile = (name: string) => path.join(process.cwd(), 'assets', 'demo', name);
const university = 'Universidad Veterinaria del Centro';
const demoAula = 'Aula de Cirugía de Tejidos Blandos';

/** The console's API as the demo Admin, for setting up accounts and aulas. */
async function adminApi(baseURL: string): Promise<APIRequestContext> {
  return request.newContext({
    baseURL,
    storageState: authFile('admin'),
    extraHTTPHeaders: { origin: new URL(baseURL).origin },
  });
}

async function universityId(api: APIRequestContext): Promise<string> {
  const organizations = (await (await api.get('/api/admin/organizations')).json()).items as {
    id: string;
    title: string;
  }[];
  return organizations.find((organization) => organization.title === university)!.id;
}

/** A new Basic account, optionally a member of the demo university. */
async function createAccount(api: APIRequestContext, label: string, organizationId: string | null) {
  const email = `${label}-${randomUUID().slice(0, 8)}@e2e.cxvet.com`;
  const response = await api.post('/api/admin/users', {
    data: { name: `E2E ${label}`, email, password: demoPassword, phoneNumber: '', organizationId },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { email, id: ((await response.json()) as { id: string }).id };
}

/** A page of its own signed in as this account (a second person at another computer). */
async function pageSignedInAs(browser: Browser, baseURL: string, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'es-MX', viewport: { width: 1280, height: 800 } });
  await context.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
  const login = await context.request.post('/api/account/login', {
    data: { email, password: demoPassword },
    headers: { origin: new URL(baseURL).origin },
  });
  expect(login.status(), await login.text()).toBe(200);
  return context.newPage();
}

async function selectOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function chooseFile(page: Page, label: string, file: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: `Seleccionar archivo: ${label}` }).click();
  await (await chooser).setFiles(demoFile(file));
  await expect(page.getByRole('button', { name: `Descartar: ${label}` })).toBeVisible({ timeout: 15_000 });
}

async function screenshots(page: Page, name: string) {
  await saveScreenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 360, height: 740 });
  await saveScreenshot(page, `${name}-360`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('an Admin creates a Universidad aula with a Premium video and a Gratis member, who watches it in full; a Gratis outsider gets the demo', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(baseURL!);
  const organizationId = await universityId(api);
  const member = await createAccount(api, 'alumna', organizationId);
  const outsider = await createAccount(api, 'externo', null);
  const title = `Aula E2E ${Date.now()}`;

  await loginAs(page, 'admin');
  await page.goto('/admin/aulas');
  await expect(page.getByRole('table', { name: 'Aulas' }).getByText(demoAula)).toBeVisible();
  await screenshots(page, 'admin-aulas');
  await page.getByRole('link', { name: 'Crear aula' }).click();
  await expect(page).toHaveURL(/\/admin\/aulas\/crear-aula$/);

  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Este campo es requerido.').first()).toBeVisible();
  await expect(page.getByText('Se requiere la imagen de vista previa.')).toBeVisible();
  await expect(page.getByText('Se requiere la pdf de información previa.')).toBeVisible();
  await expect(page.getByText('Debes seleccionar al menos un video.')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Organización', exact: true })).toBeDisabled();

  await page.getByRole('textbox', { name: 'Título' }).fill(title);
  await selectOption(page, 'Tipo de acceso', 'Acceso controlado');
  await selectOption(page, 'Tipo de organización', 'Universidad');
  await selectOption(page, 'Organización', university);
  const expiry = dayjs().add(1, 'month').date(15).locale('es');
  await page.getByRole('button', { name: 'Fecha de expiración' }).click();
  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  await page.getByRole('button', { name: expiry.format('D [de] MMMM [de] YYYY'), exact: true }).click();
  await chooseFile(page, 'Imagen de vista previa', 'preview-azul.jpg');
  await chooseFile(page, 'PDF de información previa', 'guia.pdf');

  const videos = page.getByRole('table', { name: 'Videos del aula' });
  await page.getByRole('searchbox', { name: 'Buscar' }).first().fill('Cesárea');
  await videos.getByRole('checkbox', { name: 'Seleccionar Cesárea en perra' }).check();
  await page.getByRole('searchbox', { name: 'Buscar' }).nth(1).fill(member.email);
  const users = page.getByRole('table', { name: 'Usuarios del aula' });
  await users.getByRole('checkbox', { name: `Seleccionar ${member.email}` }).check();
  // the table is a server page: another search leaves the tick where it was
  await page.getByRole('searchbox', { name: 'Buscar' }).nth(1).fill(outsider.email);
  await expect(page.getByText('Mostrando del 0 al 0 de 0 resultados')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Buscar' }).nth(1).fill(member.email);
  await expect(users.getByRole('checkbox', { name: `Seleccionar ${member.email}` })).toBeChecked();
  // the administrator is searched on the server by e-mail
  await page.getByRole('combobox', { name: 'Administrador del aula' }).fill(member.email);
  await page.getByRole('option', { name: member.email, exact: true }).click();
  await screenshots(page, 'admin-aula-form');
  await page.getByRole('button', { name: 'Guardar' }).click();

  await expect(page).toHaveURL(/\/admin\/aulas$/);
  // the form's two search boxes leave with it
  await expect(page.getByRole('searchbox', { name: 'Buscar' })).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Buscar' }).fill(title);
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('Acceso controlado');
  await expect(row).toContainText(university);
  await expect(row.getByRole('cell', { name: '1', exact: true })).toHaveCount(2);
  // the form comes back with the saved member ticked and the administrator's e-mail, without the whole list
  await row.getByRole('link', { name: `Editar ${title}` }).click();
  await expect(page.getByRole('combobox', { name: 'Administrador del aula' })).toHaveValue(member.email);
  // the videos table comes first, with its own switch
  await page.getByRole('checkbox', { name: 'Mostrar solo seleccionados' }).nth(1).check();
  await expect(
    page
      .getByRole('table', { name: 'Usuarios del aula' })
      .getByRole('checkbox', { name: `Seleccionar ${member.email}` }),
  ).toBeChecked();
  await page.getByRole('button', { name: 'Cancelar' }).click();

  const memberPage = await pageSignedInAs(browser, baseURL!, member.email);
  await memberPage.goto('/mis-aulas');
  await expect(memberPage.getByRole('heading', { name: title })).toBeVisible();
  await screenshots(memberPage, 'mis-aulas');
  await memberPage.getByRole('link', { name: `Entrar a ${title}` }).click();
  await expect(memberPage.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(memberPage.getByRole('link', { name: 'Ver información del aula (PDF)' })).toHaveAttribute(
    'href',
    /^\/media\/aulas\//,
  );
  await screenshots(memberPage, 'mis-aulas-aula');
  const classroomUrl = memberPage.url();
  await memberPage.getByRole('link', { name: 'Cesárea en perra', exact: true }).click();
  await expect(memberPage.getByRole('heading', { level: 1, name: 'Cesárea en perra' })).toBeVisible();
  await expect(memberPage.getByRole('link', { name: 'Descargar guía PDF' })).toBeVisible();
  await expect(memberPage.getByText('Video de demostración')).toHaveCount(0);

  const outsiderPage = await pageSignedInAs(browser, baseURL!, outsider.email);
  await outsiderPage.goto(classroomUrl);
  await expect(outsiderPage).toHaveURL(/\/mis-aulas$/);
  await expect(outsiderPage.getByRole('heading', { name: title })).toHaveCount(0);
  await outsiderPage.goto('/procedimientos?q=Ces%C3%A1rea');
  await outsiderPage.getByRole('link', { name: 'Cesárea en perra', exact: true }).click();
  await expect(outsiderPage.getByText('Video de demostración')).toBeVisible();

  await Promise.all([memberPage.context().close(), outsiderPage.context().close(), api.dispose()]);
});

test('the aula administrator adds a user and imports a CSV of three addresses', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const api = await adminApi(baseURL!);
  const organizationId = await universityId(api);
  const single = await createAccount(api, 'individual', organizationId);
  const imported = [
    await createAccount(api, 'lista-a', organizationId),
    await createAccount(api, 'lista-b', organizationId),
    await createAccount(api, 'lista-c', organizationId),
  ];
  await api.dispose();

  await loginAs(page, 'classroomAdmin');
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Administrar aula' }).first().click();
  await expect(page).toHaveURL(/\/administrar-aula$/);
  await screenshots(page, 'administrar-aula');
  await page.getByRole('link', { name: `Administrar usuarios de ${demoAula}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: demoAula })).toBeVisible();

  const table = page.getByRole('table', { name: 'Usuarios del aula' });
  const search = page.getByRole('searchbox', { name: 'Buscar' });
  await search.fill(single.email);
  await table.getByRole('checkbox', { name: `Seleccionar ${single.email}` }).check();
  // a tick and an untick on another search: only the first remains to save
  await search.fill(imported[0]!.email);
  await table.getByRole('checkbox', { name: `Seleccionar ${imported[0]!.email}` }).check();
  await expect(page.getByText('Tienes cambios sin guardar en la lista de usuarios.')).toBeVisible();
  await table.getByRole('checkbox', { name: `Seleccionar ${imported[0]!.email}` }).uncheck();
  await search.fill(single.email);
  await expect(table.getByRole('checkbox', { name: `Seleccionar ${single.email}` })).toBeChecked();
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Se guardó la lista de usuarios del aula.')).toBeVisible();

  await page.getByRole('button', { name: 'Importar usuarios' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar usuarios' });
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Seleccionar archivo CSV o xlsx' }).click();
  const csv = ['correo', ...imported.map((account) => account.email.toUpperCase()), 'admin@demo.cxvet.com'].join('\n');
  await (await chooser).setFiles({ name: 'alumnos.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(dialog.getByRole('status')).toContainText('Se agregarán 3 usuarios');
  await expect(dialog.getByText('No contiene un correo válido')).toBeVisible();
  // an account the aula cannot take is refused without saying whose it is, or whether it exists
  await expect(
    dialog.getByText('No se puede agregar: ninguna cuenta que pueda entrar a esta aula tiene este correo'),
  ).toBeVisible();
  await expect(dialog.getByText('Administrador', { exact: false })).toHaveCount(0);
  await screenshots(page, 'administrar-aula-importar');
  await dialog.getByRole('button', { name: 'Agregar 3 usuarios al aula' }).click();
  await expect(page.getByText('Se agregaron 3 usuarios al aula.')).toBeVisible();

  await page.getByRole('checkbox', { name: 'Mostrar solo seleccionados' }).check();
  // the members, searched one by one: the aula keeps those of earlier runs, more than a page
  for (const account of [single, ...imported]) {
    await search.fill(account.email);
    await expect(table.getByRole('checkbox', { name: `Seleccionar ${account.email}` })).toBeChecked();
  }
  await search.fill('');
  await screenshots(page, 'administrar-aula-detalle');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Exportar' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
});

test('a member of an aula expiring in two days sees the expiry warning once', async ({ browser, baseURL }) => {
  const api = await adminApi(baseURL!);
  const organizationId = await universityId(api);
  const member = await createAccount(api, 'por-expirar', organizationId);
  const id = randomUUID();
  const upload = async (target: string, name: string, file: string) => {
    const { readFile } = await import('node:fs/promises');
    const response = await api.post(`/api/admin/uploads?target=${target}&recordId=${id}`, {
      multipart: { file: { name, mimeType: 'application/octet-stream', buffer: await readFile(demoFile(file)) } },
    });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { key: string }).key;
  };
  const videos = (await (await api.get('/api/admin/classrooms/videos')).json()).items as { id: string; name: string }[];
  const saved = await api.put(`/api/admin/classrooms/${id}`, {
    data: {
      title: `Aula por expirar ${Date.now()}`,
      description: '',
      accessType: 'Acceso controlado',
      organizationType: 'Universidad',
      organizationId,
      expiresAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      previewImage: await upload('classroom-preview-image', 'portada.jpg', 'preview-vino.jpg'),
      previewPdf: await upload('classroom-preview-pdf', 'info.pdf', 'guia.pdf'),
      procedureIds: [videos.find((video) => video.name === 'Ingluviotomía en ave')!.id],
      addedUserIds: [member.id],
      adminUserId: null,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await api.dispose();

  const page = await pageSignedInAs(browser, baseURL!, member.email);
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Aviso de expiración de aula' });
  await expect(modal).toContainText(/expira en (47|48) horas/);
  await screenshots(page, 'aviso-expiracion');
  await modal.getByRole('button', { name: 'Aceptar' }).click();
  await expect(modal).toBeHidden();

  const claimed = page.waitForResponse((response) => response.url().endsWith('/api/classrooms/expiry-warnings'));
  await page.reload();
  expect((await (await claimed).json()).items).toEqual([]);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(modal).toHaveCount(0);
  await page.context().close();
});
