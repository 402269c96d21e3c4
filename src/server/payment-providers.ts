import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Log } from './services/log.ts';
import type { Db } from './db/client.ts';
import type { PaymentProvider } from './services/payments/payment-provider.ts';
import { createPayPalProvider, type PayPalOptions } from './services/payments/paypal-provider.ts';
import { createProviderRegistry, type SubscriptionOperations } from './services/payments/provider-registry.ts';
import { createSimulatedProvider } from './services/payments/simulated-provider.ts';
import { createMercadoPagoProvider } from './services/payments/mercadopago-provider.ts';
import { mercadoPagoSubscriptions } from './services/payments/mercadopago-subscriptions.ts';
import { createDemoMercadoPago } from './services/payments/demo-mercadopago.ts';
import { registerSimulatedCheckoutRoutes } from './features/payments/simulated-checkout.routes.ts';
import { reconcileJobKind, webhookJobKind, type PaymentsService } from './features/payments/payments.service.ts';
import {
  mercadoPagoJobKind,
  type MercadoPagoPaymentsService,
} from './features/payments/mercadopago-payments.service.ts';
import type { MercadoPagoCardSubscriptions } from './features/payments/mercadopago-card-subscriptions.ts';

/**
 * The provider new subscriptions and diploma orders go through (PAYMENTS_PROVIDER), Mercado Pago when it is
 * configured, and the registry that membership and an account deletion use to act on each existing
 * subscription at the provider holding it.
 */
export function paymentProvidersFor(input: {
  config: Config;
  db: Db;
  log: NonNullable<PayPalOptions['log']> & Pick<Log, 'error'>;
  /** Replaces the configured provider (tests of the PayPal adapter). */
  paymentProvider?: PaymentProvider;
  /** Providers holding subscriptions beside the configured one (tests of several providers at once). */
  otherSubscriptionProviders?: (db: Db) => SubscriptionOperations[];
}) {
  const { config, db } = input;
  const simulatedProvider =
    !input.paymentProvider && config.paymentsProvider === 'simulado'
      ? createSimulatedProvider({
          db,
          publicUrl: config.publicUrl,
          secret: createHmac('sha256', config.sessionSecret).update('simulado-webhooks').digest('hex'),
        })
      : null;
  if (simulatedProvider)
    input.log.warn(
      { provider: 'simulado' },
      'Modo de pruebas: PAYMENTS_PROVIDER=simulado, los pagos son simulados y nadie paga dinero real',
    );
  const paymentProvider: PaymentProvider =
    input.paymentProvider ??
    simulatedProvider ??
    createPayPalProvider({ ...config.paypal!, brandName: 'CxVet', log: input.log });
  // the demo takes pesos too, through the simulated Mercado Pago (decision 051)
  const demoMercadoPago =
    simulatedProvider && !config.mercadopago && config.seedDemo
      ? createDemoMercadoPago({ publicUrl: config.publicUrl, dataDir: config.dataDir, secret: config.sessionSecret })
      : null;
  const mercadoPagoOptions = config.mercadopago ?? demoMercadoPago?.providerOptions;
  const mercadoPagoProvider = mercadoPagoOptions
    ? createMercadoPagoProvider({ ...mercadoPagoOptions, log: input.log })
    : null;
  const subscriptionProviders = createProviderRegistry([
    paymentProvider,
    ...(mercadoPagoProvider ? [mercadoPagoSubscriptions(mercadoPagoProvider)] : []),
    ...(input.otherSubscriptionProviders?.(db) ?? []),
  ]);
  /** The simulated providers' pages (the PayPal-like checkout, the demo's Mercado Pago), when they are in use. */
  function registerSimulatedPages(app: FastifyInstance) {
    if (simulatedProvider) registerSimulatedCheckoutRoutes(app, { provider: simulatedProvider });
    demoMercadoPago?.register(app);
  }
  return { paymentProvider, simulatedProvider, mercadoPagoProvider, subscriptionProviders, registerSimulatedPages };
}

/** The payments' jobs: stored webhooks of each provider and the daily reconciliation of live subscriptions. */
export function paymentJobHandlers(
  get: () => {
    payments: PaymentsService;
    pesos: { payments: MercadoPagoPaymentsService; cardSubscriptions: MercadoPagoCardSubscriptions } | null;
  },
) {
  return {
    [reconcileJobKind]: async () => {
      const { payments, pesos } = get();
      await payments.reconcileLiveSubscriptions();
      await pesos?.cardSubscriptions.reconcileLive();
    },
    [webhookJobKind]: async ({ eventId }: { eventId: string }) =>
      void (await get().payments.applyStoredWebhook(eventId)),
    [mercadoPagoJobKind]: async ({ eventId }: { eventId: string }) => {
      const { pesos } = get();
      // stored while Mercado Pago was configured: kept queued until it is again
      if (!pesos) throw new Error('MERCADOPAGO_* is not configured');
      await pesos.payments.applyStoredNotification(eventId);
    },
  };
}
