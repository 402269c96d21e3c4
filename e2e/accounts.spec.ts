import { request, type APIRequestContext, type Page } from '@playwright/test';
import { checkOpenScreen } from './a11y.ts';
import { demoAccounts, demoPassword, expect, signUpByApi, test } from './fixtures.ts';

const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
let counter = 0;
const freshEmail = (label: string) => `e2e-${label}-${runId}-${counter++}@example.com`;
const password = 'Clave1234';

let adminContext: APIRequestContext | null = null;

/** One Admin sign-in per worker (the server allows 10 a minute per IP), kept for reading the outbox. */
async function adminApi(baseURL: string): Promise<APIRequestContext> {
  if (adminContext) return adminContext;
  const context = await request.newContext({ baseURL, extraHTTPHeaders: { origin: new URL(baseURL).origin } });
  const login = await context.post('/api/account/login', {
    data: { email: demoAccounts.admin, password: demoPassword },
  });
  expect(login.status()).toBe(200);
  adminContext = context;
  return context;
}

// each journey takes several screens, with axe at two widths
test.beforeEach(() => test.setTimeout(120_000));

test.afterAll(async () => {
  await adminContext?.dispose();
  adminContext = null;
});

/** The newest mail to an address, read from the outbox as an Admin. */
async function latestMail(baseURL: string, to: string, subject?: RegExp) {
  const admin = await adminApi(baseURL);
  {
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await admin.get(`/api/admin/outbox?to=${encodeURIComponent(to)}`);
      expect(response.status()).toBe(200);
      const { mails } = (await response.json()) as { mails: { subject: string; text: string }[] };
      const mail = mails.find((each) => !subject || subject.test(each.subject));
      if (mail) return mail;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`no mail to ${to}`);
  }
}

