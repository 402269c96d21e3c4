import { expect, test, loginAs } from './fixtures.ts';
import { startFakePlatform, type FakePlatform } from '../src/server/testing/lti-platform.ts';

// CxVet runs as 127.0.0.1 and the fake LMS as localhost: different sites, so the launch lives in a third-party frame
// (its ports lie below Linux's ephemeral range, 32768–60999, so no outgoing connection of the run holds one already)
const platformPort = 24202;
let platform: FakePlatform;

test.describe('CxVet inside an LMS (LTI 1.3)', () => {
  test.afterAll(async () => platform?.close());

  test('an Admin registers the platform, and a student launched from a course opens the aula in its frame', async ({
    page,
    baseURL,
  }) => {
    const jwks = await (await page.request.get('/api/lti/jwks')).json();
    platform = await startFakePlatform({
      port: platformPort,
      host: 'localhost',
      toolJwks: () => jwks,
      toolLoginUrl: `${baseURL}/api/lti/login`,
    });
    await loginAs(page, 'admin');
    const classrooms = (await (await page.request.get('/api/admin/classrooms')).json()).items as {
      id: string;
      title: string;
      organizationTitle: string;
      isActive: boolean;
    }[];
    const aula = classrooms.find((classroom) => classroom.isActive)!;

    await page.goto('/admin/lti');
    await expect(page.getByRole('heading', { name: 'Plataformas LTI', level: 1 })).toBeVisible();
    await expect(page.getByText(`${baseURL}/api/lti/login`)).toBeVisible();
    await page.getByRole('button', { name: 'Registrar plataforma' }).click();
    const dialog = page.getByRole('dialog', { name: 'Registrar plataforma' });
    await dialog.getByLabel('Nombre').fill('Moodle de la universidad');
    await dialog.getByRole('combobox', { name: 'Organización', exact: true }).click();
    await page.getByRole('option', { name: aula.organizationTitle, exact: true }).first().click();
    await dialog.getByLabel('Emisor (issuer)').fill(platform.issuer);
    await dialog.getByLabel('Client ID').fill(platform.clientId);
    await dialog.getByLabel('Deployment IDs').fill('despliegue-1');
    await dialog.getByLabel('URL de autenticación (OIDC)').fill(platform.registration.authorizationUrl);
    await dialog.getByLabel('URL de token (OAuth 2)').fill(platform.registration.tokenUrl);
    await dialog.getByLabel('URL de claves (JWKS)').fill(platform.registration.jwksUrl);
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByRole('cell', { name: 'Moodle de la universidad' })).toBeVisible();

    platform.state.launch = {
      sub: 'alumna-navegador',
      claims: {
        name: 'Alumna Navegador',
        'https://purl.imsglobal.org/spec/lti/claim/custom': { cxvet_kind: 'aula', cxvet_id: aula.id },
      },
    };
    const student = await page.context().browser()!.newContext();
    const course = await student.newPage();
    await course.goto(`${platform.base}/course`);
    const frame = course.frameLocator('iframe[title="CxVet"]');
    await expect(frame.getByText(aula.title).first()).toBeVisible({ timeout: 30_000 });
    await expect(frame.getByText('Abrir en una ventana nueva')).toHaveCount(0);
    await student.close();
  });
});

test.describe('LTI Dynamic Registration', () => {
  let registering: FakePlatform;
  test.afterAll(async () => registering?.close());

  test("an Admin's one-time URL registers CxVet from the LMS's frame, which closes on the spec's message", async ({
    page,
  }) => {
    const jwks = await (await page.request.get('/api/lti/jwks')).json();
    registering = await startFakePlatform({ port: 24301, host: 'localhost', toolJwks: () => jwks });
    await loginAs(page, 'admin');
    const organizations = (await (await page.request.get('/api/admin/organizations')).json()).items as {
      title: string;
    }[];
    await page.goto('/admin/lti');
    await page.getByRole('button', { name: 'Registrar por URL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Registrar por URL' });
    await dialog.getByRole('button', { name: 'Crear URL de registro' }).click();
    await expect(dialog.getByText('Elige una organización')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Organización', exact: true }).click();
    await page.getByRole('option', { name: organizations[0]!.title, exact: true }).first().click();
    await dialog.getByRole('button', { name: 'Crear URL de registro' }).click();
    const url = (await dialog.locator('pre').textContent())!.trim();
    expect(url).toMatch(/\/api\/lti\/register\/[A-Za-z0-9_-]+$/);

    const lmsAdmin = await page.context().browser()!.newContext();
    const lms = await lmsAdmin.newPage();
    await lms.goto(`${registering.base}/tool-registration?url=${encodeURIComponent(url)}`);
    const frame = lms.frameLocator('iframe[title="Registro"]');
    await expect(frame.getByRole('heading', { name: 'CxVet quedó registrado' })).toBeVisible({ timeout: 30_000 });
    await frame.getByRole('button', { name: 'Volver a la plataforma' }).click();
    await expect(lms.getByText('Registro terminado')).toBeVisible();
    await lmsAdmin.close();

    await dialog.getByRole('button', { name: 'Listo' }).click();
    await expect(page.getByRole('cell', { name: 'Moodle (localhost:24301)' })).toBeVisible();
  });
});
