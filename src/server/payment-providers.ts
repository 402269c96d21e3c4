import { createHmac } from 'node:crypto';
import type { Config } from './config.ts';
import type { Log } from './services/log.ts';
import type { Db } from './db/client.ts';
import type { PaymentProvider } from './services/payments/payment-provider.ts';
import { createPayPalProvider, type PayPalOptions } from './services/payments/paypal-provider.ts';
import { createProviderRegistry, type SubscriptionOperations } from './services/payments/provider-registry.ts';
import { createSimulatedProvider } from './services/payments/simulated-provider.ts';
import { createMercadoPagoProvider } from './services/payments/mercadopago-provider.ts';
import { mercadoPagoSubscriptions } from './services/payments/mercadopago-subscriptions.ts';

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
  const paymentProvider: PaymentProvider =
    input.paymentProvider ??
    simulatedProvider ??
    createPayPalProvider({ ...config.paypal!, brandName: 'CxVet', log: input.log });
  const mercadoPagoProvider = config.mercadopago
    ? createMercadoPagoProvider({ ...config.mercadopago, log: input.log })
    : null;
  const subscriptionProviders = createProviderRegistry([
    paymentProvider,
    ...(mercadoPagoProvider ? [mercadoPagoSubscriptions(mercadoPagoProvider)] : []),
    ...(input.otherSubscriptionProviders?.(db) ?? []),
  ]);
  return { paymentProvider, simulatedProvider, mercadoPagoProvider, subscriptionProviders };
}
