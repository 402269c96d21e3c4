import { z } from 'zod';
import { newAccountMembership } from '../membership/membership.rules.ts';
import { accountTypes, minPasswordLength } from './accounts.rules.ts';
import { messages } from '../messages.ts';
import { consoleListQuerySchema, queryFlag } from '../records.schemas.ts';

export const adminUsersPageSize = 12;
const adminUserSortFields = ['name', 'email', 'phoneNumber', 'type', 'createdAt'] as const;

export const adminUsersQuerySchema = consoleListQuerySchema(adminUserSortFields, {
  sort: 'createdAt',
  dir: 'desc',
}).extend({ manualOnly: queryFlag });
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

const adminUserRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  type: z.enum(accountTypes),
  annualPlan: z.boolean(),
  isManualPremium: z.boolean(),
  createdAt: z.string(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUsersPageSchema = z.object({
  items: z.array(adminUserRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const adminUserSchema = adminUserRowSchema.extend({
  homeUniversity: z.string().nullable(),
  organizationId: z.string().nullable(),
  country: z.string(),
  city: z.string(),
  paymentStatus: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

const optionalText = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((value) => (value ? value : null));

/** The admin user form (spec 2: no validation shown; we still refuse what would break an account). */
export const adminUserInputSchema = z.object({
  name: z.string().trim().min(1, messages.requiredDot).max(200),
  email: z.string().trim().min(1, messages.requiredDot).max(254).pipe(z.email(messages.invalidEmail)),
  password: z
    .string()
    .max(128)
    .optional()
    .refine((value) => !value || value.length >= minPasswordLength, messages.passwordTooShort),
  phoneNumber: z.string().trim().max(30).default(''),
  homeUniversity: optionalText,
  organizationId: z.uuid().nullable().default(null),
});
export type AdminUserInput = z.input<typeof adminUserInputSchema>;

/** Spec 2 §4: what an administrator-created account starts with. */
export const adminCreatedUserDefaults = {
  ...newAccountMembership,
  country: 'México',
  city: 'México',
  promoMail: false,
  newsMail: false,
} as const;
