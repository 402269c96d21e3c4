import { z } from 'zod';
import { analyticsCategories } from './analytics.rules.ts';

export const statisticsQuerySchema = z.object({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  category: z.enum(analyticsCategories).optional(),
});

const statisticsRowSchema = z.object({
  label: z.string(),
  total: z.number().int(),
  byUserType: z.record(z.string(), z.number().int()),
});

export const statisticsSchema = z.object({
  users: z.object({
    total: z.number().int(),
    gratis: z.number().int(),
    premium: z.number().int(),
    premiumAnnual: z.number().int(),
    /** Spec 2 §9: Premium monthly = Premium − annual. */
    premiumMonthly: z.number().int(),
    legacy: z.number().int(),
    admin: z.number().int(),
  }),
  tables: z.object({
    VIDEOS: z.array(statisticsRowSchema),
    FASCICULOS: z.array(statisticsRowSchema),
    DIPLOMADO_PREVIEW_PAGE: z.array(statisticsRowSchema),
  }),
  topCountries: z.array(z.object({ country: z.string(), users: z.number().int() })),
});
export type Statistics = z.infer<typeof statisticsSchema>;
export const topCountriesLimit = 20;
