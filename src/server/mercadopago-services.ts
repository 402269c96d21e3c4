import type { FastifyInstance } from 'fastify';
import type { Db } from './db/client.ts';
import type { Log } from './services/log.ts';
import type { JobRunner } from './services/jobs.ts';
import type { MercadoPagoProvider } from './services/payments/mercadopago-provider.ts';
import type { MembershipService } from './features/membership/membership.service.ts';
import type { DiplomasService } from './features/diplomas/diplomas.service.ts';
import type { OrderEventHandler } from './features/payments/payments-orders.ts';
import type { PesosPaymentRecorded } from './features/facturas/facturas.service.ts';
import { createMercadoPagoPaymentsService } from './features/payments/mercadopago-payments.service.ts';
import { createMercadoPagoCardSubscriptions } from './features/payments/mercadopago-card-subscriptions.ts';
import { createPricesService } from './features/payments/prices.service.ts';
import { createPremiumPassService } from './features/payments/premium-pass.service.ts';
import { registerMercadoPagoRoutes } from './features/payments/mercadopago.routes.ts';
import { createDiplomaPesosPurchaseService } from './features/diplomas/diploma-purchase-pesos.service.ts';
import { registerDiplomaPesosPurchaseRoutes } from './features/diplomas/diploma-purchase-pesos.routes.ts';

/**
 * Mercado Pago's services when it is configured: one-time payments in pesos (OXXO, SPEI) and card
 * subscriptions in pesos, their notifications applied through membership and the diplomas' order events.
 */
export function mercadoPagoServices(deps: {
  db: Db;
  provider: MercadoPagoProvider;
  membership: MembershipService;
  applyOrderEvent: OrderEventHandler;
  publicUrl: string;
  schedule: JobRunner['schedule'];
  /** Facturas of the payments in pesos: the one hook every recorded payment goes through. */
  onPesosPayment: PesosPaymentRecorded;
  log: Pick<Log, 'warn' | 'error' | 'info'>;
}) {
  const { db, provider, membership, publicUrl, log, onPesosPayment } = deps;
  const payments = createMercadoPagoPaymentsService({
    db,
    provider,
    publicUrl,
    schedule: deps.schedule,
    onPesosPayment,
    log,
  });
  const prices = createPricesService({ db });
  const cardSubscriptions = createMercadoPagoCardSubscriptions({
    db,
    provider,
    membership,
    prices,
    publicUrl,
    onPesosPayment,
    log,
  });
  const premiumPass = createPremiumPassService({ db, mercadoPago: payments, membership, prices, publicUrl, log });
  payments.onOrder(premiumPass.applyOrderEvent);
  payments.onSubscriptionNotification({
    preapproval: cardSubscriptions.reconcilePreapproval,
    charge: cardSubscriptions.reconcileCharge,
    chargePayment: cardSubscriptions.reconcileChargePayment,
  });

  function registerRoutes(app: FastifyInstance, input: { diplomas: DiplomasService; jobs: Pick<JobRunner, 'runDue'> }) {
    registerMercadoPagoRoutes(app, { mercadoPago: payments, cardSubscriptions, premiumPass, jobs: input.jobs });
    const purchase = createDiplomaPesosPurchaseService({
      db,
      diplomas: input.diplomas,
      mercadoPago: payments,
      publicUrl,
    });
    // a card payment's diploma transaction is recorded first, then the diplomas' order events apply it
    payments.onOrder(purchase.recordCardTransaction);
    payments.onOrder(deps.applyOrderEvent);
    registerDiplomaPesosPurchaseRoutes(app, { purchase });
  }

  /** The plans' prices in pesos for the checkout's choice: null for a plan not sold in pesos. */
  async function planPrices() {
    return { monthly: await prices.mxnPlanPriceCents('monthly'), annual: await prices.mxnPlanPriceCents('annual') };
  }

  return { payments, cardSubscriptions, planPrices, registerRoutes };
}
