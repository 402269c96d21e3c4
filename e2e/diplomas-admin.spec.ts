import { expectNoSeriousAxeViolations } from './a11y.ts';
import { storageKeys } from '../src/web/lib/storage-keys.ts';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect as baseExpect, loginAs, saveScreenshot, signUpByApi, test } from './fixtures.ts';

// every step saves through the API and reloads a table: give a busy machine room
const expect = baseExpect.configure({ timeout: 20_000 });

const demoFile = (name: string) => path.join(process.cwd(), 'assets', 'demo', name);

/** Screenshots at 360 and 1280 px, with axe at both widths. */
async function checkScreen(page: Page, name: string, ready: () => Promise<void>) {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await ready();
    await expectNoSeriousAxeViolations(page, { allRules: true });
    await saveScreenshot(page, `${name}-${width}`);
  }
}

async function chooseFile(page: Page, label: string, file: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: `Seleccionar archivo: ${label}` }).click();
  await (await chooser).setFiles(demoFile(file));
  await expect(page.getByRole('button', { name: `Descartar: ${label}` })).toBeVisible({ timeout: 15_000 });
}

const password = 'Secreta123';

test.use({ actionTimeout: 20_000 });

test('a Basic member cannot enter the diplomas console, diploma administration or their API', async ({ page }) => {
  await loginAs(page, 'gratis');
  await page.goto('/admin/diplomados');
  await expect(page).not.toHaveURL(/\/admin/);
  await page.goto('/administrar-diplomado');
  await expect(page).not.toHaveURL(/\/administrar-diplomado/);
  expect((await page.request.get('/api/admin/diplomas')).status()).toBe(403);
  // administering no diploma, the diploma administrators' scope refuses them too (like the aula administrator's)
  expect((await page.request.get('/api/diploma-admin/diplomas')).status()).toBe(403);
});

