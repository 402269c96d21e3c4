import { z } from 'zod';
import { messages } from '../messages.ts';
import { recordId, requiredText } from '../records.schemas.ts';

const httpUrl = z
  .string({ error: messages.fieldRequired })
  .trim()
  .min(1, messages.fieldRequired)
  .max(2000)
  .refine((value) => /^https?:\/\/[^\s]+$/.test(value) && URL.canParse(value), 'Escribe una URL completa (https://…)');

export const ltiPlatformInputSchema = z.object({
  name: requiredText(messages.fieldRequired, 200),
  issuer: httpUrl,
  clientId: requiredText(messages.fieldRequired, 500),
  deploymentIds: z.array(requiredText(messages.fieldRequired, 500)).min(1, 'Al menos un despliegue').max(50),
  authorizationUrl: httpUrl,
  tokenUrl: httpUrl,
  jwksUrl: httpUrl,
  organizationId: recordId,
});
export type LtiPlatformInput = z.infer<typeof ltiPlatformInputSchema>;

/** A one-time URL for LTI Dynamic Registration ('Registrar por URL' in Moodle or Canvas), for one organization. */
export const ltiRegistrationInputSchema = z.object({ organizationId: recordId });
export type LtiRegistrationInput = z.infer<typeof ltiRegistrationInputSchema>;
export const ltiRegistrationUrlSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type LtiRegistrationUrl = z.infer<typeof ltiRegistrationUrlSchema>;

export const ltiPlatformSchema = ltiPlatformInputSchema.extend({
  id: z.string(),
  organizationTitle: z.string(),
});
export type LtiPlatform = z.infer<typeof ltiPlatformSchema>;

const ltiToolSchema = z.object({
  jwksUrl: z.string(),
  loginUrl: z.string(),
  launchUrl: z.string(),
  deepLinkingUrl: z.string(),
  jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
});
export type LtiTool = z.infer<typeof ltiToolSchema>;

export const ltiConsoleSchema = z.object({ tool: ltiToolSchema, items: z.array(ltiPlatformSchema) });
export type LtiConsole = z.infer<typeof ltiConsoleSchema>;

const ltiScoreSchema = z.object({
  id: z.string(),
  platformName: z.string(),
  contextTitle: z.string().nullable(),
  userName: z.string(),
  scoreGiven: z.number(),
  scoreMaximum: z.number(),
  status: z.enum(['pendiente', 'enviada', 'fallida']),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export const ltiScoreListSchema = z.object({ items: z.array(ltiScoreSchema) });
export type LtiScore = z.infer<typeof ltiScoreSchema>;
