import { z } from 'zod';
import { messages } from '#shared/messages.ts';

/** A price in pesos as the console writes it ('199.00'); empty: not sold in pesos. */
const optionalPrice = z
  .string()
  .trim()
  .regex(/^(\d{1,6}(\.\d{1,2})?)?$/, messages.invalidCost)
  .refine((value) => value === '' || Number(value) > 0, messages.invalidCost);

/** The Admin's MXN prices of the plans (USD stays as the specs say). */
export const mxnPlanPricesSchema = z.object({ monthly: optionalPrice, annual: optionalPrice });
export type MxnPlanPrices = z.infer<typeof mxnPlanPricesSchema>;
