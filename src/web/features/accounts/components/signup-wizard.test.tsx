// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '#shared/messages.ts';
import { paths } from '#web/paths.ts';
import { renderWithApp, stubApi } from '#web/testing/render.tsx';
import { SignUpWizard } from './signup-wizard.tsx';

const config = {
  provider: 'simulado',
  providerName: 'Pagos de prueba',
  clientId: null,
  plans: [],
  pesosMethods: [],
  pesosPlans: { monthly: null, annual: null },
};

function FinishPage() {
  return <h1>Registro terminado: {new URLSearchParams(window.location.search).get('type') ?? ''}</h1>;
}

function render(answers: Parameters<typeof stubApi>[0] = {}) {
  const calls = stubApi({
    'GET /api/payments/config': () => config,
    'GET /api/public-universities': () => ({ universities: [] }),
    'GET /api/account/email-available': () => ({ available: true }),
    ...answers,
  });
  return {
    calls,
    ...renderWithApp(<SignUpWizard />, { path: paths.signUp, routes: { [paths.signUpFinish]: <FinishPage /> } }),
  };
}

describe('the sign-up steps', () => {
  it('goes from the plan to the personal data, and back with Regresar', async () => {
    const { user } = render();
    expect(screen.getByRole('heading', { name: 'Elige tu membresía' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Premium anual/ }));
    expect(await screen.findByRole('heading', { name: 'Información personal' })).toBeTruthy();
    expect(screen.getByText(/Membresía elegida:/).textContent).toContain('Premium anual');

    await user.click(screen.getByRole('button', { name: 'Regresar' }));
    expect(await screen.findByRole('heading', { name: 'Elige tu membresía' })).toBeTruthy();
  });

  it('shows every missing field at once in Spanish and stays on the step', async () => {
    const { user, calls } = render();
    await user.click(screen.getByRole('button', { name: /^Básica/ }));
    await user.click(await screen.findByRole('button', { name: 'Siguiente' }));
    await waitFor(() => expect(screen.getAllByText(messages.required).length).toBeGreaterThanOrEqual(6));
    expect(screen.getByText(messages.termsRequired)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Información personal' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Método de pago' })).toBeNull();
    expect(calls.some((call) => call.path === '/api/account/signup')).toBe(false);
  });

  it('says when the confirmation differs and when the e-mail is already registered', async () => {
    const { user } = render({ 'GET /api/account/email-available': () => ({ available: false }) });
    await user.click(screen.getByRole('button', { name: /^Básica/ }));
    await user.click(await screen.findByRole('textbox', { name: /^Correo electrónico/ }));
    await user.paste('ana@example.com');
    await user.click(screen.getByRole('textbox', { name: /^Confirma tu correo/ }));
    await user.paste('otra@example.com');
    expect(await screen.findByText(messages.emailsDiffer)).toBeTruthy();
    expect(await screen.findByText(messages.emailTaken, undefined, { timeout: 3000 })).toBeTruthy();
  });

  it('walks every step with good data and registers the account', async () => {
    const { user, calls } = render({
      'POST /api/account/signup': ({ body }) => ({
        uid: 'u1',
        planAnual: false,
        email: (body as { email: string }).email,
        userName: 'Ana López',
        paymentType: 'basic',
        type: 'Gratis',
      }),
    });
    // pasted, not typed key by key: the walk stays well inside the test timeout on a busy machine
    const fill = async (field: HTMLElement, text: string) => {
      await user.click(field);
      await user.paste(text);
    };
    await user.click(screen.getByRole('button', { name: /^Básica/ }));
    await fill(await screen.findByRole('textbox', { name: /^Nombre completo/ }), 'Ana López');
    await fill(screen.getByRole('textbox', { name: /^Correo electrónico/ }), 'ana@example.com');
    await fill(screen.getByRole('textbox', { name: /^Confirma tu correo/ }), 'ana@example.com');
    // the number starts as +52 (Mexico by default)
    await fill(screen.getByLabelText(/^Teléfono/, { selector: 'input[type="tel"]' }), '55 1234 5678');
    await fill(screen.getByLabelText(/^Confirma tu teléfono/, { selector: 'input[type="tel"]' }), '55 1234 5678');
    await fill(screen.getByLabelText(/^Contraseña/), 'Secreta123');
    await fill(screen.getByLabelText(/^Confirma tu contraseña/), 'Secreta123');
    await user.type(
      screen
        .getAllByLabelText(/^País/)
        .find((element) => element.tagName === 'INPUT' && (element as HTMLInputElement).type !== 'hidden')!,
      'Méxic',
    );
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'México' }));
    await fill(screen.getByRole('textbox', { name: /^Ciudad/ }), 'Puebla');
    await user.click(screen.getByRole('checkbox', { name: /términos y condiciones/ }));
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));

    expect(await screen.findByRole('heading', { name: 'Método de pago' })).toBeTruthy();
    expect(screen.getByText('La membresía Básica no tiene costo: no necesitas un método de pago.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Registrar Cuenta' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Registrar Cuenta' })).getByRole('button', {
        name: 'Registrar',
      }),
    );

    expect(await screen.findByRole('heading', { name: /Registro terminado/ })).toBeTruthy();
    const signUp = calls.find((call) => call.path === '/api/account/signup')!;
    expect(signUp.body).toMatchObject({
      plan: 'basic',
      name: 'Ana López',
      email: 'ana@example.com',
      phoneNumber: '+525512345678',
      country: 'México',
      city: 'Puebla',
      terms: true,
    });
  }, 60_000);
});
