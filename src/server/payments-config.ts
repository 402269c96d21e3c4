import type { Env } from './config.ts';

/** Who can take payments; `simulado` is the demo's provider and never takes money. */
export const paymentsProviderNames = ['paypal', 'mercadopago', 'simulado'] as const;
export type PaymentsProviderName = (typeof paymentsProviderNames)[number];

/** PAYMENTS_PROVIDERS as listed, else the single PAYMENTS_PROVIDER; both set must agree. */
export function chosenProviders(e: Env): PaymentsProviderName[] | undefined {
  const list = e.PAYMENTS_PROVIDERS ? [...new Set(e.PAYMENTS_PROVIDERS)] : undefined;
  if (list && e.PAYMENTS_PROVIDER && !list.includes(e.PAYMENTS_PROVIDER)) {
    throw new Error(
      `PAYMENTS_PROVIDER=${e.PAYMENTS_PROVIDER} no está en PAYMENTS_PROVIDERS=${list.join(',')}: deja solo PAYMENTS_PROVIDERS.`,
    );
  }
  return list ?? (e.PAYMENTS_PROVIDER ? [e.PAYMENTS_PROVIDER] : undefined);
}

/**
 * The simulated provider lets anyone "pay" without money, so it is never chosen silently outside a
 * demo: a production start (NODE_ENV=production) or one without demo content (SEED_DEMO=0, or a
 * PostgreSQL database) must name its providers.
 */
export function paymentsProvidersFor(input: {
  chosen: PaymentsProviderName[] | undefined;
  production: boolean;
  seedDemo: boolean;
  allowSimulatedInProduction: boolean;
  why: string;
}): PaymentsProviderName[] {
  const chosen = input.chosen;
  if (chosen?.includes('simulado') && input.production && !input.allowSimulatedInProduction) {
    throw new Error(
      'PAYMENTS_PROVIDER=simulado con NODE_ENV=production dejaría a cualquiera hacerse Premium sin pagar: ' +
        'usa PAYMENTS_PROVIDERS=paypal,mercadopago, o para un sitio de pruebas define además ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION=1.',
    );
  }
  if (chosen?.includes('simulado') && chosen.length > 1) {
    // a site taking real money must not also offer a way to "pay" without it
    throw new Error(`PAYMENTS_PROVIDERS=${chosen.join(',')}: simulado no se combina con proveedores reales.`);
  }
  if (chosen && !chosen.includes('paypal') && !chosen.includes('simulado')) {
    throw new Error(
      'PAYMENTS_PROVIDERS=mercadopago necesita también paypal: las suscripciones en dólares y las compras de diplomados ' +
        'con PayPal siguen cobrándose por ese proveedor (PAYMENTS_PROVIDERS=paypal,mercadopago).',
    );
  }
  if (chosen) return chosen;
  if (input.production || !input.seedDemo) {
    throw new Error(
      `PAYMENTS_PROVIDER no está definido: ${input.why} ` +
        'elige PAYMENTS_PROVIDERS=paypal,mercadopago (con las variables PAYPAL_* y MERCADOPAGO_*) o, solo para pruebas, PAYMENTS_PROVIDER=simulado.',
    );
  }
  return ['simulado'];
}

/** Mercado Pago needs its token and the notifications' secret; production names its API URL as PayPal's. */
export function mercadoPagoSettingsFor(e: Env) {
  const required = {
    MERCADOPAGO_ACCESS_TOKEN: e.MERCADOPAGO_ACCESS_TOKEN,
    MERCADOPAGO_WEBHOOK_SECRET: e.MERCADOPAGO_WEBHOOK_SECRET,
    ...(e.NODE_ENV === 'production' ? { MERCADOPAGO_API_URL: e.MERCADOPAGO_API_URL } : {}),
  };
  const missing = Object.entries(required)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length > 0) {
    throw new Error(
      `PAYMENTS_PROVIDERS con mercadopago necesita ${missing.join(', ')}` +
        (e.NODE_ENV === 'production' && !e.MERCADOPAGO_API_URL
          ? ' (en producción MERCADOPAGO_API_URL=https://api.mercadopago.com; las credenciales de prueba o reales deciden el ambiente)'
          : ''),
    );
  }
  return {
    apiUrl: (e.MERCADOPAGO_API_URL ?? 'https://api.mercadopago.com').replace(/\/$/, ''),
    accessToken: e.MERCADOPAGO_ACCESS_TOKEN!,
    webhookSecret: e.MERCADOPAGO_WEBHOOK_SECRET!,
  };
}

/** Production names its PayPal explicitly: a default would send live members to the sandbox, or the reverse. */
export function paypalApiUrlFor(url: string | undefined, production: boolean): string {
  if (url) return url;
  if (production) {
    throw new Error(
      'PAYPAL_API_URL es obligatoria en producción (NODE_ENV=production): https://api-m.paypal.com para cobrar de verdad, ' +
        'https://api-m.sandbox.paypal.com para el sandbox.',
    );
  }
  return 'https://api-m.sandbox.paypal.com';
}

/** The one reason that applies, in the refusal: a setting the operator did not write is not named. */
export function whyProviderIsNeeded(e: Env): string {
  if (e.NODE_ENV === 'production') return 'en producción (NODE_ENV=production)';
  if (e.SEED_DEMO === false) return 'sin datos de demostración (SEED_DEMO=0)';
  return 'con PostgreSQL (DATABASE_URL), que no tiene datos de demostración salvo con SEED_DEMO=1,';
}
