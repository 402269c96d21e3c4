import { z } from 'zod';

/** The one-time methods paid outside a card: cash at OXXO, a SPEI transfer ('clabe' in Mercado Pago's words). */
const offlineMethods = ['oxxo', 'clabe'] as const;

export const startOfflinePaymentSchema = z.object({ method: z.enum(offlineMethods) });

/** What our page shows for a pending OXXO or SPEI payment: 'Paga en OXXO antes del …' or the CLABE. */
export const offlinePaymentSchema = z.object({
  paymentId: z.string(),
  method: z.enum(offlineMethods),
  amountCents: z.number().int(),
  expiresAt: z.string(),
  instructionsUrl: z.string().nullable(),
  clabe: z.string().nullable(),
});
export type OfflinePayment = z.infer<typeof offlinePaymentSchema>;

export const notificationResponseSchema = z.object({
  received: z.literal(true),
  outcome: z.enum(['stored', 'duplicate']),
});

/** Checkout Pro's page for a one-time card payment in pesos: the member pays there and comes back. */
export const cardCheckoutSchema = z.object({ approvalUrl: z.string() });
export type CardCheckout = z.infer<typeof cardCheckoutSchema>;

/** Back from Checkout Pro: the payment id in the URL is only a hint, read back before anything is applied. */
export const confirmCardCheckoutSchema = z.object({ paymentId: z.string().trim().min(1).max(64) });
export const cardCheckoutStatusSchema = z.object({ status: z.enum(['COMPLETED', 'PENDING', 'DENIED']) });
export type CardCheckoutStatus = z.infer<typeof cardCheckoutStatusSchema>['status'];
