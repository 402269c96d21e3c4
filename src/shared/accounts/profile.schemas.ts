import { z } from 'zod';
import { membershipSchema } from '../membership/membership.schemas.ts';

export const profileSchema = z.object({
  personal: z.object({
    name: z.string(),
    email: z.string(),
    phoneNumber: z.string(),
    /** the number written for people ('+52 55 1234 5678'): the page needs no phone metadata of its own */
    phoneNumberDisplay: z.string(),
    country: z.string(),
    city: z.string(),
    homeUniversity: z.string(),
    organizationId: z.string().nullable(),
    organizationTitle: z.string().nullable(),
    userNumber: z.number().int().nullable(),
    createdAt: z.string(),
  }),
  preferences: z.object({ promoMail: z.boolean(), newsMail: z.boolean() }),
  membership: membershipSchema,
  /** Completed diplomas with their certificate, for members with Premium access. */
  certificates: z.array(z.object({ diplomaId: z.string(), name: z.string(), folio: z.string(), issuedAt: z.string() })),
});
export type Profile = z.infer<typeof profileSchema>;
