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
