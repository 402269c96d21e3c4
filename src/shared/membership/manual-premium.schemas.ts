import { z } from 'zod';
import { messages } from '../messages.ts';

/** subscriptionId of a Premium granted by hand (spec 2 §3). */

export const manualPremiumPeriods = ['month', 'year'] as const;
export type ManualPremiumPeriod = (typeof manualPremiumPeriods)[number];
export const manualPremiumPeriodLabels: Record<ManualPremiumPeriod, string> = { month: '1 Mes', year: '1 Año' };

const manualPremiumRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  plan: z.enum(['Anual', 'Mensual']),
  paymentDay: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type ManualPremiumRow = z.infer<typeof manualPremiumRowSchema>;

export const manualPremiumListSchema = z.object({ users: z.array(manualPremiumRowSchema) });

export const manualPremiumUpgradeSchema = z.object({
  userId: z.string().min(1, messages.requiredDot),
  period: z.enum(manualPremiumPeriods),
});
export const manualPremiumDowngradeSchema = z.object({ userId: z.string().min(1, messages.requiredDot) });

export const userPickSchema = z.object({
  users: z.array(z.object({ id: z.string(), name: z.string(), email: z.string() })),
});

/** Spec 3 §8 success texts. */
export const manualPremiumMessages = {
  upgraded: (period: ManualPremiumPeriod) =>
    `Este usuario se actualizó con éxito manualmente a Premium durante ${period === 'month' ? '1 mes' : '1 año'}.`,
  downgraded: 'Premium se eliminó correctamente de este usuario.',
  failed: 'Ha ocurrido un error. Por favor intenta de nuevo.',
} as const;
