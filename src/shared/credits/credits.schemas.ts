import { z } from 'zod';
import { messages } from '../messages.ts';
import {
  creditCategories,
  creditMessages,
  deliveryMethods,
  evaluationStatements,
  parseHours,
} from './credits.rules.ts';

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const dateText = (message: string) =>
  z
    .string({ error: message })
    .regex(datePattern, message)
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), message);

/** A body's name and its approval number; an empty number under a named body is its own message. */
const creditBodySchema = z
  .object({
    name: z.string().trim().max(120),
    approvalNumber: z.string().trim().max(60),
  })
  .superRefine((body, context) => {
    if (!body.name) context.addIssue({ code: 'custom', path: ['name'], message: creditMessages.bodyName });
    if (!body.approvalNumber)
      context.addIssue({ code: 'custom', path: ['approvalNumber'], message: creditMessages.approvalNumber });
  });

/** The validity check runs even when other fields failed (every bad field shows at once), once both dates parsed. */
const whenDatesParsed = {
  when: (payload: { issues: { path?: PropertyKey[] }[] }) =>
    !payload.issues.some((issue) => !issue.path?.length || ['validFrom', 'validUntil'].includes(String(issue.path[0]))),
} as never;

/** The console's 'Educación continua' form; hours travel as the text typed. */
export const creditOfferInputSchema = z
  .object({
    hours: z
      .string({ error: creditMessages.hours })
      .refine((value) => parseHours(value) !== null, creditMessages.hours),
    category: z.enum(creditCategories, { error: messages.fieldRequired }),
    deliveryMethod: z.enum(deliveryMethods, { error: messages.fieldRequired }),
    bodies: z.array(creditBodySchema).min(1, creditMessages.bodies).max(10),
    validFrom: dateText(creditMessages.date),
    validUntil: dateText(creditMessages.date),
  })
  .refine((input) => input.validUntil >= input.validFrom, {
    path: ['validUntil'],
    message: creditMessages.validity,
    ...(whenDatesParsed as object),
  });
export type CreditOfferInput = z.infer<typeof creditOfferInputSchema>;

export const creditOfferResponseSchema = z.object({ offer: creditOfferInputSchema.nullable() });

// ---------- the member's course evaluation ----------

export const evaluationInputSchema = z.object({
  answers: z
    .array(z.int().min(1).max(5), { error: creditMessages.answers })
    .length(evaluationStatements.length, creditMessages.answers),
  comment: z.string().trim().max(2000).default(''),
});
export type EvaluationInput = z.input<typeof evaluationInputSchema>;

const offerSummarySchema = z.object({
  hours: z.number(),
  category: z.enum(creditCategories),
  deliveryMethod: z.enum(deliveryMethods),
  bodies: z.array(creditBodySchema),
  validFrom: z.string(),
  validUntil: z.string(),
});

export const evaluationStateSchema = z.object({
  offer: offerSummarySchema.nullable(),
  /** The evaluation opens once the diploma's content is complete. */
  canAnswer: z.boolean(),
  sentAt: z.string().nullable(),
  credit: z.object({ id: z.string(), earnedAt: z.string(), hours: z.number() }).nullable(),
});
export type EvaluationState = z.infer<typeof evaluationStateSchema>;

// ---------- 'Mis créditos' ----------

const creditItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  hours: z.number(),
  category: z.enum(creditCategories),
  deliveryMethod: z.enum(deliveryMethods),
  bodies: z.array(creditBodySchema),
  startedAt: z.string(),
  earnedAt: z.string(),
  watchedPercent: z.number(),
  exams: z.array(z.object({ title: z.string(), scorePercent: z.number() })),
  evaluationSentAt: z.string(),
  folio: z.string().nullable(),
  verificationCode: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type CreditItem = z.infer<typeof creditItemSchema>;

const hoursByBodySchema = z.array(z.object({ body: z.string(), hours: z.number() }));

export const myCreditsSchema = z.object({
  licenceNumber: z.string(),
  items: z.array(creditItemSchema),
  byBody: hoursByBodySchema,
  byYear: z.array(z.object({ year: z.number(), hours: z.number(), byBody: hoursByBodySchema })),
});
export type MyCredits = z.infer<typeof myCreditsSchema>;

export const licenceInputSchema = z.object({
  licenceNumber: z
    .string()
    .trim()
    .max(30, creditMessages.licence)
    .regex(/^[\p{L}\p{N} -]*$/u, creditMessages.licence),
});
export type LicenceInput = z.infer<typeof licenceInputSchema>;

export const creditParamsSchema = z.object({ creditId: z.uuid() });
/** A catalogue procedure whose credit is offered, evaluated or exported (decision 049). */
export const procedureCreditParamsSchema = z.object({ id: z.uuid() });
export const transcriptParamsSchema = z.object({ year: z.coerce.number().int().min(2000).max(2100) });

// ---------- console ----------

export const revokeCreditInputSchema = z.object({
  reason: z.string().trim().min(3, creditMessages.reason).max(500),
  revokedOn: dateText(creditMessages.date),
});
export type RevokeCreditInput = z.infer<typeof revokeCreditInputSchema>;

const adminCreditRowSchema = z.object({
  id: z.string(),
  holderName: z.string(),
  licenceNumber: z.string(),
  hours: z.number(),
  earnedAt: z.string(),
  folio: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokeReason: z.string().nullable(),
});
export const adminCreditListSchema = z.object({ items: z.array(adminCreditRowSchema) });
export type AdminCreditRow = z.infer<typeof adminCreditRowSchema>;

export const creditRecordsQuerySchema = z
  .object({ from: dateText(creditMessages.date), to: dateText(creditMessages.date) })
  .refine((query) => query.to >= query.from, { path: ['to'], message: creditMessages.validity });
