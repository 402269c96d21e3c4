import type { Db } from '#server/db/client.ts';
import { paymentSubscriptions, payments, planPrices, simulatedProviderRecords } from '#server/db/schema/index.ts';
import { paidSimulatedSubscription } from '#server/services/payments/simulated-records.ts';
import { planPriceCents } from '#shared/payments/payments.rules.ts';
import { req, type DemoPeople } from './demo-plan.ts';

/** The premium demo's monthly subscription through the simulated provider, and its first payment. */
export async function insertPaymentsDemo(tx: Db, { premium }: DemoPeople) {
  // the plans in pesos, for the demo's simulated Mercado Pago (the Admin changes them in 'Precios en pesos')
  await tx
    .insert(planPrices)
    .values([
      { plan: 'monthly', currency: 'MXN', amountCents: 17_900 },
      { plan: 'annual', currency: 'MXN', amountCents: 179_900 },
    ])
    .onConflictDoNothing();
  // the premium demo's subscription, as the simulated provider would have left it
  const premiumPaidAt = req(premium.paymentDay ?? undefined, 'premium payment day');
  await tx.insert(paymentSubscriptions).values({
    userId: premium.id,
    provider: 'simulado',
    providerSubscriptionId: 'DEMO-SUB',
    plan: 'monthly',
    state: 'ACTIVA',
    createdAt: premiumPaidAt,
    updatedAt: premiumPaidAt,
  });
  // and the simulated provider's own record of it, so the demo member can downgrade and reactivate
  await tx
    .insert(simulatedProviderRecords)
    .values(
      paidSimulatedSubscription({
        id: 'DEMO-SUB',
        plan: 'monthly',
        customId: premium.id,
        paymentId: 'DEMO-SUB-PAGO-1',
        paidAt: premiumPaidAt,
      }),
    )
    .onConflictDoNothing();
  await tx.insert(payments).values({
    userId: premium.id,
    provider: 'simulado',
    providerPaymentId: 'DEMO-SUB-PAGO-1',
    kind: 'subscription',
    result: 'COMPLETADO',
    amountCents: planPriceCents.monthly,
    currency: 'USD',
    description: 'Membresía Premium mensual',
    occurredAt: premiumPaidAt,
  });
}
