import { z } from 'zod';
import { isValidPhoneNumber } from 'libphonenumber-js';
import { messages } from '../messages.ts';
import { minPasswordLength } from './accounts.rules.ts';
import { isCountry } from './countries.ts';

/** Step 1 choices: Basic, Premium monthly, Premium annual. */
const signUpPlans = ['basic', 'monthly', 'annual'] as const;
export type SignUpPlan = (typeof signUpPlans)[number];

const text = () => z.string({ error: messages.required });
const requiredText = (max = 120) => text().trim().min(1, messages.required).max(max);

/** Required, then a standard e-mail pattern. */
const signUpEmailField = text()
  .trim()
  .min(1, messages.required)
  .pipe(z.email(messages.invalidEmail).max(254, messages.invalidEmail));

const phoneField = text()
  .trim()
  .min(1, messages.required)
  .refine((value) => isValidPhoneNumber(value), messages.invalidPhone);

const newPasswordField = text()
  .min(1, messages.required)
  .min(minPasswordLength, messages.passwordTooShort)
  .max(128, messages.passwordTooShort);

/** Personal data the sign-up and profile forms share (spec 1 §5). */
const personalInfoShape = {
  name: requiredText(),
  email: signUpEmailField,
  phoneNumber: phoneField,
  country: text().refine(isCountry, messages.required),
  city: requiredText(),
  homeUniversity: z.string().trim().max(200).default(''),
  organizationId: z.uuid().nullable().default(null),
  promoMail: z.boolean().default(false),
  newsMail: z.boolean().default(false),
};

const sameText = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Confirmation fields: checked even while other fields are wrong, so every message shows at once. */
function confirmations(data: Record<string, unknown>, ctx: z.RefinementCtx) {
  const filled = (key: string) => typeof data[key] === 'string' && (data[key] as string).trim() !== '';
  if (filled('confirmEmail') && !sameText(data.email, data.confirmEmail)) {
    ctx.addIssue({ code: 'custom', path: ['confirmEmail'], message: messages.emailsDiffer });
  }
  if (filled('confirmPhoneNumber') && !sameText(data.phoneNumber, data.confirmPhoneNumber)) {
    ctx.addIssue({ code: 'custom', path: ['confirmPhoneNumber'], message: messages.phonesDiffer });
  }
  if (filled('confirmPassword') && data.password !== data.confirmPassword) {
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: messages.passwordsDiffer });
  }
}

/** Spec 1 §5 sign-up rules; the browser and the server validate with this one schema. */
export const signUpSchema = z
  .object({
    plan: z.enum(signUpPlans, { error: messages.selectValue }),
    ...personalInfoShape,
    confirmEmail: requiredText(254),
    confirmPhoneNumber: requiredText(40),
    password: newPasswordField,
    confirmPassword: text().min(1, messages.required),
    terms: z.boolean({ error: messages.termsRequired }).refine((accepted) => accepted, messages.termsRequired),
  })
  .superRefine(confirmations);
export type SignUpInput = z.input<typeof signUpSchema>;
export type SignUpData = z.output<typeof signUpSchema>;

/** What /registro-finalizar needs (spec 1 §2: uid, planAnual, email, userName, paymentType, type). */
export const signUpResponseSchema = z.object({
  uid: z.string(),
  planAnual: z.boolean(),
  email: z.string(),
  userName: z.string(),
  paymentType: z.enum(signUpPlans),
  type: z.enum(['Gratis', 'Premium']),
});
export type SignUpResponse = z.infer<typeof signUpResponseSchema>;

export const emailAvailableQuerySchema = z.object({ email: z.string().trim().max(254) });
export const emailAvailableResponseSchema = z.object({ available: z.boolean() });

export const universitySuggestionsQuerySchema = z.object({ q: z.string().trim().max(100).default('') });
const universitySuggestionSchema = z.object({ name: z.string(), organizationId: z.string().nullable() });
export const universitySuggestionsResponseSchema = z.object({ universities: z.array(universitySuggestionSchema) });
export type UniversitySuggestion = z.infer<typeof universitySuggestionSchema>;

/** Profile edit (spec 1 §5): personal data required; a new password is optional but ≥ 6. */
export const profileUpdateSchema = z
  .object({
    ...personalInfoShape,
    password: z
      .string()
      .max(128, messages.passwordTooShort)
      .refine((value) => value === '' || value.length >= minPasswordLength, messages.passwordTooShort)
      .default(''),
    confirmPassword: z.string().default(''),
  })
  .superRefine((data, ctx) => {
    if (data.password !== '' && data.password !== data.confirmPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: messages.passwordsDiffer });
    }
  });
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;
