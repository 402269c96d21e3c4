import { z } from 'zod';
import { accountTypes, paymentStatuses } from '../accounts/accounts.rules.ts';

export const membershipSchema = z.object({
  type: z.enum(accountTypes),
  paymentStatus: z.enum(paymentStatuses),
  annualPlan: z.boolean(),
  paymentDay: z.string().nullable(),
  /** null when paymentDay is 'Sin cobro' or nothing is billed. */
  nextPaymentDate: z.string().nullable(),
  /** When a downgrade, a Legacy membership or a manual Premium ends. */
  terminationDate: z.string().nullable(),
  isManual: z.boolean(),
  /** A 'Premium anual (pago único)' pass: it ends on terminationDate and is not renewed. */
  isPrepaid: z.boolean(),
  hasPremiumAccess: z.boolean(),
  paymentFailed: z.boolean(),
  canDowngrade: z.boolean(),
  canReactivate: z.boolean(),
  canUpgrade: z.boolean(),
});
export type Membership = z.infer<typeof membershipSchema>;

export const membershipResponseSchema = z.object({ membership: membershipSchema });

export const membershipCheckResponseSchema = z.object({ changed: z.boolean() });
