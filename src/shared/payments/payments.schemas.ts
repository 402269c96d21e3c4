import { z } from 'zod';
import { paymentKinds, paymentProviders, paymentResults, plans } from './payments.rules.ts';

export const paymentsConfigSchema = z.object({
  provider: z.enum(['simulado', 'paypal']),
  /** Names the provider in titles, e.g. the subscription-creation error. */
  providerName: z.string(),
  prices: z.object({ monthly: z.number().int(), annual: z.number().int() }),
  /** The one-time methods in pesos (Mercado Pago): empty when it is not configured. */
  pesosMethods: z.array(z.enum(['oxxo', 'clabe'])),
  /** The plans' prices in pesos for a card subscription (Mercado Pago); null for a plan not sold in pesos. */
  pesosPlans: z.object({ monthly: z.number().int().nullable(), annual: z.number().int().nullable() }),
});
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

/** Where the provider sends the browser back: the sign-up finish screen or the profile. */
const checkoutReturnTargets = ['signup', 'profile'] as const;

export const startSubscriptionSchema = z.object({
  plan: z.enum(plans),
  returnTo: z.enum(checkoutReturnTargets).default('profile'),
});

export const startSubscriptionResponseSchema = z.object({
  subscriptionId: z.string(),
  approvalUrl: z.string(),
});

export const confirmSubscriptionResponseSchema = z.object({
  /** ACTIVA once the provider confirms payment; anything else grants nothing. */
  state: z.string(),
  isPremium: z.boolean(),
});

const paymentRecordSchema = z.object({
  id: z.string(),
  provider: z.enum(paymentProviders),
  kind: z.enum(paymentKinds),
  result: z.enum(paymentResults),
  amountCents: z.number().int(),
  currency: z.string(),
  description: z.string(),
  occurredAt: z.string(),
});
export type PaymentRecord = z.infer<typeof paymentRecordSchema>;

export const paymentHistoryResponseSchema = z.object({ payments: z.array(paymentRecordSchema) });

/** Formats integer cents as the spec's prices: 9.99 USD. */
// defined with the rules so that browser code can use it without loading zod
export { formatUsd } from './payments.rules.ts';
