import { z } from 'zod';
import {
  cancellationMotiveKeys,
  cfdiUseFits,
  cfdiUseKeys,
  genericRfcs,
  normalizeRfc,
  rfcKind,
  taxSystemFits,
  taxSystemKeys,
} from './fiscal.rules.ts';

/**
 * A receiver's fiscal data as the member writes it (Constancia de Situación Fiscal). Each rule's message goes
 * under its own field: the RFC's pattern, the régimen for that kind of RFC, the uso for that régimen.
 */
export const fiscalDataSchema = z
  .object({
    rfc: z
      .string()
      .max(20, 'El RFC tiene 12 caracteres (persona moral) o 13 (persona física).')
      .transform(normalizeRfc)
      .refine((rfc) => rfcKind(rfc) !== null, 'El RFC no es válido: revisa letras, fecha y homoclave.')
      .refine(
        (rfc) => !(genericRfcs as readonly string[]).includes(rfc),
        'Escribe tu propio RFC, no el genérico de público en general.',
      ),
    legalName: z
      .string()
      .trim()
      .min(1, 'Escribe la razón social o el nombre como aparece en la Constancia de Situación Fiscal.')
      .max(300, 'La razón social tiene como máximo 300 caracteres.'),
    taxSystem: z.enum(taxSystemKeys, { error: 'Elige un régimen fiscal.' }),
    cfdiUse: z.enum(cfdiUseKeys, { error: 'Elige un uso de CFDI.' }),
    zip: z
      .string()
      .trim()
      .regex(/^\d{5}$/, 'El código postal fiscal tiene cinco dígitos.'),
  })
  .superRefine((data, ctx) => {
    const kind = rfcKind(data.rfc);
    if (kind && !taxSystemFits(data.taxSystem, kind))
      ctx.addIssue({
        code: 'custom',
        path: ['taxSystem'],
        message:
          kind === 'fisica'
            ? 'Ese régimen fiscal es de personas morales; tu RFC es de persona física.'
            : 'Ese régimen fiscal es de personas físicas; tu RFC es de persona moral.',
      });
    else if (!cfdiUseFits(data.cfdiUse, data.taxSystem))
      ctx.addIssue({
        code: 'custom',
        path: ['cfdiUse'],
        message: 'Ese uso de CFDI no corresponde a tu régimen fiscal.',
      });
  });
export type FiscalData = z.infer<typeof fiscalDataSchema>;

/**
 * The Admin's factura to any RFC; for a payment in dollars also the exchange rate of its day (pesos per dollar,
 * CFDI 4.0's TipoCambio: positive, at most six decimals), which the server requires for that payment only.
 */
export const adminFacturaSchema = fiscalDataSchema.and(
  z.object({
    exchange: z
      .number({ error: 'Escribe el tipo de cambio en pesos por dólar.' })
      .positive('El tipo de cambio es mayor que cero.')
      .max(1000, 'Revisa el tipo de cambio: son pesos por un dólar.')
      .refine((value) => Math.round(value * 1e6) / 1e6 === value, 'El tipo de cambio tiene hasta seis decimales.')
      .optional(),
  }),
);
export type AdminFacturaData = z.infer<typeof adminFacturaSchema>;

export const cancelFacturaSchema = z.object({
  motive: z.enum(cancellationMotiveKeys, { error: 'Elige un motivo de cancelación del SAT (01 a 04).' }),
});

/** What the member's history says about a payment's factura. */
const facturaStates = [
  'no_disponible',
  'en_proceso',
  'solicitable',
  'emitida',
  'cancelacion_pendiente',
  'cancelacion_rechazada',
  'cancelada',
  'global',
] as const;
const facturaSummarySchema = z.object({
  state: z.enum(facturaStates),
  selfInvoiceUrl: z.string().nullable(),
  rfc: z.string().nullable(),
});
export type FacturaSummary = z.infer<typeof facturaSummarySchema>;

/** What the member sees of a nota de crédito (CFDI de egreso) of a partial refund. */
const creditNoteStates = ['en_proceso', 'emitida', 'cancelacion_pendiente', 'cancelada'] as const;
const creditNoteSchema = z.object({
  id: z.string(),
  amountCents: z.number().int(),
  state: z.enum(creditNoteStates),
});
export type CreditNoteSummary = z.infer<typeof creditNoteSchema>;

/**
 * One payment's factura as its owner sees it, with the last refusal's reason (bad data at the SAT), if any, and
 * the notas de crédito of its partial refunds.
 */
export const myFacturaSchema = facturaSummarySchema.extend({
  paymentId: z.string(),
  error: z.string().nullable(),
  creditNotes: z.array(creditNoteSchema),
});

/** The member's facturas: whether invoicing is connected, the fiscal data kept, one entry per payment. */
export const myFacturasSchema = z.object({
  available: z.boolean(),
  fiscalData: z
    .object({ rfc: z.string(), legalName: z.string(), taxSystem: z.string(), cfdiUse: z.string(), zip: z.string() })
    .nullable(),
  payments: z.array(myFacturaSchema),
});