test('an Admin builds a CxVet diploma with two videos and an exam; its administrator manages the users; statistics show figures', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(600_000);
  const stamp = Date.now();
  const title = `Diplomado E2E ${stamp}`;

  // a fresh account becomes the diploma's administrator (other specs' demo accounts stay untouched)
  const managerEmail = `gestor-${stamp}@example.com`;
  const managerContext = await browser.newContext({ baseURL });
  const manager = await managerContext.newPage();
  // a second browser: the cookie notice accepted, as the test fixture does for the first
  await manager.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
  await signUpByApi(manager, { email: managerEmail, name: 'Gestor E2E', password });

  await loginAs(page, 'admin');
  await page.goto('/admin/diplomados');
  // the console chunk is large: the first load may be slow on a busy machine
  await expect(page.getByRole('heading', { name: 'Diplomados' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Crear nuevo diplomado' }).click();
  await expect(page).toHaveURL(/\/admin\/diplomados\/crear-diplomado$/);

  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Este campo es requerido.').first()).toBeVisible();
  await expect(page.getByText('Se requiere la imagen de vista previa.')).toBeVisible();
  await expect(page.getByText('Se requiere la pdf de información previa.')).toBeVisible();

  await page.getByRole('textbox', { name: 'Título', exact: true }).fill(title);
  await page.getByRole('textbox', { name: 'Descripción' }).click();
  await page.keyboard.type('Curso de cirugía de tejidos blandos con exámenes.');
  await page.getByRole('textbox', { name: 'Costo (USD)' }).fill('12.345');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Debe ser un número válido redondeado a 2 dígitos')).toBeVisible();
  await page.getByRole('textbox', { name: 'Costo (USD)' }).fill('149.90');
  await page.getByRole('combobox', { name: 'Administrador del diplomado (correo)' }).fill(managerEmail);
  await page.getByRole('option', { name: managerEmail, exact: true }).click();
  await chooseFile(page, 'Imagen de vista previa', 'preview-verde.jpg');
  await chooseFile(page, 'PDF de información previa', 'guia.pdf');
  await checkScreen(page, 'diploma-create', async () => {
    await expect(page.getByRole('heading', { name: 'Crear diplomado' })).toBeVisible();
  });
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page).toHaveURL(/\/admin\/diplomados\/diplomado\/[0-9a-f-]+\?tab=videos$/);
  const diplomaId = /diplomado\/([0-9a-f-]+)/.exec(page.url())![1]!;
  // the chosen administrator shows in the general tab, though the picker loads only what the Admin searches for
  await page.getByRole('tab', { name: 'Información general' }).click();
  await expect(page.getByRole('combobox', { name: 'Administrador del diplomado (correo)' })).toHaveValue(managerEmail);
  await page.getByRole('tab', { name: 'Videos' }).click();

  // videos: two platform surgeries, then the second moved up
  await expect(page.getByText('El diplomado requiere al menos un video para poder guardar.')).toBeVisible();
  const procedureNames: string[] = [];
  for (let index = 0; index < 2; index += 1) {
    await page.getByRole('button', { name: 'Vincular video de la plataforma' }).click();
    const dialog = page.getByRole('dialog', { name: 'Vincular video de la plataforma' });
    await dialog.getByRole('combobox', { name: 'Procedimiento' }).click();
    const option = page.getByRole('option').nth(index);
    procedureNames.push((await option.textContent()) ?? '');
    await option.click();
    await dialog.getByRole('button', { name: 'Agregar' }).click();
    await expect(dialog).toBeHidden();
  }
  const table = page.getByRole('table', { name: 'Videos del diplomado' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await page.getByRole('button', { name: `Subir ${procedureNames[1]}` }).click();
  await expect(table.getByRole('row').nth(1)).toContainText(procedureNames[1]!);
  await checkScreen(page, 'diploma-videos', async () => {
    await expect(table).toBeVisible();
  });

  // an own video with upload progress and a marker
  await page.getByRole('button', { name: 'Crear video' }).click();
  const videoDialog = page.getByRole('dialog', { name: 'Crear video' });
  await videoDialog.getByRole('button', { name: 'Guardar video' }).click();
  await expect(videoDialog.getByText('Este campo es requerido.').first()).toBeVisible();
  await videoDialog.getByRole('textbox', { name: 'Título' }).fill('Clase propia de suturas');
  await videoDialog.getByRole('textbox', { name: 'Descripción' }).fill('Suturas intradérmicas paso a paso.');
  await chooseFile(page, 'Archivo de video', 'video.mp4');
  await videoDialog.getByRole('button', { name: 'Agregar marcador' }).click();
  await videoDialog.getByRole('button', { name: 'Guardar video' }).click();
  await expect(videoDialog.getByText('Por favor completa los nombres y horarios de cada marcador.')).toBeVisible();
  await videoDialog.getByRole('textbox', { name: 'Nombre del marcador 1' }).fill('Cierre');
  await videoDialog.getByRole('textbox', { name: 'Tiempo 1 (h:mm:ss)' }).pressSequentially('00005');
  await videoDialog.getByRole('button', { name: 'Guardar video' }).click();
  await expect(videoDialog).toBeHidden();
  await expect(table.getByRole('row')).toHaveCount(4);

  // the exam: save stays disabled until every question has its correct answer
  await page.getByRole('tab', { name: 'Exámenes' }).click();
  await page.getByRole('button', { name: 'Agregar examen' }).click();
  const examDialog = page.getByRole('dialog', { name: 'Agregar examen' });
  await examDialog.getByRole('textbox', { name: 'Título del examen' }).fill('Examen de suturas');
  await examDialog.getByRole('combobox', { name: 'Video después del cual aparece' }).click();
  await page.getByRole('option', { name: new RegExp(`^1\\. `) }).click();
  await examDialog.getByRole('textbox', { name: 'Pregunta 1', exact: true }).fill('¿Qué material es absorbible?');
  await examDialog.getByRole('textbox', { name: 'Pregunta 1, respuesta 1' }).fill('Poliglactina 910');
  await examDialog.getByRole('textbox', { name: 'Pregunta 1, respuesta 2' }).fill('Nylon');
  const save = examDialog.getByRole('button', { name: 'Guardar examen' });
  await expect(save).toBeDisabled();
  await examDialog.getByRole('checkbox', { name: 'Respuesta correcta de la pregunta 1: opción 1' }).check();
  await expect(save).toBeEnabled();
  await checkScreen(page, 'diploma-exam-modal', async () => {
    await expect(examDialog).toBeVisible();
  });
  await save.click();
  await expect(examDialog).toBeHidden();
  const exams = page.getByRole('table', { name: 'Exámenes del diplomado' });
  await expect(exams).toContainText('Examen de suturas');
  await expect(exams).toContainText(procedureNames[1]!);

  // users: the Admin account is assigned; the filter shows only assigned users
  await page.getByRole('tab', { name: 'Usuarios' }).click();
  await page.getByRole('searchbox', { name: 'Buscar' }).fill('admin@demo.cxvet.com');
  await page.getByRole('checkbox', { name: 'Asignar admin@demo.cxvet.com' }).check();
  await expect(page.getByRole('checkbox', { name: 'Asignar admin@demo.cxvet.com' })).toBeChecked();
  await page.getByRole('searchbox', { name: 'Buscar' }).fill('');
  await page.getByRole('switch', { name: 'Mostrar solo usuarios asignados' }).check();
  await expect(page.getByRole('table', { name: 'Usuarios del diplomado' }).getByRole('row')).toHaveCount(2);
  await checkScreen(page, 'diploma-users', async () => {
    await expect(page.getByRole('checkbox', { name: 'Asignar admin@demo.cxvet.com' })).toBeChecked();
  });

  // statistics: the assigned member counts as not started
  await page.getByRole('tab', { name: 'Estadísticas' }).click();
  // the charts chunk loads with this tab: allow for a slow machine
  await expect(page.getByRole('table', { name: 'Calificaciones por usuario' })).toContainText('admin@demo.cxvet.com', {
    timeout: 30_000,
  });
  await expect(page.getByLabel('Progreso de los alumnos').getByText('Sin iniciar: 1')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Examen de suturas: completados' })).toContainText('Alumnos');
  await checkScreen(page, 'diploma-statistics', async () => {
    await expect(page.getByRole('heading', { name: 'Progreso de los alumnos' })).toBeVisible();
  });
  // the scores table is searched on the server, a page at a time; the figures stay the whole diploma's
  const statistics = page.getByRole('tabpanel', { name: 'Estadísticas' });
  await statistics.getByRole('searchbox', { name: 'Buscar' }).fill('nadie-coincide');
  await expect(statistics.getByText('Mostrando del 0 al 0 de 0 resultados')).toBeVisible();
  await expect(statistics.getByRole('table', { name: 'Calificaciones por usuario' })).not.toContainText(
    'admin@demo.cxvet.com',
  );
  await expect(page.getByLabel('Progreso de los alumnos').getByText('Sin iniciar: 1')).toBeVisible();
  await statistics.getByRole('searchbox', { name: 'Buscar' }).fill('admin@demo');
  await expect(statistics.getByText('Mostrando del 1 al 1 de 1 resultados')).toBeVisible();

  // the list: activate, then the preview opens in a new tab
  await page.goto('/admin/diplomados');
  await page.getByRole('searchbox', { name: 'Buscar' }).fill(title);
  // an inactive diploma's row, with its filled green 'Activar' (its contrast once failed AA unseen: the demo has none)
  await checkScreen(page, 'diplomas-list-inactive', async () => {
    await expect(page.getByRole('button', { name: `Activar ${title}` })).toBeVisible();
  });
  await page.getByRole('button', { name: `Activar ${title}` }).click();
  const activated = page.getByRole('dialog', { name: 'Diplomado activado' });
  await expect(activated).toContainText('Este diplomado se ha activado correctamente.');
  await activated.getByRole('button', { name: 'Aceptar' }).click();
  // axe runs once the notice has gone: mid-fade its button is half transparent, and its contrast computed as such
  await expect(activated).toBeHidden();
  await checkScreen(page, 'diplomas-list', async () => {
    await expect(page.getByRole('button', { name: `Desactivar ${title}` })).toBeVisible();
  });
  const [preview] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: `Vista previa de ${title} (se abre en una pestaña nueva)` }).click(),
  ]);
  await expect(preview.getByRole('heading', { name: `Vista previa: ${title}` })).toBeVisible();
  await expect(preview.getByRole('listitem')).toHaveCount(4);
  await expect(preview.getByRole('listitem').nth(1)).toContainText('Examen de suturas');
  await expect(preview.getByText('Diplomado CxVet: todos los elementos activos están habilitados')).toBeVisible();
  await checkScreen(preview, 'diploma-preview', async () => {
    await expect(preview.getByRole('listitem').first()).toBeVisible();
  });
  await preview.close();

  // the diploma's administrator sees it and edits its users, nothing else
  await manager.goto('/administrar-diplomado');
  await expect(manager.getByRole('heading', { name: title })).toBeVisible();
  await manager.getByRole('link', { name: `Administrar ${title}` }).click();
  await expect(manager).toHaveURL(new RegExp(`/administrar-diplomado/diplomado/${diplomaId}$`));
  await manager.getByRole('button', { name: 'Administrar Usuarios' }).click();
  const usersDialog = manager.getByRole('dialog', { name: 'Administrar Usuarios' });
  await usersDialog.getByRole('searchbox', { name: 'Buscar' }).fill('admin@demo.cxvet.com');
  await expect(usersDialog.getByRole('checkbox', { name: 'Asignar admin@demo.cxvet.com' })).toBeChecked();
  await usersDialog.getByRole('checkbox', { name: 'Asignar admin@demo.cxvet.com' }).uncheck();
  await expect(usersDialog.getByRole('checkbox', { name: 'Asignar admin@demo.cxvet.com' })).not.toBeChecked();
  await checkScreen(manager, 'diploma-admin-users', async () => {
    await expect(usersDialog).toBeVisible();
  });
  await usersDialog
    .getByRole('button', { name: 'Close' })
    .or(usersDialog.locator('.mantine-Modal-close'))
    .first()
    .click();
  await expect(usersDialog).toBeHidden();
  await checkScreen(manager, 'diploma-admin-list', async () => {
    await manager.goto('/administrar-diplomado');
    await expect(manager.getByRole('heading', { name: title })).toBeVisible();
  });
  expect((await manager.request.get(`/api/admin/diplomas/${diplomaId}`)).status()).toBe(403);

  // deactivating offers 'Eliminar Diplomado', which deletes it
  await page.goto('/admin/diplomados');
  await page.getByRole('searchbox', { name: 'Buscar' }).fill(title);
  await page.getByRole('button', { name: `Desactivar ${title}` }).click();
  const remove = page.getByRole('dialog', { name: 'Eliminar Diplomado' });
  await expect(remove).toContainText(
    '¿Estás seguro de que te gustaría eliminar este diplomado? Una vez que lo hagas, no podrás deshacerlo.',
  );
  await remove.getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByText('El diplomado fue eliminado con éxito.')).toBeVisible();
  await expect(page.getByRole('button', { name: `Activar ${title}` })).toHaveCount(0);
  await managerContext.close();
});
