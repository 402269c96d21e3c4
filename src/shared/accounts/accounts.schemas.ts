import { z } from 'zod';
import { messages } from '../messages.ts';
import { accountTypes, paymentStatuses } from './accounts.rules.ts';

const requiredText = (message: string = messages.required) => z.string().trim().min(1, message);

export const loginSchema = z.object({
  email: requiredText(),
  password: z.string().min(1, messages.required),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const currentUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  type: z.enum(accountTypes),
  paymentStatus: z.enum(paymentStatuses),
  annualPlan: z.boolean(),
  paymentDay: z.string().nullable(),
  terminationDate: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  country: z.string(),
  city: z.string(),
  phoneNumber: z.string(),
  hasPremiumAccess: z.boolean(),
  isClassroomAdmin: z.boolean(),
  isDiplomaAdmin: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const meResponseSchema = z.object({ user: currentUserSchema.nullable() });
export type MeResponse = z.infer<typeof meResponseSchema>;