async function fillPersonalInfo(page: Page, email: string, name = 'Prueba E2E') {
  await page.getByLabel('Nombre completo').fill(name);
  await page.getByRole('textbox', { name: 'Correo electrónico', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Confirma tu correo electrónico' }).fill(email);
  await page.getByRole('textbox', { name: 'Teléfono', exact: true }).fill('+525512345678');
  await page.getByRole('textbox', { name: 'Confirma tu teléfono', exact: true }).fill('+525512345678');
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(password);
  await page.getByRole('textbox', { name: 'Confirma tu contraseña' }).fill(password);
  await page.getByRole('combobox', { name: 'País', exact: true }).fill('Méxi');
  await page.getByRole('listbox', { name: 'País' }).getByRole('option', { name: 'México', exact: true }).click();
  await page.getByLabel('Ciudad').fill('Puebla');
  await page.getByRole('combobox', { name: 'Universidad de origen (opcional)' }).fill(`Universidad E2E ${runId}`);
  await page.getByRole('checkbox', { name: /términos y condiciones/ }).check();
}

/** Runs the three sign-up steps and the 'Registrar Cuenta' modal; ends on /registro-finalizar. */
async function signUpThroughWizard(page: Page, plan: RegExp, email: string) {
  await page.goto('/registro');
  await page.getByRole('button', { name: plan }).click();
  await fillPersonalInfo(page, email);
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByRole('heading', { name: 'Método de pago' })).toBeVisible();
  await page.getByRole('button', { name: 'Registrar Cuenta' }).click();
  const modal = page.getByRole('dialog', { name: 'Registrar Cuenta' });
  await expect(modal).toContainText('no cierres el navegador');
  await modal.getByRole('button', { name: 'Registrar' }).click();
  await expect(page).toHaveURL(/\/registro-finalizar\?/);
}

/** Premium through the simulated provider's checkout page, as a member would. */
async function payOnSimulatedCheckout(page: Page, button: 'Aprobar suscripción' | 'Simular pago rechazado') {
  await page.getByRole('button', { name: /Pagar con Pago simulado/ }).click();
  await expect(page).toHaveURL(/\/pago-simulado\/suscripcion\//);
  await expect(page.getByRole('heading', { name: 'Pago simulado' })).toBeVisible();
  await page.getByRole('button', { name: button }).click();
}

test('the sign-up form names every rule as you type and refuses a registered e-mail', async ({ page }) => {
  await page.goto('/registro');
  await expect(page.getByRole('heading', { name: 'Elige tu membresía' })).toBeVisible();
  await checkOpenScreen(page, 'signup-step1', async () => {
    await expect(page.getByRole('button', { name: /Premium anual 99.90 USD/ })).toBeVisible();
  });
  await page.getByRole('button', { name: /Premium mensual 9.99 USD/ }).click();
  await expect(page.getByRole('heading', { name: 'Información personal' })).toBeVisible();
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByText('Debes llenar este campo', { exact: true })).toHaveCount(9);
  await expect(page.getByText('Debes leer y aceptar los términos y condiciones.')).toBeVisible();

  await page.getByRole('textbox', { name: 'Correo electrónico', exact: true }).fill('no-es-correo');
  await expect(page.getByText('Introduce un correo válido.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Correo electrónico', exact: true }).fill(demoAccounts.gratis);
  await expect(page.getByText('Este correo ya está registrado, elige otro por favor.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Confirma tu correo electrónico' }).fill('otro@example.com');
  await expect(page.getByText('Las direcciones de correo deben ser idénticas.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Teléfono', exact: true }).fill('+52 12');
  await expect(page.getByText('Introduce un número de teléfono válido.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill('123');
  await expect(page.getByText('La contraseña debe tener al menos 6 caracteres.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Confirma tu contraseña' }).fill('1234');
  await expect(page.getByText('Las contraseñas deben ser idénticas.')).toBeVisible();
  await checkOpenScreen(page, 'signup-step2-errors', async () => {
    await expect(page.getByRole('heading', { name: 'Información personal' })).toBeVisible();
  });

  await page.getByRole('button', { name: 'Regresar' }).click();
  await expect(page.getByRole('heading', { name: 'Elige tu membresía' })).toBeVisible();
});

test('a guest signs up as Basic and finishes with FINALIZAR', async ({ page, baseURL }) => {
  const email = freshEmail('basico');
  await signUpThroughWizard(page, /Básica Gratis/, email);
  const url = new URL(page.url());
  expect(Object.fromEntries(url.searchParams)).toMatchObject({
    email,
    planAnual: 'false',
    paymentType: 'basic',
    type: 'Gratis',
    userName: 'Prueba E2E',
  });
  expect(url.searchParams.get('uid')).toBeTruthy();
  await checkOpenScreen(page, 'signup-finish-basic', async () => {
    await expect(page.getByRole('button', { name: 'FINALIZAR' })).toBeVisible();
  });
  await page.getByRole('button', { name: 'FINALIZAR' }).click();
  await expect(page).toHaveURL(/\/registro$/);
  await expect(page.getByRole('heading', { name: '¡Bienvenido a CxVet, Prueba E2E!' })).toBeVisible();
  await checkOpenScreen(page, 'signup-welcome', async () => {
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
  const mail = await latestMail(baseURL!, email, /Bienvenido/);
  expect(mail.subject).toBe('Bienvenido a CxVet');
});

test('a guest signs up as Premium through the simulated provider', async ({ page }) => {
  const email = freshEmail('premium');
  await signUpThroughWizard(page, /Premium anual/, email);
  await checkOpenScreen(page, 'signup-finish-premium', async () => {
    await expect(page.getByRole('button', { name: /Pagar con Pago simulado/ })).toBeVisible();
  });
  await page.getByRole('button', { name: /Pagar con Pago simulado/ }).click();
  await expect(page).toHaveURL(/\/pago-simulado\/suscripcion\//);
  await checkOpenScreen(page, 'simulated-checkout', async () => {
    await expect(page.getByRole('button', { name: 'Aprobar suscripción' })).toBeVisible();
  });
  await page.getByRole('button', { name: 'Aprobar suscripción' }).click();
  await expect(page).toHaveURL(/\/registro$/);
  await expect(page.getByRole('heading', { name: /Bienvenido a CxVet Premium/ })).toBeVisible();
  await page.goto('/perfil');
  await expect(page.getByText('Plan anual')).toBeVisible();
  await expect(page.getByText(/Próxima fecha de pago/)).toBeVisible();
});

test('a declined payment leaves the member Basic with the FALLIDO banner', async ({ page }) => {
  await signUpThroughWizard(page, /Premium mensual/, freshEmail('fallido'));
  await payOnSimulatedCheckout(page, 'Simular pago rechazado');
  await expect(page).toHaveURL(/\/registro-finalizar/);
  await expect(page.getByText('Pago no realizado')).toBeVisible();
  await page.goto('/perfil');
  // it never was Premium, so nothing was 'changed to Basic'
  await expect(
    page.getByText(/No se pudo realizar el pago de tu suscripción\. Tu membresía sigue siendo Básica/),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /Obtener Premium/ })).toBeVisible();
});

test('a Premium member downgrades with confirmation and reactivates', async ({ page, baseURL }) => {
  const email = freshEmail('downgrade');
  await signUpByApi(page, { email, name: 'Cuenta E2E', password, plan: 'monthly', mailings: true });
  await page.goto('/registro-finalizar?plan=monthly');
  await payOnSimulatedCheckout(page, 'Aprobar suscripción');
  await expect(page).toHaveURL(/\/registro$/);

  await page.goto('/perfil');
  await expect(page.getByRole('heading', { name: 'Mi CxVet' })).toBeVisible();
  await checkOpenScreen(page, 'profile-premium', async () => {
    await expect(page.getByRole('button', { name: 'Cambiar a membresía Básica' })).toBeVisible();
  });
  await page.getByRole('button', { name: 'Cambiar a membresía Básica' }).click();
  const modal = page.getByRole('dialog', { name: 'Cambiar a membresía Básica' });
  await modal.getByRole('button', { name: 'Cambiar a Básica' }).click();
  await expect(page.getByText('Cambio a Básica programado')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reactivar Premium' })).toBeVisible();
  const mail = await latestMail(baseURL!, email, /cambiará a Básica/);
  expect(mail.text).toContain('Conservarás los beneficios Premium');

  await page.getByRole('button', { name: 'Reactivar Premium' }).click();
  await expect(page.getByRole('button', { name: 'Cambiar a membresía Básica' })).toBeVisible();

  await page.goto('/perfil/pago');
  await expect(page.getByRole('heading', { name: 'Historial de pagos' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Premium mensual' })).toBeVisible();
  await checkOpenScreen(page, 'profile-payment', async () => {
    await expect(page.getByRole('cell', { name: '9.99 USD' })).toBeVisible();
  });
});

test('a member recovers the password with the link from the outbox', async ({ browser, baseURL }) => {
  const email = freshEmail('recupera');
  const setup = await browser.newPage();
  await signUpByApi(setup, { email, name: 'Cuenta E2E', password, mailings: true });
  await setup.close();

  const context = await browser.newContext();
  await context.addInitScript(() => window.localStorage.setItem('cxvet-cookies-accepted', 'true'));
  const page = await context.newPage();
  await page.goto('/login/recuperar_password');
  await checkOpenScreen(page, 'password-recovery', async () => {
    await expect(page.getByRole('heading', { name: 'Recuperar contraseña' })).toBeVisible();
  });
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText('Debes llenar este campo', { exact: true })).toBeVisible();
  await page.getByLabel('Correo electrónico').fill(`nadie-${runId}@example.com`);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByRole('dialog')).toContainText('Usuario no encontrado');
  await page.getByRole('dialog').getByRole('button', { name: 'Aceptar' }).click();

  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByRole('button', { name: 'Enviar' }).click();
  const sent = page.getByRole('dialog', { name: 'Solicitud enviada' });
  await expect(sent).toContainText('Recibirás un correo electrónico para que puedas asignar una nueva contraseña');
  await sent.getByRole('button', { name: 'Aceptar' }).click();
  await expect(page).toHaveURL(/\/login$/);

  const mail = await latestMail(baseURL!, email, /contraseña/i);
  const link = new URL(/https?:\/\/\S+\/reasignar_password\?\S+/.exec(mail.text)![0]);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Asignar nueva contraseña' })).toBeVisible();
  await checkOpenScreen(page, 'password-reset', async () => {
    await expect(page.getByRole('textbox', { name: 'Nueva contraseña', exact: true })).toBeEnabled();
  });
  await page.getByRole('textbox', { name: 'Nueva contraseña', exact: true }).fill('123');
  await expect(page.getByText('El password debe tener al menos 6 caracteres')).toBeVisible();
  await page.getByRole('textbox', { name: 'Nueva contraseña', exact: true }).fill('NuevaClave9');
  await page.getByRole('textbox', { name: 'Confirma la nueva contraseña' }).fill('OtraClave9');
  await expect(page.getByText('Los password no coinciden')).toBeVisible();
  await page.getByRole('textbox', { name: 'Confirma la nueva contraseña' }).fill('NuevaClave9');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  const done = page.getByRole('dialog', { name: 'Contraseña modificada' });
  await expect(done).toBeVisible();
  await done.getByRole('button', { name: 'Aceptar' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill('NuevaClave9');
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto(`${link.pathname}${link.search}`);
  await expect(page).toHaveURL(/\/$/);
  await context.close();
});

test('an invalid reset code is announced on load', async ({ page }) => {
  await page.goto('/reasignar_password?mode=resetPassword&oobCode=codigo-falso&apiKey=cxvet');
  const modal = page.getByRole('dialog', { name: 'CÓDIGO INVÁLIDO' });
  await expect(modal).toContainText('El código ya no es válido');
});

test('a member edits the profile after signing in again, changing the e-mail', async ({ page, baseURL }) => {
  const email = freshEmail('perfil');
  const newEmail = freshEmail('perfil-nuevo');
  await signUpByApi(page, { email, name: 'Cuenta E2E', password, mailings: true });
  await page.goto('/perfil/usuario');
  await expect(page.getByText('Por tu seguridad, vuelve a iniciar sesión para editar tu cuenta.')).toBeVisible();
  await checkOpenScreen(page, 'profile-account-relogin', async () => {
    await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  });
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await page.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByRole('heading', { name: 'Mi cuenta' })).toBeVisible();
  await checkOpenScreen(page, 'profile-account-form', async () => {
    await expect(page.getByRole('button', { name: 'Guardar' })).toBeVisible();
  });
  await page.getByLabel('Nombre completo').fill('');
  await expect(page.getByText('Debes llenar este campo', { exact: true })).toBeVisible();
  await page.getByLabel('Nombre completo').fill('Nombre Cambiado');
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(newEmail);
  await page.getByLabel('Ciudad').fill('Oaxaca');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page).toHaveURL(/\/perfil$/);
  await expect(page.getByText(newEmail)).toBeVisible();
  await expect(page.getByText('Oaxaca')).toBeVisible();

  const login = await page.request.post('/api/account/login', {
    headers: { origin: new URL(baseURL!).origin },
    data: { email: newEmail, password },
  });
  expect(login.status()).toBe(200);
});

test('the membership check announces a scheduled change once', async ({ page }) => {
  await page.route('**/api/membership/check', (route) => route.fulfill({ json: { changed: true } }));
  await signUpByApi(page, { email: freshEmail('aviso'), name: 'Cuenta E2E', password, mailings: true });
  await page.goto('/');
  const notice = page.getByRole('dialog', { name: 'AVISO CAMBIO DE CUENTA' });
  await expect(notice).toContainText('Se ha efectuado el cambio programado de cuenta');
  await notice.getByRole('button', { name: 'Aceptar' }).click();
  await expect(notice).toBeHidden();
  await page.getByRole('banner').getByRole('link', { name: 'Eventos', exact: true }).click();
  await expect(page).toHaveURL(/\/eventos$/);
  await expect(notice).toBeHidden();
});
