import { z } from 'zod';
import { messages } from '../messages.ts';
import { fileKey, optionalFileKey, requiredText } from '../records.schemas.ts';
import { organizationTypes } from './organizations.rules.ts';

export const organizationInputSchema = z
  .object({
    title: requiredText(messages.fieldRequired, 300),
    type: z.enum(organizationTypes, { error: messages.fieldRequired }),
    logoImage: fileKey(messages.logoRequired),
    promoImage: optionalFileKey,
    promoLink: z.string().trim().max(2000).nullable(),
  })
  .superRefine(
    (value, ctx) => {
      if (value.type !== 'Empresa') return;
      if (!value.promoImage) ctx.addIssue({ code: 'custom', path: ['promoImage'], message: messages.promoRequired });
      if (!value.promoLink) ctx.addIssue({ code: 'custom', path: ['promoLink'], message: messages.fieldRequired });
    },
    // also when other fields fail, so every bad field shows at once; but only on an object (a null body is a plain 400)
    {
      when: (payload: { value: unknown }) =>
        typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
    } as never,
  );
export type OrganizationInput = z.infer<typeof organizationInputSchema>;

export const adminOrganizationSchema = z.object({
  id: z.string(),
  title: z.string(),
  type: z.enum(organizationTypes),
  logoImage: z.string().nullable(),
  promoImage: z.string().nullable(),
  promoLink: z.string().nullable(),
});
export type AdminOrganization = z.infer<typeof adminOrganizationSchema>;
export const adminOrganizationListSchema = z.object({ items: z.array(adminOrganizationSchema) });
